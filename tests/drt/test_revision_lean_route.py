"""``revise`` asks Lean to check every explicit simulation it certifies whenever the compiled core is there:
the in-process library first, the oracle executable when only that is built (or named), and the report
names the route (Agenra Section 1: "Lean checks a proposed relation for closure"). Under ``make test`` the
library is built, so these run there and in CI."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pytest import MonkeyPatch

from model.monitor.language.policy import SlotPat
from model.monitor.language.syntax import load_policy
from model.oracle.generators import REVISION_WORKLOAD_JSON
from model.oracle.inproc import Library
from model.oracle.lean import LeanOracle
from model.oracle.toolchain import oracle_path
from model.revision.binding_swap import member
from model.revision.certify.binding_certificate import BindingSimulation
from model.revision.certify.lean_closure import IN_PROCESS, LEAN_CHECKER, LEAN_COVERAGE, PYTHON_CHECKER, SUBPROCESS
from model.revision.certify.simulation import SimulationProof
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.workload import workload_from_json
from model.revision.report import Certified
from model.revision.revise import revise
from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
DELETE = load_policy(ROOT / "corpus" / "policies" / "delete_ab.policy")
REV = ROOT / "corpus" / "revisions"
WIDEN_SECOND = load_policy(REV / "delete_ab" / "delete_widen_second.policy")


def _widen_second() -> Certified:
    report = revise(DELETE, WIDEN_SECOND, EVERY_EFFECT, workload_from_json(REVISION_WORKLOAD_JSON), 2)
    assert isinstance(report.preservation, Certified)
    assert isinstance(report.preservation.evidence, SimulationProof)
    return report.preservation


def test_revise_checks_closure_in_process(library: Library, monkeypatch: MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTWARRANT_ORACLE", raising=False)
    assert _widen_second().checked_by == (PYTHON_CHECKER, f"{LEAN_CHECKER} ({IN_PROCESS})",
                                          f"{LEAN_COVERAGE} ({IN_PROCESS})")
    # one slot or two: every binding class's coverage is Lean's, the classes asserting the two slots' values
    # differ included (Lean answers covered on each, which is taken: neqSound)
    old, new, workload, bound = member("specific_first", 1, 1)
    report = revise(old, new, EVERY_EFFECT, workload, bound)
    assert isinstance(report.preservation, Certified) and isinstance(report.preservation.evidence, BindingSimulation)
    assert report.preservation.checked_by == (PYTHON_CHECKER, f"{LEAN_CHECKER} ({IN_PROCESS})",
                                              f"{LEAN_COVERAGE} ({IN_PROCESS})")
    old, new, workload, bound = member("specific_first_two", 1, 1)
    report = revise(old, new, EVERY_EFFECT, workload, bound)
    assert isinstance(report.preservation, Certified) and isinstance(report.preservation.evidence, BindingSimulation)
    assert report.preservation.checked_by == (PYTHON_CHECKER, f"{LEAN_CHECKER} ({IN_PROCESS})",
                                              f"{LEAN_COVERAGE} ({IN_PROCESS})")
    assert not report.preservation.lean_coverage, report.preservation.lean_coverage


def test_revise_falls_back_to_the_executable(oracle: LeanOracle, monkeypatch: MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(oracle_path()))  # names the executable: no library route
    assert _widen_second().checked_by == (PYTHON_CHECKER, f"{LEAN_CHECKER} ({SUBPROCESS})",
                                          f"{LEAN_COVERAGE} ({SUBPROCESS})")


def _cli(old: Path, new: Path, workload: Path, bound: int) -> tuple[dict[str, object], str]:
    """``revise``'s preservation report as JSON, and its human output."""
    args = [str(old), str(new), "--workload", str(workload), "--bound", str(bound)]
    outs = [CliRunner().invoke(main, ["revise", *args, *extra]) for extra in (["--json"], [])]
    for out in outs:
        assert out.exception is None or isinstance(out.exception, SystemExit), out.output
    doc = json.loads(outs[0].output)["preservation"]
    assert isinstance(doc, dict) and doc["verdict"] == "certified"
    return doc, outs[1].output


def test_the_report_says_lean_wrote_every_coverage_question(library: Library, monkeypatch: MonkeyPatch) -> None:
    """delete_ab's lists have no key allowlist or slot pattern: Lean writes each question (arg_cover_policy)."""
    monkeypatch.delenv("AGENTWARRANT_ORACLE", raising=False)
    doc, human = _cli(ROOT / "corpus" / "policies" / "delete_ab.policy",
                      REV / "delete_ab" / "delete_widen_second.policy", REV / "workloads" / "delete_ab.json", 4)
    questions = doc["coverage_questions"]
    assert isinstance(questions, list) and {q["list"] for q in questions} == {"P", "A"}
    assert all(q["written_by"] == "lean" and q["judgment"] == "arg_cover_policy" and "outside" not in q
               for q in questions)
    assert "Lean wrote every coverage question (arg_cover_policy)" in human


def test_the_report_says_lean_wrote_the_question_of_an_action_with_a_slot_pattern(
        library: Library, monkeypatch: MonkeyPatch) -> None:
    """deploy's user list rolls out to a slot-bound environment: slot patterns lie in Lean's fragment, so Lean
    writes the question of deploy.apply (and every other) itself (arg_cover_policy)."""
    monkeypatch.delenv("AGENTWARRANT_ORACLE", raising=False)
    old_path, new_path = REV / "bases" / "deploy.policy", REV / "deploy" / "deploy_user_staging_three.policy"
    old, new = load_policy(old_path), load_policy(new_path)
    slots = {(name, i + 1, e.action) for name, xs in (("old P", old.user), ("new P", new.user))
             for i, e in enumerate(xs) if isinstance(e.resource, SlotPat)}
    assert slots  # the pair is chosen for its slot entries
    doc, human = _cli(old_path, new_path, REV / "workloads" / "deploy.json", 4)
    assert doc["by"] == "joint_simulation"
    questions = doc["coverage_questions"]
    assert isinstance(questions, list)
    assert {a for _, _, a in slots} <= {q["action"] for q in questions}
    assert all(q["written_by"] == "lean" and q["judgment"] == "arg_cover_policy" and "outside" not in q
               for q in questions)
    assert "Lean wrote every coverage question (arg_cover_policy)" in human
