"""Property tests of the monitor core (Agenra Section 6): random call sequences over the corpus
policies never raise anything but InvalidInput, every reached state is well formed (Section 6.1),
decisions are deterministic, and only Allow changes the state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.base.errors import InvalidInput
from model.monitor.decide.base import Decision, decide
from model.monitor.decide.commit import Outcome, step
from model.monitor.decide.state import Call, State, initial_state, issue_permit, satisfy
from model.monitor.decide.wellformed import violations
from model.monitor.language.labels import Label, Levels
from model.monitor.language.policy import ConstPat, ConstRes, Policy, SlotPat
from model.monitor.language.syntax import load_policy
from model.oracle.generators import policies

POLICIES = {p.stem: load_policy(str(p)) for p in sorted(
    (Path(__file__).resolve().parent.parent.parent / "corpus" / "policies").glob("*.policy"))}


def interesting_values(policy: Policy) -> list[JSON]:
    """Scalars the policy mentions (so matches happen), plus some that it does not."""
    vals: list[JSON] = ["alice@example.org", "mallory@evil.example", "A", "B", 0, 250, 20000, True, None, ""]
    for e in (*policy.user, *policy.application):
        if isinstance(e.resource, ConstPat):
            vals.append(e.resource.value)
    for t in policy.tools:
        vals.extend(d.resource.value for d in t.effects if isinstance(d.resource, ConstRes))
    for r in policy.resolvers:
        vals.extend(v for _, v in r.args)
    return vals


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 60000), st.text(max_size=6))
json_values = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c,
                                                                                            max_size=3), max_leaves=6)


@st.composite
def calls(draw: st.DrawFn, policy: Policy, n_records: int) -> Call:
    # mostly well-aimed calls, so deep cases (origin, flow, quota, slots, permits) are reached too
    tools = [t.name for t in policy.tools] * 6 + ["NoSuchTool"]
    tool = draw(st.sampled_from(tools))
    decl = policy.tool(tool)
    names = sorted(decl.args) if decl else []
    if draw(st.integers(0, 9)) == 0:
        names += ["undeclared"]
    vals = interesting_values(policy)
    args: dict[str, JSON] = {}
    refs: list[tuple[str, int]] = []
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names))) if names else []
    for name in chosen:
        kind = draw(st.sampled_from(["const", "const", "json", "list", "ref", "ref", "ref"]))
        if kind == "const":
            args[name] = draw(st.sampled_from(vals))
        elif kind == "json":
            args[name] = draw(json_values)
        elif kind == "list":
            args[name] = draw(st.lists(st.sampled_from(vals), max_size=3))
        else:
            args[name] = draw(st.sampled_from(vals))
            lo, hi = (0, n_records - 1) if n_records and draw(st.integers(0, 5)) else (-1, n_records + 1)
            refs.append((name, draw(st.integers(lo, hi))))
    agents = [a.name for a in policy.agents] * 8 + ["intruder"]
    agent = draw(st.sampled_from(agents))
    return Call(agent, tool, args, tuple(sorted(refs)))


@st.composite
def outcomes(draw: st.DrawFn, policy: Policy) -> Outcome:
    if not draw(st.booleans()):
        return Outcome(False)
    paths = [r.path for r in policy.resolvers]
    if paths and draw(st.booleans()):
        value: JSON = {paths[0]: draw(st.sampled_from(interesting_values(policy)) | json_values)}
    else:
        value = draw(json_values)
    return Outcome(True, value)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(sorted(POLICIES)))
def test_random_call_sequences(data: st.DataObject, name: str) -> None:
    run_sequence(data, POLICIES[name], name)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), policies())
def test_random_call_sequences_on_random_policies(data: st.DataObject, policy: Policy) -> None:
    run_sequence(data, policy, "random")


def run_sequence(data: st.DataObject, policy: Policy, name: str,
                 also: Callable[[Policy, State, Call, Outcome], object] | None = None) -> None:
    """``also``: a further check of every drawn call (test_monitor_compiled.py: compiled against source)."""
    state = initial_state(len(policy.user), len(policy.application))
    for _ in range(data.draw(st.integers(1, 12))):
        action = data.draw(st.sampled_from(["call", "call", "call", "satisfy", "permit"]))
        if action == "satisfy" and policy.requirements:
            state = satisfy(state, data.draw(st.sampled_from(sorted(policy.requirements))))
            continue
        call = data.draw(calls(policy, len(state.trace)))
        if action == "permit":
            state, _ = issue_permit(state, call.tool, call.identity())
            continue
        outcome = data.draw(outcomes(policy))
        if also is not None:
            also(policy, state, call, outcome)
        try:
            verdict = decide(policy, state, call)
            again = decide(policy, state, call)
            new_verdict, new_state = step(policy, state, call, outcome)
        except InvalidInput:
            continue  # the only exception allowed
        assert verdict == again == new_verdict, "decide is a function of (policy, state, call)"
        event(f"{name}: {verdict.decision.value} {verdict.reason.value if verdict.reason else ''}")
        if verdict.decision is Decision.ALLOW:
            assert len(new_state.trace) == len(state.trace) + 1
            assert new_state.trace[-1].succeeded == outcome.ok
            assert all(n >= o for n, o in zip(new_state.used_user, state.used_user, strict=True))
        else:
            assert new_state == state, "Deny and Pause leave the state unchanged"
            assert verdict.decision is Decision.PAUSE or verdict.reason is not None
        assert violations(policy, new_state) == ()
        state = new_state


def test_a_broken_state_is_reported_not_assumed() -> None:
    """The well-formedness checker can fail: each clause is caught on a state built to break it."""
    policy = POLICIES["report"]
    state = initial_state(len(policy.user), len(policy.application))
    assert violations(policy, state) == ()
    over = replace(state, used_user=(0, 0, 2, 0, 0))  # record.release has quota 1
    assert any("user counters" in v for v in violations(policy, over))
    forged = replace(state, bindings=(("target", "mallory@evil.example", 0),))
    assert any("binding of target" in v for v in violations(policy, forged))
    both = replace(forged, invalid=frozenset({"target"}))
    assert any("invalid slot" in v for v in violations(policy, both))


levels = Levels(("Public", "Internal", "Confidential"))
labels = st.builds(Label, st.sampled_from(levels.order), st.frozensets(st.sampled_from(["pii", "cred", "fin"])),
                   st.booleans())


@settings(max_examples=300, deadline=None)
@given(labels, labels, labels)
def test_label_join_is_a_join_semilattice(a: Label, b: Label, c: Label) -> None:
    j = levels.join
    assert j(a, a) == a
    assert j(a, b) == j(b, a)
    assert j(j(a, b), c) == j(a, j(b, c))
    assert j(levels.bottom(), a) == a
    assert levels.leq(a, j(a, b)) and levels.leq(b, j(a, b))
    assert levels.leq(a, b) == (j(a, b) == b)


def test_slot_patterns_exist_in_the_corpus() -> None:
    """Guard: the property test above only exercises slots if some corpus policy uses them."""
    assert any(isinstance(e.resource, SlotPat) for p in POLICIES.values() for e in p.user)


