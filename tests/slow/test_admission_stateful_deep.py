"""The release-pipeline state machine of tests/property/test_admission_stateful.py at a budget that
reliably reaches decide → upgrade policy → release (the fast budget in ``make test`` often does
not). Marked slow."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

_PATH = Path(__file__).resolve().parents[1] / "property" / "test_admission_stateful.py"


@pytest.mark.slow
def test_release_pipeline_invariants_deep() -> None:
    spec = importlib.util.spec_from_file_location("_admission_stateful_machine", _PATH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    run_state_machine_as_test(mod.ReleasePipeline, settings=settings(
        max_examples=400, stateful_step_count=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]))
