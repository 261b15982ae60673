"""An engine that cannot answer a query says so: exit 3 with the query named, never "no forbidden
execution" and never "goal not reached" (model/search/run.py ``unanswered``)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from model.cli import main
from model.search.load import load_model
from model.search.run import Engine, search

ROOT = Path(__file__).resolve().parents[2]
DELETE = str(ROOT / "corpus" / "search" / "delete_ab.json")
WIDENED = str(ROOT / "corpus" / "search" / "delete_widened.policy")
ARGS = ["search", DELETE, "--policy", WIDENED, "--bound", "3"]


def test_smt_outside_its_fragment_exits_3_naming_each_query() -> None:
    res = CliRunner().invoke(main, [*ARGS, "--engine", "smt"])
    assert res.exit_code == 3, res.output
    assert "No forbidden execution within" not in res.output
    for q in ("delete_a_twice", "delete_c", "batch_ab"):
        assert f"{q}: unknown (no engine can answer it" in res.output
    assert "did not reach" not in res.output  # nobody looked for the goal


def test_smt_outside_its_fragment_json_is_not_passed() -> None:
    res = CliRunner().invoke(main, [*ARGS, "--engine", "smt", "--json"])
    assert res.exit_code == 3, res.output
    doc = json.loads(res.output)
    assert doc["passed"] is False and doc["findings"] == []
    assert set(doc["unanswered"]) == {"delete_a_twice", "delete_c", "batch_ab"}
    assert "list resource" in doc["unanswered"]["delete_a_twice"]


def test_explicit_on_the_same_model_finds_the_forbidden_trace() -> None:
    res = CliRunner().invoke(main, [*ARGS, "--engine", "explicit", "--json"])
    assert res.exit_code == 1, res.output
    assert "forbidden execution delete_a_twice found" in json.loads(res.output)["findings"]


def test_both_engines_answer_through_the_one_that_can() -> None:
    rep = search(load_model(DELETE, WIDENED), 3, Engine.BOTH)
    assert rep.unanswered == () and not rep.passed
    res = CliRunner().invoke(main, [*ARGS, "--engine", "both"])
    assert res.exit_code == 1
    assert "both engines agree where both answered (0 of 3 queries)" in res.output


def test_library_report_lists_unanswered_and_does_not_pass() -> None:
    rep = search(load_model(DELETE, WIDENED), 3, Engine.SMT)
    assert not rep.passed and rep.findings() == ()
    assert [q for q, _ in rep.unanswered] == ["delete_a_twice", "delete_c", "batch_ab"]
