"""``agentwarrant search`` (model/shell/commands/search_cmd.py): text and JSON output, engine selection,
exit status 0 when the search passes and 1 on a finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
REPORT = str(ROOT / "corpus" / "search" / "report.json")
POLICIES = ROOT / "corpus" / "policies"


def test_json_output_no_origin_finds_the_decoy_and_exits_1() -> None:
    result = CliRunner().invoke(main, ["search", REPORT, "--policy", str(POLICIES / "report_no_origin.policy"),
                                       "--bound", "3", "--json"])
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    assert doc["explicit"]["queries"]["inbox_to_mail"]["verdict"] == "found"
    assert doc["smt"]["queries"]["inbox_to_mail"]["length"] == 3
    assert "forbidden execution inbox_to_mail found" in doc["findings"]
    assert all(c["agree"] for c in doc["comparison"])
    assert doc["replays"] and all(r["reproduced"] for r in doc["replays"])
    assert doc["explicit"]["states"] > 0 and doc["explicit"]["depth"] == 3


def test_text_output_under_chained_rule_passes() -> None:
    result = CliRunner().invoke(main, ["search", REPORT, "--policy", str(POLICIES / "report_chained.policy"),
                                       "--engine", "explicit"])
    assert result.exit_code == 0, result.output
    assert "3 distinct useful completions" in result.output
    assert "states" in result.output and "smt:" not in result.output


def test_smt_engine_alone() -> None:
    result = CliRunner().invoke(main, ["search", REPORT, "--engine", "smt", "--bound", "2", "--json",
                                       "--no-replay"])
    doc = json.loads(result.output)
    assert "explicit" not in doc and doc["smt"]["queries"]["deliver_summary"]["verdict"] == "vacuous"
    assert result.exit_code == 1  # the goal is not reached within two steps


def test_the_default_explicit_engine_is_the_encoded_search_with_the_interpreted_answers() -> None:
    """``agentwarrant search`` runs the integer-encoded search where it is built and covers the model, and
    its verdicts, traces and completions are the interpreted engine's (``--interpreted``, sleep sets on)."""
    from model.search.native.intcode import kernel_module

    if kernel_module() is None:
        pytest.skip("the kernel is not built (python -m model.search.native.build)")
    args = ["search", REPORT, "--engine", "explicit", "--bound", "4", "--json", "--no-replay"]
    fast = CliRunner().invoke(main, args)
    slow = CliRunner().invoke(main, [*args, "--interpreted"])
    assert fast.exit_code == slow.exit_code == 1, (fast.output, slow.output)
    a, b = json.loads(fast.output)["explicit"], json.loads(slow.output)["explicit"]
    assert (a["engine"], a["reduction"], b["engine"], b["reduction"]) == ("intcode", False, "interpreted", True)
    assert (a["states"], a["depth"], a["queries"], a["completions"]) == \
        (b["states"], b["depth"], b["queries"], b["completions"])


def test_outside_the_encoding_or_disabled_the_interpreted_engine_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bound above the encoding's widest state vector (the quota model reaches all its 11 states far below
    it), and ``AGENTWARRANT_SEARCH_NATIVE=0``: the interpreted engine answers."""
    quota = str(Path(REPORT).parent / "delete_ab.json")
    args = ["search", quota, "--engine", "explicit", "--json", "--no-replay"]
    deep = CliRunner().invoke(main, [*args, "--bound", "63"])
    assert json.loads(deep.output)["explicit"]["engine"] == "interpreted", deep.output
    monkeypatch.setenv("AGENTWARRANT_SEARCH_NATIVE", "0")
    off = CliRunner().invoke(main, [*args, "--bound", "3"])
    assert json.loads(off.output)["explicit"]["engine"] == "interpreted", off.output
    assert json.loads(off.output)["explicit"]["states"] == 11
