"""An engine that cannot answer a query says so: exit 3 with the query named, never "no forbidden
execution" and never "goal not reached" (model/search/run.py ``unanswered``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.search.load import load_model
from model.search.run import Engine, search
from model.shell.cli import main

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


# --- revise: the certificate engines cannot encode a glob; the explicit searches still answer ---

DELETE_AB = ROOT / "corpus" / "policies" / "delete_ab.policy"


def _glob_variant(tmp_path: Path, glob: str) -> str:
    text = DELETE_AB.read_text().replace('allow file.delete("A") quota 1', f'allow file.delete(like "{glob}") quota 1')
    assert glob in text
    out = tmp_path / "glob.policy"
    out.write_text(text)
    return str(out)


def test_revise_whose_certificate_engines_cannot_encode_the_policy_is_unknown_not_certified(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["revise", str(DELETE_AB), _glob_variant(tmp_path, "[A-]"), "--explain"])
    assert res.exit_code == 3, res.output
    assert "Certified" not in res.output and "Unknown" in res.output
    assert "simulation relation: P: glob '[A-]'" in res.output  # the engine says why it could not answer


def test_revise_finds_a_lost_client_where_the_certificate_engines_cannot_look(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["revise", str(DELETE_AB), _glob_variant(tmp_path, "[B-]")])
    assert res.exit_code == 1, res.output
    assert 'Delete(target="A")' in res.output


# --- edit check: every engine decides or, out of budget, answers Unknown (exit 3) ---

@pytest.mark.parametrize("engine", ["declarative", "explicit", "symbolic"])
def test_edit_check_engine_out_of_budget_is_unknown(engine: str) -> None:
    inst = str(ROOT / "corpus" / "edits" / "laptop_fork_parallel.json")
    res = CliRunner().invoke(main, ["edit", "check", inst, "--engine", engine, "--budget", "3states"])
    assert res.exit_code == 3, res.output
    assert res.output.startswith("Unknown: budget exhausted (states)") and f"the {engine} engine" in res.output
    full = CliRunner().invoke(main, ["edit", "check", inst, "--engine", engine])
    assert full.exit_code in (0, 1) and "Unknown" not in full.output
