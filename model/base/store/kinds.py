"""Store kinds and the checks made before a store is opened (the SQLite stores of ``store.py``: the edit
runtime's of *When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking for Execution
Edits*, Section VI, and the admission stores; the papers do not fix a file format, so the stamp is ours):
``PRAGMA application_id`` names a store's kind (``0x4157`` "AW", then the kind) and ``PRAGMA
user_version`` its schema version; a path is refused before SQLite touches it when it is a directory,
in no directory, not SQLite (its 16-byte magic), or read-only while the mode writes.
"""

from __future__ import annotations

import enum
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from model.base.errors import InputKind, InvalidInput

MAGIC = b"SQLite format 3\x00"
_AW = 0x41570000


@dataclass(frozen=True, slots=True)
class Kind:
    name: str  # what the user is told the file should be
    code: int  # low half of the application_id
    version: int  # user_version: the schema version this program reads and writes
    schema: str  # CREATE statements separated by ';'
    pg_schema: str = ""  # its PostgreSQL form where SQLite's differs (``model.base.store.postgres``); else ``schema``

    @property
    def application_id(self) -> int:
        return _AW | self.code

    @property
    def statements(self) -> list[str]:
        return [s.strip() for s in self.schema.split(";") if s.strip()]

    @property
    def pg_statements(self) -> list[str]:
        return [s.strip() for s in (self.pg_schema or self.schema).split(";") if s.strip()]

    @property
    def tables(self) -> frozenset[str]:
        return frozenset(s.split()[2] for s in self.statements if s.upper().startswith("CREATE TABLE"))


KINDS: dict[int, str] = {}  # application_id -> kind name, for "found a <kind> store" messages


#: (application_id, from_version) -> DDL that moves a store from ``from_version`` to ``from_version + 1``,
#: run inside the opening transaction on both backends (``model.base.store.sqlite``, ``model.base.store.postgres``)
MIGRATIONS: dict[tuple[int, int], str] = {}


def migrate(conn: sqlite3.Connection, k: Kind, app: int, ver: int) -> int:
    """Move an SQLite store of this kind and an older version forward as far as registered steps
    go (inside the caller's transaction); the version reached."""
    while app == k.application_id and ver < k.version and (app, ver) in MIGRATIONS:
        for stmt in (s.strip() for s in MIGRATIONS[(app, ver)].split(";")):
            if stmt:
                conn.execute(stmt)
        ver += 1
        conn.execute(f"PRAGMA user_version = {ver}")
    return ver


def kind(name: str, code: int, version: int, schema: str, pg_schema: str = "") -> Kind:
    k = Kind(name, code, version, schema, pg_schema)
    if KINDS.get(k.application_id, name) != name:  # two kinds with one stamp would open each other's stores
        raise ValueError(f"store kind code {code} is taken by {KINDS[k.application_id]}")
    KINDS[k.application_id] = name
    return k


class Mode(enum.Enum):
    CREATE = "create"
    OPEN = "open"
    READ = "read"
    OPEN_OR_CREATE = "open-or-create"


def io_error(path: str, expected: str, found: str) -> InvalidInput:
    return InvalidInput(path, expected, found, InputKind.IO)


def sqlite_error(path: str, exc: sqlite3.Error) -> InvalidInput:
    """One line for any SQLite failure on an open store."""
    text = str(exc) or type(exc).__name__
    if "not a database" in text or "malformed" in text:
        return InvalidInput(path, "an intact SQLite store", f"a damaged file ({text})", InputKind.VALUE)
    return io_error(path, "a store SQLite can read and write", text)


def _writable(p: Path) -> bool:
    st = p.stat()
    return os.access(p, os.W_OK) and st.st_mode & 0o222 != 0


def precheck(path: str, k: Kind, mode: Mode) -> None:
    """File-system checks before SQLite opens anything."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise io_error(path, "a store path in an existing directory", f"no directory {parent}")
    if p.is_dir():
        raise io_error(path, f"a {k.name} file", "a directory")
    exists = p.exists()
    if mode is Mode.CREATE and exists:
        raise io_error(path, "a path where a new store can be created", "an existing file")
    if not exists and mode in (Mode.OPEN, Mode.READ):
        raise io_error(path, f"an existing {k.name}", "no such file")
    head = b""
    if exists:
        try:
            with p.open("rb") as f:
                head = f.read(100)
        except OSError as exc:
            raise io_error(path, f"a readable {k.name}", exc.strerror or str(exc)) from None
        if not head and mode in (Mode.OPEN, Mode.READ):
            raise InvalidInput(path, f"an agentwarrant {k.name}", "an empty file")
        if head and not head.startswith(MAGIC):
            raise InvalidInput(path, f"an agentwarrant {k.name} (SQLite)", "a file that is not an SQLite database")
    if mode is not Mode.READ:
        if exists and not _writable(p):
            raise io_error(path, f"a writable {k.name}", "a read-only file")
        if not _writable(parent):
            raise io_error(path, "a store in a writable directory (SQLite keeps its -wal and -shm files there)",
                      "a read-only directory")


def connect(target: str, uri: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(target, timeout=60.0, isolation_level=None, check_same_thread=False, uri=uri)
    conn.execute("PRAGMA busy_timeout = 60000")
    return conn


def stamp_state(conn: sqlite3.Connection) -> tuple[int, int, set[str]]:
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    ver = conn.execute("PRAGMA user_version").fetchone()[0]
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return app, ver, {n for n in names if not n.startswith("sqlite_")}


def initialize(conn: sqlite3.Connection, k: Kind) -> None:
    for stmt in k.statements:
        conn.execute(stmt)
    conn.execute(f"PRAGMA application_id = {k.application_id}")
    conn.execute(f"PRAGMA user_version = {k.version}")


def check_stamp(path: str, k: Kind, app: int, ver: int, tables: set[str]) -> None:
    if app != k.application_id:
        if app in KINDS:
            raise InvalidInput(path, f"an agentwarrant {k.name}", f"an agentwarrant {KINDS[app]}")
        listed = ", ".join(sorted(tables)) or "none"
        raise InvalidInput(path, f"an agentwarrant {k.name}",
                           f"a foreign SQLite database (application_id {app:#x}, tables: {listed})")
    if ver != k.version:
        why = ("newer; this program cannot read it" if ver > k.version
               else "older, and no migration from it is registered")
        raise InvalidInput(path, f"a {k.name} of schema version {k.version}", f"schema version {ver} ({why})")
    if tables != set(k.tables):
        raise InvalidInput(path, f"a {k.name} with tables {', '.join(sorted(k.tables))}",
                           f"tables {', '.join(sorted(tables)) or 'none'} (a damaged or edited store)")
