"""Every per-list simulation ``revise`` certifies on the revision corpus, at task start and mid-task,
passes the independent checker (``check_simulation``: coverage with Z3, start at the carried
counters, closure with the checker's own first-fit), also after a JSON round trip. ``revise`` certifies
one only after this checker accepted it, so the re-check must accept it too (coverage is decided by
splitting on one entry at a time, every question a conjunction: trusted/side_conditions.py)."""

from __future__ import annotations

import pytest

from model.revision.certify.certificate_checker import Valid
from model.revision.certify.lean_closure import PYTHON_CHECKER
from model.revision.certify.simulation import SimulationProof
from model.revision.certify.simulation_certificate import check_simulation, simulation_from_json
from model.revision.corpus import load_manifest
from model.revision.report import Certified
from model.revision.revise import revise

pytestmark = pytest.mark.slow


def test_every_corpus_per_list_simulation_passes_the_independent_checker() -> None:
    checked = []
    for e in load_manifest():
        report = revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix)
        p = report.preservation
        if not (isinstance(p, Certified) and isinstance(p.evidence, SimulationProof)):
            continue
        ledgers = None if report.start is None else report.start.ledgers()
        assert PYTHON_CHECKER in p.checked_by, e.id
        for proof in (p.evidence, simulation_from_json(p.evidence.to_json())):
            verdict = check_simulation(proof, e.base.policy, e.new, ledgers)
            assert isinstance(verdict, Valid), (e.id, verdict)
        checked.append(e.id)
    print(f"per-list simulations: {len(checked)} certified and re-checked: {sorted(checked)}")
    assert "clean_insert_log" in checked and len(checked) >= 7
