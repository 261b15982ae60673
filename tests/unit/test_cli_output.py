"""The command's output streams: a reader that goes away (``agentwarrant ... | head``) ends the command
quietly with exit 0, as git and grep do; ``--plain`` is read wherever it stands on the line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.shell.cli import main, plain_first

ROOT = Path(__file__).resolve().parents[2]
POLICY = "corpus/policies/report.policy"
TRACE = "corpus/traces/report_delivery.json"


def _into_a_closed_pipe(args: list[str]) -> tuple[int, str]:
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the command writes a byte
    proc = subprocess.run([sys.executable, "-m", "model.shell.cli", *args], cwd=ROOT, stdout=w, stderr=subprocess.PIPE,
                          text=True, check=False, timeout=120)
    os.close(w)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("args", [
    ["monitor", "check", POLICY],  # a rich table
    ["monitor", "run", POLICY, TRACE, "--json"],  # click.echo
    ["--help"],  # printed while the line is parsed
], ids=["rich", "echo", "help"])
def test_a_closed_output_pipe_exits_0_quietly(args: list[str]) -> None:
    code, err = _into_a_closed_pipe(args)
    assert (code, err) == (0, "")


def test_an_open_pipe_still_carries_the_verdict(tmp_path: Path) -> None:
    # a trace whose first expectation is wrong: exit 1 through a pipe whose reader stays, exit 0 once it left
    doc = json.loads((ROOT / TRACE).read_text(encoding="utf-8"))
    doc["steps"][0]["expect"] = "deny"
    trace = tmp_path / "t.json"
    trace.write_text(json.dumps(doc), encoding="utf-8")
    args = ["monitor", "run", POLICY, str(trace), "--json"]
    proc = subprocess.run([sys.executable, "-m", "model.shell.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=120)
    assert proc.returncode == 1 and proc.stdout.startswith("{")
    assert _into_a_closed_pipe(args) == (0, "")


@pytest.mark.parametrize("args", [
    ["--plain", "monitor", "run", POLICY, TRACE],
    ["monitor", "--plain", "run", POLICY, TRACE],
    ["monitor", "run", POLICY, TRACE, "--plain"],
    ["monitor", "run", "--plain", POLICY, TRACE],
])
def test_plain_is_accepted_anywhere(args: list[str]) -> None:
    from model.shell import display

    display.set_plain(False)
    res = CliRunner().invoke(main, args, env={"AGENTWARRANT_PLAIN": ""})
    assert res.exit_code == 0, res.output
    assert display._plain  # the flag was read, wherever it stood
    assert "#\tstep\tdecision" in res.output  # tab-separated, not a boxed table
    display.set_plain(False)


def test_plain_after_a_double_dash_is_an_argument() -> None:
    assert plain_first(["monitor", "check", "--", "--plain"]) == ["monitor", "check", "--", "--plain"]
    assert plain_first(["monitor", "--plain", "check", "x"]) == ["--plain", "monitor", "check", "x"]
