"""The compiled monitor equals the source monitor (the compiled form is only a speed-up,
so it must decide exactly as the source): on generated policies and call runs, on
the corpus policies, and on constants that RFC 8785 equality treats subtly (``1`` and ``1.0`` equal,
``true`` and ``1`` not), ``decide`` (over the compiled form) and ``decide_source`` give equal verdicts —
decision, reason, detail, effects, label, allocations, permit — and stepping with either gives equal
states."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.base.errors import InvalidInput
from model.monitor.decide.base import Decision, Verdict, decide_source
from model.monitor.decide.commit import Outcome, commit, observe, step
from model.monitor.decide.compiled import scalar_key
from model.monitor.decide.state import Call, State, initial_state
from model.monitor.language import policy as P
from model.monitor.language.policy import Policy
from model.oracle.generators import exactly, monitor_runs
from tests.property.test_monitor_props import POLICIES, run_sequence


def step_source(policy: Policy, state: State, call: Call, outcome: Outcome) -> tuple[Verdict, State]:
    verdict = decide_source(policy, state, call)
    if verdict.decision is not Decision.ALLOW:
        return verdict, state
    new, rec = commit(policy, state, call, verdict)
    return verdict, observe(policy, new, rec.id, outcome)


def same_step(policy: Policy, state: State, call: Call, outcome: Outcome) -> State:
    try:
        fast, fast_state = step(policy, state, call, outcome)
    except InvalidInput:  # an argument canonical JSON would round (2**53): refused alike, nothing changes
        with pytest.raises(InvalidInput):
            step_source(policy, state, call, outcome)
        return state
    slow, slow_state = step_source(policy, state, call, outcome)
    assert exactly(fast, slow), (call, fast, slow)  # (types too: Python's == takes true for 1)
    assert exactly(fast_state, slow_state)
    event(f"{fast.decision.value} {fast.reason.value if fast.reason else ''}")
    return fast_state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(monitor_runs())
def test_compiled_equals_source_on_generated_runs(run: tuple[Any, ...]) -> None:
    policy, satisfied, steps = run
    state = initial_state(len(policy.user), len(policy.application), satisfied)
    for call, outcome in steps:
        state = same_step(policy, state, call, outcome)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(sorted(POLICIES)))
def test_compiled_equals_source_on_corpus_policies(data: st.DataObject, name: str) -> None:
    run_sequence(data, POLICIES[name], name, also=same_step)


# Scalars whose RFC 8785 equality differs from Python's or from their text.
TRICKY: list[JSON] = [1, 1.0, True, "1", 0, -0.0, False, None, "", 2**53 - 1, 2**53, 2.0**53, 0.5, "a", "a*"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TRICKY), st.sampled_from(TRICKY))
def test_scalar_key_is_json_equality(a: JSON, b: JSON) -> None:
    from model.base.canonical import json_equal

    ka, kb = scalar_key(a), scalar_key(b)
    assert (ka == kb) == json_equal(a, b) or ka is kb  # an unkeyed value (no index) is never equal by key


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([P.EntryKind.ALLOW, P.EntryKind.ALLOW, P.EntryKind.DENY]),
                          st.sampled_from(TRICKY), st.none() | st.integers(0, 2), st.booleans()),
                min_size=1, max_size=8),
       st.lists(st.sampled_from(TRICKY), min_size=1, max_size=6))
def test_index_over_tricky_constants(grants: list[tuple[P.EntryKind, JSON, int | None, bool]],
                                     targets: list[JSON]) -> None:
    """Constant-indexed entries (mixed with globs and any-patterns) against every tricky resource: the
    index picks exactly the entries the source matcher picks, in first-fit order, as quotas run out."""
    base = POLICIES["delete_ab"]
    entries = tuple(P.Entry(kind, "file.delete", P.GlobPat("a*") if glob and isinstance(v, str) else P.ConstPat(v),
                            quota=q) for kind, v, q, glob in grants)
    policy = replace(base, user=entries,
                     application=tuple(replace(e, quota=None) for e in base.application))
    tool = next(t for t in policy.tools if any(d.action == "file.delete" for d in t.effects))
    arg = next(d.resource.arg for d in tool.effects if isinstance(d.resource, P.ArgRes | P.ListArgRes))
    lists = any(isinstance(d.resource, P.ListArgRes) for d in tool.effects)
    agent = policy.agents[0].name
    state = initial_state(len(policy.user), len(policy.application))
    for t in targets:
        args: dict[str, JSON] = {a: "x" for a in tool.required}
        args[arg] = [t] if lists else t
        state = same_step(policy, state, Call(agent, tool.name, args), Outcome(True, {}))
