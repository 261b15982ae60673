"""Fault injection on the edit runtime's store and its outbox: every table of the store and the outbox
file, each deleted from, truncated, swapped with another store's, or edited by hand, under every command
that reads them (``show``, ``resume``, ``run``): the command refuses with one ``error:`` line, exit 2,
and dispatches nothing (the outbox's deliveries, repeats included, are unchanged).

The stores are made once per module by the CLI (the laptop session, which dispatches four requests and
leaves three sent and unsettled, and the preload session as the "other" store of a swap) and copied
for each case."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.shell.cli import main
from tests.edits_helpers import cli_sessions, copy_files

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = ROOT / "corpus" / "edits" / "sessions"
LAPTOP, OTHER = SESSIONS / "laptop.json", SESSIONS / "preload.json"

#: every table of the runtime store; test_the_fault_table_covers_every_table keeps this list complete
STORE_TABLES = ("meta", "state", "journal", "steps", "acks", "heads")
OUTBOX_TABLES = ("delivered", "meta")


def _cli(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cli_sessions(tmp_path_factory.mktemp("faults"), {"A": LAPTOP, "B": OTHER})


@pytest.fixture
def store(made: Path, tmp_path: Path) -> Path:
    return copy_files(made, tmp_path)


def _tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as c:
        return sorted(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))


def _rows(path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as c:
        return c.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()


def _exec(path: Path, sql: str, params: tuple[object, ...] = ()) -> None:
    c = sqlite3.connect(path)
    try:
        c.execute(sql, params)
        c.commit()
    finally:
        c.close()


def delete_first(db: Path, other: Path, table: str) -> None:
    _exec(db, f"DELETE FROM {table} WHERE rowid = (SELECT min(rowid) FROM {table})")


def delete_last(db: Path, other: Path, table: str) -> None:
    _exec(db, f"DELETE FROM {table} WHERE rowid = (SELECT max(rowid) FROM {table})")


def truncate(db: Path, other: Path, table: str) -> None:
    _exec(db, f"DELETE FROM {table}")


def swap(db: Path, other: Path, table: str) -> None:
    """The table's rows replaced by the same table's rows of another store."""
    c = sqlite3.connect(db)
    try:
        c.execute("ATTACH DATABASE ? AS other", (str(other),))
        c.execute(f"DELETE FROM main.{table}")
        c.execute(f"INSERT INTO main.{table} SELECT * FROM other.{table}")
        c.commit()
    finally:
        c.close()


def edit_text(db: Path, other: Path, table: str) -> None:
    """The last row's last text column, one character changed (a digit when there is one)."""
    with sqlite3.connect(db) as c:
        cols = [(r[1], r[2]) for r in c.execute(f"PRAGMA table_info({table})")]
        rowid, *values = c.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid DESC LIMIT 1").fetchone()
    name, text = next((n, v) for (n, t), v in reversed(list(zip(cols, values, strict=True)))
                      if t == "TEXT" and isinstance(v, str) and v)
    i = next((k for k, ch in enumerate(text) if ch.isdigit()), len(text) - 1)
    changed = text[:i] + ("7" if text[i] != "7" else "8") + text[i + 1:]
    _exec(db, f"UPDATE {table} SET {name} = ? WHERE rowid = ?", (changed, rowid))


def edit_int(db: Path, other: Path, table: str) -> None:
    """The last row's last integer column that is not its key, decremented (a state's sequence number)."""
    with sqlite3.connect(db) as c:
        cols = [(r[1], r[2], r[5]) for r in c.execute(f"PRAGMA table_info({table})")]
    name = next(n for n, t, pk in reversed(cols) if t == "INTEGER" and not pk)
    _exec(db, f"UPDATE {table} SET {name} = {name} - 1 WHERE rowid = (SELECT max(rowid) FROM {table})")


Fault = Callable[[Path, Path, str], None]
FAULTS: dict[str, Fault] = {"delete-first": delete_first, "delete-last": delete_last, "truncate": truncate,
                            "swap": swap, "edit-text": edit_text, "edit-int": edit_int}
_INT_TABLES = {"state", "steps", "delivered", "heads"}  # those with an integer column besides their key


def _cases(tables: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(t, f) for t in tables for f in FAULTS if f != "edit-int" or t in _INT_TABLES]


def _refused(code: int, out: str) -> None:
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert code == 2, out
    assert len(lines) == 1 and lines[0].startswith("error:"), out


def _command(command: str, d: Path) -> tuple[int, str]:
    if command == "show":
        return _cli("edit", "session", str(d / "A.db"), "show")
    if command == "resume":
        return _cli("edit", "session", str(d / "A.db"), "resume", str(LAPTOP))
    return _cli("edit", "session", str(d / "A.db"), "run", str(LAPTOP))


def test_the_fault_table_covers_every_table(made: Path) -> None:
    assert tuple(sorted(STORE_TABLES)) == tuple(_tables(made / "A.db"))
    assert tuple(sorted(OUTBOX_TABLES)) == tuple(_tables(made / "A.db.outbox"))


def test_an_intact_store_is_shown_and_resumed(store: Path) -> None:
    before = _rows(store / "A.db.outbox", "delivered")
    assert _command("show", store)[0] == 0
    code, out = _command("resume", store)
    assert code == 0, out
    after = _rows(store / "A.db.outbox", "delivered")
    assert [r[:-1] for r in after] == [r[:-1] for r in before]  # the same deliveries; repeats may grow


@pytest.mark.parametrize("command", ["show", "resume", "run"])
@pytest.mark.parametrize(("table", "fault"), _cases(STORE_TABLES))
def test_a_damaged_store_is_refused_and_nothing_is_dispatched(store: Path, table: str, fault: str,
                                                              command: str) -> None:
    before = _rows(store / "A.db.outbox", "delivered")
    FAULTS[fault](store / "A.db", store / "B.db", table)
    _refused(*_command(command, store))
    assert _rows(store / "A.db.outbox", "delivered") == before


@pytest.mark.parametrize("command", ["show", "resume"])
@pytest.mark.parametrize(("table", "fault"), _cases(OUTBOX_TABLES))
def test_a_damaged_outbox_is_refused_and_nothing_is_dispatched(store: Path, table: str, fault: str,
                                                               command: str) -> None:
    FAULTS[fault](store / "A.db.outbox", store / "B.db.outbox", table)
    before = _rows(store / "A.db.outbox", "delivered")
    _refused(*_command(command, store))
    assert _rows(store / "A.db.outbox", "delivered") == before


@pytest.mark.parametrize("command", ["show", "resume"])
@pytest.mark.parametrize("fault", ["missing", "foreign"])
def test_a_missing_or_foreign_outbox_file_is_refused(store: Path, fault: str, command: str) -> None:
    outbox = store / "A.db.outbox"
    if fault == "missing":
        outbox.unlink()
    else:
        shutil.copy(store / "B.db.outbox", outbox)
    before = outbox.read_bytes() if outbox.exists() else None
    _refused(*_command(command, store))
    assert (outbox.read_bytes() if outbox.exists() else None) == before
