"""Opening the SQLite stores: one module for the edit runtime and every admission store (issue 12 §4;
DESIGN.md: stdlib sqlite3, WAL, one transaction per atomic step).

Every store is stamped: ``PRAGMA application_id`` names its kind (``0x4157`` "AW", then the kind)
and ``PRAGMA user_version`` is its schema version. Opening refuses, with one ``InvalidInput`` naming
the file: a directory, a path in no directory, a file that is not SQLite (its 16-byte magic is read
before SQLite touches it), a corrupted header, another program's database or another kind's store, a
newer or older schema, a stamped store whose tables differ from its kind's, a read-only file or
directory when the mode writes. Any later ``sqlite3.Error`` (``database is locked`` after the busy
timeout, ``disk I/O error``, ``malformed``) becomes ``InvalidInput`` naming the file.

Modes:
- ``CREATE``: exclusive. The store is built in a temporary file of the same directory (schema, stamp
  and first rows in one transaction, then switched to WAL; closing it leaves no ``-wal``) and
  published with ``os.link``, which fails if the name exists: of two concurrent creators exactly one
  wins, and no reader ever sees a half-initialized store.
- ``OPEN``: an existing store, read-write, switched to WAL only after the stamp check, so a foreign
  file is never changed.
- ``READ``: a ``file:...?mode=ro`` URI: nothing is created, the journal mode is not touched. When a
  crash left a log a read-only connection may not recover (a hot ``-journal``; a ``-wal`` whose
  ``-shm`` cannot be written), a store stamped as this kind in its raw header is opened read-write
  once (rows unchanged); one that cannot be is refused, saying why. A WAL store in a read-only
  directory with no ``-wal`` cannot get its ``-shm``: it is read ``immutable``.
- ``OPEN_OR_CREATE``: the admission stores' mode (a service starts on an empty path). An absent or
  empty file, or an SQLite database with no table and no stamp, is initialized inside one
  ``BEGIN IMMEDIATE`` transaction, so concurrent openers serialize and exactly one creates the schema.

Choices where the issue is silent: a file whose mode bits forbid writing counts as read-only even for
root, whom the OS would let write, since that is what the owner asked for; there is no migration.
"""

from __future__ import annotations

import enum
import errno
import os
import sqlite3
import tempfile
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from model.errors import InputKind, InvalidInput

MAGIC = b"SQLite format 3\x00"
_AW = 0x41570000


@dataclass(frozen=True, slots=True)
class Kind:
    name: str  # what the user is told the file should be
    code: int  # low half of the application_id
    version: int  # user_version: the schema version this program reads and writes
    schema: str  # CREATE statements separated by ';'

    @property
    def application_id(self) -> int:
        return _AW | self.code

    @property
    def statements(self) -> list[str]:
        return [s.strip() for s in self.schema.split(";") if s.strip()]

    @property
    def tables(self) -> frozenset[str]:
        return frozenset(s.split()[2] for s in self.statements if s.upper().startswith("CREATE TABLE"))


KINDS: dict[int, str] = {}  # application_id -> kind name, for "found a <kind> store" messages


def kind(name: str, code: int, version: int, schema: str) -> Kind:
    k = Kind(name, code, version, schema)
    KINDS[k.application_id] = name
    return k


class Mode(enum.Enum):
    CREATE = "create"
    OPEN = "open"
    READ = "read"
    OPEN_OR_CREATE = "open-or-create"


def _io(path: str, expected: str, found: str) -> InvalidInput:
    return InvalidInput(path, expected, found, InputKind.IO)


def sqlite_error(path: str, exc: sqlite3.Error) -> InvalidInput:
    """One line for any SQLite failure on an open store."""
    text = str(exc) or type(exc).__name__
    if "not a database" in text or "malformed" in text:
        return InvalidInput(path, "an intact SQLite store", f"a damaged file ({text})", InputKind.VALUE)
    return _io(path, "a store SQLite can read and write", text)


def _writable(p: Path) -> bool:
    st = p.stat()
    return os.access(p, os.W_OK) and st.st_mode & 0o222 != 0


def precheck(path: str, k: Kind, mode: Mode) -> None:
    """File-system checks before SQLite opens anything."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise _io(path, "a store path in an existing directory", f"no directory {parent}")
    if p.is_dir():
        raise _io(path, f"a {k.name} file", "a directory")
    exists = p.exists()
    if mode is Mode.CREATE and exists:
        raise _io(path, "a path where a new store can be created", "an existing file")
    if not exists and mode in (Mode.OPEN, Mode.READ):
        raise _io(path, f"an existing {k.name}", "no such file")
    head = b""
    if exists:
        try:
            with p.open("rb") as f:
                head = f.read(100)
        except OSError as exc:
            raise _io(path, f"a readable {k.name}", exc.strerror or str(exc)) from None
        if not head and mode in (Mode.OPEN, Mode.READ):
            raise InvalidInput(path, f"an agentwarrant {k.name}", "an empty file")
        if head and not head.startswith(MAGIC):
            raise InvalidInput(path, f"an agentwarrant {k.name} (SQLite)", "a file that is not an SQLite database")
    if mode is not Mode.READ:
        if exists and not _writable(p):
            raise _io(path, f"a writable {k.name}", "a read-only file")
        if not _writable(parent):
            raise _io(path, "a store in a writable directory (SQLite keeps its -wal and -shm files there)",
                      "a read-only directory")


def _connect(target: str, uri: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(target, timeout=60.0, isolation_level=None, check_same_thread=False, uri=uri)
    conn.execute("PRAGMA busy_timeout = 60000")
    return conn


def _stamp_state(conn: sqlite3.Connection) -> tuple[int, int, set[str]]:
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    ver = conn.execute("PRAGMA user_version").fetchone()[0]
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return app, ver, {n for n in names if not n.startswith("sqlite_")}


def _initialize(conn: sqlite3.Connection, k: Kind) -> None:
    for stmt in k.statements:
        conn.execute(stmt)
    conn.execute(f"PRAGMA application_id = {k.application_id}")
    conn.execute(f"PRAGMA user_version = {k.version}")


def _check_stamp(path: str, k: Kind, app: int, ver: int, tables: set[str]) -> None:
    if app != k.application_id:
        if app in KINDS:
            raise InvalidInput(path, f"an agentwarrant {k.name}", f"an agentwarrant {KINDS[app]}")
        listed = ", ".join(sorted(tables)) or "none"
        raise InvalidInput(path, f"an agentwarrant {k.name}",
                           f"a foreign SQLite database (application_id {app:#x}, tables: {listed})")
    if ver != k.version:
        newer = "newer" if ver > k.version else "older"
        raise InvalidInput(path, f"a {k.name} of schema version {k.version}",
                           f"schema version {ver} ({newer}; this program does not migrate stores)")
    if tables != set(k.tables):
        raise InvalidInput(path, f"a {k.name} with tables {', '.join(sorted(k.tables))}",
                           f"tables {', '.join(sorted(tables)) or 'none'} (a damaged or edited store)")


class Database:
    """One connection to one stamped store (or ``:memory:``), one transaction per atomic step.

    A store object may be shared by threads, so it serializes its own use of its connection with a
    lock; separate objects (or processes) on one file are serialized by SQLite's write lock, taken
    up front by ``BEGIN IMMEDIATE`` so a read-then-write step never races."""

    def __init__(self, path: str, k: Kind, mode: Mode = Mode.OPEN_OR_CREATE) -> None:
        self.path, self.kind, self.mode = path, k, mode
        self._lock = threading.Lock()
        self.readonly = mode is Mode.READ
        memory = path == ":memory:"
        if not memory:
            precheck(path, k, mode)
        try:
            self.conn = self._open(memory)
        except sqlite3.Error as exc:
            raise sqlite_error(path, exc) from None
        try:
            with self.transaction() as c:
                app, ver, tables = _stamp_state(c)
                if mode is Mode.OPEN_OR_CREATE and app == 0 and ver == 0 and not tables:
                    _initialize(c, k)
                else:
                    _check_stamp(path, k, app, ver, tables)
            if not memory and not self.readonly:
                self._pragmas()
        except BaseException:
            self.conn.close()
            raise

    def _open(self, memory: bool) -> sqlite3.Connection:
        if memory:
            return _connect(":memory:", False)
        quoted = urllib.parse.quote(os.path.abspath(self.path))
        access = {Mode.READ: "ro", Mode.OPEN: "rw"}.get(self.mode, "rwc")
        conn = _connect(f"file:{quoted}?mode={access}", True)
        if self.readonly:
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.OperationalError:
                conn.close()
                logs = (Path(self.path + "-wal"), Path(self.path + "-journal"))
                if any(p.exists() and p.stat().st_size > 0 for p in logs):
                    self._recover()
                    conn = _connect(f"file:{quoted}?mode=ro", True)
                elif os.access(Path(self.path).parent, os.W_OK):
                    raise
                else:  # a WAL store in a read-only directory: no -shm can be made, and no writer can exist
                    conn = _connect(f"file:{quoted}?mode=ro&immutable=1", True)
        return conn

    def _recover(self) -> None:
        """After a crash SQLite must roll back a hot ``-journal`` or index the ``-wal`` before anyone
        reads, which a read-only connection may not always do: open the store read-write once (no row
        changes). Only for a file whose raw
        header carries this kind's stamp (``CREATE`` writes it before publishing), so a foreign file
        is never written."""
        with Path(self.path).open("rb") as f:
            app = int.from_bytes(f.read(100)[68:72], "big")
        if app != self.kind.application_id:
            raise InvalidInput(self.path, f"an agentwarrant {self.kind.name}",
                               f"another SQLite database (application_id {app:#x}) with an unrecovered -wal")
        try:
            Database(self.path, self.kind, Mode.OPEN).close()
        except InvalidInput as exc:
            raise _io(self.path, "a store SQLite may recover after a crash (replaying its -wal needs write "
                      "access once)", exc.found or str(exc)) from None

    def _pragmas(self) -> None:
        with self._lock:
            try:
                got = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                self.conn.execute("PRAGMA synchronous = FULL")
            except sqlite3.Error as exc:
                raise sqlite_error(self.path, exc) from None
        if str(got).lower() != "wal":
            raise _io(self.path, "a store that can use SQLite's WAL journal", f"journal mode {got}")

    @staticmethod
    def create(path: str, k: Kind, init: Callable[[sqlite3.Connection], None]) -> Database:
        """Exclusive creation (see the module docstring); ``init`` writes the first rows."""
        precheck(path, k, Mode.CREATE)
        parent = str(Path(path).parent) or "."
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{Path(path).name}.", suffix=".new")
        os.close(fd)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 is for secrets; a store holds none
        try:
            conn = _connect(tmp, False)
            try:
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute("BEGIN IMMEDIATE")
                _initialize(conn, k)
                init(conn)
                conn.execute("COMMIT")
                # WAL from birth: switching after publication would be a window with a rollback
                # journal, which a read-only open after a crash could not roll back
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.Error as exc:
                raise sqlite_error(path, exc) from None
            finally:
                conn.close()
            _publish(tmp, path)
        finally:
            for junk in (tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"):
                Path(junk).unlink(missing_ok=True)
        return Database(path, k, Mode.OPEN)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self.conn.execute("BEGIN" if self.readonly else "BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise sqlite_error(self.path, exc) from None
            try:
                yield self.conn
            except BaseException as exc:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the failure that got us here is the one to report
                if isinstance(exc, sqlite3.Error):
                    raise sqlite_error(self.path, exc) from None
                raise
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as exc:
                raise sqlite_error(self.path, exc) from None

    def integrity(self) -> list[str]:
        """``PRAGMA integrity_check``: the problems SQLite finds (empty when the file is intact)."""
        with self.transaction() as c:
            rows = [str(r[0]) for r in c.execute("PRAGMA integrity_check").fetchall()]
        return [] if rows == ["ok"] else rows

    def close(self) -> None:
        with self._lock:
            self.conn.close()


def _publish(tmp: str, path: str) -> None:
    """Give the finished file its name iff the name is free (the creation race's one winner)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise _io(path, "a path where a new store can be created", "an existing file") from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise _io(path, "a path where a new store can be created", exc.strerror or str(exc)) from None
        # no hard links here: claim the name with O_EXCL, then move the finished file over it
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            raise _io(path, "a path where a new store can be created", "an existing file") from None
        os.replace(tmp, path)
    dfd = os.open(str(Path(path).parent) or ".", os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
