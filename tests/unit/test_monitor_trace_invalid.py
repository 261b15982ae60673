"""Malformed traces give InvalidInput naming the place, never a traceback (CLI: one line, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.base.errors import InputKind, InvalidInput
from model.monitor.adapter.report_task import POLICY_DIR
from model.monitor.adapter.trace import load_trace, run_trace
from model.monitor.language.syntax import load_policy
from model.shell.cli import main

GOOD_CALL = {"call": "Read", "as": "r"}

CASES: list[tuple[str, str, InputKind, str]] = [
    # (name, file text, kind, a fragment the location must contain)
    ("not json", '{"agent": "assistant", "steps": [', InputKind.SYNTAX, ":1:"),
    ("trailing comma", '{"agent": "assistant",\n "steps": [],}', InputKind.SYNTAX, ":2:"),
    ("no agent", json.dumps({"steps": []}), InputKind.SCHEMA, "$"),
    ("steps not a list", json.dumps({"agent": "a", "steps": {}}), InputKind.SCHEMA, "$.steps"),
    ("unknown step kind", json.dumps({"agent": "a", "steps": [GOOD_CALL, {"sleep": 1}]}), InputKind.SCHEMA,
     "$.steps[1]"),
    ("unknown toolkit", json.dumps({"agent": "a", "toolkit": "bank", "steps": []}), InputKind.SCHEMA, "$.toolkit"),
    ("bad expect", json.dumps({"agent": "a", "steps": [{"call": "Read", "expect": "maybe"}]}), InputKind.SCHEMA,
     "$.steps[0].expect"),
    ("negative failures", json.dumps({"agent": "a", "world": {"send_failures": -1}, "steps": []}),
     InputKind.SCHEMA, "$.world.send_failures"),
]

RUN_CASES: list[tuple[str, dict[str, object], InputKind, str]] = [
    ("dangling handle", {"agent": "assistant", "steps": [
        {"call": "Sanitize", "args": {"record": {"$handle": "nothing"}}}]}, InputKind.REFERENCE,
     "$.steps[0].args.record"),
    ("handle of a refused step", {"agent": "assistant", "steps": [
        {"call": "Send", "args": {"body": "x", "recipient": "y"}, "as": "s"},
        {"call": "Sanitize", "args": {"record": {"$handle": "s"}}}]}, InputKind.REFERENCE, "$.steps[1].args.record"),
    ("handle with junk keys", {"agent": "assistant", "steps": [GOOD_CALL,
        {"call": "Sanitize", "args": {"record": {"$handle": "r", "x": 1}}}]}, InputKind.SCHEMA,
     "$.steps[1].args.record"),
    ("scripted call without outcome", {"agent": "assistant", "toolkit": "scripted", "steps": [GOOD_CALL]},
     InputKind.SCHEMA, "$.steps[0]"),
]


@pytest.mark.parametrize(("name", "text", "kind", "where"), CASES, ids=[c[0] for c in CASES])
def test_load_trace_rejects(tmp_path: Path, name: str, text: str, kind: InputKind, where: str) -> None:
    f = tmp_path / "trace.json"
    f.write_text(text)
    with pytest.raises(InvalidInput) as info:
        load_trace(str(f))
    assert info.value.kind is kind
    assert str(f) in str(info.value.location) and where in str(info.value.location)


@pytest.mark.parametrize(("name", "doc", "kind", "where"), RUN_CASES, ids=[c[0] for c in RUN_CASES])
def test_run_trace_rejects(tmp_path: Path, name: str, doc: dict[str, object], kind: InputKind, where: str) -> None:
    f = tmp_path / "trace.json"
    f.write_text(json.dumps(doc))
    policy = load_policy(str(POLICY_DIR / "report.policy"))
    with pytest.raises(InvalidInput) as info:
        run_trace(policy, load_trace(str(f)), str(f))
    assert info.value.kind is kind
    assert where in str(info.value.location)


def test_missing_file_is_io_error() -> None:
    with pytest.raises(InvalidInput) as info:
        load_trace("/nonexistent/trace.json")
    assert info.value.kind is InputKind.IO


@pytest.mark.parametrize(("name", "text", "kind", "where"), CASES[:3], ids=[c[0] for c in CASES[:3]])
def test_cli_prints_one_line_and_exits_2(tmp_path: Path, name: str, text: str, kind: InputKind, where: str) -> None:
    f = tmp_path / "trace.json"
    f.write_text(text)
    result = CliRunner().invoke(main, ["monitor", "run", str(POLICY_DIR / "report.policy"), str(f)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "error:" in result.output and str(f) in result.output
