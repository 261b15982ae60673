"""The JSON instance loader and the ``agentwarrant edit check`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.cli import main
from model.edits.load import load_instance_text
from model.errors import InputKind, InvalidInput

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "edits"
BASE = json.loads((CORPUS / "release_reject.json").read_text())


def _err(doc: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as exc:
        load_instance_text(json.dumps(doc), "inst.json")
    return exc.value


def test_schema_errors_carry_the_json_path() -> None:
    doc = dict(BASE, contract={"par": [{"call": "x"}, {"call": 3}]})
    e = _err(doc)
    assert e.kind is InputKind.SCHEMA and "$.contract" in str(e)
    e2 = _err(dict(BASE, policy={"maximal": [["x", 1]]}))
    assert e2.kind is InputKind.SCHEMA and "$.policy" in str(e2)


def test_reference_errors() -> None:
    e = _err(dict(BASE, calls={"x": "deploy", "y": "approve"}))
    assert e.kind is InputKind.REFERENCE and "call z" in e.expected
    e2 = _err(dict(BASE, labels={"deploy": "x", "approve": "y"}))
    assert e2.kind is InputKind.REFERENCE and "$.calls.z" in str(e2)
    e3 = _err(dict(BASE, log=["nope"]))
    assert "$.log[0]" in str(e3)


def test_non_prefix_closed_policy_is_refused() -> None:
    e = _err(dict(BASE, policy={"regex": "x z"}))
    assert e.kind is InputKind.VALUE and "closed under truncation" in e.expected and "$.policy" in str(e)
    e2 = _err(dict(BASE, policy={"automaton": {"states": 2, "initial": 0, "accepting": [1],
                                               "transitions": [[0, "x", 1]]}}))
    assert "closed under truncation" in e2.expected
    e3 = _err(dict(BASE, policy={"automaton": {"states": 2, "initial": 0, "accepting": [0, 1],
                                               "transitions": [[0, "x", 5]]}}))
    assert e3.kind is InputKind.REFERENCE and "$.policy.automaton.transitions[0]" in str(e3)


def test_cli_prints_verdict_rounds_and_proof() -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["edit", "check", str(CORPUS / "release_reject.json"), "--engine", "explicit"])
    assert r.exit_code == 1, r.output
    assert r.output.startswith("Rejected: no safe execution set exists") and "round 1: remove" in r.output
    assert "digest" not in r.output  # technical detail only under --explain
    r = runner.invoke(main, ["edit", "check", str(CORPUS / "release_reject.json"), "--engine", "explicit", "--explain"])
    assert "rounds 2 1 0" in r.output and "digest" in r.output
    r2 = runner.invoke(main, ["edit", "check", str(CORPUS / "laptop_fork.json"), "--json"])
    assert r2.exit_code == 0
    out = json.loads(r2.output)
    assert out["verdict"] == "accepted" and out["counts"]["safe"] == 2 and len(out["digest"]) == 64


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"contract": ')
    r = CliRunner().invoke(main, ["edit", "check", str(bad)])
    assert r.exit_code == 2 and "Traceback" not in r.output
