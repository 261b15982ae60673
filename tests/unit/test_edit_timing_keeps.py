"""The edit-timing experiment never loses a measured comparison: without the artifact it rewrites its
own table and figure and leaves the committed same-run comparison with the artifact as it is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from model.shell.reproduce import load_experiment

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "paper_figures" / "tables" / "edit_timing_artifact.csv"


def _rows(timing: object) -> list[dict[str, object]]:
    # our two engines at two sizes, one of them Unknown; the artifact's rows unmeasured, as measure() leaves them
    rows: list[dict[str, object]] = []
    for engine in ("explicit", "symbolic", "artifact", "artifact_validated"):
        for size, verdict, ms in ((3, "accepted", 0.1), (10, "unknown (100000 states)", 0.5)):
            measured = engine in ("explicit", "symbolic") and not (engine == "symbolic" and size == 10)
            rows.append({"engine": engine, "family": "unordered", "size": size,
                         "verdict": verdict if measured else "not available", "candidates": None, "rounds": "",
                         **{c: (ms if measured else None) for c in timing.TIMES},  # type: ignore[attr-defined]
                         "peak_rss_kb": None})
    return rows


def test_without_the_artifact_the_comparison_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("AGENTWARRANT_ARTIFACT", raising=False)
    timing = load_experiment("edit-timing")
    (tmp_path / "tables").mkdir()
    kept = tmp_path / "tables" / "edit_timing_artifact.csv"
    shutil.copy(COMMITTED, kept)
    before = kept.read_bytes()
    written = timing.write(_rows(timing), tmp_path)
    assert kept.read_bytes() == before
    assert kept not in written and (tmp_path / "edit_timing.png") in written
    assert "is kept as it is" in capsys.readouterr().err
    ours = (tmp_path / "tables" / "edit_timing.csv").read_text()
    assert "artifact" not in ours.split("\n", 1)[1]  # our table holds our engines only, no cross-run ratio


def test_the_committed_comparison_says_when_and_against_which_commit() -> None:
    timing = load_experiment("edit-timing")
    rows = timing.read_comparison(ROOT / "paper_figures")
    assert rows and {r["engine"] for r in rows} == {"explicit", "symbolic", "artifact", "artifact_validated"}
    assert all(r["measured_utc"] and len(r["artifact_commit"]) == 40 for r in rows)
