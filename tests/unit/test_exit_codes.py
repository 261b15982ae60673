"""Every ``agentwarrant`` command documents the exit codes of ``model/base/exitcodes.py`` in its ``--help``,
and the codes the commands use are those four."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from model.base.exitcodes import EPILOG, Exit
from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _commands(cmd: click.Command, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    out = [(path, cmd)]
    if isinstance(cmd, click.Group):
        # list_commands/get_command, not .commands: the top group loads its subcommands when named
        with click.Context(cmd) as ctx:
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None, name
                out += _commands(sub, (*path, name))
    return out


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_command_help_ends_with_the_exit_codes() -> None:
    commands = _commands(main)
    names = {" ".join(p) for p, _ in commands}
    # the tree as the README describes it: a command added without an epilog would be caught below
    assert {"monitor check", "monitor run", "edit check", "edit session run", "edit session show", "search",
            "revise", "admit check-policy", "admit verify-approval", "verify-record", "drt", "reproduce"} <= names
    missing = []
    for path, cmd in commands:
        with click.Context(cmd, info_name=" ".join(("agentwarrant", *path))) as ctx:
            text = cmd.get_help(ctx)
        if _words(EPILOG) not in _words(text):
            missing.append(" ".join(path) or "agentwarrant")
    assert not missing, f"--help without the exit codes: {missing}"


def test_help_through_the_cli_shows_them_too() -> None:
    for args in (["--help"], ["monitor", "check", "--help"], ["revise", "--help"], ["edit", "session", "x.db", "run",
                                                                                     "--help"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0 and "Exit codes: 0 the property holds" in _words(result.output), args


def test_the_codes_are_the_four_documented() -> None:
    assert [int(e) for e in Exit] == [0, 1, 2, 3]
    for code in ("0 the property holds", "1 it does not", "2 bad input", "3 unknown"):
        assert code in EPILOG
    # No command exits with a bare literal other than through Exit (a literal 2 for "no oracle" was one).
    commands = [ROOT / "model" / "shell" / "cli.py", *(ROOT / "model" / "shell" / "commands").glob("*.py")]
    assert len(commands) > 5
    offenders = [str(p.relative_to(ROOT)) for p in commands
                 if re.search(r"sys\.exit\([2-9]\)|SystemExit\([2-9]\)", p.read_text(encoding="utf-8"))]
    assert not offenders, offenders


@pytest.mark.parametrize("args", [
    ["search", "corpus/search/delete_ab.json", "--bound", "-1"],
    ["search", "corpus/search/delete_ab.json", "--no-such-option"],
    ["search"],
    ["no-such-command"],
    ["--no-such-option"],
    ["edit", "session", "x.db", "no-such-command"],
    ["monitor", "check", "/"],
    ["revise", "corpus/policies/delete_ab.policy"],
])
def test_a_usage_error_is_one_line_naming_the_command_and_exit_2(args: list[str]) -> None:
    # click's own form is four lines; every --help promises "one error line naming the place"
    result = CliRunner().invoke(main, args, prog_name="agentwarrant")
    assert result.exit_code == Exit.BAD_INPUT, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: agentwarrant"), result.output
    assert "--help')" in lines[0]
