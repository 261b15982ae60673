"""The ``agentwarrant`` command starts without importing what it does not use: ``--help`` lists the
subcommands from a table without loading them, and optional extras installed beside the project
(jsonschema's format-checker dependencies) are not imported by any command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from model.shell.cli import LAZY_COMMANDS, load_command, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(LAZY_COMMANDS))
@pytest.mark.parametrize("limit", [20, 45, 74, 200])
def test_listed_short_help_is_the_loaded_commands_own(name: str, limit: int) -> None:
    listed = click.Command(name, help=LAZY_COMMANDS[name][2]).get_short_help_str(limit)
    assert load_command(name).get_short_help_str(limit) == listed


def test_help_lists_every_subcommand() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    for name in LAZY_COMMANDS:
        assert f"  {name} " in out


def _modules_after(args: list[str], extra_path: str = "") -> tuple[int, set[str], str]:
    code = ("import sys, json\nfrom model.shell.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit as e:\n"
            "    rc = e.code or 0\nprint(json.dumps([rc, sorted(sys.modules)]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (extra_path, str(ROOT)) if p)}
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    rc, mods = json.loads(out.stdout.strip().splitlines()[-1])
    return rc, set(mods), out.stdout


def test_help_imports_no_subcommand_and_no_solver() -> None:
    rc, mods, _ = _modules_after(["--help"])
    assert rc == 0
    loaded = {LAZY_COMMANDS[n][0] for n in LAZY_COMMANDS} & mods
    assert not loaded, loaded
    assert not {"z3", "jsonschema", "lark", "distributed"} & mods


def test_format_checker_extras_are_not_imported_by_a_command(tmp_path: Path) -> None:
    # a stand-in for the slow optional module: importing it would fail the command loudly
    (tmp_path / "rfc3987_syntax.py").write_text("raise SystemExit('rfc3987_syntax was imported')\n")
    rc, mods, out = _modules_after(["monitor", "check", "corpus/policies/report.json"], str(tmp_path))
    assert rc == 0, out
    # the check did validate against a schema: with jsonschema_rs installed a valid document is checked by
    # it alone (model/base/schemas.py imports the reference validator only to explain a rejection)
    assert {"jsonschema_rs", "jsonschema"} & mods


def test_no_schema_uses_the_format_keyword() -> None:
    # the soundness condition of leaving format checkers out of the command's process
    def walk(node: object) -> bool:
        if isinstance(node, dict):
            return ("format" in node and isinstance(node["format"], str)) or any(walk(v) for v in node.values())
        return isinstance(node, list) and any(walk(v) for v in node)

    for path in sorted((ROOT / "corpus" / "schemas").glob("*.json")):
        assert not walk(json.loads(path.read_text())), path
