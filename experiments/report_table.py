"""Agenra Table 1 (Section 3): the report policy's seven candidates, computed by the monitor.

Writes paper_figures/tables/report_task.csv and report_task.md. Every cell in the result,
reason and failing-checks columns comes from running the monitor through the Adapter on the
reference tools (model/monitor/adapter/report_task.py); nothing is copied from the paper.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from model.base.tables import write_table
from model.shell.api import report_table
from model.shell.frames import REPORT_HEADER, report_rows


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    # the same rows a notebook gets from model.to_frame(model.report_table())
    body = [[row[h] for h in REPORT_HEADER] for row in report_rows(report_table(tick))]
    return write_table(out_dir, "report_task", list(REPORT_HEADER), body,
                       "Table 1 (Agenra Section 3), computed by the monitor on the reference tools.")


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "paper_figures"
    for p in reproduce(out, lambda done, total: None):
        print(f"wrote {p}")
