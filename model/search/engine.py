"""The one breadth-first engine of the project (our design for the missing Section 8 of Agenra; the split
follows TLC's, a model checker whose state queue and fingerprint set are separate, pluggable objects):
every explicit search — the monitor engine in its exact and fingerprint modes (``layered.py``), the generic
system search (``system/bfs.py``), the revision explorer's lockstep product (``model/revision/explore``),
the admission deployment explorer, and the per-level expansion of both partitioned drivers
(``model/dist``) — is this loop over a ``Store`` and an ``Expand``.

**The loop** (``bfs``). Layer ``d`` is the frontier of states first reached after ``d`` steps. For each
layer, in order: ``store.begin(last)``; each frontier state, in the store's order, is handed to
``expand``, which explores its transitions; ``store.advance()`` makes the layer being built the next
frontier, or answers False when it added no state (the search ends early). What the loop owns, once for
every search:

- **budget**: ``step`` (a ``Meter``'s ``tick``) once per transition, before the transition is handled;
- **progress**: ``tick(done, total)`` in hundredths of layers, every 256 frontier states and per layer;
- **interruption**: a ``BudgetExhausted`` or a Ctrl-C (``KeyboardInterrupt``) ends the search with
  ``Covered.unknown`` set — limit ``"interrupt"`` for Ctrl-C — saying what was covered (states,
  transitions, the layer left incomplete); with ``catch=False`` both propagate to the caller instead
  (the revision explorer reports its budget itself);
- **early stop**: ``expand`` raises ``Stop`` when the search has its answer (the revision explorer's
  first accepted node); the run is then complete, ``Covered.stopped`` set;
- **counts**: ``states`` (``len(store)``, including the initial state), ``transitions`` (every transition
  ``expand`` yielded, into visited states too), ``depth`` (the deepest layer that added states), wall and
  CPU seconds.

**The successor function** (``Expand``): ``expand(layer, last, n, s, x)`` for the ``n``-th state ``s`` of
the frontier (with ``x``, the store's per-state payload — a sleep set, or None) is a generator that yields
once per transition it explores, *before* handling it (so a budget that runs out stops before the
transition is counted or stored), and then handles it: observes what the transition makes hold and
offers the successor to the store (the store's ``add``, whose signature is the search's own: which
state and which link it keeps is all it needs). ``last`` says the successors will never be expanded
(a store may then keep fingerprints only). The generator owns whatever the search observes (queries,
premises, completions): the engine never looks at a state.

**The state store** (``Store``): the visited set, the frontier being expanded and the layer being built,
and whatever rebuilds a trace (parent links, or transition positions to replay). The project's stores:

- exact: a dict from each canonical state (or its key) to its parent link (``explicit.ExactStore``,
  ``ExactLinks`` here for a ``protocol.System``), or a set with the path carried in the state (the
  revision explorer: ``KeyedFrontier``);
- fingerprint: a ``fpset.FingerprintSet`` of 64-bit fingerprints with per-layer parent arrays and a
  compact frontier (``fingerprint.FingerprintStore``, ``FingerprintLinks`` here over
  ``system/compact_layer.Layer``); its ``collision`` is the birthday bound of ``fpset.py``.

A store for another representation (a compiled state encoding, an integer frontier) implements the same
six members; a successor backend implements ``Expand``. Choices where the sources are silent: the first
parent (in frontier order) to reach a state wins; a layer that added no state ends the search; the cycle
collector is paused while the loop runs (``heap.py``).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from model.base.budget import BudgetExhausted, Meter, Unknown
from model.search.fpset import FingerprintSet, collision_probability, fingerprint
from model.search.heap import paused

S = TypeVar("S")
X = TypeVar("X")
S_co = TypeVar("S_co", covariant=True)
X_co = TypeVar("X_co", covariant=True)

STEPS = 100  # progress units per layer: tick(done, total) counts hundredths of layers
Progress = Callable[[int, int], None]


class Store(Protocol[S_co, X_co]):
    """The visited set and the frontiers of one search (module docstring)."""

    mode: str  # "exact" or "fingerprint" (reported on the run)

    def __len__(self) -> int: ...  # states visited so far, the initial one included

    def begin(self, last: bool) -> None: ...  # a layer starts; ``last``: its successors are never expanded

    def width(self) -> int: ...  # states in the frontier being expanded

    def frontier(self) -> Iterator[tuple[int, S_co, X_co]]: ...  # (index, state, payload), in order

    def advance(self) -> bool: ...  # the layer ends; False when it added no state

    def collision(self) -> float: ...  # probability that two distinct states shared a fingerprint


#: the successor function: (layer, last, index in the frontier, state, payload) -> one item per transition
Expand = Callable[[int, bool, int, S, X], Iterable[object]]


class Stop(Exception):
    """Raised by an ``Expand`` when the search has its answer: the run ends, complete."""


@dataclass(frozen=True, slots=True)
class Covered:
    """What one run of the loop covered (module docstring, counts)."""

    states: int
    transitions: int
    depth: int
    seconds: float
    cpu_seconds: float
    unknown: Unknown | None = None  # the budget ran out or Ctrl-C: the run is incomplete
    stopped: bool = False  # ``Stop``: the search ended early with its answer


def cut_short(run: Meter, exc: BudgetExhausted | None, states: int, transitions: int, depth: int, k: int) -> Unknown:
    """``Unknown`` for a search stopped by its budget (``exc``) or by Ctrl-C (``None``): what it covered."""
    if exc is not None:
        return Unknown.of(exc, f"explored {states} states and {transitions} transitions; layer {depth + 1} of "
                               f"bound {k} incomplete")
    return Unknown(run.budget, run.spent, "interrupt", f"interrupted after {states} states and {transitions} "
                   f"transitions; layer {depth + 1} of bound {k} incomplete")


@paused()
def bfs(store: Store[S, X], expand: Expand[S, X], bound: int, meter: Meter | None = None,
        tick: Progress | None = None, *, step: Callable[[], object] | None = None, catch: bool = True) -> Covered:
    """Explore ``store``'s frontier to ``bound`` layers with ``expand`` (module docstring). ``meter``: the
    budget, ticked once per transition (``step`` ticks instead when given); ``catch=False``: a budget run
    out or a Ctrl-C propagates instead of ending the run with ``unknown``."""
    if step is None and meter is not None:
        step = meter.tick
    start, cpu = time.perf_counter(), time.process_time()
    transitions = depth = 0
    unknown: Unknown | None = None
    stopped = False
    try:
        for layer in range(bound):
            last = layer == bound - 1
            store.begin(last)
            width = store.width()
            for n, s, x in store.frontier():
                if tick is not None and n % 256 == 0:
                    tick(layer * STEPS + STEPS * n // width, bound * STEPS)
                if step is None:
                    for _ in expand(layer, last, n, s, x):
                        transitions += 1
                else:
                    for _ in expand(layer, last, n, s, x):
                        step()
                        transitions += 1
            if not store.advance():
                break
            depth = layer + 1
            if tick is not None:
                tick((layer + 1) * STEPS, bound * STEPS)
    except Stop:
        stopped = True
    except BudgetExhausted as exc:
        if not catch or meter is None:
            raise
        unknown = cut_short(meter, exc, len(store), transitions, depth, bound)
    except KeyboardInterrupt:
        if not catch or meter is None:
            raise
        unknown = cut_short(meter, None, len(store), transitions, depth, bound)
    return Covered(len(store), transitions, depth, time.perf_counter() - start, time.process_time() - cpu, unknown,
                   stopped)


class KeyedFrontier(Generic[S]):
    """An exact store without parent links, for searches whose states carry their own path: a set of
    canonical keys and the frontier as a list (``add`` checks and records a key, ``push`` queues a state)."""

    mode = "exact"
    __slots__ = ("added", "cur", "nxt", "seen")

    def __init__(self, roots: Iterable[S], keys: Iterable[Hashable] = ()) -> None:
        self.seen: set[Hashable] = set(keys)
        self.cur: list[S] = list(roots)
        self.nxt: list[S] = []
        self.added = 0

    def __len__(self) -> int:
        return len(self.seen)

    def begin(self, last: bool) -> None:
        self.nxt, self.added = [], 0

    def width(self) -> int:
        return len(self.cur)

    def frontier(self) -> Iterator[tuple[int, S, None]]:
        for n, s in enumerate(self.cur):
            yield n, s, None

    def add(self, key: Hashable) -> bool:
        """Record ``key``; False when it was visited already."""
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def push(self, s: S) -> None:
        self.nxt.append(s)
        self.added += 1

    def advance(self) -> bool:
        self.cur = self.nxt
        return bool(self.cur)

    def collision(self) -> float:
        return 0.0


class Level(Generic[S, X]):
    """One layer given as its frontier items, for a level expansion run alone (``bfs(level, expand, 1,
    step=level.step)``: the partitioned search expands one partition's level per task). The run stops
    before a state once ``seconds`` have passed or the transitions exceed ``cap``; ``complete`` says
    whether it did not, ``expanded`` how many states it expanded. The visited set is the caller's: this
    store holds no state (``len`` 0)."""

    mode = "exact"
    __slots__ = ("cap", "complete", "deadline", "expanded", "items", "transitions")

    def __init__(self, items: Iterable[tuple[int, S, X]], seconds: float | None = None,
                 cap: int | None = None) -> None:
        self.items = items
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.cap = cap
        self.transitions = self.expanded = 0
        self.complete = True

    def step(self) -> None:
        self.transitions += 1

    def __len__(self) -> int:
        return 0

    def begin(self, last: bool) -> None:
        pass

    def width(self) -> int:
        return 0

    def frontier(self) -> Iterator[tuple[int, S, X]]:
        deadline, cap = self.deadline, self.cap
        for item in self.items:
            if (deadline is not None and time.monotonic() > deadline) or (cap is not None and self.transitions > cap):
                self.complete = False
                return
            self.expanded += 1
            yield item

    def advance(self) -> bool:
        return False

    def collision(self) -> float:
        return 0.0


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
        # the key wrapped in a tuple: Python hashes a small int to itself, so key 0 (fingerprint 0 -> 1) would
        # share key 1's fingerprint; the tuple hash mixes it
        return fingerprint(cast(Any, (self.key(s),)))

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
