"""The experiment registry: unknown names and missing scripts are InvalidInput, not tracebacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from model import reproduce
from model.errors import InputKind, InvalidInput


def test_unknown_experiment_names_the_known_ones() -> None:
    with pytest.raises(InvalidInput) as err:
        reproduce.load_experiment("no-such-experiment")
    assert "report-table" in err.value.expected


def test_registered_script_that_is_missing_is_invalid_input(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "experiments").mkdir()
    monkeypatch.setattr(reproduce, "repo_root", lambda: tmp_path)
    with pytest.raises(InvalidInput) as err:
        reproduce.load_experiment("report-table")
    assert err.value.kind is InputKind.IO
    assert "report_table.py" in str(err.value.location)


def test_every_registered_script_loads_and_exposes_reproduce() -> None:
    for name in reproduce.EXPERIMENTS:
        assert callable(getattr(reproduce.load_experiment(name), "reproduce", None)), name
