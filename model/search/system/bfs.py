"""The generic layered breadth-first search over a ``protocol.System``, in two visited-set modes (our design;
the loop is ``model/search/engine.py``'s, as for the monitor engine, without its sleep sets and
completions; the stores are the engine's ``ExactLinks`` and ``FingerprintLinks``).

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

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Generic, TypeVar

from model.base.budget import Budget, Meter, Unknown
from model.search.engine import ExactLinks, FingerprintLinks, bfs
from model.search.search_verdict import Exhausted, Vacuous
from model.search.system.compact_layer import Codec
from model.search.system.protocol import Query, QueryKind, System

S = TypeVar("S")
Tick = Callable[[int, int], None]
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


def store_of(sys: System[S], mode: str = "exact") -> ExactLinks[S] | FingerprintLinks[S]:
    """The ``mode`` visited set of a search of ``sys`` (module docstring), holding its initial state."""
    root = sys.initial()
    if mode == "exact":
        return ExactLinks(root, sys.key)
    codec: Codec[S] = Codec(sys)
    return FingerprintLinks(root, sys.key, codec.layer, lambda moves: replay(sys, moves))


class Expansion(Generic[S]):
    """The successor function of the generic search for ``engine.bfs``: each transition of a frontier
    state, its query bits observed (the first hit of a query keeps its trace: a shortest one), its target
    offered to the store (a self-loop's target is the state itself: visited)."""

    def __init__(self, sys: System[S], store: ExactLinks[S] | FingerprintLinks[S]) -> None:
        self.sys, self.store = sys, store
        self.nq = len(sys.queries)
        self.found: dict[int, Path] = {}
        self.premise = 0

    def __call__(self, layer: int, last: bool, n: int, s: S, _x: None) -> Iterator[None]:
        found, store, nq = self.found, self.store, self.nq
        add = store.add
        for j, (label, t, hits, meets) in enumerate(self.sys.successors(s)):
            yield None
            self.premise |= meets
            if hits:
                for i in range(nq):
                    if hits >> i & 1 and i not in found:
                        found[i] = store.path(n, s, j, label)
            if t is not s:
                add(n, s, j, label, t)


def search(sys: System[S], bound: int, mode: str = "exact", tick: Tick | None = None, budget: Budget = _UNLIMITED,
           meter: Meter | None = None, store: ExactLinks[S] | FingerprintLinks[S] | None = None) -> SystemRun:
    """The layered search of ``sys`` to ``bound`` steps with the ``mode`` visited set (module docstring);
    ``store``: a fresh one made by ``store_of(sys, mode)``, given to read the visited set afterwards."""
    store = store_of(sys, mode) if store is None else store
    run = meter if meter is not None else budget.start()
    exp = Expansion(sys, store)
    cov = bfs(store, exp, bound, run, tick)
    verdicts = answers(sys.queries, bound, exp.found, exp.premise, cov.states, cov.unknown)
    return SystemRun(sys.name, bound, verdicts, cov.states, cov.transitions, cov.depth, cov.seconds,
                     cov.cpu_seconds, store.mode, store.collision(), cov.unknown)


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
