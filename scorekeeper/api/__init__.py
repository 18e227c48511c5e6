"""The JSON API, version 1: ``games`` (games, deals, rulesets), ``tables``, and ``errors``.

Every answer is JSON, errors included, in one shape (see docs/api.md and docs/tables.md).
"""
