"""The results tables are derived, not typed: the committed paper_figures/tables/lean_results.* and the
README's block are what model/oracle/paper_table.py makes of the two Lean results pages and the Lean
sources now; every row says its classification explicitly and the derived one agrees; a row that
claims Lean names theorems declared there, in files the root imports (so the proof audit, which reads
the built library, covers them); and no function of the specification is a ``partial def``."""

from __future__ import annotations

import re
from pathlib import Path

from model.oracle import paper_table as pt
from model.oracle.audit import declarations, declared_partials, read_allowlist, sources, theorems
from model.oracle.toolchain import LEAN_DIR


def test_committed_tables_are_current() -> None:
    rows = pt.collect()
    assert (pt.OUT / "lean_results.md").read_text(encoding="utf-8") == pt.markdown(rows), "run `make lean_results`"
    assert (pt.OUT / "lean_results.csv").read_text(encoding="utf-8") == pt.csv_text(rows), "run `make lean_results`"
    readme = pt.README.read_text(encoding="utf-8")
    assert pt.with_readme_block(readme, rows) == readme, "run `make lean_results`"


def _page_rows() -> list[tuple[str, list[str]]]:
    return [(paper, cells) for paper, page in pt.PAGES.items()
            for cells in pt.table_rows(page.read_text(encoding="utf-8"))]


def test_every_row_states_its_classification_and_the_table_agrees() -> None:
    rows = pt.collect()
    page_rows = _page_rows()
    assert len(rows) == len(page_rows)
    for row, (paper, cells) in zip(rows, page_rows, strict=True):
        written = pt.explicit(cells[-1])
        assert written is not None, f"{paper}: row {cells[0]!r} does not open with a classification"
        assert row.claim == written, \
            f"{paper}: row {cells[0]!r} says {written!r} but its theorems make it {row.claim!r}"


def test_rows_that_claim_lean_resolve_to_theorems() -> None:
    declared = theorems()
    for paper, cells in _page_rows():
        where = cells[2] if len(cells) >= 4 else " ".join(cells[1:-1])
        if pt.explicit(cells[-1]) != "not in Lean":
            found = [t for t in pt._TICK.findall(where) if pt.resolve(t.strip(), declared)]
            assert found, f"{paper}: row {cells[0]!r} claims Lean but names no declared theorem: {where}"


def _imported_files() -> set[Path]:
    """The sources lean/AgentWarrant.lean imports, transitively."""
    seen: set[Path] = set()
    todo = [LEAN_DIR / "AgentWarrant.lean"]
    while todo:
        path = todo.pop()
        if path in seen or not path.exists():
            continue
        seen.add(path)
        for mod in re.findall(r"^import\s+(AgentWarrant[\w.]*)", path.read_text(encoding="utf-8"), re.M):
            todo.append(LEAN_DIR / (mod.replace(".", "/") + ".lean"))
    return seen


def test_every_cited_theorem_is_built_and_therefore_audited() -> None:
    imported = _imported_files()
    where: dict[str, Path] = {}
    for path in sources():
        for d in declarations(path.read_text(encoding="utf-8")):
            if d.kw in ("theorem", "lemma"):
                where[d.name] = path
    cited = {name for row in pt.collect() for name in row.theorems}
    assert len(cited) > 100
    for name in cited:
        assert where[name] in imported, \
            f"{name} is declared in {where[name]}, which lean/AgentWarrant.lean does not import"


def test_no_function_of_the_specification_is_partial() -> None:
    partials = declared_partials()
    assert partials, "the oracle's IO loop and request parser are partial; the scan should find them"
    assert all(name.startswith("AgentWarrant.Oracle.") for name in partials), partials
    assert set(partials) <= set(read_allowlist())


def test_claims_are_classified_from_the_scope_text() -> None:
    assert pt.claim("Lean", "Paper's statement") == "paper's statement"
    assert pt.claim("Lean", "Paper's statement for the closed core") == "special case"
    assert pt.claim("Lean", "Special case. Hypothesis: ...") == "special case"
    assert pt.claim("Lean", "The paper's statement, roughly") == "special case"
    assert pt.claim("Python check", "Paper's statement") == "not in Lean"
    assert pt.explicit("Special case (ii): hnew") == "special case" and pt.explicit("Checked on examples") is None


def test_readme_stays_short() -> None:
    assert len(pt.README.read_text(encoding="utf-8").splitlines()) <= 250
