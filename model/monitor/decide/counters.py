"""Usage counters ``u_P``/``u_A`` with structural sharing (Agenra Section 6.1's counter vectors), so that
a mediated call costs nearly the same on a policy of 10 and of 10,000 grants.

A ``State`` is immutable, so each commit makes new counter vectors. As plain tuples that is a copy of one
integer per grant on both lists, which dominated a mediated call on large policies. ``Counters`` is a
persistent vector of naturals: a shared ``base`` tuple (or none: all zero) plus a small ``delta`` mapping
of the positions charged since; ``charged`` copies only the delta (``O(changed)``) and shares the base.

Choices where nothing prescribes one:
- The delta is folded into a fresh base once it holds more than ``max(32, isqrt(n))`` positions, so a run
  that charges many distinct grants costs ``O(sqrt n)`` amortized per commit and lookups stay two probes.
- A ``Counters`` *is* its sequence of values: it equals (and hashes like) the tuple of the same integers,
  so states built with tuples (the search, the oracle, tests) and with ``Counters`` (the ``Adapter``)
  compare as before. ``initial_state`` keeps tuples; only the ``Adapter`` uses ``Counters``, and only for
  lists longer than ``SHARED_FROM`` (indexing a tuple in C beats a method call on short lists).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import isqrt
from typing import overload

SHARED_FROM = 64


def charge_positions(used: tuple[int, ...], positions: Sequence[int]) -> tuple[int, ...]:
    """``commit(used, charge)`` for the charge vector of ``positions`` (one unit each), without building it."""
    if not positions:
        return used
    out = list(used)
    for k in positions:
        out[k] += 1
    return tuple(out)


class Counters(Sequence[int]):
    __slots__ = ("_base", "_delta", "_limit", "_size")

    def __init__(self, size: int, base: tuple[int, ...] | None = None, delta: dict[int, int] | None = None) -> None:
        if base is not None and len(base) != size:
            raise ValueError("counter base of the wrong length")
        self._size = size
        self._base = base
        self._delta: dict[int, int] = {} if delta is None else delta
        self._limit = max(32, isqrt(size))

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, k: int) -> int: ...

    @overload
    def __getitem__(self, k: slice) -> tuple[int, ...]: ...

    def __getitem__(self, k: int | slice) -> int | tuple[int, ...]:
        if isinstance(k, slice):
            return self.to_tuple()[k]
        if k < 0:
            k += self._size
        if not 0 <= k < self._size:
            raise IndexError("counter index out of range")
        hit = self._delta.get(k)
        if hit is not None:
            return hit
        return 0 if self._base is None else self._base[k]

    def __iter__(self) -> Iterator[int]:
        return iter(self.to_tuple())

    def to_tuple(self) -> tuple[int, ...]:
        out = list(self._base) if self._base is not None else [0] * self._size
        for k, v in self._delta.items():
            out[k] = v
        return tuple(out)

    def charged(self, positions: Sequence[int]) -> Counters:
        """These counters plus one unit at each of ``positions`` (``charge_positions``)."""
        if not positions:
            return self
        delta = dict(self._delta)
        base = self._base
        for k in positions:
            if not 0 <= k < self._size:
                raise IndexError("counter index out of range")
            old = delta.get(k)
            delta[k] = (old if old is not None else 0 if base is None else base[k]) + 1
        if len(delta) > self._limit:
            folded = Counters(self._size, base, delta)
            return Counters(self._size, folded.to_tuple())
        return Counters(self._size, base, delta)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Counters):
            if other._base is self._base:
                return self._size == other._size and all(self[k] == other[k] for k in {*self._delta, *other._delta})
            return self.to_tuple() == other.to_tuple()
        if isinstance(other, tuple):
            return self.to_tuple() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.to_tuple())

    def __repr__(self) -> str:
        return repr(self.to_tuple())

    def __reduce__(self) -> tuple[type[Counters], tuple[int, tuple[int, ...]]]:
        return Counters, (self._size, self.to_tuple())


Usage = tuple[int, ...] | Counters  # one list's counters in a ``State``


def zeros(n: int) -> Usage:
    """All-zero counters for a list of ``n`` entries: a tuple when short, shared counters when long."""
    return Counters(n) if n > SHARED_FROM else (0,) * n


def charge(used: Usage, positions: Sequence[int]) -> Usage:
    """``charge_positions`` for either representation (the result keeps the argument's)."""
    if isinstance(used, Counters):
        return used.charged(positions)
    return charge_positions(used, positions)
