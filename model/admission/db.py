"""SQLite plumbing shared by the durable admission stores (DESIGN.md: stdlib sqlite3, WAL).

Choices: autocommit mode (``isolation_level=None``) with explicit ``BEGIN IMMEDIATE`` so that
each atomic step is exactly one transaction that takes the write lock up front — two processes
racing on a conditional UPDATE then serialize instead of both reading the old row. A store
object may be shared by threads, so it serializes its own use of its connection with a lock;
separate store objects (or processes) on one file are serialized by SQLite itself.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Database:
    """One connection to one SQLite file (or ``:memory:``), WAL, one transaction per step."""

    def __init__(self, path: str, schema: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.conn = sqlite3.connect(path, timeout=60.0, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA busy_timeout = 60000")
        if path != ":memory:":
            self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        for stmt in (s.strip() for s in schema.split(";")):
            if stmt:
                with self.transaction() as c:
                    c.execute(stmt)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self.conn.close()
