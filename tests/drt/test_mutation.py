"""The DRT harness catches a broken Python judgment (slow; experiments/drt_mutation.py).

For each mutant the seeded campaign on an unmutated copy of the checkout finds nothing, and on
the mutated copy finds a mismatch within 1,000 cases."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from model.oracle.lean import LeanOracle

pytestmark = [pytest.mark.lean, pytest.mark.slow]
SCRIPT = Path(__file__).resolve().parent.parent.parent / "experiments" / "drt_mutation.py"


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("drt_mutation", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the script is executed
    spec.loader.exec_module(mod)
    return mod


NAMES = ["ledger-scan-reversed", "resolve-never-reuse", "matching-keys-ignored", "matching-eq-negated",
         "slot-never-binds", "origin-preserving-ignored", "history-session-as-lineage", "permit-check-skipped",
         "permit-reused", "result-failed-is-handle", "request-sink-label-all-inputs", "wellformed-empty-choice-missed",
         "wellformed-policy-before-repeats", "symbolic-prefix-count-marked-only"]


def test_every_mutant_is_listed() -> None:
    assert [m.name for m in _module().MUTANTS] == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_campaign_finds_the_mutant_within_1000_cases(oracle: LeanOracle, name: str) -> None:
    mod = _module()
    mutant = next(m for m in mod.MUTANTS if m.name == name)
    control, mutated = mod.run_mutant(mutant, oracle.exe)
    assert control["mismatches"] == 0, control
    assert mutated["mismatches"] > 0 and mutated["first"] <= 1000, mutated
