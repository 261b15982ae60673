"""Every name docs/lean-results-agenra.md cites as a Lean result is declared (no toolchain needed).

tests/whole_repo/test_lean_results.py fails when a row resolves to no theorem at all; this test is
stricter: each backquoted name in the "Lean theorem(s)" column must resolve to a declared theorem
(by the same rule as model/oracle/paper_table.py) or, where a row names the definition a theorem is
stated with, to a declared ``def``. A renamed theorem would otherwise leave the page citing a name
that does not exist while the row still resolves through its other names.
"""

from __future__ import annotations

import re

from model.oracle.audit import sources, theorems
from model.oracle.paper_table import PAGES, resolve, table_rows
from model.oracle.toolchain import LEAN_DIR

_TICK = re.compile(r"`([^`]+)`")


def _cited() -> list[str]:
    rows = table_rows(PAGES["Agenra"].read_text(encoding="utf-8"))
    return [t.strip() for cells in rows for t in _TICK.findall(cells[2])]


def _defs() -> set[str]:
    out: set[str] = set()
    for path in sources(LEAN_DIR):
        text = path.read_text(encoding="utf-8")
        out.update(re.findall(r"^(?:def|abbrev|structure|inductive)\s+([\w.']+)", text, re.M))
    return out


def test_every_cited_name_is_declared() -> None:
    declared, defs = theorems(), _defs()
    cited = _cited()
    assert len(cited) > 30
    # a row "Not in Lean" may name the Python test that checks it instead (a path)
    names = [n for n in cited if "/" not in n]
    assert [n for n in names if not resolve(n, declared) and n.rsplit(".", 1)[-1] not in defs] == []


def test_whole_monitor_headlines_are_cited() -> None:
    cited = set(_cited())
    for headline in ("Thm.wholeQuotaNeverExceeded", "Thm.wholeOnlyAllowChangesRun", "Thm.wholeAdmittedSatisfiesRules",
                     "Thm.wholeStepTotalAndFresh", "Thm.wholeRevisionKeepsSafetyRun"):
        assert headline in cited
