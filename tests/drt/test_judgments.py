"""Differential tests: the Python model against the Lean oracle on generated inputs, so
that a disagreement between the executable model and the formalization is found by a test.

One test per judgment, each drawing from the shared strategies in model/oracle/generators.py. The
comparison modes are the named ones of model/oracle/edits_json.py and monitor_json.py; a
mismatch fails the test with every input and both outputs, and the input is saved under
corpus/vectors/. Skips are counted and must stay a minority, so a generator that drifted into
producing only skips would fail. Edit instances the checkers call Invalid are compared too, with their
reason class; ``test_edit_check_invalid_reasons`` requires every class to be reached.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from model.edits.check.instance import Instance
from model.oracle.drt import Agree, CaseResult, Mismatch, Skip, report, run_case, save_vector
from model.oracle.generators import (
    INVALID_KINDS,
    edit_instances,
    family_instances,
    invalid_edit_instances,
    ledger_cases,
    monitor_runs,
    resolve_cases,
    whole_monitor_runs,
)
from model.oracle.lean import LeanOracle

pytestmark = pytest.mark.lean
# generation speed is not under test (a loaded CI machine trips hypothesis's too_slow check)
CASES = settings(max_examples=150, database=None, phases=[Phase.generate], deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _check(results: list[CaseResult], tally: dict[str, int]) -> None:
    for res in results:
        if isinstance(res, Mismatch):
            path = save_vector(res)
            pytest.fail(f"{report(res)}\n(saved as {path})")
        tally["skip" if isinstance(res, Skip) else "agree"] += 1
        assert isinstance(res, Agree | Skip)


def test_edit_check(oracle: LeanOracle) -> None:
    tally = {"agree": 0, "skip": 0}

    @CASES
    @given(edit_instances())
    def body(inst: Instance) -> None:
        _check(run_case("edit_check", oracle, inst), tally)

    body()
    assert tally["agree"] > tally["skip"], tally


def test_edit_check_on_explicit_families(oracle: LeanOracle) -> None:
    """Explicit outcome families: the oracle's finite form is a list of outcomes with their
    linearizations, so an explicit family (N-shaped orders, one call in several outcomes ordered
    differently) translates unchanged."""
    tally = {"agree": 0, "skip": 0}

    @CASES
    @given(family_instances())
    def body(inst: Instance) -> None:
        _check(run_case("edit_check", oracle, inst), tally)

    body()
    assert tally["agree"] > 0, tally


def test_edit_check_invalid_reasons(oracle: LeanOracle) -> None:
    """Ill-formed instances (``invalid_edit_instances``): both sides answer Invalid with the same reason
    class, and a fixed seed of 300 cases reaches every class."""
    kinds: dict[str, int] = {}

    @seed(20261204)
    @settings(CASES, max_examples=300)
    @given(invalid_edit_instances())
    def body(inst: Instance) -> None:
        for res in run_case("edit_check", oracle, inst):
            _check([res], {"agree": 0, "skip": 0})
            if isinstance(res, Agree):
                kinds[res.kind] = kinds.get(res.kind, 0) + 1

    body()
    assert {k.removeprefix("invalid:") for k in kinds if k.startswith("invalid:")} == set(INVALID_KINDS), kinds


def test_resolve(oracle: LeanOracle) -> None:
    tally = {"agree": 0, "skip": 0}

    @CASES
    @given(resolve_cases())
    def body(case: Any) -> None:
        _check(run_case("resolve", oracle, case), tally)

    body()
    assert tally["agree"] > 0 and tally["skip"] == 0


def test_ledger_allocate(oracle: LeanOracle) -> None:
    tally = {"agree": 0, "skip": 0}

    @CASES
    @given(ledger_cases())
    def body(case: Any) -> None:
        _check(run_case("ledger_allocate", oracle, case), tally)

    body()
    assert tally["agree"] > 0 and tally["skip"] == 0


def test_monitor_step(oracle: LeanOracle) -> None:
    tally = {"agree": 0, "skip": 0}

    @CASES
    @given(monitor_runs())
    def body(run: Any) -> None:
        _check(run_case("monitor_step", oracle, run), tally)

    body()
    assert tally["agree"] > 0 and tally["skip"] == 0


def test_whole_monitor(oracle: LeanOracle) -> None:
    """The whole monitor from policy, state and call: decision, reason, waiting set and next state."""
    tally = {"agree": 0, "skip": 0}

    @CASES
    @given(whole_monitor_runs())
    def body(run: Any) -> None:
        _check(run_case("monitor", oracle, run), tally)

    body()
    assert tally["agree"] > 5 * tally["skip"], tally
