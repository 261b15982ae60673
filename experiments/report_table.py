"""Agenra Table 1 (Section 3): the report policy's seven candidates, computed by the monitor.

Writes paper_figures/tables/report_task.csv and report_task.md. Every cell in the result,
reason and failing-checks columns comes from running the monitor through the Adapter on the
reference tools (model/monitor/report_task.py); nothing is copied from the paper.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Callable
from pathlib import Path

from model.monitor.report_task import table_rows


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    rows = table_rows(tick)
    tables = out_dir / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    header = ["candidate", "obligation", "policy", "result", "reason", "failing_checks", "reached_mail"]
    body = [[r.candidate, r.obligation, r.policy, r.result, r.reason.value if r.reason else "",
             " ".join(x.value for x in r.failing), "yes" if r.reached_mail else "no"] for r in rows]
    csv_path = tables / "report_task.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(body)
    md_path = tables / "report_task.md"
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    md_path.write_text("Table 1 (Agenra Section 3), computed by the monitor on the reference tools.\n\n"
                       + "\n".join(lines) + "\n", encoding="utf-8")
    return [csv_path, md_path]


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "paper_figures"
    for p in reproduce(out, lambda done, total: None):
        print(f"wrote {p}")
