"""Budgets for the search: a run that outgrows its budget answers Unknown for what it has not
decided — never a hang, never a wrong verdict — keeps what it found (shortest), and the CLI exits 3."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from model.base.budget import Budget, Unknown
from model.search.explicit import explore
from model.search.load import load_model
from model.search.run import Engine, search
from model.search.search_verdict import Exhausted, Found
from model.search.smt import check
from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "corpus" / "search" / "report.json"
POLICIES = ROOT / "corpus" / "policies"


def test_a_states_budget_gives_unknown_and_keeps_what_was_found() -> None:
    model = load_model(REPORT, str(POLICIES / "report_no_origin.policy"))
    full = explore(model, 3)
    cut = explore(model, 3, budget=Budget(states=120))
    assert cut.unknown is not None and cut.unknown.limit == "states"
    assert cut.transitions == 120  # one tick per transition; the 121st raised
    undecided = 0
    for name, v in cut.verdicts:
        if isinstance(v, Found):  # found within the budget: a shortest trace, as without it
            w = full.verdict(name)
            assert isinstance(w, Found) and v.length == w.length
        else:
            assert isinstance(v, Unknown)
            undecided += 1
    assert undecided > 0


def test_a_generous_budget_changes_nothing() -> None:
    model = load_model(REPORT, str(POLICIES / "report_chained.policy"))
    assert explore(model, 3, budget=Budget(seconds=600, states=10**7)).verdicts == explore(model, 3).verdicts


def test_smt_gets_the_remaining_time_as_its_timeout() -> None:
    model = load_model(REPORT, str(POLICIES / "report_chained.policy"))
    meter = Budget(seconds=0.001).start()
    while meter.remaining_seconds():
        pass  # spend it
    run = check(model, 4, meter=meter)
    assert all(isinstance(a, Unknown) and a.limit == "time" for _, a in run.answers)
    decided = check(model, 2, meter=Budget(seconds=600).start())
    assert all(isinstance(a, Found | Exhausted) or type(a).__name__ == "Vacuous" for _, a in decided.answers)


def test_search_report_lists_unknown_queries() -> None:
    model = load_model(REPORT, str(POLICIES / "report_chained.policy"))
    rep = search(model, 64, Engine.BOTH, False, budget=Budget(states=300))
    assert rep.unknown and not rep.passed and not rep.findings()


def test_cli_bound_64_answers_unknown_with_exit_3() -> None:
    result = CliRunner().invoke(main, ["search", str(REPORT), "--policy", str(POLICIES / "report_chained.policy"),
                                       "--bound", "64", "--budget", "2s", "--json"])
    assert result.exit_code == 3, result.output
    assert '"unknown":["confidential_to_mail"' in result.output


def test_cli_found_attack_still_exits_1_under_a_small_budget() -> None:
    result = CliRunner().invoke(main, ["search", str(REPORT), "--policy", str(POLICIES / "report_no_origin.policy"),
                                       "--bound", "64", "--budget", "3000states", "--engine", "explicit"])
    assert result.exit_code == 1, result.output
    first = next(line for line in result.output.splitlines() if "forbidden execution" in line)
    assert "found within 64 steps" in first and "decoy_unrelated" in first and "undecided, budget exhausted" in first
