"""The HTTP layer both the API and the pages stand on, and what runs for the whole app.

Below ``api`` and ``web``, above ``store`` and ``engine``: it imports neither of the two
above it (tests/test_layers.py checks every import).

- ``cache``: the page cache, its keys (version, rights, language, address) and ETags;
- ``languages``: which language a request is answered in;
- ``keyring``: what a browser holds in its session (edit tokens, the places it opened);
- ``sessions``: the session cookie, read and written only when there is one or a view uses it;
- ``devices``: the label of the device behind a change;
- ``params``: whole numbers read from queries, forms and headers;
- ``bodies``: request bodies over their limit refused with 413;
- ``ratelimits``: how fast one address may create, one token change;
- ``security``: the security headers of every answer;
- ``mount``: a request for another mount prefix or scheme refused before anything reads it;
- ``hangups``: a live stream let go the moment its client hangs up;
- ``htmx``: a fragment or a whole page, the one place that reads htmx's headers;
- ``assets``: the static files under content-hashed names, precompressed, served ahead of
  Flask.
"""

API_PREFIX = "/api"
"""Every address under this answers in the API's shape, errors included."""

API_V1 = f"{API_PREFIX}/v1"
"""Where version 1 of the API is served (docs/api.md)."""
