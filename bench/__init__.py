"""The scale benchmark (`python -m bench`) and its generator of valid random games."""
