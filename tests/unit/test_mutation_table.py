"""experiments/mutation.py: how mutmut's verdicts become the per-module table, and how equivalent
mutants are matched by content (never by mutmut's shifting numbers). Needs no mutmut: the
verdicts and diffs here are made up, the classification is the script's."""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("experiments_mutation", ROOT / "experiments" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the script's annotations through sys.modules
    spec.loader.exec_module(module)
    return module


M = _script()
LEDGER = "model/monitor/ledger.py"
DIFFS = {
    "model.monitor.ledger.x_commit__mutmut_1": "--- a\n+++ a\n@@ -1 +1 @@\n-    return x + 1\n+    return x - 1",
    "model.monitor.ledger.x_commit__mutmut_2": "--- a\n+++ a\n@@ -1 +1 @@\n-    zip(a, b, strict=True)\n+    zip(a, b)",
    "model.monitor.ledger.xǁStoreǁall__mutmut_3": "@@ -1 +1 @@\n-    'SELECT 1'\n+    'select 1'",
}


def diff_of(mutant: str, module: str) -> str:
    assert module == LEDGER
    return DIFFS[mutant]


def equivalent(function: str, removed: str, added: str) -> object:
    return M.Equivalent(LEDGER, function, (removed,), (added,), "because")


def test_verdicts_are_counted_per_column_and_scored_over_non_equivalent_mutants() -> None:
    results = {LEDGER: {"model.monitor.ledger.x_has__mutmut_1": 1, "model.monitor.ledger.x_has__mutmut_2": 3,
                        "model.monitor.ledger.x_has__mutmut_3": 36, "model.monitor.ledger.x_commit__mutmut_1": 0,
                        "model.monitor.ledger.x_commit__mutmut_2": 0, "model.monitor.ledger.x_within__mutmut_1": 33}}
    eq = [equivalent("commit", "zip(a, b, strict=True)", "zip(a, b)")]
    rows, unexplained, stale = M.tabulate(results, eq, diff_of)
    (row,) = rows
    assert (row.mutants, row.killed, row.timeout, row.survived, row.no_tests, row.equivalent) == (6, 2, 1, 1, 1, 1)
    assert row.score == pytest.approx(3 / 5) and row.cells()[-2:] == [0, "60.0%"]
    assert unexplained == ["model.monitor.ledger.x_commit__mutmut_1", "model.monitor.ledger.x_within__mutmut_1"]
    assert stale == []
    assert M.total([row, row]).mutants == 12


def test_an_equivalent_entry_must_match_function_and_both_sides_of_the_diff() -> None:
    results = {LEDGER: {"model.monitor.ledger.x_commit__mutmut_2": 0}}
    for wrong in (equivalent("allocate", "zip(a, b, strict=True)", "zip(a, b)"),
                  equivalent("commit", "zip(a, b, strict=True)", "zip(a, b, strict=False)")):
        rows, _, stale = M.tabulate(results, [wrong], diff_of)
        assert rows[0].survived == 1 and rows[0].equivalent == 0 and stale == [wrong]


def test_methods_are_named_class_dot_method() -> None:
    assert M.function_of("model.admission.signatures.records.xǁRecordStoreǁall__mutmut_3") == "RecordStore.all"
    assert M.function_of("model.monitor.ledger.x__find_permit__mutmut_10") == "_find_permit"
    assert (M.name_module("model.admission.signatures.records.xǁRecordStoreǁall__mutmut_3")
            == "model/admission/signatures/records.py")


def test_a_crashed_mutant_is_an_error_and_an_unrun_one_is_left_out_of_the_score() -> None:
    with pytest.raises(SystemExit):
        M.tabulate({LEDGER: {"model.monitor.ledger.x_has__mutmut_1": -11}}, [], diff_of)
    rows, _, _ = M.tabulate({LEDGER: {"model.monitor.ledger.x_has__mutmut_1": None,
                                      "model.monitor.ledger.x_has__mutmut_2": 1}}, [], diff_of)
    assert (rows[0].not_run, rows[0].killed, rows[0].score) == (1, 1, 1.0)


def test_missing_results_name_the_command_to_run(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="make mutation"):
        M.load_results(tmp_path, [LEDGER])


def test_the_checked_in_equivalents_are_well_formed_and_name_mutated_modules() -> None:
    entries = M.load_equivalents()
    assert all(e.module in M.MODULES and e.why.strip() and (e.removed or e.added) for e in entries)
    raw = json.loads(M.EQUIVALENT_FILE.read_text(encoding="utf-8"))
    assert len(raw) == len(entries)


def test_the_script_and_mutmut_configuration_name_the_same_existing_modules() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    assert tuple(config["only_mutate"]) == M.MODULES and len(M.MODULES) == 8
    assert all((ROOT / m).is_file() for m in M.MODULES), [m for m in M.MODULES if not (ROOT / m).is_file()]
    assert all((ROOT / t).is_file() for t in config["pytest_add_cli_args_test_selection"])


def test_a_partial_run_keeps_earlier_rows_only_for_wholly_unrun_modules_of_the_same_size(tmp_path: Path) -> None:
    earlier = tmp_path / "mutation.csv"
    earlier.write_text("module,mutants,killed,timeout,survived,no_tests,equivalent,not_run,score\n"
                       "a.py,3,2,0,0,0,1,0,100.0%\nb.py,2,2,0,0,0,0,0,100.0%\nc.py,5,5,0,0,0,0,0,100.0%\n",
                       encoding="utf-8")
    rows = [M.Row("a.py", 3, 0, 0, 0, 0, 0, 3),   # not run, same size: kept from the earlier table
            M.Row("b.py", 2, 1, 0, 1, 0, 0, 0),   # run now: this run's row stands
            M.Row("c.py", 4, 0, 0, 0, 0, 0, 4),   # not run, but its mutation points changed: stays not run
            M.Row("d.py", 1, 0, 0, 0, 0, 0, 1)]   # not run, not in the earlier table
    out, kept = M.keep_earlier(rows, earlier)
    assert kept == ["a.py"]
    assert out[0] == M.Row("a.py", 3, 2, 0, 0, 0, 1, 0) and out[1:] == rows[1:]
