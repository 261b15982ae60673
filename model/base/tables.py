"""Writing experiment tables: one CSV for machines and one Markdown file for people, side by side in
``paper_figures/tables/``. Every experiment uses this so the two forms never drift apart."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path


def write_table(out_dir: Path, name: str, header: Sequence[str], rows: Sequence[Sequence[object]],
                caption: str, summary: tuple[Sequence[str], Sequence[Sequence[object]]] | None = None) -> list[Path]:
    """Write ``tables/NAME.csv`` and ``tables/NAME.md`` under ``out_dir``; return both paths. With
    ``summary`` (a header and rows), the Markdown file shows that instead of every row: for a table too
    long to read, whose CSV stays complete."""
    tables = out_dir / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    text_rows = [[str(c) for c in row] for row in rows]
    csv_path = tables / f"{name}.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(text_rows)
    md_path = tables / f"{name}.md"
    if summary is not None:
        header, text_rows = summary[0], [[str(c) for c in row] for row in summary[1]]
    lines = [caption, "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in text_rows]
    md_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [csv_path, md_path]
