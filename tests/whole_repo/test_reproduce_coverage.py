"""``make reproduce`` and the on-demand jobs together regenerate every committed table: each table in
paper_figures/tables/ names what writes it, and that writer exists and does write it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from model.reproduce import EXPERIMENTS, TABLE_SOURCES

ROOT = Path(__file__).resolve().parents[2]
TABLES = sorted(p.stem for p in (ROOT / "paper_figures" / "tables").glob("*.csv"))
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def test_every_committed_table_has_a_writer() -> None:
    assert sorted(TABLE_SOURCES) == TABLES


@pytest.mark.parametrize("table", TABLES)
def test_the_named_writer_exists_and_writes_the_table(table: str) -> None:
    source = TABLE_SOURCES[table]
    if source == "agentwarrant drt":  # the campaign's summary table (--out), written by the command itself
        script = ROOT / "model" / "oracle" / "cli.py"
    elif source.startswith("make "):
        target = source.removeprefix("make ")
        assert re.search(rf"^{re.escape(target)}:", MAKEFILE, re.M), source
        script = ROOT / "experiments" / f"{target}.py"
    else:
        assert source in EXPERIMENTS, source
        script = ROOT / "experiments" / EXPERIMENTS[source]
    assert f'"{table}"' in script.read_text(encoding="utf-8"), (table, script)
