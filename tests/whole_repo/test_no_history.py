"""The README, docs/, the model's and the experiments' sources, the notebooks, the build and CI files
(Makefile, pyproject.toml, .ci/), the corpus's READMEs, the captions of the committed tables and the
docstrings and comments of the tests are
written for a reader who never saw the project's history: no tracker numbers, no development rounds,
no commit hashes, no phrase naming the authors' own computer, and the papers cited by title, never by the
file names of the copies the authors worked from. Every hit is printed as ``file:line: text`` so that
it can be rewritten to say why, not just deleted."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
TABLES = ROOT / "paper_figures" / "tables"

PHRASES = re.compile(
    r"\b[Ii]ssues?[ -]#?\d+"
    r"|\bwaves?\b"
    r"|\bthis machine\b"
    r"|\b(?:agenra-stateful-agent-authorization|execution-edit-checking|resumable-action-attempts"
    r"|parmana-signed-approvals)\b"
)
# a commit-like word: 7-40 hex digits with at least one digit and one letter, standing alone
HEXWORD = re.compile(r"(?<![\w/.:-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w/.-])")
# provenance a reader needs (the published artifact's commit, the Lean 4 commit the toolchain is built
# from), the hexadecimal alphabet, and an algorithm's name
ALLOWED_HEX = frozenset({"d0c855afa93d9c8301e9983bedffc0058f68baba", "0839ead35e", "0123456789abcdef", "ed25519"})


def _files() -> list[Path]:
    found = [ROOT / "README.md"]
    found += sorted((ROOT / "docs").rglob("*.md"))
    found += sorted((ROOT / "model").rglob("*.py"))
    found += sorted((ROOT / "experiments").rglob("*.py"))
    found += sorted((ROOT / "experiments").rglob("*.ipynb"))
    found += [ROOT / "Makefile", ROOT / "pyproject.toml"]
    found += sorted((ROOT / ".ci").rglob("*"))
    found += sorted((ROOT / "corpus").rglob("README.md"))
    found += sorted(TABLES.glob("*.md"))
    found += sorted(TESTS.rglob("*.py"))
    return [p for p in found if p.is_file() and ".ipynb_checkpoints" not in p.parts]


def _prose(text: str) -> list[tuple[int, str]]:
    """The numbered lines of a Python source's docstrings and comments: the prose a reader takes for
    documentation. Its other strings are left out, since a test's data may hold exactly the phrases
    this test looks for (its own examples below) or hex digests."""
    lines = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(text).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines += list(enumerate(first.value.value.splitlines(), first.value.lineno))
    return sorted(lines)


def _lines(path: Path) -> list[tuple[int, str]]:
    """Numbered text lines; a notebook's are its cells' sources (outputs are not committed), numbered
    across cells in order; a committed table's are its caption, the lines before the table (its cells are
    measurements and names, which may be hex digests); a test's are its docstrings and comments."""
    text = path.read_text(encoding="utf-8")
    if TESTS in path.parents:
        return _prose(text)
    if path.parent == TABLES:
        lines = text.splitlines()
        end = next((i for i, line in enumerate(lines) if line.startswith("|")), len(lines))
        return list(enumerate(lines[:end], 1))
    if path.suffix != ".ipynb":
        return list(enumerate(text.splitlines(), 1))
    cells = json.loads(text)["cells"]
    lines = [line.rstrip("\n") for cell in cells for line in cell.get("source", [])]
    return list(enumerate(lines, 1))


def _hits(path: Path) -> list[str]:
    hits: list[str] = []
    for number, line in _lines(path):
        words = [m.group(0) for m in PHRASES.finditer(line)]
        words += [w for w in HEXWORD.findall(line) if w not in ALLOWED_HEX]
        if words:
            hits.append(f"{path.relative_to(ROOT)}:{number}: {', '.join(words)}: {line.strip()[:160]}")
    return hits


def test_no_history_or_seed_file_names() -> None:
    hits = [h for p in _files() for h in _hits(p)]
    print("\n".join(hits))
    assert hits == [], f"{len(hits)} phrases to rewrite:\n" + "\n".join(hits)


def test_the_build_files_and_table_captions_are_scanned() -> None:
    names = {str(p.relative_to(ROOT)) for p in _files()}
    assert {"Makefile", "pyproject.toml", ".ci/run", "experiments/mutation.py",
            "paper_figures/tables/search_speed.md", "corpus/admission/README.md", "tests/conftest.py",
            "tests/whole_repo/test_no_history.py"} <= names
    table = TABLES / "search_speed.md"
    caption = _lines(table)
    assert caption and caption[0][1].startswith("Explicit search speed") and not any(
        line.startswith("|") for _, line in caption)


def test_the_patterns_catch_what_they_are_for() -> None:
    caught = ["see issue 12 §1", "Issues 14 and 15", "the last wave", "waves of merges", "on this machine",
              "execution-edit-checking.md", "(parmana-signed-approvals §4.3)", "main at 158a5b0",
              "the pre-issue-15 path"]
    for text in caught:
        assert PHRASES.search(text) or HEXWORD.search(text), text
    kept = ["it issues no permit", "a microwave", "sha256 of the body", "1234567 states", "model/edits/check",
            "deadbeef", "a digest 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'"]
    for text in kept:
        assert not PHRASES.search(text) and not HEXWORD.search(text), text


def test_a_tests_docstrings_and_comments_are_scanned_but_not_its_data() -> None:
    source = ('''"""Module (see issue 12 §5)."""\n'''
              '''def test_x() -> None:\n'''
              '''    """Checks parmana-signed-approvals.md §4.3."""\n'''
              '''    text = "main at 158a5b0"  # the last wave\n''')
    prose = _prose(source)
    assert [n for n, _ in prose] == [1, 3, 4]
    hits = [n for n, line in prose if PHRASES.search(line) or HEXWORD.search(line)]
    assert hits == [1, 3, 4]
    assert not any("158a5b0" in line for _, line in prose)
