"""Distinct useful completions (our design for the missing Section 8; Section 3: the chained rule "keeps
all six legitimate delivery orders").

A goal-reaching execution usually carries calls the goal does not need (an extra Read, a look at the
inbox); counting those would count the agent's idling, not delivery orders. So a *useful completion*
is a minimal one: only the goal's **cone** — the goal call and every other call counted towards the
goal (for ``more_than``), the records they read through handles,
transitively, the lookups whose bindings are live when it runs (and their cones), the permits it
consumed, and the requirements the reviewer recorded — in one order in which the real monitor admits
every call and the goal holds first at the last step.

``orders`` enumerates every linear extension of the cone (handles after their producers, an approval
after the handles it names and before its call, the goal call last) and keeps those that the monitor
admits end to end with the same outcomes; the result is a set of traces, so equal completions found
through different executions count once. Choice: failed attempts that merely preceded a cone call
(a failed lookup before a successful one) are not part of the cone; the completion without them is
the minimal one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from model.base.canonical import canonical_str
from model.monitor.decide.base import Decision
from model.monitor.decide.flow import lineage
from model.monitor.decide.state import ArgIdentity
from model.search.model import SearchModel
from model.search.search_verdict import Step, Trace
from model.search.space import apply_action
from model.search.space import initial as initial_state
from model.search.states import AgentCall, Approve, ArgSource, Lit, Ref, Satisfy, SearchState, renumber_action


def _closure(state: SearchState, roots: set[int]) -> set[int]:
    """The roots and their transitive parents (the monitor's own lineage walk)."""
    return {r.id for r in lineage(state.monitor, tuple(sorted(roots)))}


def _record_steps(steps: tuple[Step, ...]) -> dict[int, int]:
    """Step index -> the record ID its call gets (calls are numbered in step order; other steps make none)."""
    calls = [i for i, s in enumerate(steps) if isinstance(s.action, AgentCall)]
    return {i: n for n, i in enumerate(calls)}


def _source(ident: ArgIdentity, local: dict[int, int]) -> ArgSource:
    kind, val = ident
    if kind == "h":
        assert isinstance(val, int)
        return Ref(local[val])
    if kind == "p":
        assert isinstance(val, str)
        rid, _, path = val.partition(":")
        return Ref(local[int(rid)], path)
    assert isinstance(val, str)
    return Lit(val)


def cone(model: SearchModel, state: SearchState, goal: int, query: int) -> tuple[tuple[Step, ...], int]:
    """The goal's cone as steps in trace order (record IDs local to the cone) and the goal step's index.

    Every record that counts towards the query is a root (a goal "more than one deletion" needs both)."""
    mon = state.monitor
    counted = {d for d, ex in enumerate(state.extras) if query in ex.matched}
    ids = _closure(state, {goal} | counted | {i for _, _, i in mon.bindings})
    order = sorted(ids)
    local = {d: k for k, d in enumerate(order)}
    calls: list[Step] = []
    for d in order:
        rec, ex = mon.trace[d], state.extras[d]
        refs = {a: Ref(local[r], p) for a, r, p in ex.refs}
        args = tuple(sorted((n, refs.get(n, Lit(canonical_str(v)))) for n, v in rec.args().items()))
        calls.append(Step(AgentCall(rec.tool, args), ex.outcome))
    steps: list[Step] = [Step(Satisfy(r)) for r in sorted(mon.satisfied)]
    for p in mon.permits:
        handles = [int(str(v).split(":")[0]) for _, (k, v) in p.identity if k in ("h", "p")]
        if p.consumed and all(h in local for h in handles):
            call = AgentCall(p.tool, tuple((a, _source(i, local)) for a, i in p.identity))
            if any(s.action == call for s in calls):
                steps.append(Step(Approve(call)))
    steps.extend(calls)
    return tuple(steps), len(steps) - len(calls) + local[goal]


def _needs(step: Step) -> set[int]:
    act = step.action
    inner = act.call if isinstance(act, Approve) else act
    if isinstance(inner, Satisfy):
        return set()
    return {s.record for _, s in inner.args if isinstance(s, Ref)}


def _extensions(steps: tuple[Step, ...], goal: int) -> Iterator[tuple[int, ...]]:
    """Linear extensions: a call after the calls it names, an approval before its call, the goal last."""
    record_of = {n: i for i, n in _record_steps(steps).items()}
    before: dict[int, set[int]] = {i: {record_of[r] for r in _needs(s)} for i, s in enumerate(steps)}
    for i, s in enumerate(steps):
        if isinstance(s.action, Approve):
            for j, t in enumerate(steps):
                if t.action == s.action.call:
                    before[j].add(i)
    for i in range(len(steps)):
        if i != goal:
            before[goal].add(i)

    def go(done: tuple[int, ...], left: frozenset[int]) -> Iterator[tuple[int, ...]]:
        if not left:
            yield done
            return
        for i in sorted(left):
            if before[i] <= set(done):
                yield from go((*done, i), left - {i})

    yield from go((), frozenset(range(len(steps))))


def orders(model: SearchModel, steps: tuple[Step, ...], goal: int, query: int) -> set[Trace]:
    """Every order of the cone that the monitor admits end to end, reaching the goal first at its last step."""
    threshold = model.queries[query].more_than
    local_record = _record_steps(steps)
    out: set[Trace] = set()
    for order in _extensions(steps, goal):
        state = initial_state(model)
        ids: dict[int, int] = {}  # cone-local record -> record ID in this execution
        trace: list[Step] = []
        ok = True
        for pos, i in enumerate(order):
            step = steps[i]
            action = renumber_action(step.action, ids)
            verdict, nxt = apply_action(model, state, action, step.outcome)
            if nxt is None or (verdict is not None and verdict.decision is not Decision.ALLOW):
                ok = False
                break
            if i in local_record:
                ids[local_record[i]] = len(state.monitor.trace)
            trace.append(Step(action, step.outcome))
            reached = nxt.count(query) > threshold
            if reached != (pos == len(order) - 1):
                ok = False
                break
            state = nxt
        if ok:
            out.add(tuple(trace))
    return out


def completion_key(steps: tuple[Step, ...]) -> str:
    """A cache key for a cone (structural text; equal cones from different executions share it)."""
    return json.dumps([repr(s) for s in steps])
