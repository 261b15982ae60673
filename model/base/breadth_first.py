"""The breadth-first loop every explicit search of the project runs (our design; the split follows TLC's, a
model checker whose state queue and fingerprint set are separate, pluggable objects). It knows nothing of
states: the search systems plug in a successor function and a state store (``model/search/engine.py``
describes the project's, and runs this loop with the cycle collector paused); it lives here, below the
systems, so that every one of them can use it.

**The loop** (``bfs``). Layer ``d`` is the frontier of states first reached after ``d`` steps. For each
layer, in order: ``store.begin(last)``; each frontier state, in the store's order, is handed to
``expand``, which explores its transitions; ``store.advance()`` makes the layer being built the next
frontier, or answers False when it added no state (the search ends early). What the loop owns, once for
every search:

- **budget**: ``step(n)`` (a ``Meter``'s ``tick``) for each count ``n`` the successor function yields;
- **progress**: ``tick(done, total)`` in hundredths of layers, every 256 frontier states and per layer;
- **interruption**: a ``BudgetExhausted`` or a Ctrl-C (``KeyboardInterrupt``) ends the search with
  ``Covered.unknown`` set — limit ``"interrupt"`` for Ctrl-C — saying what was covered (states,
  transitions, the layer left incomplete); with ``catch=False`` (or no meter) both propagate to the
  caller instead (the revision explorer reports its budget itself);
- **early stop**: ``expand`` raises ``Stop`` when the search has its answer (the revision explorer's
  first accepted node); the run is then complete, ``Covered.stopped`` set;
- **counts**: ``states`` (``len(store)``, including the initial state), ``transitions`` (every transition
  ``expand`` yielded, into visited states too), ``depth`` (the deepest layer that added states), wall and
  CPU seconds.

**The successor function** (``Expand``): ``expand(layer, last, n, s, x)`` for the ``n``-th state ``s`` of
the frontier (with ``x``, the store's per-state payload — a sleep set, or None) is a generator that yields
``1`` per transition it explores, *before* handling it (so a budget that runs out stops before the
transition is counted or stored), and then handles it: observes what the transition makes hold and
offers the successor to the store (through the store's own ``add``, whose signature is the search's).
``last`` says the successors will never be expanded (a store may then keep fingerprints only). The
generator owns whatever the search observes (queries, premises, completions): the loop never looks at a
state. A backend that explores transitions in batches (a compiled inner loop) yields the count of each
batch instead, after it: the budget then stops at a batch's end.

**The state store** (``Store``): the visited set, the frontier being expanded and the layer being built,
and whatever rebuilds a trace: six methods and a ``mode`` name. Two stores live here because they need
nothing of a search system: ``KeyedFrontier`` (a set of keys, the frontier a list: for searches whose
states carry their own path) and ``Level`` (one given layer, for a level expanded alone, as a
partition of the distributed search does). Choices where the sources are silent: the first parent (in
frontier order) to reach a state wins; a layer that added no state ends the search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from model.base.budget import BudgetExhausted, Meter, Unknown

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


#: the successor function: (layer, last, index in the frontier, state, payload) -> transitions explored, in
#: counts (1 per transition, or a batch's count)
Expand = Callable[[int, bool, int, S, X], Iterable[int]]


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


def bfs(store: Store[S, X], expand: Expand[S, X], bound: int, meter: Meter | None = None,
        tick: Progress | None = None, *, step: Callable[[int], object] | None = None, catch: bool = True) -> Covered:
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
                    for c in expand(layer, last, n, s, x):
                        transitions += c
                else:
                    for c in expand(layer, last, n, s, x):
                        step(c)
                        transitions += c
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

    def step(self, n: int = 1) -> None:
        self.transitions += n

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


__all__ = ["STEPS", "Covered", "Expand", "KeyedFrontier", "Level", "Progress", "Stop", "Store", "bfs", "cut_short"]
