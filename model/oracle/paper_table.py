"""The results tables: each result of the two papers with a formal side, the Lean theorems that carry
it, and whether the Lean statement is the paper's or a named special case.

The papers are *Agenra: A Language and Verified Core for Stateful LLM Agent Authorization* and *When
Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking for Execution Edits*. Their
reference pages, docs/lean-results-agenra.md and docs/lean-results-edits.md, hold one Markdown table
each, written by hand: paper result, statement, where it is established, scope. This module derives
the committed tables paper_figures/tables/lean_results.{md,csv} from those pages and the Lean sources.

Choices (the papers are silent on how such a table is kept honest):
- A backquoted name in a row counts as a Lean theorem only when it resolves to a theorem declared in
  lean/ (:func:`model.oracle.audit.theorems`), by its full name or by a dotted suffix of one. Names
  of definitions (``Installed``, ``renameS``) and Python paths resolve to nothing and are not listed.
  Every theorem that resolves is audited by ``make lean`` (no ``sorry``, allowed axioms only), which
  CI runs, so the table needs no toolchain to be written and the audit needs no table.
- The "kind" column is computed, not typed: ``Lean`` when at least one theorem resolves, else
  ``Python check`` when the row names a file under tests/ or experiments/, else ``open``.
- The scope is the first sentence of the page's scope cell, so the table states in one line whether
  the Lean statement is the paper's; the page holds the whole restriction.
- ``make lean_results`` (experiments/lean_results.py) writes them;
  ``tests/whole_repo/test_lean_results.py`` regenerates the table and fails when the committed copy
  is stale, and fails when a row that names Lean resolves to no theorem.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from model.oracle.audit import theorems
from model.oracle.toolchain import LEAN_DIR

ROOT = LEAN_DIR.parent
PAGES = {"Agenra": ROOT / "docs" / "lean-results-agenra.md", "Edits": ROOT / "docs" / "lean-results-edits.md"}
OUT = ROOT / "paper_figures" / "tables"
_TICK = re.compile(r"`([^`]+)`")
_IDENT = re.compile(r"^[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*$")


@dataclass(frozen=True, slots=True)
class Row:
    paper: str
    result: str
    theorems: tuple[str, ...]  # fully qualified, each declared in lean/
    kind: str  # "Lean", "Python check" or "open"
    scope: str  # first sentence of the page's scope cell
    claim: str  # "paper's statement", "special case" or "not in Lean"


def _cells(line: str) -> list[str]:
    # a `|` inside backquotes is part of a name or formula, not a column break
    out, cur, ticked = [], "", False
    for ch in line.strip().strip("|"):
        if ch == "`":
            ticked = not ticked
        if ch == "|" and not ticked:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*out, cur.strip()]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table with at least three columns on a page."""
    rows: list[list[str]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|\s*-", lines[i + 1]):
            for body in lines[i + 2:]:
                if not body.startswith("|"):
                    break
                rows.append(_cells(body))
            if rows and len(rows[0]) >= 3:
                return rows
            rows = []
    return rows


def resolve(token: str, declared: list[str]) -> list[str]:
    if not _IDENT.match(token):
        return []
    return [n for n in declared if n == token or n.endswith("." + token)]


def first_sentence(text: str) -> str:
    """Up to the first full stop outside parentheses and backquotes."""
    depth, ticked = 0, False
    for i, ch in enumerate(text):
        if ch == "`":
            ticked = not ticked
        elif not ticked and ch in "([":
            depth += 1
        elif not ticked and ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "." and not ticked and depth == 0 and (i + 1 == len(text) or text[i + 1] == " "):
            return text[:i]
    return text


def claim(kind: str, scope: str) -> str:
    """Whether the Lean statement is the paper's: a row names its restriction otherwise."""
    if kind != "Lean":
        return "not in Lean"
    paper = re.match(r"(the )?paper's (statement|example|instance)", scope, re.I) is not None
    restricted = re.search(r"special case|closed core|restriction|finite checker|finite form", scope, re.I)
    return "paper's statement" if paper and not restricted else "special case"


def rows_of(paper: str, text: str, declared: list[str]) -> list[Row]:
    out = []
    for cells in table_rows(text):
        # Agenra's page: paper | statement | theorems | scope; the edits page: result | where | scope
        result = f"{cells[0]}: {cells[1]}" if len(cells) >= 4 else cells[0]
        where = " ".join(cells[1:-1]) if len(cells) < 4 else cells[2]
        names: list[str] = []
        for token in _TICK.findall(where):
            for name in resolve(token.strip(), declared):
                if name not in names:
                    names.append(name)
        python = re.search(r"\b(tests|experiments)/", where) is not None
        kind = "Lean" if names else ("Python check" if python else "open")
        scope = first_sentence(cells[-1])
        if len(scope) < 25 and len(scope) < len(cells[-1]):  # "Special case." alone says too little
            scope = scope + ". " + first_sentence(cells[-1][len(scope) + 1:].strip())
        out.append(Row(paper, result, tuple(names), kind, scope, claim(kind, scope)))
    return out


def collect(root: Path = LEAN_DIR) -> list[Row]:
    declared = theorems(root)
    return [r for paper, page in PAGES.items() for r in rows_of(paper, page.read_text(encoding="utf-8"), declared)]


def _short(name: str) -> str:
    return name.removeprefix("AgentWarrant.")


def markdown(rows: list[Row]) -> str:
    lean = sum(1 for r in rows if r.kind == "Lean")
    head = ("Results of the two papers with a formal side: the Lean theorems that carry each one (every "
            "one audited by `make lean`: no sorry, axioms within propext and Quot.sound) and the scope of "
            f"the statement. {lean} of {len(rows)} rows are in Lean. Written by `make lean_results` from "
            "docs/lean-results-agenra.md and docs/lean-results-edits.md, where each restriction is spelled out.\n\n")
    lines = ["| Paper | Result | Kind | Lean theorems | Lean statement | Scope |", "|---|---|---|---|---|---|"]
    for r in rows:
        names = ", ".join(f"`{_short(n)}`" for n in r.theorems) or "—"
        lines.append(f"| {r.paper} | {r.result} | {r.kind} | {names} | {r.claim} | {r.scope} |")
    return head + "\n".join(lines) + "\n"


README = ROOT / "README.md"
_START, _END = "<!-- lean-results:start -->", "<!-- lean-results:end -->"


def readme_block(rows: list[Row]) -> str:
    """The README's copy: one line per result, its first Lean theorem and whether it is the paper's."""
    lines = [_START, "| Paper | Result | Lean theorem | Lean statement |", "|---|---|---|---|"]
    for r in rows:
        name = r.kind
        if r.theorems:
            name = f"`{_short(r.theorems[0])}`" + (f" (+{len(r.theorems) - 1})" if len(r.theorems) > 1 else "")
        lines.append(f"| {r.paper} | {r.result} | {name} | {r.claim} |")
    return "\n".join([*lines, _END])


def with_readme_block(readme: str, rows: list[Row]) -> str:
    start, end = readme.find(_START), readme.find(_END)
    if start < 0 or end < start:
        raise ValueError(f"README.md has no {_START} ... {_END} block")
    return readme[:start] + readme_block(rows) + readme[end + len(_END):]


def csv_text(rows: list[Row]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["paper", "result", "kind", "lean_theorems", "claim", "scope"])
    for r in rows:
        w.writerow([r.paper, r.result, r.kind, " ".join(_short(n) for n in r.theorems), r.claim, r.scope])
    return buf.getvalue()


def write(name: str) -> str:
    """Write paper_figures/tables/<name>.{md,csv} and the README block; a one-line summary."""
    rows = collect()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.md").write_text(markdown(rows), encoding="utf-8")
    (OUT / f"{name}.csv").write_text(csv_text(rows), encoding="utf-8")
    README.write_text(with_readme_block(README.read_text(encoding="utf-8"), rows), encoding="utf-8")
    return f"{name}: {len(rows)} rows, {sum(len(r.theorems) for r in rows)} theorem references"
