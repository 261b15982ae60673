"""The mediated call's shortcuts equal what they replaced (speed-ups that must not
change an answer): the adapter's value store and
composed argument text (``model/monitor/adapter/values.py``) against parsing and canonicalizing from scratch,
shared counters (``counters.py``) against tuples, and an adapter on a long policy against ``step``."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.base.canonical import canonical_str
from model.base.errors import InvalidInput
from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Handle
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.adapter.values import Store, arguments
from model.monitor.decide.commit import Outcome, step
from model.monitor.decide.counters import Counters, charge, charge_positions, zeros
from model.monitor.decide.matching import Missing, lookup_path
from model.monitor.decide.state import Call, initial_state
from model.monitor.language.policy import ConstPat, Entry, EntryKind, Policy

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6), lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c, max_size=3),
    max_leaves=8)
names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=4)


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types throughout, in the same key order (``1 == 1.0`` is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _paths(v: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [prefix]
    if isinstance(v, dict):
        for k, x in v.items():
            out += _paths(x, (*prefix, k))
    return out


@settings(max_examples=200, deadline=None)
@given(json_values, st.data())
def test_store_hands_out_what_parsing_the_stored_text_gave(v: Any, data: st.DataObject) -> None:
    text = canonical_str(v)
    store = Store()
    store.put(3, text)
    path = data.draw(st.sampled_from([*_paths(json.loads(text)), ("no such field",)]))
    expected = lookup_path(json.loads(text), path)
    got = store.fresh(3, path)
    if isinstance(expected, Missing):
        assert got is None
        return
    assert got is not None
    assert same(got[0], expected) and got[1] == canonical_str(expected)
    again = store.fresh(3, path)
    assert again is not None and same(again[0], expected)
    if isinstance(expected, dict | list):  # a fresh object each time: changing one leaves the store alone
        assert again[0] is not got[0]
        got[0].clear()
        third = store.fresh(3, path)
        assert third is not None and same(third[0], expected)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(names, st.tuples(json_values, st.booleans()), min_size=0, max_size=4))
def test_composed_argument_text_and_tool_copies_equal_the_whole_object_computation(
        args: dict[str, tuple[Any, bool]]) -> None:
    members: dict[str, tuple[Any, str | None]] = {}
    for n, (v, stored) in args.items():
        if stored:  # a value from the store: a parse of its canonical text, with that text
            t = canonical_str(v)
            members[n] = (json.loads(t), t)
        else:  # the agent's literal, as given
            members[n] = (v, None)
    concrete = {n: v for n, (v, _) in members.items()}
    expected = canonical_str(concrete)
    text, tool_args = arguments(members)
    assert text == expected
    assert same(tool_args, json.loads(expected))
    for n, (v, _) in members.items():  # containers are new objects, never the caller's
        if isinstance(v, dict | list):
            assert tool_args[n] is not v


def test_a_literal_that_is_not_json_fails_as_the_whole_object_did() -> None:
    members: dict[str, tuple[Any, str | None]] = {"a": (1, "1"), "b": ({"x": float("nan")}, None)}
    with pytest.raises(InvalidInput) as whole:
        canonical_str({"a": 1, "b": {"x": float("nan")}})
    with pytest.raises(InvalidInput) as composed:
        arguments(members)
    assert str(composed.value) == str(whole.value)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.lists(st.lists(st.integers(0, 299), max_size=3), max_size=60))
def test_shared_counters_equal_tuples(n: int, charges: list[list[int]]) -> None:
    shared, plain = Counters(n), (0,) * n
    for positions in charges:
        positions = [k for k in positions if k < n]
        shared, plain = shared.charged(positions), charge_positions(plain, positions)
        assert shared == plain and plain == shared and tuple(shared) == plain and list(shared) == list(plain)
        assert hash(shared) == hash(plain) and len(shared) == n and repr(shared) == repr(plain)
        if n:
            assert shared[-1] == plain[-1] and shared[n // 2] == plain[n // 2] and shared[1:3] == plain[1:3]
    assert zeros(n) == (0,) * n and charge(zeros(n), []) == (0,) * n
    with pytest.raises(IndexError):
        shared[n]


def test_old_counters_are_not_changed_by_later_charges() -> None:
    a = Counters(100)
    b = a.charged([5, 5, 7])
    c = b.charged([5])
    assert (a[5], b[5], c[5], b[7], c[7]) == (0, 2, 3, 1, 1)
    assert b != c and a == (0,) * 100


def _long_report(n: int) -> Policy:
    p = load("report")
    pad = tuple(Entry(EntryKind.ALLOW, f"noise.a{i % 7}", ConstPat(f"r{i}"), quota=1) for i in range(n))
    return replace(p, user=(*pad, *p.user), application=(*p.application, *pad))


def test_an_adapter_on_a_long_policy_reaches_the_state_step_reaches_over_tuples() -> None:
    policy = _long_report(200)
    world = ReportWorld()
    ad = Adapter(policy, world.tools(), "assistant")
    assert isinstance(ad.state.used_user, Counters)
    r = ad.call("Read")
    assert isinstance(r, Handle)
    s = ad.call("Sanitize", record=r)
    a = ad.call("Lookup", name="Alice")
    assert isinstance(s, Handle) and isinstance(a, Handle)
    assert isinstance(ad.call("Send", body=s, recipient=a.at("destination")), Handle)
    # the same four calls stepped over tuple counters, with the outcomes the tools gave
    state = initial_state(len(policy.user), len(policy.application))
    replay = ReportWorld()
    report = replay.read()
    summary = replay.sanitize(report)
    calls = [(Call("assistant", "Read", {}), report),
             (Call("assistant", "Sanitize", {"record": report}, (("record", 0),)), summary),
             (Call("assistant", "Lookup", {"name": "Alice"}), replay.lookup("Alice")),
             (Call("assistant", "Send", {"body": summary, "recipient": "alice@example.org"},
                   (("body", 1), ("recipient", 2)), (("recipient", "destination"),)), {"delivered": True})]
    for call, result in calls:
        _, state = step(policy, state, call, Outcome(True, result))
    assert type(state.used_user) is tuple
    assert ad.state == state and state == ad.state
    assert sum(ad.state.used_user) == 4 and sum(ad.state.used_app) == 4


def test_counters_fold_their_changes_into_a_new_base_and_stay_equal() -> None:
    shared, plain = Counters(40), (0,) * 40
    for k in [*range(40), *range(0, 40, 3)]:  # more distinct positions than the delta holds (32)
        shared, plain = shared.charged([k]), charge_positions(plain, [k])
        assert shared == plain
    assert shared[39] == 2 and shared[1] == 1 and tuple(shared) == plain
