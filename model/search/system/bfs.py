"""The generic layered breadth-first search over a ``protocol.System``, in two visited-set modes (our design;
the loop is the monitor engine's, ``model/search/layered.py``, without its sleep sets and completions).

Layer ``d`` holds the states first reached after ``d`` steps; each is expanded once, in frontier order,
and the first parent to reach a state wins. Because layers are explored in order, the first transition
that hits a query ends a shortest trace, so ``Found`` traces are shortest.

- **exact**: a dict from each state's canonical key to its parent link ``(parent key, label)``.
- **fingerprint**: a ``FingerprintSet`` (``model/search/fpset.py``) of the keys' 64-bit fingerprints
  (Python's hash mod 2^64) and, per stored layer, two ``array('I')`` — the parent's position in its layer
  and the transition's position among the parent's successors; a trace is rebuilt by replaying those
  positions from the initial state. The frontier being expanded and the one being built are kept as
  ``frontier.Layer``s (interned parts, a few bytes a state) when the system ``Splits`` its states, else as
  lists of states. The last layer is never expanded, so neither its states nor its links are kept: a
  trace into it needs only its parent's. The result reports the collision probability
  ``n(n-1)/2^65`` (``fpset.collision_probability``).

Budget: one ``meter.tick()`` per transition. When it runs out (or on Ctrl-C) every query already Found
keeps its trace and every other answers ``Unknown``. Counts: ``states`` distinct canonical states
(including the initial one), ``transitions`` every transition explored (into visited states too),
``depth`` the deepest layer that had states.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, TypeVar, cast

from model.base.budget import Budget, BudgetExhausted, Meter, Unknown
from model.search.fpset import FingerprintSet, collision_probability, fingerprint
from model.search.heap import paused
from model.search.layered import cut_short
from model.search.search_verdict import Exhausted, Vacuous
from model.search.system.compact_layer import Codec, Layer
from model.search.system.protocol import Query, QueryKind, System

S = TypeVar("S")
Tick = Callable[[int, int], None]
_STEPS = 100  # progress units per layer, as in the monitor engine
_UNLIMITED = Budget()
Path = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reached:
    """``Found`` for a generic system: a shortest trace of transition labels."""

    trace: Path

    @property
    def length(self) -> int:
        return len(self.trace)


SystemVerdict = Reached | Exhausted | Vacuous


def verdict_name(v: SystemVerdict | Unknown) -> str:
    return {Reached: "found", Exhausted: "exhausted", Vacuous: "vacuous", Unknown: "unknown"}[type(v)]


def passes(q: Query, v: SystemVerdict | Unknown) -> bool:
    return isinstance(v, Reached) if q.kind is QueryKind.GOAL else isinstance(v, Exhausted | Vacuous)


@dataclass(frozen=True, slots=True)
class SystemRun:
    system: str
    bound: int
    verdicts: tuple[tuple[str, SystemVerdict | Unknown], ...]
    states: int
    transitions: int
    depth: int
    seconds: float
    cpu_seconds: float
    mode: str  # "exact" or "fingerprint"
    collision: float = 0.0
    unknown: Unknown | None = None

    def verdict(self, name: str) -> SystemVerdict | Unknown:
        return dict(self.verdicts)[name]


class _Exact(Generic[S]):
    mode = "exact"

    def __init__(self, sys: System[S], root: S) -> None:
        self.sys = sys
        self.parent: dict[Hashable, tuple[Hashable, str] | None] = {sys.key(root): None}

    def __len__(self) -> int:
        return len(self.parent)

    def begin(self, last: bool) -> None:
        pass

    def layer(self) -> list[S]:
        return []

    def add(self, n: int, s: S, j: int, label: str, t: S) -> bool:
        k = self.sys.key(t)
        if k in self.parent:
            return False
        self.parent[k] = (self.sys.key(s), label)
        return True

    def path(self, n: int, s: S, j: int, label: str) -> Path:
        out = [label]
        link = self.parent[self.sys.key(s)]
        while link is not None:
            out.append(link[1])
            link = self.parent[link[0]]
        return tuple(out[::-1])

    def collision(self) -> float:
        return 0.0


class _Fingerprints(Generic[S]):
    mode = "fingerprint"

    def __init__(self, sys: System[S], root: S) -> None:
        self.sys = sys
        self.seen = FingerprintSet()
        self.seen.drop_index()  # a set: positions live in the per-layer arrays
        self.seen.add(self._fp(root))
        self.layers: list[tuple[array[int], array[int]]] = []  # per layer: parent position, successor position
        self.codec: Codec[S] = Codec(sys)
        self.keep = True

    def _fp(self, s: S) -> int:
        # the key wrapped in a tuple: Python hashes a small int to itself, so key 0 (fingerprint 0 -> 1) would
        # share key 1's fingerprint; the tuple hash mixes it
        return fingerprint(cast(Any, (self.sys.key(s),)))

    def __len__(self) -> int:
        return len(self.seen)

    def begin(self, last: bool) -> None:
        self.layers.append((array("I"), array("I")))
        self.keep = not last

    def layer(self) -> Layer[S] | list[S]:
        return self.codec.layer()

    def add(self, n: int, s: S, j: int, label: str, t: S) -> bool:
        if not self.seen.add(self._fp(t)):
            return False
        if not self.keep:  # the last layer: nothing reaches past it
            return True
        parents, moves = self.layers[-1]
        parents.append(n)
        moves.append(j)
        return True

    def path(self, n: int, s: S, j: int, label: str) -> Path:
        moves = [j]
        for parents, steps in reversed(self.layers[:-1]):
            moves.append(steps[n])
            n = parents[n]
        return replay(self.sys, moves[::-1])

    def collision(self) -> float:
        return collision_probability(len(self.seen))


@paused()
def search(sys: System[S], bound: int, mode: str = "exact", tick: Tick | None = None, budget: Budget = _UNLIMITED,
           meter: Meter | None = None) -> SystemRun:
    """The layered search of ``sys`` to ``bound`` steps with the ``mode`` visited set (module docstring)."""
    root = sys.initial()
    store: _Exact[S] | _Fingerprints[S] = _Exact(sys, root) if mode == "exact" else _Fingerprints(sys, root)
    run = meter if meter is not None else budget.start()
    start, cpu = time.perf_counter(), time.process_time()
    nq = len(sys.queries)
    found: dict[int, Path] = {}
    premise = 0
    transitions, depth = 0, 0
    exhausted: Unknown | None = None
    frontier: Layer[S] | list[S] = [root]
    try:
        for layer in range(bound):
            last = layer == bound - 1
            store.begin(last)
            nxt = store.layer()
            born = 0
            width = len(frontier)
            for n, s in enumerate(frontier):
                if tick is not None and n % 256 == 0:
                    tick(layer * _STEPS + _STEPS * n // width, bound * _STEPS)
                for j, (label, t, hits, meets) in enumerate(sys.successors(s)):
                    run.tick()
                    transitions += 1
                    premise |= meets
                    if hits:
                        for i in range(nq):
                            if hits >> i & 1 and i not in found:
                                found[i] = store.path(n, s, j, label)
                    if t is not s and store.add(n, s, j, label, t):  # a self-loop's target is visited
                        born += 1
                        if not last:
                            nxt.append(t)
            if not born:
                break
            frontier = nxt
            depth = layer + 1
            if tick is not None:
                tick((layer + 1) * _STEPS, bound * _STEPS)
    except BudgetExhausted as exc:
        exhausted = cut_short(run, exc, len(store), transitions, depth, bound)
    except KeyboardInterrupt:
        exhausted = cut_short(run, None, len(store), transitions, depth, bound)
    verdicts = answers(sys.queries, bound, found, premise, len(store), exhausted)
    return SystemRun(sys.name, bound, verdicts, len(store), transitions, depth, time.perf_counter() - start,
                     time.process_time() - cpu, store.mode, store.collision(), exhausted)


def replay(sys: System[S], moves: Iterable[int]) -> Path:
    """The labels of the path that takes, from the initial state, the transition at each of ``moves``
    (its position among the state's successors)."""
    out: list[str] = []
    cur = sys.initial()
    for m in moves:
        label, cur, _h, _p = next(islice(sys.successors(cur), m, None))
        out.append(label)
    return tuple(out)


def answers(queries: tuple[Query, ...], bound: int, found: dict[int, Path], premise: int, states: int,
            exhausted: Unknown | None) -> tuple[tuple[str, SystemVerdict | Unknown], ...]:
    """Each query's verdict (module docstring): ``Reached`` with its trace when found, else ``Unknown`` when
    the search was cut short, else ``Vacuous`` when no transition met its premise, else ``Exhausted``."""
    verdicts: list[tuple[str, SystemVerdict | Unknown]] = []
    for i, q in enumerate(queries):
        v: SystemVerdict | Unknown
        if i in found:
            v = Reached(found[i])
        elif exhausted is not None:
            v = exhausted
        elif not premise >> i & 1:
            v = Vacuous(bound)
        else:
            v = Exhausted(bound, states)
        verdicts.append((q.name, v))
    return tuple(verdicts)
