"""The experiment registry: unknown names and missing scripts are InvalidInput, not tracebacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.base.errors import InputKind, InvalidInput
from model.shell import reproduce


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


@pytest.mark.parametrize("terminal", [False, True])
def test_every_named_experiment_runs_with_and_without_a_terminal(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, terminal: bool) -> None:
    # The terminal path (progress bars) once ran only the last experiment named: a merge had dedented
    # the call out of its loop, and only the piped path was tested.
    import sys

    from model.shell import cli

    ran: list[str] = []

    def fake_run(name: str, out: Path, tick: object, client: object) -> list[Path]:
        ran.append(name)
        return [out / f"{name}.csv"]

    monkeypatch.setattr(reproduce, "run_experiment", fake_run)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    cli._reproduce(("report-table", "bounded-analysis", "edit-timing"), tmp_path, None)
    assert ran == ["report-table", "bounded-analysis", "edit-timing"]
