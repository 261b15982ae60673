"""The house rules, checked: README commands and the docs' tables point at real things, every
model module says what it implements, every registered experiment exists, CI runs the README's
test command."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from model.shell.reproduce import EXPERIMENTS

ROOT = Path(__file__).resolve().parent.parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    first_block = README.split("```")[1].strip().splitlines()
    assert first_block == ["make reproduce", "make test"]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    commands = [line.strip() for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert "make test" in commands


DOCS = ROOT / "docs"
# the pages whose system has its "Key definitions" and "Checked properties" tables on the page itself;
# properties.md holds those of the systems whose reference pages list none
TABLE_PAGES = ("monitor.md", "revisions.md", "edits.md", "properties.md")


def _table(page: str, title: str) -> list[list[str]]:
    text = (DOCS / page).read_text(encoding="utf-8")
    assert f"\n## {title}\n" in text, (page, title)
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("|")][2:]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows]


@pytest.mark.parametrize("page", TABLE_PAGES)
def test_key_definitions_name_existing_files(page: str) -> None:
    rows = _table(page, "Key definitions")
    assert rows
    for row in rows:
        assert len(row) == 2, row
        files = re.findall(r"`([^`]+)`", row[1])
        assert files, row
        for path in files:
            assert (ROOT / path).exists(), (page, path)


@pytest.mark.parametrize("page", TABLE_PAGES)
def test_checked_properties_name_existing_tests(page: str) -> None:
    rows = _table(page, "Checked properties")
    assert rows
    for row in rows:
        assert len(row) == 2, row
        refs = re.findall(r"`([^`]+)`", row[1])
        assert refs, row
        for ref in refs:
            path, _, name = ref.partition("::")
            assert (ROOT / path).exists(), (page, path)
            if name:
                assert f"def {name}" in (ROOT / path).read_text(), (page, ref)


def test_docs_index_links_every_page_it_names() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in (*TABLE_PAGES, "experiments.md"):
        assert f"]({page})" in index, page
        assert (DOCS / page).exists(), page


@pytest.mark.parametrize("path", sorted((ROOT / "model").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_model_module_has_a_docstring(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc and len(doc) > 20, f"{path} needs a docstring naming what it implements"


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_registered_experiments_exist_and_define_reproduce(name: str) -> None:
    script = ROOT / "experiments" / EXPERIMENTS[name]
    assert script.exists()
    tree = ast.parse(script.read_text(encoding="utf-8"))
    assert any(isinstance(n, ast.FunctionDef) and n.name == "reproduce" for n in tree.body)


def _readme_blocks() -> list[list[str]]:
    """Per fenced block, its shell lines: ``agentwarrant …`` commands and the ``rm -f /tmp/…`` that
    precede a command which must start fresh."""
    blocks = README.split("```")[1::2]
    found = [[line.strip() for line in b.splitlines()
              if line.strip().startswith(("agentwarrant ", "rm -f /tmp/"))] for b in blocks]
    return [b for b in found if any(c.startswith("agentwarrant ") for c in b)]


def _readme_commands() -> list[str]:
    return [c for b in _readme_blocks() for c in b if c.startswith("agentwarrant ")]


@pytest.mark.parametrize("block", _readme_blocks(), ids=lambda b: b[-1][:60])
def test_readme_commands_run_twice(block: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every CLI command the README shows runs on the corpus and gives a verdict, not an error, and the
    block runs again as written right after (a newcomer repeats the tour). The commands of one block run
    in order (a session's ``run`` before its ``show``); paths under /tmp/ are redirected into one fresh
    directory shared by both rounds, so a store the first round leaves is there for the second."""
    import shlex

    from click.testing import CliRunner

    from model.shell.cli import main

    monkeypatch.chdir(ROOT)

    def tmp(a: str) -> str:
        return str(tmp_path / a[len("/tmp/"):]) if a.startswith("/tmp/") else a

    for _round in range(2):
        for command in block:
            words = [tmp(a) for a in shlex.split(command)]
            if words[0] == "rm":
                for w in words[2:]:
                    Path(w).unlink(missing_ok=True)
                continue
            args = words[1:]
            if args[0] == "reproduce":
                args += ["--out", str(tmp_path)]  # never overwrite the committed figures from a test
            result = CliRunner().invoke(main, args)
            assert result.exception is None or isinstance(result.exception, SystemExit), result.output
            assert result.exit_code in (0, 1), (_round, command, result.output)  # 1 = a negative verdict
            assert "Traceback" not in result.output


def test_readme_shows_commands() -> None:
    assert len(_readme_commands()) >= 6
