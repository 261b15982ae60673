"""Binding-dependent swaps (model/revision/binding_swap.py): a grant naming a slot moved before a general one
is certified by a simulation per binding class, which the independent checker re-proves after a JSON round
trip, although no relation over every binding state at once (per list or joint) exists; the reverse swap
loses a client, confirmed by replay; tampered certificates are refused."""

from __future__ import annotations

from dataclasses import replace

from model.revision.binding_swap import member
from model.revision.certify.binding_certificate import (
    BindingSimulation,
    binding_from_json,
    binding_to_json,
    check_binding,
)
from model.revision.certify.binding_classes import atoms, propose_binding
from model.revision.certify.check_verdict import Invalid, Valid
from model.revision.certify.joint import propose as propose_joint
from model.revision.certify.lean_closure import LEAN_CHECKER, LEAN_COVERAGE
from model.revision.certify.simulation import NoSimulation, simulate
from model.revision.effects import EVERY_EFFECT
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise


def _proof(shape: str, g: int = 1, s: int = 1) -> BindingSimulation:
    old, new, _, _ = member(shape, g, s)
    proof = propose_binding(old, new, EVERY_EFFECT)
    assert isinstance(proof, BindingSimulation), proof
    return proof


def test_specific_first_needs_binding_classes_and_is_certified_by_them() -> None:
    old, new, workload, bound = member("specific_first", 2, 1)
    # over every binding state at once, a mail to a corp Bob and a mail to a non-corp Bob both occur
    assert isinstance(simulate(old, new, EVERY_EFFECT), NoSimulation)
    assert isinstance(propose_joint(old, new, EVERY_EFFECT), NoSimulation)
    report = revise(old, new, EVERY_EFFECT, workload, bound)
    assert isinstance(report.preservation, Certified)
    proof = report.preservation.evidence
    assert isinstance(proof, BindingSimulation) and len(proof.classes) == 2
    again = binding_from_json(binding_to_json(proof))
    assert again == proof and isinstance(check_binding(again, old, new), Valid)
    assert report.to_json()["preservation"]["by"] == "binding_simulation"  # type: ignore[index]
    checked = report.preservation.checked_by
    if any(c.startswith(LEAN_CHECKER) for c in checked):
        # one slot: no class asserts two slots' values differ, so Lean decides every class's coverage
        assert any(c.startswith(LEAN_COVERAGE) for c in checked) and not report.preservation.lean_coverage, checked


def test_two_slots_have_every_class_decided_by_lean() -> None:
    """The classes asserting the two slots' values differ are Lean's too: its covered answer on their
    questions is taken (``neqSound``), and here every class is covered."""
    old, new, workload, bound = member("specific_first_two", 1, 1)
    report = revise(old, new, EVERY_EFFECT, workload, bound)
    assert isinstance(report.preservation, Certified)
    proof = report.preservation.evidence
    assert isinstance(proof, BindingSimulation)
    assert any(not h for c in proof.classes for a, h in zip(proof.atoms, c.holds, strict=True)
               if isinstance(a[1], str)), proof.classes  # some class asserts the slots' values differ
    if any(c.startswith(LEAN_CHECKER) for c in report.preservation.checked_by):
        assert any(c.startswith(LEAN_COVERAGE) for c in report.preservation.checked_by)
        assert not report.preservation.lean_coverage, report.preservation.lean_coverage


def test_the_reverse_swap_loses_a_client() -> None:
    old, new, workload, bound = member("general_first", 1, 1)
    report = revise(old, new, EVERY_EFFECT, workload, bound)
    assert isinstance(report.preservation, NotPreserved)
    assert report.preservation.lost.confirmed
    assert report.preservation.lost.names == ("find Bob", "mail Bob", "mail Carol")
    # and no binding class rescues it: the corp class has no closed relation
    assert isinstance(propose_binding(old, new, EVERY_EFFECT), NoSimulation)


def test_tampered_binding_certificates_are_refused() -> None:
    old, new, _, _ = member("specific_first_other", 1, 1)
    proof = _proof("specific_first_other")
    assert isinstance(check_binding(proof, old, new), Valid)
    assert atoms(old, new) == proof.atoms
    # a class dropped: some bindings are not covered
    assert isinstance(check_binding(replace(proof, classes=proof.classes[:1]), old, new), Invalid)
    # one class's vectors given for both: the class where the specific and the general grant overlap misses one
    c0, c1 = proof.classes
    swapped = replace(proof, classes=(replace(c0, user=c1.user), replace(c1, user=c0.user)))
    assert isinstance(check_binding(swapped, old, new), Invalid)
    # no facts at all: then it is a per-list simulation over every binding state, which does not exist
    merged = replace(proof, atoms=(), classes=(replace(c0, holds=()),))
    assert isinstance(check_binding(merged, old, new), Invalid)
    # a certificate checked against another revision
    other_old, other_new, _, _ = member("general_first", 1, 1)
    assert isinstance(check_binding(proof, other_old, other_new), Invalid)
