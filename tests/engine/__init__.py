"""Tests of the rules engine: pure Python, no Flask app, no fixtures."""
