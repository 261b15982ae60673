"""``revise`` asks Lean to check every explicit simulation it certifies whenever the compiled core is there:
the in-process library first, the oracle executable when only that is built (or named), and the report
names the route (Agenra Section 1: "Lean checks a proposed relation for closure"). Under ``make test`` the
library is built, so these run there and in CI."""

from __future__ import annotations

from pathlib import Path

from pytest import MonkeyPatch

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

ROOT = Path(__file__).resolve().parents[2]
DELETE = load_policy(ROOT / "corpus" / "policies" / "delete_ab.policy")
WIDEN_SECOND = load_policy(ROOT / "corpus" / "revisions" / "delete_ab" / "delete_widen_second.policy")


def _widen_second() -> Certified:
    report = revise(DELETE, WIDEN_SECOND, EVERY_EFFECT, workload_from_json(REVISION_WORKLOAD_JSON), 2)
    assert isinstance(report.preservation, Certified)
    assert isinstance(report.preservation.evidence, SimulationProof)
    return report.preservation


def test_revise_checks_closure_in_process(library: Library, monkeypatch: MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTWARRANT_ORACLE", raising=False)
    assert _widen_second().checked_by == (PYTHON_CHECKER, f"{LEAN_CHECKER} ({IN_PROCESS})",
                                          f"{LEAN_COVERAGE} ({IN_PROCESS})")
    old, new, workload, bound = member("specific_first", 1, 1)
    report = revise(old, new, EVERY_EFFECT, workload, bound)
    assert isinstance(report.preservation, Certified) and isinstance(report.preservation.evidence, BindingSimulation)
    assert report.preservation.checked_by == (PYTHON_CHECKER, f"{LEAN_CHECKER} ({IN_PROCESS})")
    assert "binding class" in report.preservation.lean_coverage  # coverage of a binding class stays with Z3


def test_revise_falls_back_to_the_executable(oracle: LeanOracle, monkeypatch: MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTWARRANT_ORACLE", str(oracle_path()))  # names the executable: no library route
    assert _widen_second().checked_by == (PYTHON_CHECKER, f"{LEAN_CHECKER} ({SUBPROCESS})",
                                          f"{LEAN_COVERAGE} ({SUBPROCESS})")
