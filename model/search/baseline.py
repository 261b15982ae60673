"""The explicit engine as it was before it was made fast, kept as the reference and the speed baseline: breadth-first
search over canonical monitor states (our design for the missing Section 8 of Agenra), states as
``SearchState`` dataclasses canonicalized from scratch per transition, no reduction. ``explicit.explore``
with ``reduction=False`` must equal it state for state (tests/property/test_search_por.py), and
``experiments/bounded_analysis.py`` measures both in one run.

Layer ``d`` holds the canonical states first reached after ``d`` steps; each state is expanded once
(states are hashed after ``canon.canonical``), every agent call is decided by the real monitor, and
every admitted call branches on each listed outcome. Because layers are explored in order, the first
transition that makes a query hold ends a shortest trace: ``Found`` traces are shortest. The search
keeps going to the bound for the other queries and to enumerate useful completions
(``completions.py``); it stops early only when a layer is empty (the bounded space is closed).

Counts: ``states`` = distinct canonical states visited (including the initial one), ``transitions`` =
enabled transitions expanded (admitted call × outcome, reviewer and approver actions, including those
into already-visited states), ``depth`` = the deepest
layer that had states.

Progress: ``tick(done, total)`` in hundredths of a layer (the share of the current frontier expanded).

A found trace is rebuilt from parent pointers and re-executed from the initial state, translating the
canonical record IDs of each layer into the IDs of the one execution (so handles line up on replay).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from model.search.canon import canonical
from model.search.completions import completion_key, cone, orders
from model.search.explicit import ExplicitRun, answers
from model.search.model import QueryKind, SearchModel
from model.search.search_verdict import Step, Trace
from model.search.space import apply_action, successors
from model.search.space import initial as initial_state
from model.search.states import SearchState, Transition, renumber_action

Tick = Callable[[int, int], None]
_STEPS = 100  # progress units per layer: tick(done, total) counts hundredths of layers


def _rebuild(model: SearchModel, path: list[tuple[SearchState, Transition]], renaming: bool) -> Trace:
    """Re-execute canonical steps as one concrete execution (IDs = admission order)."""
    ids: dict[int, int] = {}  # canonical id of the current layer's state -> execution id
    concrete = initial_state(model)
    steps: list[Step] = []
    for canon_state, tr in path:
        action = renumber_action(tr.action, ids)
        _, nxt = apply_action(model, concrete, action, tr.outcome)
        _, succ = apply_action(model, canon_state, tr.action, tr.outcome)
        assert nxt is not None and succ is not None, "a stored transition must replay"
        steps.append(Step(action, tr.outcome))
        _, perm = canonical(succ, renaming)
        n = len(canon_state.monitor.trace)
        extended = dict(ids)
        if len(succ.monitor.trace) > n:
            extended[n] = len(concrete.monitor.trace)
        ids = {perm[s]: extended[s] for s in extended}
        concrete = nxt
    return tuple(steps)


def explore_baseline(model: SearchModel, bound: int | None = None, tick: Tick | None = None) -> ExplicitRun:
    k = model.bound if bound is None else bound
    renaming = not model.policy.histories
    start, cpu = time.perf_counter(), time.process_time()
    root, _ = canonical(initial_state(model), renaming)
    parent: dict[SearchState, tuple[SearchState, Transition] | None] = {root: None}
    nq = len(model.queries)
    found: dict[int, Trace] = {}
    premise = [False] * nq
    cones: dict[int, set[str]] = {i: set() for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
    complete: dict[int, set[Trace]] = {i: set() for i in cones}
    frontier = [root]
    transitions, depth = 0, 0

    def path_to(s: SearchState) -> list[tuple[SearchState, Transition]]:
        out: list[tuple[SearchState, Transition]] = []
        link = parent[s]
        while link is not None:
            out.append(link)
            link = parent[link[0]]
        return out[::-1]

    for layer in range(k):
        nxt_frontier: list[SearchState] = []
        for n, s in enumerate(frontier):
            if tick is not None and n % 256 == 0:  # the last layers dominate: report progress inside a layer too
                tick(layer * _STEPS + _STEPS * n // len(frontier), k * _STEPS)
            for tr, new in successors(model, s):
                transitions += 1
                for i, q in enumerate(model.queries):
                    need = q.more_than
                    if not premise[i] and new.premise_count(i) >= max(1, need):
                        premise[i] = True
                    if new.count(i) > need >= s.count(i):
                        if i not in found:
                            found[i] = _rebuild(model, [*path_to(s), (s, tr)], renaming)
                        if i in cones:
                            steps, goal = cone(model, new, len(new.monitor.trace) - 1, i)
                            key = completion_key(steps)
                            if key not in cones[i]:
                                cones[i].add(key)
                                complete[i] |= orders(model, steps, goal, i)
                c, _ = canonical(new, renaming)
                if c not in parent:
                    parent[c] = (s, tr)
                    nxt_frontier.append(c)
        if not nxt_frontier:
            break
        depth = layer + 1
        frontier = nxt_frontier
        if tick is not None:
            tick((layer + 1) * _STEPS, k * _STEPS)
    verdicts, comps = answers(model, k, found, premise, complete, len(parent))
    return ExplicitRun(k, verdicts, comps, len(parent), transitions, depth, time.perf_counter() - start,
                       cpu_seconds=time.process_time() - cpu)
