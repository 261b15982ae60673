"""Shared set-up for the edit-runtime tests: a fresh durable runtime over the playground registration, a
foreign SQLite file, and an uninterrupted or resumed laptop session with the fake tool's deliveries."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from model.edits.runtime.answers import EditAccepted
from model.edits.runtime.outbox import Outbox
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import laptop, playground
from model.edits.runtime.session_script import Session, resume_session, run_session, session_from_json

LAPTOP = session_from_json(laptop())


def playground_runtime(directory: Path, name: str = "rt.db") -> Runtime:
    """A new store in ``directory`` whose checked root update was accepted (asserted)."""
    directory.mkdir(parents=True, exist_ok=True)
    sess = session_from_json(playground())
    rt, root = Runtime.create(str(directory / name), sess.registration, sess.seed)
    assert isinstance(root, EditAccepted), root
    return rt


def foreign_database(path: Path, table: str) -> None:
    """Another program's SQLite file: one table, no stamp."""
    c = sqlite3.connect(path)
    c.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, name TEXT)")
    c.commit()
    c.close()


def reference(d: Path, sess: Session = LAPTOP) -> dict[str, Any]:
    """An uninterrupted run of ``sess`` in ``d``: its answers, journal and the tool's deliveries."""
    tool = Outbox(str(d / "ref.outbox"))
    out = run_session(sess, str(d / "ref.db"), tool=tool)
    rt = Runtime(str(d / "ref.db"))
    got = {"out": out, "journal": rt.journal(), "sent": [r[1:4] for r in tool.deliveries()]}
    rt.close()
    tool.close()
    return got


def resumed(d: Path, sess: Session = LAPTOP, verify: bool = True) -> dict[str, Any]:
    """Resume the session stored in ``d/s.db`` to its end; the same record as ``reference`` plus the
    index resumed at and the idempotency keys the tool saw and the runtime's keys for those records."""
    tool = Outbox(str(d / "s.outbox"))
    start, out = resume_session(sess, str(d / "s.db"), tool=tool)
    rt = Runtime(str(d / "s.db"))
    if verify:
        rt.verify()  # the resumed store passes show's checks
    rows = tool.deliveries()
    got = {"start": start, "out": out, "journal": rt.journal(), "sent": [r[1:4] for r in rows],
           "keys": [r[0] for r in rows], "expected_keys": [rt.dispatch_key(r[1]) for r in rows]}
    rt.close()
    tool.close()
    return got


def cli_sessions(d: Path, scripts: dict[str, Path]) -> Path:
    """``agentwarrant edit session D/NAME.db run SCRIPT`` for each ``NAME: SCRIPT`` (each must exit 0)."""
    from click.testing import CliRunner

    from model.shell.cli import main

    for name, script in scripts.items():
        res = CliRunner().invoke(main, ["edit", "session", str(d / f"{name}.db"), "run", str(script)])
        assert res.exit_code == 0, res.output
    return d


def copy_files(src: Path, dst: Path) -> Path:
    """Every file of ``src`` copied into ``dst`` (a store, its key and its outbox, for one test to damage)."""
    import shutil

    for f in src.iterdir():
        shutil.copy(f, dst / f.name)
    return dst
