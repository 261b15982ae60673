"""Every repository path named in prose exists: in README.md, the pages of docs/, the notebooks, and every
docstring and comment of model/, tests/ and experiments/. A path is a token that starts at one of the
repository's top folders (``model/…``, ``tests/…``, ``experiments/…``, ``corpus/…``, ``lean/…``,
``docs/…``, ``paper_figures/…``) and names a file by its extension or a folder by a trailing ``/``.
Globs, templates (``{…}``, ``<…>``, ``*``) and files that a command writes on demand are not paths to
check: the first two are skipped by shape, the last are listed in ``WRITTEN``."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOP = ("model", "tests", "experiments", "corpus", "lean", "docs", "paper_figures")
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(TOP) + r")/[\w./-]*[\w/])")
EXT = re.compile(r"\.(py|md|json|lean|lark|csv|png|svg|ipynb|toml|policy|pem|txt|jsonl|sh)$")
# written by a command when it runs (build outputs, scratch files, on-demand tables), not committed
WRITTEN = re.compile(r"^(lean/build/|paper_figures/tables/(mutation|dask_|tamper_matrix|lean_faults)|corpus/vectors/"
                     r"|tests/fuzz/crashes/|corpus/fuzz/found/)")


def named_paths(text: str) -> set[str]:
    out = set()
    for m in PATH.finditer(text):
        p = m.group(1).rstrip(".")
        if any(c in text[m.end():m.end() + 1] for c in "{<*") or not (EXT.search(p) or p.endswith("/")):
            continue
        if re.search(r"(^|/)[A-Z][A-Z_]+(\.|/|$)", p.split("/", 1)[1]):  # a placeholder: corpus/agentdojo/SUITE.policy
            continue
        if not WRITTEN.search(p):
            out.add(p)
    return out


def prose_of_python(path: Path) -> str:
    """Docstrings and comments only: string literals in code may be data (a fixture's file name)."""
    parts = []
    src = path.read_text(encoding="utf-8")
    prev = tokenize.INDENT
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            parts.append(tok.string)
        elif tok.type == tokenize.STRING and prev in (tokenize.INDENT, tokenize.NEWLINE, tokenize.NL, tokenize.DEDENT):
            parts.append(tok.string)  # a statement that is only a string: a docstring
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            prev = tok.type
    return "\n".join(parts)


def sources() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "experiments" / "notebooks").glob("*.ipynb"))]
    for folder in ("model", "tests", "experiments"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return files


def test_the_path_finder_reads_prose_and_skips_templates() -> None:
    text = ("see model/base/errors.py and docs/lean.md, experiments/{name}.py, corpus/*.json, "
            "the folder tests/unit/ and lean/build/bin/AgentWarrant, corpus/agentdojo/SUITE.policy.")
    assert named_paths(text) == {"model/base/errors.py", "docs/lean.md", "tests/unit/"}
    src = '"""Reads corpus/a.json."""\nx = "corpus/b.json"  # and corpus/c.json\n'
    f = ROOT / ".pytest-named-paths.py"
    try:
        f.write_text(src, encoding="utf-8")
        assert named_paths(prose_of_python(f)) == {"corpus/a.json", "corpus/c.json"}
    finally:
        f.unlink()


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_named_path_exists(path: Path) -> None:
    text = prose_of_python(path) if path.suffix == ".py" else path.read_text(encoding="utf-8")
    missing = sorted(p for p in named_paths(text) if not (ROOT / p).exists())
    assert not missing, f"{path.relative_to(ROOT)} names paths that do not exist: {missing}"
