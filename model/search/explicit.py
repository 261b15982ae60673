"""Engine 1: explicit-state breadth-first search over canonical monitor states (our design for the
missing Section 8 of Agenra; made fast and given a budget after the first version, which is kept in baseline.py).

Layer ``d`` holds the canonical states first reached after ``d`` steps; each state is expanded once,
every agent call is decided by the real monitor (over its compiled policy) and every admitted call
branches on each listed outcome. States are compact tuples (``compact.py``) in the canonical form of
``canon.canonical``, maintained incrementally; successors come from ``expand.successors``. Because layers
are explored in order, the first transition that makes a query hold ends a shortest trace: ``Found``
traces are shortest. The search keeps going to the bound for the other queries and to enumerate useful
completions (``completions.py``); it stops early only when a layer is empty.

With ``reduction`` (the default) sleep sets skip transitions that commute with one already explored
(``por.py``, where the argument is): verdicts, shortest lengths and useful completions are those of the
unreduced search, ``transitions`` counts only the transitions actually explored, and ``states`` may be
lower where the canonical form keeps two renamings of one state apart. ``reduction=False`` is the
search whose counts ``corpus/search/manifest.json`` records, and equals ``baseline.explore_baseline``
(the unoptimized engine, kept as the reference and the speed baseline) state for state.

Budget: one ``meter.tick()`` per transition explored. When it runs out, every query already ``Found``
keeps its (shortest) trace and every other answers ``Unknown``; completions found so far are kept and
``unknown`` says the list may be incomplete. Never a wrong verdict, never a hang.

Counts: ``states`` = distinct canonical states visited (including the initial one), ``transitions`` =
transitions explored (admitted call × outcome, reviewer and approver actions, including those into
already-visited states), ``depth`` = the deepest layer that had states.

A level of the search is ``expand.successors`` over each frontier state, a pure function of (model,
state, sleep set); merging the successors of a layer (first parent wins, in frontier order; sleep sets
intersected) is the only sequential step — the shape a partitioned search needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from model.budget import Budget, BudgetExhausted, Meter, Unknown
from model.search.compact import Compact, empty
from model.search.completions import completion_key, cone, orders
from model.search.expand import Context, Key, counts, shift_key, successors, transition
from model.search.model import QueryKind, SearchModel
from model.search.por import Independence
from model.search.space import apply_action
from model.search.states import Transition, renumber_action
from model.search.verdict import Exhausted, Found, SearchVerdict, Step, Trace, Vacuous

Tick = Callable[[int, int], None]
_STEPS = 100  # progress units per layer: tick(done, total) counts hundredths of layers


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


Link = tuple[Compact, Transition, int | None]


def _rebuild(path: list[Link]) -> Trace:
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


def explore(model: SearchModel, bound: int | None = None, tick: Tick | None = None, budget: Budget = _UNLIMITED,
            reduction: bool = True, meter: Meter | None = None) -> ExplicitRun:
    k = model.bound if bound is None else bound
    ctx = Context(model, renaming=not model.policy.histories)
    indep = ctx.independence
    run = meter if meter is not None else budget.start()
    start, cpu = time.perf_counter(), time.process_time()
    root = empty(model.policy)
    parent: dict[Compact, Link | None] = {root: None}
    nq = len(model.queries)
    found: dict[int, Trace] = {}
    premise = [False] * nq
    goals = {i for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
    cones: dict[int, set[str]] = {i: set() for i in goals}
    complete: dict[int, set[Trace]] = {i: set() for i in goals}
    frontier: list[Compact] = [root]
    sleeps: dict[Compact, dict[Key, int]] = {root: {}}  # sleep sets: transition key -> footprint id
    transitions, depth = 0, 0
    exhausted: Unknown | None = None

    def path_to(s: Compact) -> list[Link]:
        out: list[Link] = []
        link = parent[s]
        while link is not None:
            out.append(link)
            link = parent[link[0]]
        return out[::-1]

    try:
        for layer in range(k):
            nxt: list[Compact] = []
            nxt_sleep: dict[Compact, dict[Key, int]] = {}
            reduce_here = reduction and layer < k - 1  # the last layer's states are never expanded
            for n, s in enumerate(frontier):
                if tick is not None and n % 256 == 0:
                    tick(layer * _STEPS + _STEPS * n // len(frontier), k * _STEPS)
                sleep = sleeps.get(s, {}) if reduction else {}
                have, have_premise = counts(s, nq)
                done: list[tuple[Key, int]] = []
                for tr, new, at, fpi, key in successors(ctx, s, sleep):
                    run.tick()
                    transitions += 1
                    for i in holds(model, new, at, have, have_premise, premise):
                        if i not in found:
                            found[i] = _rebuild([*path_to(s), (s, transition(tr), at)])
                        if i in cones:
                            _completions(ctx, s, transition(tr), i, cones[i], complete[i])
                    if reduce_here:
                        fresh = new not in parent
                        if fresh or new in nxt_sleep:
                            child_sleep = child_sleep_of(indep, sleep, done, fpi, at)
                            if fresh:
                                nxt_sleep[new] = child_sleep
                            else:
                                mine = nxt_sleep[new]
                                if mine:
                                    nxt_sleep[new] = {u: f for u, f in mine.items() if u in child_sleep}
                        if not indep.prints[fpi][0]:
                            done.append((key, fpi))
                    if new not in parent:
                        parent[new] = (s, transition(tr), at)
                        nxt.append(new)
            if not nxt:
                break
            depth = layer + 1
            frontier, sleeps = nxt, nxt_sleep
            if tick is not None:
                tick((layer + 1) * _STEPS, k * _STEPS)
    except BudgetExhausted as exc:
        exhausted = cut_short(run, exc, len(parent), transitions, depth, k)
    except KeyboardInterrupt:
        exhausted = cut_short(run, None, len(parent), transitions, depth, k)
    verdicts, comps = answers(model, k, found, premise, complete, len(parent), exhausted)
    return ExplicitRun(k, verdicts, comps, len(parent), transitions, depth, time.perf_counter() - start,
                       exhausted, reduction, time.process_time() - cpu)


def holds(model: SearchModel, new: Compact, at: int | None, have: list[int], have_premise: list[int],
          premise: list[bool]) -> list[int]:
    """The queries a transition into ``new`` (new record at ``at``) makes hold, from the counts of its
    parent (``expand.counts``); marks the premises it meets (shared with ``fingerprint.py``)."""
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


def _completions(ctx: Context, s: Compact, tr: Transition, query: int, seen: set[str], out: set[Trace]) -> None:
    """The goal's cone in the successor as the baseline builds it (parent state + the record appended)."""
    model = ctx.model
    _, new = apply_action(model, ctx.mat.search_state(s), tr.action, tr.outcome)
    assert new is not None, "an explored transition must apply"
    steps, goal = cone(model, new, len(new.monitor.trace) - 1, query)
    key = completion_key(steps)
    if key not in seen:
        seen.add(key)
        out |= orders(model, steps, goal, query)
