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
parent links traces are rebuilt from. The loop owns what every store shares: the successors, the budget,
the queries, the completions and the sleep sets' computation (``child_sleep_of``). A store's ``add``
follows one rule, the one a partitioned search needs: the first parent to reach a state wins (in
frontier order), and a state reached again within the layer being built keeps the intersection of the
sleep sets its parents pass.

Budget: one ``meter.tick()`` per transition explored. When it runs out, every query already ``Found``
keeps its (shortest) trace and every other answers ``Unknown``; completions found so far are kept and
``unknown`` says the list may be incomplete. Never a wrong verdict, never a hang.

Counts: ``states`` = distinct canonical states visited (including the initial one), ``transitions`` =
transitions explored (admitted call × outcome, reviewer and approver actions, including those into
already-visited states), ``depth`` = the deepest layer that had states.

The cycle collector is paused while the search runs (``heap.py`` says why), as it is on the workers of
the partitioned search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from model.base.budget import Budget, BudgetExhausted, Meter, Unknown
from model.search.compact import Compact
from model.search.completions import completion_key, cone, orders
from model.search.expand import Context, Key, Raw, counts, shift_key, successors, transition
from model.search.heap import paused
from model.search.model import QueryKind, SearchModel
from model.search.por import Independence
from model.search.search_verdict import Exhausted, Found, SearchVerdict, Step, Trace, Vacuous
from model.search.space import apply_action
from model.search.states import Transition, renumber_action

Tick = Callable[[int, int], None]
_STEPS = 100  # progress units per layer: tick(done, total) counts hundredths of layers
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


class Visited(Protocol):
    """The visited set, frontiers, sleep sets and parent links of one layered search."""

    mode: str

    def __len__(self) -> int: ...  # states visited so far

    def begin(self, last: bool) -> None: ...  # a layer starts; ``last``: its successors are never expanded

    def width(self) -> int: ...  # states in the frontier being expanded

    def frontier(self) -> Iterator[tuple[int, Compact, Sleep]]: ...  # (index, state, sleep set), in order

    def add(self, s: Compact, n: int, raw: Raw, new: Compact, at: int | None, key: Key, sleep: Sleep | None,
            done: list[tuple[Key, int]], fpi: int) -> None:
        """The transition ``raw`` (key ``key``, footprint ``fpi``) from the ``n``-th frontier state ``s``
        reaches ``new``; ``sleep`` (None when this layer is not reduced) and ``done`` give its child's
        sleep set (``child_sleep_of``)."""

    def advance(self) -> bool: ...  # the layer ends; False when it added no state

    def path(self, n: int, s: Compact) -> list[Link]: ...  # links from the initial state to frontier state n

    def collision(self) -> float: ...


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


@paused()
def layered(ctx: Context, store: Visited, k: int, tick: Tick | None = None, budget: Budget = _UNLIMITED,
            reduction: bool = True, meter: Meter | None = None) -> ExplicitRun:
    """The search to bound ``k`` over ``store`` (module docstring)."""
    model = ctx.model
    indep = ctx.independence
    prints = indep.prints
    run = meter if meter is not None else budget.start()
    start, cpu = time.perf_counter(), time.process_time()
    nq = len(model.queries)
    found: dict[int, Trace] = {}
    premise = [False] * nq
    goals = {i for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
    cones: dict[int, set[str]] = {i: set() for i in goals}
    complete: dict[int, set[Trace]] = {i: set() for i in goals}
    transitions, depth = 0, 0
    exhausted: Unknown | None = None
    add = store.add
    try:
        for layer in range(k):
            reduce_here = reduction and layer < k - 1  # the last layer's states are never expanded
            store.begin(layer == k - 1)
            width = store.width()
            for n, s, sleep in store.frontier():
                if tick is not None and n % 256 == 0:
                    tick(layer * _STEPS + _STEPS * n // width, k * _STEPS)
                have, have_premise = counts(s, nq)
                done: list[tuple[Key, int]] = []
                pass_sleep = sleep if reduce_here else None
                for tr, new, at, fpi, key in successors(ctx, s, sleep if reduction else EMPTY):
                    run.tick()
                    transitions += 1
                    if at is not None:
                        for i in holds(model, new, at, have, have_premise, premise):
                            if i not in found:
                                found[i] = rebuild([*store.path(n, s), (s, transition(tr), at)])
                            if i in cones:
                                collect_completions(ctx, s, transition(tr), i, cones[i], complete[i])
                    add(s, n, tr, new, at, key, pass_sleep, done, fpi)
                    if reduce_here and not prints[fpi][0]:
                        done.append((key, fpi))
            if not store.advance():
                break
            depth = layer + 1
            if tick is not None:
                tick((layer + 1) * _STEPS, k * _STEPS)
    except BudgetExhausted as exc:
        exhausted = cut_short(run, exc, len(store), transitions, depth, k)
    except KeyboardInterrupt:
        exhausted = cut_short(run, None, len(store), transitions, depth, k)
    verdicts, comps = answers(model, k, found, premise, complete, len(store), exhausted)
    return ExplicitRun(k, verdicts, comps, len(store), transitions, depth, time.perf_counter() - start,
                       exhausted, reduction, time.process_time() - cpu, store.mode, store.collision())


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


def cut_short(run: Meter, exc: BudgetExhausted | None, states: int, transitions: int, depth: int, k: int) -> Unknown:
    """``Unknown`` for a search stopped by its budget (``exc``) or by Ctrl-C (``None``): what it covered."""
    if exc is not None:
        return Unknown.of(exc, f"explored {states} states and {transitions} transitions; layer {depth + 1} of "
                               f"bound {k} incomplete")
    return Unknown(run.budget, run.spent, "interrupt", f"interrupted after {states} states and {transitions} "
                   f"transitions; layer {depth + 1} of bound {k} incomplete")


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
