"""Bad input at the command and library boundaries is refused with one line, exit 2 (or
``InvalidInput``), never a traceback, a hang or an answer that reads as valid: huge budgets, an
unusable ``--out``, a scheduler address that is not a Dask scheduler, an empty record list, a
malformed or upper-case ``--expect-head``."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.base.errors import InvalidInput
from model.shell.api import verify_records
from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "corpus" / "admission" / "records.json"
PUB = str(ROOT / "corpus" / "admission" / "keys" / "runtime.pub.pem")
SEARCH = str(ROOT / "corpus" / "search" / "report.json")
HUGE = "1" * 5000

COMMANDS = {
    "search": ["search", SEARCH],
    "edit check": ["edit", "check", str(ROOT / "corpus" / "edits" / "release_accept.json")],
    "revise": ["revise", str(ROOT / "corpus" / "policies" / "report.policy"),
               str(ROOT / "corpus" / "policies" / "report_chained.policy")],
    "admit explore": ["admit", "explore"],
}


def _one_error_line(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), output
    return lines[0]


@pytest.mark.parametrize("unit", ["states", "s"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_5000_digit_budget_is_bad_input(command: str, unit: str) -> None:
    res = CliRunner().invoke(main, [*COMMANDS[command], "--budget", HUGE + unit])
    assert res.exit_code == 2, res.output
    assert "--budget" in _one_error_line(res.output)


@pytest.mark.parametrize("under", ["file", "proc"])
def test_reproduce_out_that_cannot_be_a_folder_is_bad_input(tmp_path: Path, under: str) -> None:
    f = tmp_path / "FILE"
    f.write_text("x")
    out = f / "sub" if under == "file" else Path("/proc/agentwarrant-out")
    res = CliRunner().invoke(main, ["reproduce", "report-table", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert "--out" in _one_error_line(res.output)


@pytest.fixture
def fake_service(request: pytest.FixtureRequest) -> Iterator[str]:
    """A TCP server on 127.0.0.1 that greets with an SSH banner (``banner``) or never answers (``silent``)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            held.append(conn)
            if request.param == "banner":
                conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    srv.close()
    for c in held:
        c.close()


@pytest.mark.parametrize(("command", "fake_service"), [
    ("search", "banner"), ("search", "silent"), ("reproduce", "banner"),
    pytest.param("reproduce", "silent", marks=pytest.mark.slow),  # no --budget: the 10 s connection timeout
], indirect=["fake_service"])
def test_scheduler_that_is_not_dask_is_refused_within_the_budget(fake_service: str, command: str,
                                                                 tmp_path: Path) -> None:
    args = [*COMMANDS["search"], "--budget", "1s"] if command == "search" else \
        ["reproduce", "report-table", "--out", str(tmp_path)]
    # a subprocess with a timeout: the old failure was a hang (or a MemoryError), which must fail here,
    # not hang the suite; the refusal itself comes within the 1 s budget or the 10 s connection timeout
    res = subprocess.run([sys.executable, "-m", "model.shell.cli", *args, "--scheduler", fake_service], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2, res.stdout + res.stderr
    line = _one_error_line(res.stdout + res.stderr)
    assert "--scheduler" in line and ("not the Dask protocol" in line or "no handshake" in line)


def test_verify_records_of_an_empty_list_is_bad_input_in_library_and_cli(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="non-empty list"):
        verify_records([], PUB)
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    with pytest.raises(InvalidInput, match="non-empty list"):
        verify_records(str(empty), PUB)
    res = CliRunner().invoke(main, ["verify-record", str(empty), "--key", PUB])
    assert res.exit_code == 2 and "non-empty list" in _one_error_line(res.output)


def test_verify_records_refuses_a_list_holding_a_non_record() -> None:
    with pytest.raises(InvalidInput, match=r"\$\[1\]"):
        verify_records([json.loads(RECORDS.read_text())[0], 7], PUB)


@pytest.mark.parametrize("head", ["abc", "g" * 64, "", "0" * 63])
def test_malformed_expect_head_is_bad_input(head: str) -> None:
    res = CliRunner().invoke(main, ["verify-record", str(RECORDS), "--key", PUB, "--expect-head", head])
    assert res.exit_code == 2, res.output
    assert "--expect-head" in _one_error_line(res.output)


def test_expect_head_in_any_case_matches_the_true_head() -> None:
    head = json.loads(RECORDS.read_text())[-1]["recordHash"]
    for spelled in (head, head.upper(), head[:32].upper() + head[32:]):
        res = CliRunner().invoke(main, ["verify-record", str(RECORDS), "--key", PUB, "--expect-head", spelled])
        assert res.exit_code == 0, res.output
    wrong = ("0" if head[0] != "0" else "1") + head[1:]
    res = CliRunner().invoke(main, ["verify-record", str(RECORDS), "--key", PUB, "--expect-head", wrong])
    assert res.exit_code == 1


def test_default_budget_is_interactive_and_its_unknown_says_how_to_ask_for_more() -> None:
    from model.base.budget import DEFAULT_CLI, Budget, BudgetExhausted, Unknown

    assert DEFAULT_CLI.seconds is not None and DEFAULT_CLI.seconds <= 60
    meter = Budget(states=5).start()
    with pytest.raises(BudgetExhausted) as exc:
        meter.tick(6)
    assert "--budget" not in Unknown.of(exc.value).describe()  # a budget the caller chose
    default = Unknown(DEFAULT_CLI, exc.value.spent, "time")
    assert "default budget" in default.describe() and "--budget none" in default.describe()
    res = CliRunner().invoke(main, ["search", "--help"])
    assert "[default: 60s]" in res.output


@pytest.mark.parametrize("args", [
    ["search", SEARCH, "--policy", "", "--bound", "1"],
    ["agentdojo", "travel", "user_task_2", "--policy", ""],
])
def test_an_empty_policy_option_is_refused_not_the_default(args: list[str]) -> None:
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert "--policy" in _one_error_line(res.output)
