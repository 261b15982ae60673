"""Differential tests of the revision engines (Agenra Section 7.1): each verdict is
confirmed by an engine that reaches it another way.

- Z3 and explicit enumeration agree on matching agreement and independence of generated grants:
  every disagreement or overlap the explicit engine finds (with the monitor's own ``entry_matches``)
  is found by Z3, and every Z3 witness, replayed through ``entry_matches``, really is one.
- Glob patterns: the Z3 regex accepts exactly the strings ``fnmatchcase`` accepts.
- Every certificate found for a generated revision checks, also after a JSON round trip.
- A certified generated revision (structural, simulation per list, or joint simulation over both
  lists) has no lost client up to length 3, by brute force over every sequence of the workload
  through ``model.monitor.decide.commit.step``, and wherever both policies admit a call the whole safety
  state (everything but the counters) and the committed record agree; every proposed joint simulation
  passes the independent checker (also after a JSON round trip), and a per-list simulation always has a
  joint one.
- A reported lost client is admitted before and refused after, by direct replay.
- Mid-task: after a generated prefix the old policy admits, the correspondence checks, every
  certificate checks against the carried counters, a certified revision has no lost client from the
  carried pair of states (brute force), and a reported lost client is confirmed by the Adapter replay
  of prefix + suffix and is a shortest suffix admitted before and refused after.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import replace

import pytest
import z3
from hypothesis import event, given, settings
from hypothesis import strategies as st

from model.monitor.decide.base import Decision
from model.monitor.decide.commit import Outcome, step
from model.monitor.decide.state import Call, State, initial_state, satisfy
from model.monitor.language import policy as P
from model.monitor.language.policy import Policy, Tool
from model.oracle.generators import REVISION_TOOL, REVISION_WORKLOAD_JSON, del_text, revision_cases, revision_grants
from model.revision.carry import Ledgers, check_correspondence
from model.revision.certify.agreement import Agree, Disagree, agree
from model.revision.certify.certificate import Certificate, certificate_from_json, certificate_to_json
from model.revision.certify.certificate_checker import Valid, check, check_joint
from model.revision.certify.independence import Independent, Overlap, independent
from model.revision.certify.joint import propose as propose_joint
from model.revision.certify.joint_certificate import JointSimulation, joint_from_json, joint_to_json
from model.revision.certify.simulation import NoSimulation, simulate
from model.revision.certify.structural import certify
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.counterexample import Counterexample, lost_client
from model.revision.explore.prefix import Prefix, PrefixStep, StartingPoint, starting_point
from model.revision.explore.workload import Workload, workload_from_json
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise
from model.revision.smt.enumerate import Domain, disagreement, domain_for, overlap, replay_matches
from model.revision.smt.globs import translate

TOOLS = (REVISION_TOOL,)
WORKLOAD = workload_from_json(REVISION_WORKLOAD_JSON)
BOUND = 3


def _domain(*entries: object) -> Domain:
    d = domain_for(entries, extra=("a", "abx", "b"))  # type: ignore[arg-type]
    return Domain(d.scalars, max_args=150)


# Also a tool where two arguments name resources of one call: its effects pay(1) and pay(true) are distinct
# (Python's ``True == 1`` once merged them in the explicit engine, which then missed disagreements).
TWO_RESOURCES = (replace(REVISION_TOOL, effects=(*REVISION_TOOL.effects, P.EffectDecl("pay", P.ArgRes("amount")))),)
BOTH_TOOLS = pytest.mark.parametrize("tools", [TOOLS, TWO_RESOURCES], ids=["one resource", "two resources"])


@BOTH_TOOLS
@settings(max_examples=40)
@given(revision_grants(), revision_grants())
def test_z3_and_explicit_agree_on_matching_agreement(tools: tuple[Tool, ...], a: object, b: object) -> None:
    verdict = agree(a, b, EVERY_EFFECT, tools)  # type: ignore[arg-type]
    found = disagreement(a, b, EVERY_EFFECT, tools, _domain(a, b))  # type: ignore[arg-type]
    if found is not None:
        assert isinstance(verdict, Disagree), (found, verdict)
    if isinstance(verdict, Disagree):
        w = verdict.witness
        assert replay_matches(a, w) != replay_matches(b, w), w  # type: ignore[arg-type]
    if isinstance(verdict, Agree):
        assert found is None


@BOTH_TOOLS
@settings(max_examples=40)
@given(revision_grants(), revision_grants())
def test_z3_and_explicit_agree_on_independence(tools: tuple[Tool, ...], a: object, b: object) -> None:
    verdict = independent(a, b, EVERY_EFFECT, tools)  # type: ignore[arg-type]
    found = overlap(a, b, EVERY_EFFECT, tools, _domain(a, b))  # type: ignore[arg-type]
    if found is not None:
        assert isinstance(verdict, Overlap), (found, verdict)
    if isinstance(verdict, Overlap):
        assert replay_matches(a, verdict.witness) and replay_matches(b, verdict.witness)  # type: ignore[arg-type]
    if isinstance(verdict, Independent):
        assert found is None


# Two arguments name resources of one call: a call's effects pay(1) and pay(true) are distinct (Python's
# ``True == 1`` once merged them in the explicit engine, which then missed disagreements).
TWO_RESOURCES = (replace(REVISION_TOOL, effects=(*REVISION_TOOL.effects, P.EffectDecl("pay", P.ArgRes("amount")))),)


_GLOB_CHARS = st.text(alphabet="ab*?[]!-\\", max_size=6)


@settings(max_examples=150)
@given(_GLOB_CHARS, st.lists(st.text(alphabet="ab-]![\\u{4}", max_size=4), min_size=1, max_size=6))
def test_glob_regex_accepts_exactly_what_fnmatch_accepts(glob: str, words: list[str]) -> None:
    regex = translate(glob)
    if regex is None:  # unsupported bracket syntax: callers fail to certify, checked in test_revision_symbolic
        return
    for w in words:
        solver = z3.Solver()
        solver.add(z3.InRe(z3.StringVal(w), regex))
        assert (solver.check() == z3.sat) == fnmatch.fnmatchcase(w, glob), (glob, w)


def _safety(s: State) -> State:
    """The whole safety state: everything but the two usage vectors (trace with labels and lineage,
    bindings, invalid slots, satisfied requirements, permits)."""
    return replace(s, used_user=(), used_app=())


def brute_lost(old: Policy, new: Policy, bound: int = BOUND, start: tuple[State, State] | None = None,
               workload: Workload = WORKLOAD) -> tuple[int, ...] | None:
    """A shortest workload sequence old admits and new refuses (the first in lexicographic order), by
    plain enumeration with ``step`` — every sequence up to ``bound`` that old admits, depth first,
    no state merged — from task start or from ``start`` = (old state, carried new state). Templates
    with literal arguments, declared outcomes and application events (``$from`` is not supported)."""
    if start is None:
        start = (initial_state(len(old.user), len(old.application)),
                 initial_state(len(new.user), len(new.application)))
    best: tuple[int, ...] | None = None

    def go(seq: tuple[int, ...], s_old: State, s_new: State) -> None:
        nonlocal best
        if len(seq) == bound or (best is not None and len(seq) >= len(best)):
            return
        for k, t in enumerate(workload.templates):
            if t.tool is None:
                assert t.satisfy is not None
                go((*seq, k), satisfy(s_old, t.satisfy), satisfy(s_new, t.satisfy))
                continue
            assert not t.sources(), "brute_lost takes literal arguments only"
            call = Call(workload.agent, t.tool, t.literal_args())
            outcome = Outcome(t.ok, json.loads(t.value_json) if t.ok else None)
            v_old, o2 = step(old, s_old, call, outcome)
            if v_old.decision is not Decision.ALLOW:
                continue
            v_new, n2 = step(new, s_new, call, outcome)
            if v_new.decision is not Decision.ALLOW:
                found = (*seq, k)
                if best is None or (len(found), found) < (len(best), best):
                    best = found
                continue
            # Section 7.1 (2): from identical safety states and observations, an admission under both
            # policies commits the same record (label, lineage) and leaves the same safety state; only the
            # counters may differ
            assert (v_new.label, v_new.effects, v_new.permit) == (v_old.label, v_old.effects, v_old.permit), (seq, k)
            assert _safety(n2) == _safety(o2), (seq, k)
            go((*seq, k), o2, n2)

    go((), *start)
    return best


@settings(max_examples=25)
@given(revision_cases())
def test_certificates_check_and_certified_revisions_lose_no_client(case: tuple[Policy, Policy]) -> None:
    old, new = case
    cert = certify(old, new, EVERY_EFFECT)
    if isinstance(cert, Certificate):
        assert isinstance(check(cert, old, new), Valid)
        assert isinstance(check(certificate_from_json(certificate_to_json(cert)), old, new), Valid)
    sim = simulate(old, new, EVERY_EFFECT)
    joint = _checked_joint(old, new)
    if not isinstance(sim, NoSimulation):
        assert joint is not None  # a closed simulation per list is a joint one
    if isinstance(cert, Certificate) or not isinstance(sim, NoSimulation) or joint is not None:
        assert brute_lost(old, new) is None, (cert, sim, joint)


@st.composite
def ceiling_cases(draw: st.DrawFn) -> tuple[Policy, Policy]:
    """A delete policy with a one-grant application ceiling, revised mostly in the user list: the
    shape where the ceiling masks what the user list loses, so only the joint simulation certifies."""
    from model.monitor.language.syntax import parse_policy
    from model.oracle.generators import del_entry, policy_edit

    user = draw(st.lists(del_entry(), min_size=1, max_size=3))
    app = [draw(del_entry())]
    new_user, new_app = list(user), list(app)
    for _ in range(draw(st.integers(1, 2))):
        if draw(st.integers(0, 3)) > 0:
            new_user = draw(policy_edit(new_user))
        else:
            new_app = draw(policy_edit(new_app))
    return parse_policy(del_text("old", user, app)), parse_policy(del_text("new", new_user, new_app))


@settings(max_examples=40, deadline=None)
@given(ceiling_cases())
def test_joint_simulations_under_a_ceiling_check_and_lose_no_client(case: tuple[Policy, Policy]) -> None:
    old, new = case
    joint = _checked_joint(old, new)
    per_list = simulate(old, new, EVERY_EFFECT)
    if not isinstance(per_list, NoSimulation):
        assert joint is not None
    if joint is not None:
        event("joint simulation found" + ("" if isinstance(per_list, NoSimulation) else " (per-list too)"))
        assert brute_lost(old, new) is None, joint.summary()


def _checked_joint(old: Policy, new: Policy, ledgers: Ledgers | None = None) -> JointSimulation | None:
    """The joint simulation proposed for the revision, after the independent checker validated it
    (and its JSON round trip); ``None`` when none is proposed."""
    joint = propose_joint(old, new, EVERY_EFFECT, ledgers)
    if isinstance(joint, NoSimulation):
        return None
    assert isinstance(check_joint(joint, old, new, ledgers), Valid)
    assert isinstance(check_joint(joint_from_json(joint_to_json(joint)), old, new, ledgers), Valid)
    return joint


@settings(max_examples=25)
@given(revision_cases())
def test_reported_lost_clients_are_admitted_before_and_refused_after(case: tuple[Policy, Policy]) -> None:
    old, new = case
    report = revise(old, new, EVERY_EFFECT, WORKLOAD, BOUND)
    brute = brute_lost(old, new)
    if isinstance(report.preservation, NotPreserved):
        lost = report.preservation.lost
        assert lost.confirmed
        assert brute is not None and len(brute) == len(lost.seq)  # shortest, as brute force finds
        assert _refused_only_last(old, new, lost)
    elif isinstance(report.preservation, Certified):
        assert brute is None
    else:
        assert brute is None  # Unknown within the bound: brute force finds nothing either


def _refused_only_last(old: Policy, new: Policy, lost: Counterexample) -> bool:
    s_old = initial_state(len(old.user), len(old.application))
    s_new = initial_state(len(new.user), len(new.application))
    for i, k in enumerate(lost.seq):
        t = WORKLOAD.templates[k]
        assert t.tool is not None
        call = Call(WORKLOAD.agent, t.tool, t.literal_args())
        v_old, s_old = step(old, s_old, call, Outcome(True, {}))
        v_new, s_new = step(new, s_new, call, Outcome(True, {}))
        if v_old.decision is not Decision.ALLOW:
            return False
        if (v_new.decision is Decision.ALLOW) == (i == len(lost.seq) - 1):
            return False
    return True


def test_lost_client_search_agrees_with_brute_force_on_the_widening() -> None:
    from model.monitor.language.syntax import parse_policy
    from model.oracle.generators import del_text

    old = parse_policy(del_text("old", ['allow file.delete("B") quota 1', 'allow file.delete("A") quota 1'],
                                 ["allow file.delete(*) quota unlimited"]))
    new = parse_policy(del_text("new", ["allow file.delete(*) quota 1", 'allow file.delete("A") quota 1'],
                                 ["allow file.delete(*) quota unlimited"]))
    found = lost_client(old, new, WORKLOAD, BOUND)
    assert isinstance(found, Counterexample)
    assert found.seq == brute_lost(old, new) == (0, 1)


# --- mid-task revisions: the same judgments after generated admitted prefixes (model/revision/explore/prefix.py) ---

def _admitted_prefix(old: Policy, picks: list[int]) -> Prefix:
    """The calls of ``picks`` (workload template indices) that ``old`` admits, in order (refused ones skipped)."""
    steps: list[PrefixStep] = []
    state = initial_state(len(old.user), len(old.application))
    for k in picks:
        t = WORKLOAD.templates[k]
        assert t.tool is not None
        verdict, state = step(old, state, Call(WORKLOAD.agent, t.tool, t.literal_args()), Outcome(True, {}))
        if verdict.decision is Decision.ALLOW:
            steps.append(PrefixStep(t.name, t.tool, t.args, (), True, "{}"))
    return Prefix("<generated>", WORKLOAD.agent, tuple(steps))


def brute_lost_from(old: Policy, new: Policy, point: StartingPoint, bound: int = BOUND) -> tuple[int, ...] | None:
    """A shortest suffix old admits from S and new refuses from the carried state, by plain enumeration."""
    return brute_lost(old, new, bound, (point.run.state, point.new_state))


_PICKS = st.lists(st.integers(0, len(WORKLOAD.templates) - 1), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(revision_cases(), _PICKS)
def test_mid_task_certificates_check_and_certified_revisions_lose_no_client(case: tuple[Policy, Policy],
                                                                            picks: list[int]) -> None:
    old, new = case
    prefix = _admitted_prefix(old, picks)
    point = starting_point(old, new, prefix)
    assert check_correspondence(point.correspondence, old, new) is None
    ledgers = point.ledgers()
    cert = certify(old, new, EVERY_EFFECT, ledgers)
    if isinstance(cert, Certificate):
        assert isinstance(check(cert, old, new, ledgers), Valid)
        assert isinstance(check(certificate_from_json(certificate_to_json(cert)), old, new, ledgers), Valid)
    sim = simulate(old, new, EVERY_EFFECT, ledgers)
    joint = _checked_joint(old, new, ledgers)
    if not isinstance(sim, NoSimulation):
        assert joint is not None
    if isinstance(cert, Certificate) or not isinstance(sim, NoSimulation) or joint is not None:
        assert brute_lost_from(old, new, point) is None, (prefix.show(), cert, sim, joint)


@settings(max_examples=40, deadline=None)
@given(revision_cases(), _PICKS)
def test_mid_task_lost_clients_are_admitted_before_and_refused_after_from_the_prefix(case: tuple[Policy, Policy],
                                                                                      picks: list[int]) -> None:
    old, new = case
    prefix = _admitted_prefix(old, picks)
    report = revise(old, new, EVERY_EFFECT, WORKLOAD, BOUND, prefix)
    assert report.start is not None
    brute = brute_lost_from(old, new, report.start)
    if isinstance(report.preservation, NotPreserved):
        lost = report.preservation.lost
        assert lost.confirmed  # Adapter replay of prefix + suffix, the new policy installed after the prefix
        assert brute is not None and len(brute) == len(lost.seq)
        s_old, s_new = report.start.run.state, report.start.new_state
        for i, k in enumerate(lost.seq):
            t = WORKLOAD.templates[k]
            assert t.tool is not None
            call = Call(WORKLOAD.agent, t.tool, t.literal_args())
            v_old, s_old = step(old, s_old, call, Outcome(True, {}))
            v_new, s_new = step(new, s_new, call, Outcome(True, {}))
            assert v_old.decision is Decision.ALLOW
            assert (v_new.decision is Decision.ALLOW) == (i < len(lost.seq) - 1)
    else:
        assert brute is None  # Certified or Unknown within the bound: brute force finds nothing either
