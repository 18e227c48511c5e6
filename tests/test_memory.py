"""The in-process cache of pages and rows (scorekeeper/http/fast/memory.py): least recently used out
first, entries gone after their time, and Flask-Caching's calls all answered."""

from __future__ import annotations

import threading

import pytest

from scorekeeper.extensions import cache, row_cache
from scorekeeper.http.fast.memory import MemoryCache


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


def test_a_full_cache_drops_the_entry_used_least_recently(clock):
    kept = MemoryCache(threshold=3, default_timeout=60, timer=clock)
    for key in "abc":
        kept.set(key, key.upper())
    assert kept.get("a") == "A"  # "a" is now the most recently used
    kept.set("d", "D")
    assert set(kept.kept_keys()) == {"a", "c", "d"}
    assert kept.get("b") is None
    assert len(kept) == 3


def test_an_entry_is_gone_after_its_time_and_a_timeout_of_zero_keeps_it(clock):
    kept = MemoryCache(threshold=10, default_timeout=60, timer=clock)
    kept.set("page", b"<html>")
    kept.set("short", 1, timeout=5)
    kept.set("always", 2, timeout=0)
    clock.now += 5
    assert kept.get("short") is None and not kept.has("short")
    assert kept.get("page") == b"<html>"
    clock.now += 55
    assert kept.get("page") is None
    clock.now += 10**9
    assert kept.get("always") == 2
    assert kept.kept_keys() == ["always"]


def test_expired_entries_leave_room_before_any_live_one_is_dropped(clock):
    kept = MemoryCache(threshold=2, default_timeout=60, timer=clock)
    kept.set("old", 1, timeout=1)
    kept.set("live", 2)
    clock.now += 2
    kept.set("new", 3)
    assert set(kept.kept_keys()) == {"live", "new"}


def test_add_has_delete_clear_and_many(clock):
    kept = MemoryCache(threshold=10, default_timeout=60, timer=clock)
    assert kept.add("k", 1) is True
    assert kept.add("k", 2) is False and kept.get("k") == 1
    assert kept.has("k") and kept.delete("k") and not kept.delete("k")
    assert kept.set_many({"a": 1, "b": 2}) == ["a", "b"]
    assert kept.get_many("a", "b", "c") == [1, 2, None]
    assert kept.set("gone", 1, timeout=-1) and not kept.has("gone")
    assert kept.clear() and kept.kept_keys() == []


def test_values_are_kept_as_they_are_not_copied(clock):
    kept = MemoryCache(threshold=10, default_timeout=60, timer=clock)
    page = {"body": b"x" * 40_000, "headers": [("Content-Type", "text/html")]}
    kept.set("page", page)
    assert kept.get("page") is page


def test_threads_may_share_it():
    kept = MemoryCache(threshold=500, default_timeout=60)

    def work(n):
        for i in range(2000):
            kept.set(f"{n}-{i}", i)
            kept.get(f"{n}-{i // 2}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(kept) == 500


def test_the_app_keeps_pages_and_rows_in_it_by_default(app):
    with app.app_context():
        pages, rows = cache.cache, row_cache.cache
    assert isinstance(pages, MemoryCache) and isinstance(rows, MemoryCache)
    assert pages._entries.maxsize == app.config["CACHE_THRESHOLD"]
    assert rows._entries.maxsize >= 30_000
    assert pages.default_timeout == app.config["CACHE_DEFAULT_TIMEOUT"]
