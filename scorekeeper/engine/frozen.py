"""Read-only, hashable containers for the values the engine hands out."""

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """A mapping that cannot change after it is made, and so can be hashed."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Mapping[K, V] | None = None, /, **kwargs: V) -> None:
        data: dict[Any, V] = dict(items or {})
        data.update(kwargs)
        self._items = data
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._items) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


def freeze(value: Any) -> Any:
    """Return a deep read-only copy: dicts become FrozenMaps, lists become tuples."""
    if isinstance(value, Mapping):
        return FrozenMap({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Return plain JSON values: mappings become dicts, tuples become lists."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


EMPTY: FrozenMap[Any, Any] = FrozenMap()
"""The empty read-only mapping, for defaults."""
