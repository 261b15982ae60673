"""The Lean enforcement backend (model/oracle/backend.py): the same decisions and next states as the
Python monitor, and a fault in the Lean process is an error, never an Allow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from model.monitor.decide.base import Decision, DenyReason
from model.monitor.decide.commit import step
from model.monitor.decide.state import Call, initial_state
from model.oracle.backend import LeanBackendError, LeanCore
from model.oracle.drt_monitor import issue_permits
from model.oracle.generators import whole_monitor_runs
from model.oracle.lean import LeanOracle

pytestmark = pytest.mark.lean
ROOT = Path(__file__).resolve().parent.parent.parent
RUNS = settings(max_examples=40, database=None, phases=[Phase.generate], deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_lean_backend_gives_the_python_verdicts_and_states(oracle: LeanOracle) -> None:
    steps = {"n": 0, "allow": 0}

    @RUNS
    @given(whole_monitor_runs())
    def body(run: Any) -> None:
        policy, satisfied, calls = run
        core = LeanCore(policy, oracle.exe)
        try:
            state = initial_state(len(policy.user), len(policy.application), satisfied)
            for call, outcome, permits in calls:
                state = issue_permits(state, permits)
                verdict, after = step(policy, state, call, outcome)
                lean, committed = core.decide_commit(state, call)
                assert (lean.decision, lean.reason, lean.waiting_for, lean.label, lean.permit) == (
                    verdict.decision, verdict.reason, verdict.waiting_for, verdict.label, verdict.permit)
                if lean.decision is Decision.ALLOW:
                    assert lean.user == verdict.user and lean.app == verdict.app
                    committed = core.observe(committed, len(state.trace), outcome)
                    steps["allow"] += 1
                assert committed == after
                steps["n"] += 1
                state = after
        finally:
            core.close()

    body()
    assert steps["n"] > 40 and steps["allow"] > 0, steps


def _report_policy() -> Any:
    from model.monitor.language.syntax import parse_policy

    path = ROOT / "corpus" / "policies" / "report.policy"
    return parse_policy(path.read_text(encoding="utf-8"), str(path))


def test_a_dead_lean_process_is_an_error_not_a_decision(oracle: LeanOracle) -> None:
    policy = _report_policy()
    core = LeanCore(policy, oracle.exe)
    state = initial_state(len(policy.user), len(policy.application))
    call = Call("assistant", "Read", {})
    assert core.decide_commit(state, call)[0].decision is Decision.ALLOW  # the live process decides
    core._oracle._proc.kill()
    core._oracle._proc.wait()
    with pytest.raises(LeanBackendError):
        core.decide_commit(state, call)
    core.close()


@pytest.mark.parametrize("reply", ['not json', '{"id": 99, "output": {"decision": "allow"}}',
                                   '{"id": 1, "output": {"decision": "allow"}}'])
def test_a_garbled_answer_is_an_error_not_a_decision(tmp_path: Path, reply: str) -> None:
    fake = tmp_path / "fake-oracle"
    fake.write_text(f"#!/bin/sh\nread line\necho '{reply}'\n", encoding="utf-8")
    fake.chmod(0o755)
    policy = _report_policy()
    core = LeanCore(policy, fake)
    with pytest.raises(LeanBackendError):
        core.decide_commit(initial_state(len(policy.user), len(policy.application)), Call("assistant", "Read", {}))
    core.close()


TRACES = ROOT / "corpus" / "traces"


@pytest.mark.parametrize("name", sorted(json.loads((TRACES / "manifest.json").read_text(encoding="utf-8"))))
def test_every_corpus_trace_is_decided_alike_on_both_backends(oracle: LeanOracle, name: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle-process route (tests/drt/test_inproc.py runs the in-process one on the same traces)."""
    from model.monitor.adapter.trace import load_trace, run_trace

    monkeypatch.setenv("AGENTWARRANT_LEAN_ROUTE", "subprocess")
    from model.monitor.language.syntax import load_policy

    policy = load_policy(str(ROOT / "corpus" / "policies" / json.loads((TRACES / "manifest.json").read_text())[name]))
    doc = load_trace(str(TRACES / name))
    kept: list[Any] = []
    python = run_trace(policy, doc, backend="python", keep=kept)
    lean = run_trace(policy, doc, backend=LeanCore, keep=kept)
    assert isinstance(kept[1]._core, LeanCore)
    assert [(r.decision, r.reason, r.result) for r in lean] == [(r.decision, r.reason, r.result) for r in python]
    assert kept[1].state == kept[0].state
    assert any(r.decision is Decision.ALLOW for r in python)


def test_the_report_decoy_is_refused_on_both_backends(oracle: LeanOracle) -> None:
    """Agenra Section 3: with the chained origin rule, Sanitize over attacker content from Other is refused."""
    from model.monitor.adapter.shell import Adapter
    from model.monitor.adapter.toolkit import ReportWorld
    from model.monitor.language.syntax import load_policy

    policy = load_policy(str(ROOT / "corpus" / "policies" / "report_chained.policy"))
    for backend in ("python", LeanCore):
        adapter = Adapter(policy, ReportWorld().tools(), "assistant", backend=backend)
        try:
            other = adapter.call("Other", query="q")
            decoy = adapter.call("Sanitize", record=other)
            assert getattr(getattr(decoy, "verdict", None), "reason", None) is DenyReason.ORIGIN, (backend, decoy)
        finally:
            adapter.close()
