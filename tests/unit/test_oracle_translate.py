"""Translations to the oracle's JSON (model/oracle/edits_json.py, monitor_json.py), without Lean.

The policy words passed to the finite edit checker must be prefix-closed, accepted by the
Python automaton, and include every word the checker asks about; numbering must be a bijection.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings

from model.edits.check.candidates import linearizations
from model.edits.check.instance import Instance
from model.edits.check.resolve import auth, resolve
from model.monitor.decide.state import initial_state
from model.oracle.edits_json import edit_check_input, python_finite_form, resolve_input
from model.oracle.generators import edit_instances, monitor_runs
from model.oracle.monitor_json import compare_step, step_input


@settings(max_examples=100)
@given(edit_instances())
def test_policy_words_are_prefix_closed_and_cover_every_question(inst: Instance) -> None:
    payload, names = edit_check_input(inst)
    words = set(python_finite_form(inst, names).policy)
    assert all(w[:n] in words for w in words for n in range(len(w)))
    labels = list(names.labels)
    for w in words:
        assert inst.policy.accepts([labels[i] for i in w])
    lab = inst.label_map()
    li = {x: i for i, x in enumerate(labels)}
    for p in inst.outcomes().values():
        for lin in linearizations(p):
            new = auth(resolve(lin, inst.action_map(), inst.log))
            full = [li[lab[d]] for d in inst.log] + [li[lab[d]] for d in new]
            assert (tuple(full) in words) == inst.policy.accepts([labels[i] for i in full])
    assert len(set(names.calls)) == len(names.calls) == len(payload["act"])
    assert [o["id"] for o in payload["outcomes"]] == list(range(len(names.outcomes)))
    # the policy goes as its automaton, every transition's label numbered
    delta = {(q, labels[a]): r for q, a, r in payload["policy"]["delta"]}
    assert delta == dict(inst.policy.delta)


def test_resolve_input_numbers_calls_and_actions() -> None:
    payload, names = resolve_input(("c1", "c0", "c1"), {"c0": "d1", "c1": "d0"}, ("d1",))
    assert names.calls == ("c0", "c1") and names.actions == ("d0", "d1")
    assert payload == {"act": [1, 0], "authorized": [1], "word": [1, 0, 1]}


@settings(max_examples=40)
@given(monitor_runs())
def test_step_input_carries_the_counters_and_one_hit_per_effect(run: Any) -> None:
    policy, satisfied, calls = run
    state = initial_state(len(policy.user), len(policy.application), satisfied)
    call, _ = calls[0]
    payload = step_input(policy, state, call)
    assert [e["used"] for e in payload["user"]] == list(state.used_user)
    assert [e["used"] for e in payload["app"]] == list(state.used_app)
    assert all(len(e["hits"]) == payload["effects"] for e in payload["user"] + payload["app"])
    assert not any(e.permit for e in policy.user + policy.application)  # closed core


def test_compare_step_names_each_disagreeing_mode() -> None:
    base = {"decision": "deny", "reason": "quota", "waiting": [], "label": None, "user": None, "app": None,
            "used_user": [0], "used_app": [], "trace": []}
    assert compare_step(base, dict(base)) == []
    assert compare_step(base, {**base, "reason": "flow", "used_user": [1]}) == ["reason", "counters"]
