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
- The classification is written on the page, as the first words of the scope cell, by the four rules
  the pages state (the paper's generality; no hypothesis beyond the paper's or supplied by Python; no
  ``partial def`` on the path; the conclusion compared with an independent meaning). :func:`claim`
  reads it strictly: "paper's statement" only for a row with a Lean theorem whose scope begins
  "Paper's statement" and names no restriction; a row without a Lean theorem is "not in Lean"
  whatever its text says. :func:`explicit` is the check that every row starts with one of the three
  classifications, so no row is classified by accident of wording.
- The README carries the counts per paper and classification, not the rows (the README stays short);
  the rows are in paper_figures/tables/lean_results.md.
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


CLAIMS = ("paper's statement", "special case", "not in Lean")


def claim(kind: str, scope: str) -> str:
    """Whether the Lean statement is the paper's: a row names its restriction otherwise."""
    if kind != "Lean":
        return "not in Lean"
    paper = re.match(r"paper's statement\b", scope, re.I) is not None
    restricted = re.search(r"special case|closed core|restriction|finite checker|finite form|not in Lean", scope, re.I)
    return "paper's statement" if paper and not restricted else "special case"


def explicit(scope_cell: str) -> str | None:
    """The classification a scope cell opens with, or None when it opens with none of them."""
    for c in CLAIMS:
        if scope_cell.lower().startswith(c.lower()):
            return c
    return None


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
    per = counts(rows)
    tally = "; ".join(f"{paper}: {sum(c.values())} results, " + ", ".join(f"{n} {k}" for k, n in c.items())
                      for paper, c in per.items())
    head = ("Formal results of the two papers, one row each: the Lean theorems that carry each one (every "
            "one audited by `make lean`: no sorry, no axiom declared, axioms within propext and Quot.sound, no "
            "unlisted partial def) and the scope of the statement. \"Paper's statement\" only when the generality "
            "is the paper's (finite carriers aside), no hypothesis goes beyond the paper's or is supplied by "
            "Python, no partial def is on the path, and the conclusion is compared with an independent meaning. "
            f"{tally}. Written by `make lean_results` from docs/lean-results-agenra.md and "
            "docs/lean-results-edits.md, where each restriction is spelled out.\n\n")
    lines = ["| Paper | Result | Kind | Lean theorems | Lean statement | Scope |", "|---|---|---|---|---|---|"]
    for r in rows:
        names = ", ".join(f"`{_short(n)}`" for n in r.theorems) or "—"
        lines.append(f"| {r.paper} | {r.result} | {r.kind} | {names} | {r.claim} | {r.scope} |")
    return head + "\n".join(lines) + "\n"


README = ROOT / "README.md"
_START, _END = "<!-- lean-results:start -->", "<!-- lean-results:end -->"


def counts(rows: list[Row]) -> dict[str, dict[str, int]]:
    """Rows per paper and classification."""
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        per = out.setdefault(r.paper, dict.fromkeys(CLAIMS, 0))
        per[r.claim] += 1
    return out


def readme_block(rows: list[Row]) -> str:
    """The README's copy: per paper, how many formal results are proved as stated, as a special case,
    or not in Lean."""
    lines = [_START, "| Paper | Formal results | Paper's statement | Special case | Not in Lean |",
             "|---|---|---|---|---|"]
    for paper, per in counts(rows).items():
        lines.append(f"| {paper} | {sum(per.values())} | {per[CLAIMS[0]]} | {per[CLAIMS[1]]} | {per[CLAIMS[2]]} |")
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
