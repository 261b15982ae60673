"""docs/lean-results-agenra.md names only theorems the Lean sources declare (no toolchain needed).

The results table's third column lists Lean theorem names relative to the namespace
``AgentWarrant``; every backticked name there must be a declared theorem (read off the sources by
the proof audit's own parser) or, where the row names a definition a theorem is stated with, a
declared ``def``. A renamed or removed theorem would otherwise leave the page citing a name that
does not exist.
"""

from __future__ import annotations

import re
from pathlib import Path

from model.oracle.audit import LEAN_DIR, sources, theorems

DOC = Path(__file__).resolve().parents[2] / "docs" / "lean-results-agenra.md"
_TICK = re.compile(r"`([A-Za-z][\w.']*)`")


def _third_column_names() -> list[str]:
    names = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if len(cells) < 5 or not line.startswith("| §"):
            continue
        names.extend(_TICK.findall(cells[3]))
    return names


def _declared_defs() -> set[str]:
    out = set()
    for path in sources(LEAN_DIR):
        text = path.read_text(encoding="utf-8")
        out.update(re.findall(r"^(?:def|abbrev|structure|inductive)\s+([\w.']+)", text, re.M))
    return out


def test_results_table_cites_declared_names() -> None:
    names = _third_column_names()
    assert len(names) > 30
    declared = {t.removeprefix("AgentWarrant.") for t in theorems()}
    short = {t.rsplit(".", 1)[-1] for t in declared}
    defs = _declared_defs()
    missing = [n for n in names
               if n not in declared and ("." in n or n not in short) and n.rsplit(".", 1)[-1] not in defs]
    assert missing == []


def test_whole_monitor_headlines_are_in_the_table() -> None:
    names = set(_third_column_names())
    for headline in ("Thm.wholeQuotaNeverExceeded", "Thm.wholeOnlyAllowChangesRun", "Thm.wholeAdmittedSatisfiesRules",
                     "Thm.wholeStepTotalAndFresh", "Thm.wholeRevisionKeepsSafetyRun"):
        assert headline in names
