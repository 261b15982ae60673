"""The one breadth-first engine of the project: the loop of ``model/base/breadth_first.py`` (budget,
progress, Ctrl-C, early stop, counts; its docstring gives the ``Store`` and ``Expand`` interfaces) run
with the cycle collector paused (``heap.py`` says why), and the state stores of the search systems (our design for the
missing Section 8 of Agenra; the split of state queue and fingerprint set is TLC's). Every explicit search
runs on it: the monitor engine in its exact and fingerprint modes (``layered.py``), the generic system
search (``system/bfs.py``), the revision explorer's lockstep product (``model/revision/explore``), the
per-level expansion of both partitioned drivers (``model/dist``); the admission deployment explorer, below
this package, runs the same loop from ``model/base/breadth_first.py``.

**Stores.** The monitor engine's are ``explicit.ExactStore`` (a dict from canonical state to parent link)
and ``fingerprint.FingerprintStore`` (64-bit fingerprints, a frontier of interned ids, sleep sets);
the generic search's are here:

- ``ExactLinks``: a dict from each state's canonical key to ``(parent key, label)``;
- ``FingerprintLinks``: a ``fpset.FingerprintSet`` of the keys' fingerprints (``key_fingerprint``) with
  per-layer parent positions, a trace rebuilt by replaying successor positions, the frontier compact
  (``system/compact_layer.Layer``) when the system splits its states; ``collision`` is the birthday
  bound of ``fpset.py``.

A store for another representation (a compiled state encoding, an integer frontier) implements
``Store``'s six methods (``__len__``, ``begin``, ``width``, ``frontier``, ``advance``, ``collision``) and
its ``mode``, plus whatever ``add`` its successor function calls; a successor backend is an ``Expand``: a
generator per frontier state that yields 1 per transition before handling it (or, a batch at a time, each
batch's count after it).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, Protocol, TypeVar, cast

from model.base.breadth_first import STEPS, Covered, Expand, KeyedFrontier, Level, Progress, Stop, Store, cut_short
from model.base.breadth_first import bfs as loop
from model.base.budget import Meter
from model.search.fpset import FingerprintSet, collision_probability, fingerprint
from model.search.heap import paused

S = TypeVar("S")
X = TypeVar("X")


def bfs(store: Store[S, X], expand: Expand[S, X], bound: int, meter: Meter | None = None,
        tick: Progress | None = None, *, step: Callable[[int], object] | None = None, catch: bool = True) -> Covered:
    """``model/base/breadth_first.bfs`` with the cycle collector paused."""
    with paused():
        return loop(store, expand, bound, meter, tick, step=step, catch=catch)


def key_fingerprint(key: Hashable) -> int:
    """The 64-bit fingerprint of a system state's canonical key. The key is wrapped in a tuple: Python
    hashes a small int to itself, so key 0 (fingerprint 0 -> 1) would share key 1's; the tuple hash mixes it."""
    return fingerprint(cast(Any, (key,)))


class Layered(Protocol[S]):
    """What the link stores need of a frontier layer: a list, or a ``compact_layer.Layer``."""

    def append(self, state: S) -> None: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[S]: ...


#: rebuilds a trace of labels from the transition positions along a path (``system/bfs.replay``)
Replay = Callable[[list[int]], tuple[str, ...]]


class ExactLinks(Generic[S]):
    """Exact store with parent links: a dict from each state's canonical key (``key``) to
    ``(parent key, label)``; the frontiers are lists of states."""

    mode = "exact"

    def __init__(self, root: S, key: Callable[[S], Hashable]) -> None:
        self.key = key
        self.parent: dict[Hashable, tuple[Hashable, str] | None] = {key(root): None}
        self.cur: list[S] = [root]
        self.nxt: list[S] = []
        self.last = False
        self.added = 0

    def __len__(self) -> int:
        return len(self.parent)

    def begin(self, last: bool) -> None:
        self.nxt, self.last, self.added = [], last, 0

    def width(self) -> int:
        return len(self.cur)

    def frontier(self) -> Iterator[tuple[int, S, None]]:
        for n, s in enumerate(self.cur):
            yield n, s, None

    def add(self, n: int, s: S, j: int, label: str, t: S) -> bool:
        """The ``j``-th transition (``label``) of frontier state ``n`` (``s``) reaches ``t``; True when new."""
        k = self.key(t)
        if k in self.parent:
            return False
        self.parent[k] = (self.key(s), label)
        self.added += 1
        if not self.last:
            self.nxt.append(t)
        return True

    def path(self, n: int, s: S, j: int, label: str) -> tuple[str, ...]:
        """The labels from the initial state through frontier state ``n`` and its transition ``label``."""
        out = [label]
        link = self.parent[self.key(s)]
        while link is not None:
            out.append(link[1])
            link = self.parent[link[0]]
        return tuple(out[::-1])

    def keys(self) -> Iterator[Hashable]:
        """Every visited key (tests compare visited sets)."""
        return iter(self.parent)

    def advance(self) -> bool:
        if not self.added:
            return False
        self.cur = self.nxt
        return True

    def collision(self) -> float:
        return 0.0


class FingerprintLinks(Generic[S]):
    """Fingerprint store: a ``FingerprintSet`` of the keys' 64-bit fingerprints and, per stored layer, two
    ``array('I')`` (the parent's position in its layer, the transition's position among the parent's
    successors); a trace is rebuilt by ``replay`` of those positions from the initial state. The frontiers
    are ``layer()``s (compact when the system splits its states); the last layer keeps neither its states
    nor its links."""

    mode = "fingerprint"

    def __init__(self, root: S, key: Callable[[S], Hashable], layer: Callable[[], Layered[S]],
                 replay: Replay) -> None:
        self.key, self.layer, self.replay = key, layer, replay
        self.seen = FingerprintSet()
        self.seen.drop_index()  # a set: positions live in the per-layer arrays
        self.seen.add(self._fp(root))
        self.layers: list[tuple[array[int], array[int]]] = []
        self.cur: Layered[S] = layer()
        self.cur.append(root)
        self.nxt: Layered[S] = self.cur
        self.keep = True
        self.added = 0

    def _fp(self, s: S) -> int:
        return key_fingerprint(self.key(s))

    def __len__(self) -> int:
        return len(self.seen)

    def begin(self, last: bool) -> None:
        self.layers.append((array("I"), array("I")))
        self.keep, self.added = not last, 0
        self.nxt = self.layer()

    def width(self) -> int:
        return len(self.cur)

    def frontier(self) -> Iterator[tuple[int, S, None]]:
        for n, s in enumerate(self.cur):
            yield n, s, None

    def add(self, n: int, s: S, j: int, label: str, t: S) -> bool:
        if not self.seen.add(self._fp(t)):
            return False
        self.added += 1
        if not self.keep:  # the last layer: nothing reaches past it
            return True
        parents, moves = self.layers[-1]
        parents.append(n)
        moves.append(j)
        self.nxt.append(t)
        return True

    def path(self, n: int, s: S, j: int, label: str) -> tuple[str, ...]:
        moves = [j]
        for parents, steps in reversed(self.layers[:-1]):
            moves.append(steps[n])
            n = parents[n]
        return self.replay(moves[::-1])

    def advance(self) -> bool:
        if not self.added:
            return False
        self.cur = self.nxt
        return True

    def collision(self) -> float:
        return collision_probability(len(self.seen))


__all__ = [
    "STEPS",
    "Covered",
    "ExactLinks",
    "Expand",
    "FingerprintLinks",
    "KeyedFrontier",
    "Level",
    "Progress",
    "Stop",
    "Store",
    "bfs",
    "cut_short",
]
