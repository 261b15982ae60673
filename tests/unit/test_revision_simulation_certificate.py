"""Per-list simulation certificates (Agenra Sections 1 and 7.1): exported as data with their match
vectors and starting pair, checked by the independent checker (coverage with Z3, start, closure with
the checker's own first-fit), refused when tampered with, and round-tripped through JSON."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from pytest import MonkeyPatch

from model.monitor.language.syntax import load_policy
from model.oracle.fake_oracles import FAKES, write_fake
from model.oracle.generators import REVISION_WORKLOAD_JSON
from model.revision.certify import lean_closure
from model.revision.certify.certificate import Certificate
from model.revision.certify.certificate_checker import Invalid, Undecided, Valid
from model.revision.certify.lean_closure import LEAN_CHECKER, LEAN_COVERAGE, PYTHON_CHECKER, SUBPROCESS
from model.revision.certify.simulation import SimulationProof, simulate
from model.revision.certify.simulation_certificate import check_simulation, simulation_from_json, simulation_to_json
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.workload import workload_from_json
from model.revision.report import Certified, NotPreserved, RevisionReport, Unknown
from model.revision.revise import revise
from model.revision.trusted import side_conditions as questions
from model.shell.verdict_text import preservation_sentence

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


# --- revise certifies only what a checker accepted, and says which checkers did -----------------------

def _revise() -> RevisionReport:
    return revise(DELETE, WIDEN_SECOND, EVERY_EFFECT, workload_from_json(REVISION_WORKLOAD_JSON), 2)


def test_revise_names_the_independent_checker_and_no_lean_without_an_oracle(monkeypatch: MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(tmp_path / "absent"))
    report = _revise()
    assert isinstance(report.preservation, Certified) and report.preservation.checked_by == (PYTHON_CHECKER,)
    doc = report.to_json()["preservation"]
    assert isinstance(doc, dict) and doc["checked_by"] == [PYTHON_CHECKER]
    assert PYTHON_CHECKER in preservation_sentence(report.preservation)
    assert LEAN_CHECKER not in report.preservation.show()


def _fake_oracle(tmp_path: Path, closed: bool, coverage: str = "covered", policy: str | None = None) -> Path:
    """An executable speaking the oracle's JSON-lines protocol that answers every closure question alike, and
    every coverage question with ``coverage`` (``arg_cover_policy``'s with ``policy`` when given)."""
    exe = tmp_path / "oracle"
    answer = ("{'answer': %r, 'witness': [['missing']], 'vector': '0', 'names': [['path']], 'reason': 'fake', "
              "'outside': [[1, 'a fake feature']]}")
    exe.write_text(f"#!{sys.executable}\nimport json, sys\nfor line in sys.stdin:\n"
                   "    req = json.loads(line)\n"
                   f"    out = {{'closed': {closed}, 'related': 0, 'units': 0}}\n"
                   "    if req['judgment'] == 'arg_cover':\n"
                   f"        out = {answer % coverage}\n"
                   "    if req['judgment'] == 'arg_cover_policy':\n"
                   f"        out = {answer % (policy or coverage)}\n"
                   "    print(json.dumps({'id': req['id'], 'output': out}), flush=True)\n")
    exe.chmod(0o755)
    return exe


def test_revise_names_lean_when_the_oracle_finds_the_relations_closed(monkeypatch: MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, True)))
    report = _revise()
    assert isinstance(report.preservation, Certified)
    lean = f"{LEAN_CHECKER} ({SUBPROCESS})"
    assert report.preservation.checked_by == (PYTHON_CHECKER, lean, f"{LEAN_COVERAGE} ({SUBPROCESS})")
    assert f"{PYTHON_CHECKER} and the {lean}" in preservation_sentence(report.preservation)


def test_questions_lean_does_not_write_go_to_arg_cover_on_the_python_translation(monkeypatch: MonkeyPatch,
                                                                              tmp_path: Path) -> None:
    """An action whose entries lie outside Lean's translation (``outside``) is asked as Python writes it: an
    omitted effect ``arg_cover`` reports there still refuses the certificate."""
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, True, "uncovered", policy="outside")))
    report = _revise()
    assert "refused by the Lean closure check: Lean's coverage check" in report.simulation


def test_the_report_names_who_wrote_each_coverage_question(monkeypatch: MonkeyPatch, tmp_path: Path) -> None:
    """Lean answering outside for every action: each question is Python's (arg_cover), with Lean's reason and
    the entry Lean names (position 1 among the old and new lists: the old list's second entry when it has
    two, else the new list's first), placed in its list."""
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, True, "covered", policy="outside")))
    report = _revise()
    assert isinstance(report.preservation, Certified) and report.preservation.coverage_questions
    pres = report.to_json()["preservation"]
    assert isinstance(pres, dict)
    questions = pres["coverage_questions"]
    assert isinstance(questions, list) and {q["list"] for q in questions} == {"P", "A"}
    olds = {"P": DELETE.user, "A": DELETE.application}
    named = {side: f"old {side} entry 2" if len(xs) > 1 else f"new {side} entry 1" for side, xs in olds.items()}
    assert all(q == {"list": q["list"], "action": "file.delete", "written_by": "python", "judgment": "arg_cover",
                     "why": "fake", "outside": [f"{named[q['list']]} has a fake feature"]} for q in questions)
    assert (f"Python wrote those of P file.delete ({named['P']} has a fake feature), "
            f"A file.delete ({named['A']} has a fake feature) (arg_cover)") in report.preservation.show()
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, True, "covered")))
    report = _revise()
    assert isinstance(report.preservation, Certified)
    assert [w.judgment() for w in report.preservation.coverage_questions] == ["arg_cover_policy"] * 2
    assert "Lean wrote every coverage question" in report.preservation.show()


def test_an_effect_lean_finds_uncovered_is_a_refusal(monkeypatch: MonkeyPatch, tmp_path: Path) -> None:
    """Lean's coverage check can only take a certificate away: an omitted effect it reports refuses it."""
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, True, "uncovered")))
    report = _revise()
    assert not isinstance(report.preservation, Certified) or isinstance(report.preservation.evidence, Certificate)
    assert "refused by the Lean closure check: Lean's coverage check" in report.simulation


def test_a_garbled_coverage_answer_fails_closed(monkeypatch: MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, True, "maybe")))
    report = _revise()
    assert not isinstance(report.preservation, Certified) or isinstance(report.preservation.evidence, Certificate)
    assert "Lean closure check faulted (not counted)" in report.simulation


def test_lean_unknown_on_a_question_it_takes_is_a_fault_not_a_z3_fallback(monkeypatch: MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    """``arg_cover`` provably never answers unknown (``argCoverNeverUnknown``): an oracle that does is not
    the proved one, so the certificate is not counted rather than left to Z3 alone."""
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, True, "unknown")))
    report = _revise()
    assert not isinstance(report.preservation, Certified) or isinstance(report.preservation.evidence, Certificate)
    assert "Lean closure check faulted (not counted)" in report.simulation
    assert "an answer that is not covered or uncovered" in report.simulation


def test_a_relation_lean_refuses_is_not_counted(monkeypatch: MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(_fake_oracle(tmp_path, False)))
    report = _revise()
    assert not isinstance(report.preservation, Certified) or isinstance(report.preservation.evidence, Certificate)
    assert "refused by the Lean closure check" in report.simulation
    assert "refused by the Lean closure check" in report.joint


@pytest.mark.parametrize("fault", [f for f in FAKES if f != "missing"])
def test_a_lean_fault_fails_closed(monkeypatch: MonkeyPatch, tmp_path: Path, fault: str) -> None:
    """An oracle that is there but does not answer (hangs, dies, garbles, floods, cannot start) never lets a
    simulation through: it counts as a refusal, so the preserving revision, which only a simulation
    certifies, is Unknown within the bound rather than certified by the Python checker alone."""
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(write_fake(fault, tmp_path)))
    monkeypatch.setattr(lean_closure, "TIMEOUT", 1.0)
    report = _revise()
    assert not isinstance(report.preservation, Certified) or isinstance(report.preservation.evidence, Certificate)
    assert "Lean closure check faulted (not counted)" in report.simulation
    assert "Lean closure check faulted (not counted)" in report.joint


def test_a_missing_oracle_is_absent_not_a_fault(monkeypatch: MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(write_fake("missing", tmp_path)))
    report = _revise()
    assert isinstance(report.preservation, Certified) and report.preservation.checked_by == (PYTHON_CHECKER,)


def _unknown(*args: object) -> str:
    return "z3 answered unknown (timeout)"


def test_a_certificate_omitting_a_vector_is_refused_with_the_uncovered_effect() -> None:
    proof = _proof()
    fewer = replace(proof, user=replace(proof.user, vectors=tuple((a, vs[1:]) for a, vs in proof.user.vectors)))
    verdict = check_simulation(fewer, DELETE, WIDEN_SECOND)
    assert isinstance(verdict, Invalid) and "omits" in verdict.reason and "delete" in verdict.reason


def test_z3_unknown_in_the_coverage_check_is_undecided_not_invalid(monkeypatch: MonkeyPatch) -> None:
    monkeypatch.setattr(questions, "_ask", _unknown)
    verdict = check_simulation(_proof(), DELETE, WIDEN_SECOND)
    assert isinstance(verdict, Undecided) and "unknown" in verdict.reason


def test_an_undecided_certificate_is_never_counted_as_proof(monkeypatch: MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(tmp_path / "absent"))
    monkeypatch.setattr(questions, "_ask", _unknown)
    report = _revise()
    # neither simulation kind is checked: the verdict comes from the bounded search (exit 3 when Unknown)
    assert not isinstance(report.preservation, Certified)
    assert isinstance(report.preservation, Unknown | NotPreserved)
    assert "could not decide" in report.simulation and "could not decide" in report.joint
