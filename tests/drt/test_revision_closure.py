"""Simulation certificates, joint and per list, checked for closure by Lean (Agenra Sections 1 and 7.1; judgment
``simulation_closure``, theorem ``AgentWarrant.Revision.Closure.closedPreservesFromStart``): on every
corpus revision that only a joint simulation certifies, Lean finds the exported relation closed, as the
independent Python checker does; a tampered relation or the same relation against another revision
is refused by both."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from model.base.canonical import JSON
from model.monitor.language.policy import Policy
from model.monitor.language.syntax import load_policy
from model.oracle.lean import LeanOracle, OracleError
from model.revision.certify import closure_json
from model.revision.certify import lean_closure as lean_closure_module
from model.revision.certify.certificate_checker import Valid, check_joint
from model.revision.certify.closure_json import joint_closure_input, list_closure_input
from model.revision.certify.joint import propose
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.certify.lean_closure import LeanAbsent, LeanFault, LeanRefused, lean_closure
from model.revision.certify.simulation import NoSimulation, SimulationProof, simulate
from model.revision.certify.simulation_certificate import check_simulation
from model.revision.corpus import load_manifest
from model.revision.effects import EVERY_EFFECT
from tests.unit.test_revision_joint import JOINT_ONLY

# the corpus entries only a joint simulation certifies (tests/unit/test_revision_joint.py), at task start
JOINT = [e for e in JOINT_ONLY if e.prefix is None]


def _closed(oracle: LeanOracle, payload: object) -> bool:
    out = oracle.call("simulation_closure", payload)
    assert isinstance(out["closed"], bool)
    return out["closed"]


def test_lean_and_the_python_checker_agree_on_every_corpus_joint_simulation(oracle: LeanOracle) -> None:
    checked = 0
    for e in JOINT:
        cert = propose(e.base.policy, e.new, e.effects)
        if isinstance(cert, NoSimulation):
            continue
        assert isinstance(check_joint(cert, e.base.policy, e.new), Valid), e.id
        out = oracle.call("simulation_closure", joint_closure_input(cert, e.base.policy, e.new))
        assert out["closed"] is True, e.id
        # Lean's own check of the theorem's premises on the units Python wrote
        assert out["unitsComplete"] is True and out["reqsNamed"] is True, e.id
        checked += 1
    assert checked >= 6


def test_lean_refuses_a_tampered_relation_and_another_revision(oracle: LeanOracle) -> None:
    e = next(x for x in JOINT if x.id == "deploy_user_staging_three")
    cert = propose(e.base.policy, e.new, e.effects)
    assert isinstance(cert, JointSimulation)
    inner = next(q for q in sorted(cert.related) if q != cert.start)
    dropped = replace(cert, related=cert.related - {inner})
    assert not isinstance(check_joint(dropped, e.base.policy, e.new), Valid)
    assert not _closed(oracle, joint_closure_input(dropped, e.base.policy, e.new))
    other = next(x for x in load_manifest() if x.id == "deploy_user_staging_two")
    assert not isinstance(check_joint(cert, e.base.policy, other.new), Valid)
    assert not _closed(oracle, joint_closure_input(cert, e.base.policy, other.new))


def test_lean_finds_a_dropped_unit_and_a_dropped_requirement_name(oracle: LeanOracle) -> None:
    """Mutants of the input Python writes: any one unit left out makes ``unitsComplete`` false, one requirement
    name left out makes ``reqsNamed`` false; ``lean_closure`` refuses a certificate whose units miss one."""
    mutated = named = 0
    for e in JOINT:
        cert = propose(e.base.policy, e.new, e.effects)
        if not isinstance(cert, JointSimulation):
            continue
        payload = joint_closure_input(cert, e.base.policy, e.new)
        units, names = payload["units"], payload["requirementNames"]
        assert isinstance(units, list) and isinstance(names, list)
        for i, unit in enumerate(units):
            # every copy of the unit goes: two actions may share a vector
            out = oracle.call("simulation_closure", {**payload, "units": [u for u in units if u != unit]})
            assert out["unitsComplete"] is False and out["reqsNamed"] is True, (e.id, i)
        if names:
            out = oracle.call("simulation_closure", {**payload, "requirementNames": names[1:]})
            assert out["reqsNamed"] is False, e.id
            named += 1
        mutated += 1
    assert mutated >= 6 and named >= 1, (mutated, named)


def test_lean_closure_refuses_a_joint_certificate_whose_units_miss_one(monkeypatch: pytest.MonkeyPatch) -> None:
    e = next(x for x in JOINT if x.id == "deploy_user_staging_three")
    cert = propose(e.base.policy, e.new, e.effects)
    assert isinstance(cert, JointSimulation)
    whole = lean_closure(cert, e.base.policy, e.new)
    if isinstance(whole, LeanAbsent):
        pytest.skip(whole.reason)
    assert not isinstance(whole, LeanRefused | LeanFault), whole

    def one_unit_short(c: JointSimulation, old: Policy, new: Policy) -> dict[str, JSON]:
        payload = closure_json.joint_closure_input(c, old, new)
        units = payload["units"]
        assert isinstance(units, list)
        return {**payload, "units": [u for u in units if u != units[0]]}

    monkeypatch.setattr(lean_closure_module, "joint_closure_input", one_unit_short)
    verdict = lean_closure(cert, e.base.policy, e.new)
    assert isinstance(verdict, LeanRefused) and "units miss" in verdict.reason, verdict


def test_a_unit_that_does_not_fit_its_list_is_an_input_error(oracle: LeanOracle) -> None:
    e = next(x for x in JOINT if x.id == "deploy_user_staging_three")
    cert = propose(e.base.policy, e.new, e.effects)
    assert isinstance(cert, JointSimulation)
    payload = joint_closure_input(cert, e.base.policy, e.new)
    units = payload["units"]
    assert isinstance(units, list) and isinstance(units[0], dict)
    units[0] = {**units[0], "old": ["1", "1"]}
    with pytest.raises(OracleError) as err:
        oracle.call("simulation_closure", payload)
    assert err.value.kind == "input" and "units[0]" in err.value.message


def test_lean_and_the_python_checker_agree_on_per_list_simulations(oracle: LeanOracle) -> None:
    rev = Path(__file__).resolve().parents[2] / "corpus" / "revisions"
    old = load_policy(rev / "../policies/delete_ab.policy")
    new = load_policy(rev / "delete_ab" / "delete_widen_second.policy")
    proof = simulate(old, new, EVERY_EFFECT)
    assert isinstance(proof, SimulationProof) and isinstance(check_simulation(proof, old, new), Valid)
    for rel, a, b in ((proof.user, old.user, new.user), (proof.application, old.application, new.application)):
        assert _closed(oracle, list_closure_input(rel, a, b))
    inner = next(p for p in sorted(proof.user.pairs) if p != proof.user.start)
    dropped = replace(proof.user, pairs=proof.user.pairs - {inner})
    assert not isinstance(check_simulation(replace(proof, user=dropped), old, new), Valid)
    assert not _closed(oracle, list_closure_input(dropped, old.user, new.user))
