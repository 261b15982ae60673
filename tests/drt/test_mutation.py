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


@pytest.mark.parametrize("index", [0, 1], ids=["ledger-scan-reversed", "resolve-never-reuse"])
def test_campaign_finds_the_mutant_within_1000_cases(oracle: LeanOracle, index: int) -> None:
    mod = _module()
    mutant = mod.MUTANTS[index]
    control, mutated = mod.run_mutant(mutant, oracle.exe)
    assert control["mismatches"] == 0, control
    assert mutated["mismatches"] > 0 and mutated["first"] <= 1000, mutated
