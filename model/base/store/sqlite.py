"""Opening the SQLite stores: one module for the edit runtime and every admission store (one
place for the stamps, exclusive creation and error reporting: stdlib sqlite3, WAL, one transaction per atomic step).

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

Choices where the papers are silent: a file whose mode bits forbid writing counts as read-only even for
root, whom the OS would let write, since that is what the owner asked for. A writable open of an
older version runs the kind's registered migration steps (``store_kinds.MIGRATIONS``, the same ones
PostgreSQL runs) inside the opening transaction; a read-only open, or an older version with no
registered path, is refused.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import tempfile
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from model.base.errors import InvalidInput
from model.base.store.kinds import (
    Kind,
    Mode,
    check_stamp,
    connect,
    initialize,
    io_error,
    migrate,
    precheck,
    sqlite_error,
    stamp_state,
)


class Database:
    """One connection to one stamped store (or ``:memory:``), one transaction per atomic step.

    A store object may be shared by threads, so it serializes its own use of its connection with a
    lock; separate objects (or processes) on one file are serialized by SQLite's write lock, taken
    up front by ``BEGIN IMMEDIATE`` so a read-then-write step never races."""

    def __init__(self, path: str, k: Kind, mode: Mode = Mode.OPEN_OR_CREATE) -> None:
        self.path, self.kind, self.mode = path, k, mode
        self._lock = threading.Lock()
        self._held: int | None = None
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
                app, ver, tables = stamp_state(c)
                if mode is Mode.OPEN_OR_CREATE and app == 0 and ver == 0 and not tables:
                    initialize(c, k)
                else:
                    if not self.readonly and 0 < ver < k.version:
                        ver = migrate(c, k, app, ver)
                        app, ver, tables = stamp_state(c)
                    check_stamp(path, k, app, ver, tables)
            if not memory and not self.readonly:
                self._pragmas()
        except BaseException:
            self.conn.close()
            raise

    def _open(self, memory: bool) -> sqlite3.Connection:
        if memory:
            return connect(":memory:", False)
        quoted = urllib.parse.quote(os.path.abspath(self.path))
        access = {Mode.READ: "ro", Mode.OPEN: "rw"}.get(self.mode, "rwc")
        conn = connect(f"file:{quoted}?mode={access}", True)
        if self.readonly:
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.OperationalError:
                conn.close()
                logs = (Path(self.path + "-wal"), Path(self.path + "-journal"))
                if any(p.exists() and p.stat().st_size > 0 for p in logs):
                    self._recover()
                    conn = connect(f"file:{quoted}?mode=ro", True)
                elif os.access(Path(self.path).parent, os.W_OK):
                    raise
                else:  # a WAL store in a read-only directory: no -shm can be made, and no writer can exist
                    conn = connect(f"file:{quoted}?mode=ro&immutable=1", True)
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
            raise io_error(self.path, "a store SQLite may recover after a crash (replaying its -wal needs write "
                      "access once)", exc.found or str(exc)) from None

    def _pragmas(self) -> None:
        with self._lock:
            try:
                got = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                self.conn.execute("PRAGMA synchronous = FULL")
            except sqlite3.Error as exc:
                raise sqlite_error(self.path, exc) from None
        if str(got).lower() != "wal":
            raise io_error(self.path, "a store that can use SQLite's WAL journal", f"journal mode {got}")

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
            conn = connect(tmp, False)
            try:
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute("BEGIN IMMEDIATE")
                initialize(conn, k)
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

    def hold(self) -> bool:
        """An exclusive advisory lock (``flock``, apart from SQLite's own locks) on the file until
        ``close``, for a caller that must be its only driver across many transactions; False when
        another process holds it."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._held = fd
        return True

    def close(self) -> None:
        with self._lock:
            self.conn.close()
            if self._held is not None:
                os.close(self._held)  # releases the flock
                self._held = None


def _publish(tmp: str, path: str) -> None:
    """Give the finished file its name iff the name is free (the creation race's one winner)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise io_error(path, "a path where a new store can be created", "an existing file") from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise io_error(path, "a path where a new store can be created", exc.strerror or str(exc)) from None
        # no hard links here: claim the name with O_EXCL, then move the finished file over it
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            raise io_error(path, "a path where a new store can be created", "an existing file") from None
        os.replace(tmp, path)
    dfd = os.open(str(Path(path).parent) or ".", os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
