"""The layered breadth-first search of engine 1 (our design for the missing Section 8 of Agenra), written once
for every visited set: the exact one (``explicit.ExactStore``, canonical states in a dict) and the compact
one (``fingerprint.FingerprintStore``, 64-bit fingerprints).

Layer ``d`` holds the canonical states first reached after ``d`` steps; each state is expanded once,
every agent call is decided by the real monitor (over its compiled policy) and every admitted call
branches on each listed outcome (``expand.successors``). Because layers are explored in order, the first
transition that makes a query hold ends a shortest trace: ``Found`` traces are shortest. The search keeps
going to the bound for the other queries and to enumerate useful completions (``completions.py``); it
stops early only when a layer adds no state.

A ``Visited`` store owns everything that grows with the state space: which states were seen, the
frontier of the layer being expanded and the one being built, the sleep sets of the frontier, and the
parent links traces are rebuilt from. The successor function (``Expansion``) owns what every store
shares: the successors, the queries, the completions and the sleep sets' computation
(``child_sleep_of``); the engine's loop owns the layers, the budget, progress and Ctrl-C. A store's ``add``
follows one rule, the one a partitioned search needs: the first parent to reach a state wins (in
frontier order), and a state reached again within the layer being built keeps the intersection of the
sleep sets its parents pass.

The loop itself — layers, budget, progress, Ctrl-C — is ``engine.bfs``; this module is the monitor
engine's successor function over it (``Expansion``) and the result. Budget: one ``meter.tick()`` per
transition explored. When it runs out, every query already ``Found``
keeps its (shortest) trace and every other answers ``Unknown``; completions found so far are kept and
``unknown`` says the list may be incomplete. Never a wrong verdict, never a hang.

Counts: ``states`` = distinct canonical states visited (including the initial one), ``transitions`` =
transitions explored (admitted call × outcome, reviewer and approver actions, including those into
already-visited states), ``depth`` = the deepest layer that had states.

The cycle collector is paused while the search runs (``heap.py`` says why; ``engine.bfs`` pauses it), as
it is on the workers of the partitioned search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from model.base.budget import Budget, Meter, Unknown
from model.search.compact import Compact
from model.search.completions import completion_key, cone, orders
from model.search.engine import Store, bfs
from model.search.expand import Context, Key, Raw, counts, shift_key, successors, transition
from model.search.model import QueryKind, SearchModel
from model.search.por import Independence
from model.search.search_verdict import Exhausted, Found, SearchVerdict, Step, Trace, Vacuous
from model.search.space import apply_action
from model.search.states import Transition, renumber_action

Tick = Callable[[int, int], None]
Link = tuple[Compact, Transition, int | None]
Sleep = dict[Key, int]  # transition key -> footprint id
EMPTY: Sleep = {}  # shared, never written


@dataclass(frozen=True, slots=True)
class ExplicitRun:
    bound: int
    verdicts: tuple[tuple[str, SearchVerdict | Unknown], ...]  # query name -> verdict, in model order
    completions: tuple[tuple[str, tuple[Trace, ...]], ...]  # goal name -> distinct useful completions
    states: int
    transitions: int
    depth: int
    seconds: float
    unknown: Unknown | None = None  # the budget ran out: completions may be incomplete
    reduced: bool = False
    cpu_seconds: float = 0.0  # process CPU time of the run: rates "on one core", whatever the machine's load
    mode: str = "exact"  # the visited set: "exact" (states) or "fingerprint" (``fingerprint.py``)
    collision: float = 0.0  # fingerprint mode: probability that two distinct states shared a fingerprint
    engine: str = "interpreted"  # the successor loop: "interpreted" (``expand.py``) or "intcode" (``intcode.py``)

    def verdict(self, name: str) -> SearchVerdict | Unknown:
        return dict(self.verdicts)[name]

    def completions_of(self, name: str) -> tuple[Trace, ...]:
        return dict(self.completions).get(name, ())

    @property
    def states_per_second(self) -> float:
        """States per CPU second (one core)."""
        return self.states / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def transitions_per_second(self) -> float:
        """Transitions per CPU second (one core)."""
        return self.transitions / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


class Visited(Store[Compact, Sleep], Protocol):
    """An ``engine.Store`` of canonical monitor states with their sleep sets, and the parent links of one
    layered search."""

    def add(self, s: Compact, n: int, raw: Raw, new: Compact, at: int | None, key: Key, sleep: Sleep | None,
            done: list[tuple[Key, int]], fpi: int) -> None:
        """The transition ``raw`` (key ``key``, footprint ``fpi``) from the ``n``-th frontier state ``s``
        reaches ``new``; ``sleep`` (None when this layer is not reduced) and ``done`` give its child's
        sleep set (``child_sleep_of``)."""

    def path(self, n: int, s: Compact) -> list[Link]: ...  # links from the initial state to frontier state n


def child_sleep_of(indep: Independence, sleep: dict[Key, int], done: list[tuple[Key, int]], fpi: int,
                   at: int | None) -> dict[Key, int]:
    """The sleep set a transition (footprint ``fpi``, new record at ``at``) passes to its successor: what
    was slept or explored in the parent before it and commutes with it, renumbered into the child's
    positions (shared with the partitioned search, ``model/dist/partition.py``)."""
    out: dict[Key, int] = {}
    if not indep.prints[fpi][0]:
        for u, f in sleep.items():
            if indep(f, fpi):
                out[u if at is None else shift_key(u, at)] = f
        for u, f in done:
            if indep(f, fpi):
                out[u if at is None else shift_key(u, at)] = f
    return out


_UNLIMITED = Budget()


def layered(ctx: Context, store: Visited, k: int, tick: Tick | None = None, budget: Budget = _UNLIMITED,
            reduction: bool = True, meter: Meter | None = None) -> ExplicitRun:
    """The search to bound ``k`` over ``store`` (module docstring): ``engine.bfs`` with ``Expansion``."""
    run = meter if meter is not None else budget.start()
    exp = Expansion(ctx, store, k, reduction)
    cov = bfs(store, exp, k, run, tick)
    verdicts, comps = answers(ctx.model, k, exp.found, exp.premise, exp.complete, cov.states, cov.unknown)
    return ExplicitRun(k, verdicts, comps, cov.states, cov.transitions, cov.depth, cov.seconds, cov.unknown,
                       reduction, cov.cpu_seconds, store.mode, store.collision())


class Expansion:
    """The monitor engine's successor function for ``engine.bfs``: a frontier state's transitions
    (``expand.successors``, its sleep set applied), the queries each makes hold (with the shortest trace:
    the first found), the premises met, the goals' completions, and each successor offered to the store
    with the sleep set it inherits."""

    __slots__ = ("complete", "cones", "ctx", "found", "goals", "k", "nq", "premise", "reduction", "store")

    def __init__(self, ctx: Context, store: Visited, k: int, reduction: bool) -> None:
        model = ctx.model
        self.ctx, self.store, self.k, self.reduction = ctx, store, k, reduction
        self.nq = len(model.queries)
        self.found: dict[int, Trace] = {}
        self.premise = [False] * self.nq
        self.goals = {i for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
        self.cones: dict[int, set[str]] = {i: set() for i in self.goals}
        self.complete: dict[int, set[Trace]] = {i: set() for i in self.goals}

    def __call__(self, layer: int, last: bool, n: int, s: Compact, sleep: Sleep) -> Iterator[int]:
        ctx, store, found, cones, premise = self.ctx, self.store, self.found, self.cones, self.premise
        model, prints = ctx.model, ctx.independence.prints
        reduction = self.reduction
        reduce_here = reduction and not last  # the last layer's states are never expanded
        have, have_premise = counts(s, self.nq)
        done: list[tuple[Key, int]] = []
        pass_sleep = sleep if reduce_here else None
        add = store.add
        for tr, new, at, fpi, key in successors(ctx, s, sleep if reduction else EMPTY):
            yield 1
            if at is not None:
                for i in holds(model, new, at, have, have_premise, premise):
                    if i not in found:
                        found[i] = rebuild([*store.path(n, s), (s, transition(tr), at)])
                    if i in cones:
                        collect_completions(ctx, s, transition(tr), i, cones[i], self.complete[i])
            add(s, n, tr, new, at, key, pass_sleep, done, fpi)
            if reduce_here and not prints[fpi][0]:
                done.append((key, fpi))


def rebuild(path: list[Link]) -> Trace:
    """Canonical steps as one execution: record IDs are admission order (what the Adapter's handles follow)."""
    ids: list[int] = []  # canonical position -> execution id, for the current state
    steps: list[Step] = []
    n = 0
    for _s, tr, at in path:
        steps.append(Step(renumber_action(tr.action, dict(enumerate(ids))), tr.outcome))
        if at is not None:
            ids.insert(at, n)
            n += 1
    return tuple(steps)


def holds(model: SearchModel, new: Compact, at: int | None, have: list[int], have_premise: list[int],
          premise: list[bool]) -> list[int]:
    """The queries a transition into ``new`` (new record at ``at``) makes hold, from the counts of its
    parent (``expand.counts``); marks the premises it meets."""
    if at is None:
        return []
    rec = new[0][at]
    for i in rec[11]:
        if not premise[i] and have_premise[i] + 1 >= max(1, model.queries[i].more_than):
            premise[i] = True
    out = []
    for i in rec[10]:
        need = model.queries[i].more_than
        if have[i] + 1 > need >= have[i]:
            out.append(i)
    return out


def answers(model: SearchModel, k: int, found: dict[int, Trace], premise: list[bool], complete: dict[int, set[Trace]],
            states: int, exhausted: Unknown | None = None
            ) -> tuple[tuple[tuple[str, SearchVerdict | Unknown], ...], tuple[tuple[str, tuple[Trace, ...]], ...]]:
    """Per query its verdict, per goal its completions in a stable order (shared with ``baseline.py``)."""
    verdicts: list[tuple[str, SearchVerdict | Unknown]] = []
    for i, q in enumerate(model.queries):
        v: SearchVerdict | Unknown
        if i in found:
            v = Found(found[i])
        elif exhausted is not None:
            v = exhausted
        elif not premise[i]:
            v = Vacuous(k)
        else:
            v = Exhausted(k, states)
        verdicts.append((q.name, v))
    comps = tuple((model.queries[i].name, tuple(sorted(complete[i], key=lambda t: (len(t), repr(t)))))
                  for i in sorted(complete))
    return tuple(verdicts), comps


def collect_completions(ctx: Context, s: Compact, tr: Transition, query: int, seen: set[str], out: set[Trace]) -> None:
    """The goal's cone in the successor as the baseline builds it (parent state + the record appended)."""
    model = ctx.model
    _, new = apply_action(model, ctx.mat.search_state(s), tr.action, tr.outcome)
    assert new is not None, "an explored transition must apply"
    steps, goal = cone(model, new, len(new.monitor.trace) - 1, query)
    key = completion_key(steps)
    if key not in seen:
        seen.add(key)
        out |= orders(model, steps, goal, query)
