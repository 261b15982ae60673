"""The edit-runtime state machine of tests/property/test_edits_runtime_stateful.py at a budget that
reaches deep edit sequences (forks of forks, restores of merged branches, repeated restarts, preloads
of fresh and stale answers between them). Slow."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

_PATH = Path(__file__).resolve().parents[1] / "property" / "test_edits_runtime_stateful.py"


@pytest.mark.slow
def test_edit_runtime_invariants_deep() -> None:
    spec = importlib.util.spec_from_file_location("_edits_stateful_machine", _PATH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    run_state_machine_as_test(mod.EditRuntime, settings=settings(
        max_examples=300, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]))
