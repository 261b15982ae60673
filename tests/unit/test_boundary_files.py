"""Files a new user might hand any command: a directory, a missing, empty or non-UTF-8
file, a byte-order mark, a name holding rich markup or a newline. Each gets one error line and exit 2
(or, for a BOM, the same answer as without it) — never a traceback, never markup read as markup."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
C = ROOT / "corpus"

# command -> (args with {} where the file goes, a valid file for that place)
COMMANDS: dict[str, tuple[list[str], Path]] = {
    "monitor check": (["monitor", "check", "{}"], C / "policies" / "report.policy"),
    "monitor check json": (["monitor", "check", "{}"], C / "policies" / "report.json"),
    "monitor run": (["monitor", "run", str(C / "policies" / "report.policy"), "{}"],
                    C / "traces" / "report_delivery.json"),
    "edit check": (["edit", "check", "{}"], C / "edits" / "release_reject.json"),
    "edit session run": (["edit", "session", "@db", "run", "{}"], C / "edits" / "sessions" / "laptop.json"),
    "search": (["search", "{}", "--policy", str(C / "policies" / "report.policy"), "--bound", "1",
                "--engine", "explicit", "--no-replay"], C / "search" / "report.json"),
    "revise workload": (["revise", str(C / "policies" / "delete_ab.policy"), str(C / "policies" / "delete_ab.policy"),
                         "--workload", "{}", "--bound", "1"], C / "revisions" / "workloads" / "delete_ab.json"),
    "revise after": (["revise", str(C / "policies" / "delete_ab.policy"), str(C / "policies" / "delete_ab.policy"),
                      "--workload", str(C / "revisions" / "workloads" / "delete_ab.json"), "--after", "{}",
                      "--bound", "1"], C / "revisions" / "prefixes" / "delete_a.json"),
    "admit check-policy": (["admit", "check-policy", "{}"], C / "admission" / "refunds.policy.json"),
    "admit verify-approval": (["admit", "verify-approval", "{}", "--approvers", str(C / "admission" / "approvers.json"),
                               "--action", "paytm:refund", "--resource", "order-1", "--amount", "1",
                               "--now", "2026-12-02T15:00:00Z"], C / "admission" / "approval_order-1.json"),
    "verify-record": (["verify-record", "{}", "--key", str(C / "admission" / "keys" / "runtime.pub.pem")],
                      C / "admission" / "records.json"),
    "verify-record key": (["verify-record", str(C / "admission" / "records.json"), "--key", "{}"],
                          C / "admission" / "keys" / "runtime.pub.pem"),
}


def _run(name: str, path: Path, tmp: Path) -> tuple[int, str]:
    args, _ = COMMANDS[name]
    db = tmp / f"store{len(list(tmp.iterdir()))}.db"
    argv = [str(path) if a == "{}" else str(db) if a == "@db" else a for a in args]
    result = CliRunner().invoke(main, argv)
    assert result.exception is None or isinstance(result.exception, SystemExit), (name, result.output)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def _bad(name: str, path: Path, tmp: Path) -> str:
    code, out = _run(name, path, tmp)
    assert code == 2, (name, out)
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines and ("error:" in lines[-1] or "Error:" in lines[-1]), (name, out)
    return out


MAKERS: dict[str, Callable[[Path, bytes], Path]] = {
    "directory": lambda d, good: (d / "a_dir.json").mkdir() or d / "a_dir.json",  # type: ignore[func-returns-value]
    "missing": lambda d, good: d / "missing.json",
    "empty": lambda d, good: _put(d / "empty.json", b""),
    "non-UTF-8": lambda d, good: _put(d / "latin1.json", good.replace(b"e", b"\xe9", 1) + b"\xff"),
    "markup name": lambda d, good: d / "[bold red]x[/bold red].json",
    "newline name": lambda d, good: d / "a\nb.json",
}


def _put(p: Path, data: bytes) -> Path:
    p.write_bytes(data)
    return p


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_unusable_file_is_one_error_line(name: str, kind: str, tmp_path: Path) -> None:
    good = COMMANDS[name][1].read_bytes()
    path = MAKERS[kind](tmp_path, good)
    out = _bad(name, path, tmp_path)
    if kind == "markup name":
        assert "[bold red]x[/bold red]" in out  # printed as written, not interpreted
    if kind == "newline name":
        assert "a\\x0ab.json" in out or "a\\nb" in out or "Error:" in out


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_unreadable_file_is_one_error_line(name: str, tmp_path: Path) -> None:
    p = _put(tmp_path / "locked.json", COMMANDS[name][1].read_bytes())
    p.chmod(0)
    _bad(name, p, tmp_path)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_byte_order_mark_changes_nothing(name: str, tmp_path: Path) -> None:
    src = COMMANDS[name][1]
    plain = _put(tmp_path / f"plain{src.suffix}", src.read_bytes())
    bom = _put(tmp_path / f"bom{src.suffix}", b"\xef\xbb\xbf" + src.read_bytes())
    assert _run(name, plain, tmp_path)[0] == _run(name, bom, tmp_path)[0] != 2
