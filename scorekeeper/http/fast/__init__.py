"""The fast path: everything beyond plain Flask that makes the busiest reads cheap.

- ``ahead``: the layer ahead of Flask answering unchanged polls, kept game pages and the
  API's kept game documents;
- ``rows``: rows of a game page kept once made;
- ``sessions``: the session cookie's signer made once, not per request;
- ``memory``: the in-process cache as cachetools' LRU behind Flask-Caching;
- ``application``: Flask asking once per function whether it is a coroutine.

docs/performance.md says what each does, why, and what it saves.
"""
