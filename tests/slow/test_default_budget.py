"""Without ``--budget`` a question too large to answer interactively answers Unknown (exit 3) within the
default budget, and says it was the default (``model.base.budget.DEFAULT_CLI``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from model.base.budget import DEFAULT_CLI

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def test_search_bound_64_without_budget_answers_unknown_in_the_default_budget() -> None:
    assert DEFAULT_CLI.seconds is not None
    res = subprocess.run([sys.executable, "-m", "model.shell.cli", "search", "corpus/search/report.json",
                          "--bound", "64",
                          "--engine", "explicit"], cwd=ROOT, capture_output=True, text=True,
                         timeout=DEFAULT_CLI.seconds * 3)  # the old default ran for 600 s
    assert res.returncode == 1 or res.returncode == 3, res.stderr  # 1: a forbidden trace was found before
    assert "--budget none" in res.stdout and "budget exhausted" in res.stdout
