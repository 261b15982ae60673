"""``make reproduce`` and the on-demand jobs together regenerate every committed table: each table in
paper_figures/tables/ names what writes it, and that writer exists and does write it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from model.shell.reproduce import EXPERIMENTS, TABLE_SOURCES

ROOT = Path(__file__).resolve().parents[2]
TABLES = sorted(p.stem for p in (ROOT / "paper_figures" / "tables").glob("*.csv"))
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def test_every_committed_table_has_a_writer() -> None:
    assert sorted(TABLE_SOURCES) == TABLES


@pytest.mark.parametrize("table", TABLES)
def test_the_named_writer_exists_and_writes_the_table(table: str) -> None:
    source = TABLE_SOURCES[table]
    if source == "agentwarrant drt":  # the campaign's summary table (--out), written by the command itself
        script = ROOT / "model" / "shell" / "commands" / "drt_cmd.py"
    elif source.startswith("make "):
        target = source.removeprefix("make ")
        assert re.search(rf"^{re.escape(target)}:", MAKEFILE, re.M), source
        script = ROOT / "experiments" / f"{target}.py"
    else:
        assert source in EXPERIMENTS, source
        script = ROOT / "experiments" / EXPERIMENTS[source]
    assert f'"{table}"' in script.read_text(encoding="utf-8"), (table, script)


def test_readme_names_every_table_that_make_reproduce_leaves_alone() -> None:
    """README says which tables ``make reproduce`` does not rewrite: every on-demand experiment and every
    command that writes a table outside ``reproduce`` is named there."""
    from model.shell.reproduce import ON_DEMAND

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    others = {s for s in TABLE_SOURCES.values() if s not in EXPERIMENTS}
    missing = [n for n in sorted(ON_DEMAND) if n not in readme] + [s for s in sorted(others) if f"`{s}`" not in readme]
    assert not missing, f"README.md does not name: {missing}"
