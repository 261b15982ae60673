"""Symbolic simulation certificates (Agenra §7.1): linear constraints over the usage counters, proposed
by linear.py and checked by linear_check.py; the verdict does not depend on the quotas' size, and a
tampered certificate is refused by the independent checker."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import z3

from model.monitor.language.policy import Entry, Policy
from model.monitor.language.syntax import load_policy
from model.revision.certify.certificate_checker import Invalid, Undecided, Valid
from model.revision.certify.lean_closure import PYTHON_CHECKER
from model.revision.certify.linear import propose_linear
from model.revision.certify.linear_certificate import Atom, LinearSimulation, linear_from_json, linear_to_json
from model.revision.certify.linear_check import check_linear
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.workload import Workload
from model.revision.report import Certified
from model.revision.revise import revise

ROOT = Path(__file__).resolve().parents[2]
REV = ROOT / "corpus" / "revisions"
PAY = load_policy(ROOT / "corpus" / "policies" / "payments.policy")
PAY_FOUR = load_policy(REV / "payments" / "pay_app_four.policy")  # ceiling 5 → 4 under user grants 3 + 1
PAY_TWO = load_policy(REV / "payments" / "pay_ceiling_two.policy")  # loses a client
MILLION = 10**6


def scaled(policy: Policy, k: int) -> Policy:
    def one(e: Entry) -> Entry:
        return e if e.quota is None else replace(e, quota=e.quota * k)
    return replace(policy, user=tuple(map(one, policy.user)), application=tuple(map(one, policy.application)))


def _joint(old: Policy, new: Policy) -> LinearSimulation:
    proof = propose_linear(old, new, EVERY_EFFECT, joint=True)
    assert isinstance(proof, LinearSimulation), proof
    return proof


def test_a_quota_of_a_million_is_certified_like_the_committed_one() -> None:
    empty = Workload((), (), ())
    for k in (1, MILLION):
        report = revise(scaled(PAY, k), scaled(PAY_FOUR, k), EVERY_EFFECT, empty, 2)
        assert isinstance(report.preservation, Certified), (k, report.preservation)
    # at a million the explicit relation is past its probe: the symbolic one certifies, Python alone checks it
    assert isinstance(report.preservation.evidence, LinearSimulation)
    assert report.preservation.checked_by == (PYTHON_CHECKER,)
    doc = report.to_json()["preservation"]
    assert isinstance(doc, dict) and doc["relation"] == "symbolic" and doc["by"] == "joint_simulation"


def test_the_certificate_checks_after_a_json_round_trip_and_not_against_a_regression() -> None:
    old, new = scaled(PAY, MILLION), scaled(PAY_FOUR, MILLION)
    proof = _joint(old, new)
    back = linear_from_json(json.loads(json.dumps(linear_to_json(proof))))
    assert back == proof and isinstance(check_linear(back, old, new), Valid)
    assert isinstance(check_linear(proof, old, scaled(PAY_TWO, MILLION)), Invalid)
    assert not isinstance(propose_linear(old, scaled(PAY_TWO, MILLION), EVERY_EFFECT, joint=True), LinearSimulation)


def test_tampered_certificates_are_refused() -> None:
    old, new = scaled(PAY, MILLION), scaled(PAY_FOUR, MILLION)
    proof = _joint(old, new)
    g = proof.groups[0]

    def with_group(**changes: object) -> LinearSimulation:
        return replace(proof, groups=(replace(g, **changes),))  # type: ignore[arg-type]

    # no constraint at all: from counters the relation allows, the new ceiling refuses a unit old admits
    assert "refused after or leads outside" in str(check_linear(with_group(atoms=()), old, new))
    # without the constraints on the new ceiling's counter (A′), nothing bounds it
    blind = tuple(a for a in g.atoms if all(l_ != 3 for l_, _, _ in a.terms))
    assert len(blind) < len(g.atoms) and isinstance(check_linear(with_group(atoms=blind), old, new), Invalid)
    # a constraint the start breaks, a moved start, a lost vector, a constraint on an unlimited account
    finite = next(a for a in g.atoms if len(a.terms) == 1 and a.terms[0][2] == 1)
    tight = replace(finite, at_most=-1)
    assert "starting counters break" in str(check_linear(with_group(atoms=(*g.atoms, tight)), old, new))
    moved = tuple(tuple(1 for _ in u) for u in g.start)
    assert "does not start" in str(check_linear(with_group(start=moved), old, new))
    dropped = tuple((a, vs[1:]) if a == "payment.pay" else (a, vs) for a, vs in g.vectors)
    assert "omits" in str(check_linear(with_group(vectors=dropped), old, new))
    unlimited = next(i for i, e in enumerate(old.user) if e.quota is None)
    assert "no finite quota" in str(check_linear(with_group(atoms=(*g.atoms, Atom(((0, unlimited, 1),), 5))),
                                                 old, new))
    # per-list shape where the joint one is claimed
    assert isinstance(check_linear(replace(proof, mode="per_list"), old, new), Invalid)


def test_a_z3_unknown_is_undecided_and_never_a_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    from model.revision.certify import linear_check
    from model.revision.revise import checked_report

    old, new = scaled(PAY, MILLION), scaled(PAY_FOUR, MILLION)
    proof = _joint(old, new)

    class GivesUp(z3.Solver):  # type: ignore[misc]
        def check(self, *args: object) -> z3.CheckSatResult:
            return z3.unknown

        def reason_unknown(self) -> str:
            return "timeout"

    monkeypatch.setattr(linear_check.z3, "SimpleSolver", GivesUp)
    verdict = check_linear(proof, old, new)
    assert isinstance(verdict, Undecided) and "unknown" in verdict.reason, verdict
    assert isinstance(checked_report(proof, verdict, old, new), str)  # not Certified
