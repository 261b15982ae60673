"""The edit runtime and trace runs refuse what they would otherwise get silently wrong: a state row
naming an unknown action (``InvalidInput``, not ``KeyError``), a second driver of one store ("store
busy", exit 2), a verify racing a writer (one snapshot), trace steps naming what the policy does not
declare or carrying an outcome their toolkit ignores, and an empty ``--effects``."""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from model.shell.cli import main
from tests.edits_helpers import cli_sessions, copy_files, playground_runtime

ROOT = Path(__file__).resolve().parents[2]
LAPTOP = ROOT / "corpus" / "edits" / "sessions" / "laptop.json"


def _one_error_line(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), output
    return lines[0]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cli_sessions(tmp_path_factory.mktemp("laptop"), {"A": LAPTOP})


@pytest.fixture
def store(made: Path, tmp_path: Path) -> Path:
    return copy_files(made, tmp_path)


def test_a_state_row_naming_an_unknown_action_is_refused_by_resume(store: Path) -> None:
    with sqlite3.connect(store / "A.db") as c:
        body = c.execute("SELECT body FROM state").fetchone()[0]
        assert '"action":"dr"' in body
        c.execute("UPDATE state SET body = ?", (body.replace('"action":"dr"', '"action":"zz"'),))
    res = CliRunner().invoke(main, ["edit", "session", str(store / "A.db"), "resume", str(LAPTOP)])
    assert res.exit_code == 2, res.output
    _one_error_line(res.output)


@pytest.mark.parametrize("command", ["resume", "run"])
def test_a_second_driver_of_one_store_is_told_store_busy(store: Path, command: str) -> None:
    """Another process holds the store (as a running ``run`` or ``resume`` does): refused at once."""
    if command == "run":  # a run still creating its store: the outbox is claimed first
        for f in store.iterdir():
            f.unlink()
        (store / "A.db.outbox").touch()
    fd = os.open(store / "A.db.outbox", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        before = (store / "A.db.outbox").read_bytes()
        res = CliRunner().invoke(main, ["edit", "session", str(store / "A.db"), command, str(LAPTOP)])
    finally:
        os.close(fd)
    assert res.exit_code == 2, res.output
    line = _one_error_line(res.output)
    assert ("store busy" in line) if command == "resume" else ("A.db.outbox" in line)
    assert (store / "A.db.outbox").read_bytes() == before


def test_verify_reads_one_snapshot_while_another_handle_commits(tmp_path: Path) -> None:
    """A writer commits between the reader's transactions: the reader's verify still sees one state."""
    rt = playground_runtime(tmp_path, "r.db")
    other = type(rt)(str(tmp_path / "r.db"))
    transaction = rt.db.transaction
    wrote: list[bool] = []

    def interleaved() -> Any:
        from contextlib import contextmanager

        @contextmanager
        def tx() -> Any:
            with transaction() as c:
                yield c
            if not wrote and len(calls) == 2:  # after verify's first transaction past the integrity check
                wrote.append(True)
                other.use("xa", other.token("xa") or "", other.request_of("xa"))
        calls.append(1)
        return tx()

    calls: list[int] = []
    rt.db.transaction = interleaved  # type: ignore[method-assign]
    s = rt.verify()
    assert wrote == [True]
    rt.db.transaction = transaction  # type: ignore[method-assign]
    assert rt.verify() != s  # the write landed, after the snapshot the first verify checked
    other.close()
    rt.close()


# --- trace runs ---

def _trace(tmp_path: Path, source: str, edit: Any) -> str:
    doc = json.loads((ROOT / "corpus" / "traces" / source).read_text())
    edit(doc["steps"])
    out = tmp_path / "t.json"
    out.write_text(json.dumps(doc))
    return str(out)


@pytest.mark.parametrize(("source", "policy", "edit", "where"), [
    ("payments_review.json", "payments.policy", lambda s: s.insert(0, {"satisfy": "nobody_declared_this"}),
     "$.steps[0].satisfy"),
    ("payments_review.json", "payments.policy", lambda s: s.insert(0, {"permit": "NoSuchTool", "args": {}}),
     "$.steps[0].permit"),
    ("report_delivery.json", "report.policy", lambda s: s[0].update(outcome={"ok": False}), "$.steps[0].outcome"),
])
def test_a_trace_step_naming_the_undeclared_or_an_ignored_outcome_is_refused(tmp_path: Path, source: str,
                                                                              policy: str, edit: Any,
                                                                              where: str) -> None:
    res = CliRunner().invoke(main, ["monitor", "run", str(ROOT / "corpus" / "policies" / policy),
                                    _trace(tmp_path, source, edit)])
    assert res.exit_code == 2, res.output
    assert where in _one_error_line(res.output)


def test_an_empty_effects_option_is_refused(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["revise", str(ROOT / "corpus" / "policies" / "report.policy"),
                                    str(ROOT / "corpus" / "policies" / "report_chained.policy"), "--effects", ""])
    assert res.exit_code == 2, res.output
    assert "--effects" in _one_error_line(res.output)


def test_two_resumes_racing_on_one_store_never_exit_1(store: Path) -> None:
    """Real processes: each resume either drives the store (exit 0) or is told "store busy" (exit 2)."""
    import subprocess
    import sys

    args = [sys.executable, "-m", "model.shell.cli", "edit", "session", str(store / "A.db"), "resume", str(LAPTOP)]
    procs = [subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(2)]
    for p in procs:
        out, _ = p.communicate(timeout=120)
        assert p.returncode == 0 or (p.returncode == 2 and "store busy" in _one_error_line(out)), out
