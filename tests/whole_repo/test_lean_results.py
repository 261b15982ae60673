"""The results tables are derived, not typed: the committed paper_figures/tables/lean_results.* and the
README's block are what model/oracle/paper_table.py makes of the two Lean results pages and the Lean
sources now, and a row that points at Lean names a theorem that is declared there."""

from __future__ import annotations

import re

from model.oracle import paper_table as pt
from model.oracle.audit import theorems


def test_committed_tables_are_current() -> None:
    rows = pt.collect()
    assert (pt.OUT / "lean_results.md").read_text(encoding="utf-8") == pt.markdown(rows), "run `make lean_results`"
    assert (pt.OUT / "lean_results.csv").read_text(encoding="utf-8") == pt.csv_text(rows), "run `make lean_results`"
    readme = pt.README.read_text(encoding="utf-8")
    assert pt.with_readme_block(readme, rows) == readme, "run `make lean_results`"


def test_rows_that_cite_lean_resolve_to_theorems() -> None:
    declared = theorems()
    for paper, page in pt.PAGES.items():
        for cells in pt.table_rows(page.read_text(encoding="utf-8")):
            where = cells[2] if len(cells) >= 4 else " ".join(cells[1:-1])
            if re.search(r"\bLean\b", where) or len(cells) >= 4:
                found = [t for t in pt._TICK.findall(where) if pt.resolve(t.strip(), declared)]
                assert found, f"{paper}: row {cells[0]!r} cites Lean but names no declared theorem: {where}"


def test_claims_are_classified_from_the_scope_text() -> None:
    assert pt.claim("Lean", "Paper's statement") == "paper's statement"
    assert pt.claim("Lean", "Paper's statement for the closed core") == "special case"
    assert pt.claim("Lean", "Special case. Hypothesis: ...") == "special case"
    assert pt.claim("Python check", "The paper's five fixed pairs") == "not in Lean"


def test_readme_stays_short() -> None:
    assert len(pt.README.read_text(encoding="utf-8").splitlines()) <= 250
