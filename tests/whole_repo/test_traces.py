"""Every example trace in corpus/traces runs under its policy with every "expect" met, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.monitor.adapter.trace import load_trace, run_trace
from model.monitor.language.syntax import load_policy
from model.shell.cli import main

CORPUS = Path(__file__).resolve().parent.parent.parent / "corpus"
MANIFEST = json.loads((CORPUS / "traces" / "manifest.json").read_text())


def test_manifest_lists_every_trace() -> None:
    on_disk = {p.name for p in (CORPUS / "traces").glob("*.json")} - {"manifest.json"}
    assert on_disk == set(MANIFEST)


@pytest.mark.parametrize("trace", sorted(MANIFEST))
def test_trace_meets_its_expectations(trace: str) -> None:
    policy = load_policy(str(CORPUS / "policies" / MANIFEST[trace]))
    reports = run_trace(policy, load_trace(str(CORPUS / "traces" / trace)), trace)
    assert reports, "a trace with no steps checks nothing"
    assert [r.index for r in reports if not r.as_expected] == []
    assert any(r.expected is not None for r in reports)


@pytest.mark.parametrize("trace", sorted(MANIFEST))
def test_cli_json_output(trace: str) -> None:
    result = CliRunner().invoke(main, ["monitor", "run", str(CORPUS / "policies" / MANIFEST[trace]),
                                       str(CORPUS / "traces" / trace), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert all(step["as_expected"] for step in out["steps"])


def test_cli_exit_status_reports_an_unmet_expectation(tmp_path: Path) -> None:
    doc = json.loads((CORPUS / "traces" / "report_delivery.json").read_text())
    doc["steps"][-1]["expect"] = "allow"  # the second send is really denied
    bad = tmp_path / "t.json"
    bad.write_text(json.dumps(doc))
    result = CliRunner().invoke(main, ["monitor", "run", str(CORPUS / "policies" / "report.policy"), str(bad)])
    assert result.exit_code == 1
    assert "expected allow" in result.output


def test_explain_lists_every_failing_check() -> None:
    policy = load_policy(str(CORPUS / "policies" / "report.policy"))
    reports = run_trace(policy, load_trace(str(CORPUS / "traces" / "report_delivery.json")), explain=True)
    raw_report_send = reports[4]
    assert raw_report_send.reason == "origin" and set(raw_report_send.failing) == {"origin", "flow"}
    assert reports[5].failing == ()  # the allowed send fails nothing
