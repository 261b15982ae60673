"""Per-list simulation certificates (Agenra Sections 1 and 7.1): exported as data with their match
vectors and starting pair, checked by the independent checker (coverage with Z3, start, closure with
the checker's own first-fit), refused when tampered with, and round-tripped through JSON."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from model.monitor.language.syntax import load_policy
from model.revision.certify.checker import Invalid, Valid
from model.revision.certify.simulation import SimulationProof, simulate
from model.revision.certify.simulation_certificate import check_simulation, simulation_from_json, simulation_to_json
from model.revision.effects import EVERY_EFFECT
from model.revision.report import Certified
from model.revision.revise import revise
from model.revision.search.workload import workload_from_json
from tests.strategies import REVISION_WORKLOAD_JSON

ROOT = Path(__file__).resolve().parents[2]
DELETE = load_policy(ROOT / "corpus" / "policies" / "delete_ab.policy")
REV = ROOT / "corpus" / "revisions"
WIDEN_SECOND = load_policy(REV / "delete_ab" / "delete_widen_second.policy")
WIDEN_FIRST = load_policy(REV / "delete_ab" / "delete_widen_first.policy")


def _proof() -> SimulationProof:
    proof = simulate(DELETE, WIDEN_SECOND, EVERY_EFFECT)
    assert isinstance(proof, SimulationProof)
    return proof


def test_a_proposed_per_list_simulation_passes_the_independent_checker_also_after_json() -> None:
    proof = _proof()
    assert proof.user.start == ((0, 0), (0, 0)) and proof.user.vectors
    assert isinstance(check_simulation(proof, DELETE, WIDEN_SECOND), Valid)
    back = simulation_from_json(simulation_to_json(proof))
    assert back.user.pairs == proof.user.pairs and back.user.vectors == proof.user.vectors
    assert isinstance(check_simulation(back, DELETE, WIDEN_SECOND), Valid)


def test_the_checker_refuses_tampered_per_list_certificates() -> None:
    proof = _proof()
    inner = next(p for p in sorted(proof.user.pairs) if p != proof.user.start)
    dropped = replace(proof, user=replace(proof.user, pairs=proof.user.pairs - {inner}))
    fewer = replace(proof, user=replace(proof.user, vectors=tuple((a, vs[1:]) for a, vs in proof.user.vectors)))
    moved = replace(proof, user=replace(proof.user, start=((1, 0), (0, 0))))
    verdicts = {"a related pair dropped": check_simulation(dropped, DELETE, WIDEN_SECOND),
                "a match vector dropped": check_simulation(fewer, DELETE, WIDEN_SECOND),
                "another start": check_simulation(moved, DELETE, WIDEN_SECOND),
                "another revision": check_simulation(proof, DELETE, WIDEN_FIRST)}
    for what, verdict in verdicts.items():
        assert isinstance(verdict, Invalid), what
    assert "outside the relation" in str(verdicts["a related pair dropped"])
    assert "omits" in str(verdicts["a match vector dropped"])
    assert "does not start" in str(verdicts["another start"])


def test_revise_reports_the_relation_itself_not_a_summary() -> None:
    report = revise(DELETE, WIDEN_SECOND, EVERY_EFFECT, workload_from_json(REVISION_WORKLOAD_JSON), 2)
    assert isinstance(report.preservation, Certified) and isinstance(report.preservation.evidence, SimulationProof)
    doc = report.to_json()["preservation"]
    assert isinstance(doc, dict) and doc["by"] == "simulation"
    evidence = doc["evidence"]
    assert isinstance(evidence, dict) and evidence["kind"] == "simulation"
    assert isinstance(check_simulation(simulation_from_json(evidence), DELETE, WIDEN_SECOND), Valid)
