"""The shared server store: PostgreSQL beside the embedded SQLite default (Parmana: "spent
atomically in a shared Postgres store so each authorization is used once across instances";
DESIGN.md: a shared server store where a source asks for cross-instance atomicity).

A store kind that lives in one SQLite file lives here in one PostgreSQL *schema* (namespace) of a
database named by a libpq connection string (``postgresql://host:port/db``). The store classes are
the same code on both backends: a transaction yields a connection whose ``execute(sql, params)``
takes SQLite's ``?`` placeholders, and the statements used are the SQL both engines share
(``INSERT ... ON CONFLICT DO NOTHING``, conditional ``UPDATE``).

Stamping, as ``model.base.store.sqlite`` does with ``application_id``/``user_version``: the schema holds a table
``aw_stamp(application_id, version)`` with one row. Opening takes a transaction-scoped advisory lock
on the schema's name, so concurrent openers serialize and exactly one creates it; then refuses, with
one ``InvalidInput`` naming the store (its connection string without the password): a schema holding
tables but no stamp (another program's), another kind's store, a newer schema version, a stamped
schema whose tables differ from its kind's. An older version is migrated forward, one registered
step at a time (``MIGRATIONS``, shared with SQLite), inside that same transaction; an older version with no registered
path is refused.

Choices where the sources are silent: the schema name defaults to ``aw_`` plus the kind's name
(``aw_nonce_store``), so several kinds share one database; isolation is PostgreSQL's default READ
COMMITTED, which suffices because every step decides by one row-locking statement (an insert on a
primary key, an update conditioned on the current state) whose row count is the verdict; a
connection found broken when a transaction begins is replaced once (a restarted server is
reconnected to); a failure inside a transaction rolls it back, and one during ``COMMIT`` is reported
as a failure although the server may have committed (the caller refuses, so an unknown outcome
errs toward not releasing).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from model.base.errors import InputKind, InvalidInput
from model.base.store.kinds import KINDS, Kind
from model.base.store.kinds import (
    MIGRATIONS as MIGRATIONS,  # shared with SQLite's opening (``model.base.store.sqlite``)
)
from model.base.store.sqlite import Database

_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
STAMP_TABLE = "aw_stamp"


def is_postgres(target: str) -> bool:
    """A store target naming a PostgreSQL server rather than an SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


def schema_name(k: Kind) -> str:
    return "aw_" + re.sub(r"[^a-z0-9]+", "_", k.name.lower()).strip("_")


def redacted(dsn: str) -> str:
    """The connection string as shown to a user: never the password."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", re.sub(r"password=\S+", "password=***", dsn))


class PgConnection:
    """A psycopg connection that takes SQLite's ``?`` placeholders."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any:
        return self.raw.execute(sql.replace("?", "%s"), tuple(params))


class PgDatabase:
    """One connection to one stamped schema; one transaction per atomic step (as ``store.Database``)."""

    def __init__(self, dsn: str, k: Kind, schema: str | None = None, *, missing: str = "create",
                 serialize: bool = False, readonly: bool = False, init: Callable[[Any], None] | None = None) -> None:
        """``missing``: what an absent store becomes: ``"create"`` (the admission stores) or ``"refuse"``.
        ``init``: create the store exclusively (an existing one is refused) and write its first rows in
        the creating transaction. ``serialize``: every transaction takes the schema's advisory lock, as
        SQLite's ``BEGIN IMMEDIATE`` takes the file's write lock. ``readonly``: ``BEGIN READ ONLY``."""
        self.dsn, self.kind = dsn, k
        self._missing, self._serialize, self._readonly, self._init = missing, serialize, readonly, init
        self.path = redacted(dsn)
        self.schema = schema or schema_name(k)
        if not _NAME.match(self.schema):
            raise InvalidInput(f"{self.path} schema", "a lower-case SQL identifier", self.schema, InputKind.VALUE)
        self._lock = threading.Lock()
        self._raw: Any = None
        self._closed = False
        self._connect()
        readonly, self._readonly = self._readonly, False  # opening may create the schema
        with self.transaction() as c:
            c.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (self.schema,))
            self._open_schema(c)
        self._readonly = readonly

    def _connect(self) -> None:
        import psycopg  # optional dependency: the ``postgres`` extra

        try:
            self._raw = psycopg.connect(self.dsn, autocommit=True, connect_timeout=10)
            self._raw.execute(f"SET search_path TO {self.schema}")
        except psycopg.Error as exc:
            raise self._error(exc) from None

    def _error(self, exc: Exception) -> InvalidInput:
        text = " ".join(str(exc).split()) or type(exc).__name__
        return InvalidInput(self.path, f"a reachable PostgreSQL {self.kind.name}", text[:200], InputKind.IO)

    def _open_schema(self, c: PgConnection) -> None:
        k, where = self.kind, f"{self.path} schema {self.schema}"
        tables = {r[0] for r in c.execute("SELECT tablename FROM pg_tables WHERE schemaname = ?",
                                           (self.schema,)).fetchall()}
        if self._init is not None and tables:
            raise InvalidInput(where, "a schema where a new store can be created", "an existing store",
                               InputKind.IO)
        if not tables and self._init is None and self._missing == "refuse":
            raise InvalidInput(where, f"an existing {k.name}", "no such store (no tables in the schema)",
                               InputKind.IO)
        if not tables:
            c.execute(f"CREATE SCHEMA IF NOT EXISTS {self.schema}")
            for stmt in k.pg_statements:
                c.execute(stmt)
            c.execute(f"CREATE TABLE {STAMP_TABLE} (application_id INTEGER NOT NULL, version INTEGER NOT NULL)")
            c.execute(f"INSERT INTO {STAMP_TABLE} VALUES (?, ?)", (k.application_id, k.version))
            if self._init is not None:
                self._init(c)
            return
        listed = ", ".join(sorted(tables))
        if STAMP_TABLE not in tables:
            raise InvalidInput(where, f"an agentwarrant {k.name}", f"a foreign schema (tables: {listed})")
        rows = c.execute(f"SELECT application_id, version FROM {STAMP_TABLE}").fetchall()
        if len(rows) != 1:
            raise InvalidInput(where, f"an agentwarrant {k.name}", f"{len(rows)} stamp rows (a damaged store)")
        app, ver = int(rows[0][0]), int(rows[0][1])
        if app != k.application_id:
            found = f"an agentwarrant {KINDS[app]}" if app in KINDS else f"a foreign store (application_id {app:#x})"
            raise InvalidInput(where, f"an agentwarrant {k.name}", found)
        if ver > k.version:
            raise InvalidInput(where, f"a {k.name} of schema version {k.version}",
                               f"schema version {ver} (newer; this program cannot read it)")
        while ver < k.version:
            step = MIGRATIONS.get((k.application_id, ver))
            if step is None:
                raise InvalidInput(where, f"a {k.name} of schema version {k.version}",
                                   f"schema version {ver} (older, and no migration from it is registered)")
            for stmt in (s.strip() for s in step.split(";")):
                if stmt:
                    c.execute(stmt)
            ver += 1
            c.execute(f"UPDATE {STAMP_TABLE} SET version = ?", (ver,))
        tables = {r[0] for r in c.execute("SELECT tablename FROM pg_tables WHERE schemaname = ?",
                                           (self.schema,)).fetchall()}
        if tables != set(k.tables) | {STAMP_TABLE}:
            found = ", ".join(sorted(tables - {STAMP_TABLE})) or "none"
            raise InvalidInput(where, f"a {k.name} with tables {', '.join(sorted(k.tables))}",
                               f"tables {found} (a damaged or edited store)")

    @contextmanager
    def transaction(self) -> Iterator[PgConnection]:
        import psycopg

        with self._lock:
            if self._closed:
                raise InvalidInput(self.path, f"an open {self.kind.name}", "a store closed by its owner", InputKind.IO)
            if self._raw is None or self._raw.closed or self._raw.broken:
                self._connect()
            begin = "BEGIN READ ONLY" if self._readonly else "BEGIN"
            try:
                self._raw.execute(begin)
            except psycopg.Error:
                # nothing of this step reached the server: a connection the server dropped (a
                # restart, a terminated backend) is replaced once and the step begins afresh
                self._raw.close()
                self._connect()
                try:
                    self._raw.execute(begin)
                except psycopg.Error as exc:
                    self._raw.close()
                    raise self._error(exc) from None
            raw = self._raw
            try:
                if self._serialize:
                    raw.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", ("steps:" + self.schema,))
                yield PgConnection(raw)
            except BaseException as exc:
                try:
                    raw.execute("ROLLBACK")
                except psycopg.Error:
                    raw.close()  # a dropped connection: the server rolled the transaction back itself
                if isinstance(exc, psycopg.Error):
                    raise self._error(exc) from None
                raise
            try:
                raw.execute("COMMIT")
            except psycopg.Error as exc:
                raw.close()
                raise self._error(exc) from None

    def integrity(self) -> list[str]:
        """SQLite's ``integrity_check`` has no PostgreSQL counterpart a client can run (page checksums
        are the server's, ``initdb --data-checksums``): no problems to report from here."""
        return []

    def backend_pid(self) -> int:
        """The server process serving this connection (the fault tests terminate it)."""
        with self.transaction() as c:
            return int(c.execute("SELECT pg_backend_pid()").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._raw is not None:
                self._raw.close()


def open_database(target: str, k: Kind, schema: str | None = None) -> Database | PgDatabase:
    """An SQLite file (or ``:memory:``) or, for a ``postgresql://`` target, a PostgreSQL schema."""
    if is_postgres(target):
        return PgDatabase(target, k, schema)
    if schema is not None:
        raise InvalidInput("schema", "no schema for an SQLite store (it is one file)", schema, InputKind.VALUE)
    return Database(target, k)
