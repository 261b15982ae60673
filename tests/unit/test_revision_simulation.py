"""Simulation relations between old and new ledgers, proposed and checked for closure (Agenra §7.1)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from model.monitor.language.syntax import load_policy
from model.revision.certify.simulation import NoSimulation, SimulationProof, closed, signatures, simulate
from model.revision.effects import EVERY_EFFECT

ROOT = Path(__file__).resolve().parents[2]
DELETE = load_policy(ROOT / "corpus" / "policies" / "delete_ab.policy")
REV = ROOT / "corpus" / "revisions"


def test_widening_the_second_grant_has_a_closed_simulation() -> None:
    new = load_policy(REV / "delete_ab" / "delete_widen_second.policy")
    proof = simulate(DELETE, new, EVERY_EFFECT)
    assert isinstance(proof, SimulationProof)
    sigs = signatures(DELETE.user, new.user, EVERY_EFFECT, DELETE.tools)
    assert not isinstance(sigs, str)
    assert closed(proof.user, DELETE.user, new.user, sigs)
    # removing any related pair but the start breaks closure
    for pair in proof.user.pairs - {((0, 0), (0, 0))}:
        assert not closed(replace(proof.user, pairs=proof.user.pairs - {pair}), DELETE.user, new.user, sigs)


def test_widening_the_first_grant_has_none_and_says_where() -> None:
    new = load_policy(REV / "delete_ab" / "delete_widen_first.policy")
    found = simulate(DELETE, new, EVERY_EFFECT)
    assert isinstance(found, NoSimulation) and found.reason.startswith("P: old usage [0, 1]")


def test_removing_a_deny_or_widening_the_last_grant_is_simulated() -> None:
    for base, name in (("bases/cleanup.policy", "cleanup/clean_drop_keep_deny.policy"),
                       ("../policies/payments.policy", "payments/pay_widen_large_last.policy")):
        assert isinstance(simulate(load_policy(REV / base), load_policy(REV / name), EVERY_EFFECT), SimulationProof)


def test_permits_and_changes_outside_the_lists_are_out_of_scope() -> None:
    permit = load_policy(ROOT / "corpus" / "policies" / "report_permit.policy")
    assert "permit" in simulate(permit, permit, EVERY_EFFECT).reason  # type: ignore[union-attr]
    resolver = load_policy(REV / "delete_ab" / "delete_swap.policy")
    other = replace(resolver, flows=())
    assert isinstance(simulate(DELETE, other, EVERY_EFFECT), NoSimulation)
