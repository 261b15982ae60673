"""Durable attempts (*Policy-Mediated Autonomy with Resumable Action Attempts*, "require-review → persist request
envelope"):
the saved envelope, its identity binding, the admission state, the review decision with its
approver reference, and the typed result — one transaction per atomic step, in an SQLite file
(the embedded default) or a schema of a shared PostgreSQL database (``model.base.store.postgres``), the same
code on both.

Every state change is ``UPDATE ... WHERE id = ? AND state IN (legal sources)``, so the table in
``attempts.TRANSITIONS`` is enforced by the database and two concurrent replays of one approved
attempt cannot both move it to EXECUTING (a second replay is refused). Choices where the source is
silent: attempt ids are caller-supplied strings (uuid4 by default); decisions are also appended to
an audit table (``reviews``) so the approval record survives even when the attempt moves on; its
order is SQLite's ``rowid``, which the PostgreSQL form declares as a serial column of that name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from model.admission.resumable.attempts import AttemptState, Event, sources_of, step
from model.admission.resumable.envelope import Identity, Request
from model.base.errors import InputKind, InvalidInput
from model.base.store.kinds import kind
from model.base.store.postgres import PgDatabase, open_database
from model.base.store.sqlite import Database

_ATTEMPTS = """
CREATE TABLE attempts (
  id TEXT PRIMARY KEY, tenant TEXT NOT NULL, principal TEXT NOT NULL, credential TEXT NOT NULL,
  method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL, body TEXT NOT NULL,
  body_digest TEXT NOT NULL, state TEXT NOT NULL, approver TEXT, result TEXT, created_at TEXT NOT NULL)"""

KIND = kind("attempt store", 2, 1, _ATTEMPTS + """;
CREATE TABLE reviews (
  attempt_id TEXT NOT NULL, approver TEXT NOT NULL, decision TEXT NOT NULL, context TEXT NOT NULL,
  at TEXT NOT NULL)
""", _ATTEMPTS + """;
CREATE TABLE reviews (
  attempt_id TEXT NOT NULL, approver TEXT NOT NULL, decision TEXT NOT NULL, context TEXT NOT NULL,
  at TEXT NOT NULL, rowid BIGSERIAL)
""")


@dataclass(frozen=True, slots=True)
class Attempt:
    id: str
    request: Request
    body_digest: str
    state: AttemptState
    approver: str | None
    result: str | None


class AttemptStore:
    def __init__(self, path: str = ":memory:", schema: str | None = None) -> None:
        """``path``: an SQLite file, ``:memory:``, or a ``postgresql://`` database (``schema`` then
        names the store's namespace in it)."""
        self.db: Database | PgDatabase = open_database(path, KIND, schema)

    def _sqlite(self) -> Database:
        if not isinstance(self.db, Database):
            raise InvalidInput(self.db.path, "an SQLite attempt store (only a file can be serialized)",
                               "a PostgreSQL store", InputKind.VALUE)
        return self.db

    def create(self, attempt_id: str, request: Request, state: AttemptState, now: datetime) -> None:
        i = request.identity
        with self.db.transaction() as c:
            c.execute("INSERT INTO attempts VALUES (?,?,?,?,?,?,?,?,?,?,NULL,NULL,?)",
                      (attempt_id, i.tenant, i.principal, i.credential, i.method, i.path, i.query,
                       request.body_text, request.body_digest, state.value, now.isoformat()))

    def get(self, attempt_id: str) -> Attempt | None:
        with self.db.transaction() as c:
            row = c.execute("SELECT tenant, principal, credential, method, path, query, body, body_digest, state, "
                            "approver, result FROM attempts WHERE id = ?", (attempt_id,)).fetchone()
        if row is None:
            return None
        ident = Identity(row[0], row[1], row[2], row[3], row[4], row[5])
        return Attempt(attempt_id, Request(ident, row[6]), row[7], AttemptState(row[8]), row[9], row[10])

    def advance(self, attempt_id: str, event: Event, *, approver: str | None = None,
                result: str | None = None, context: str = "", now: datetime | None = None,
                only: AttemptState | None = None) -> bool:
        """Apply ``event`` if the attempt is in a legal source state (and in ``only``, if given);
        True iff it moved. The check and the update are one transaction."""
        srcs = sorted(s.value for s in sources_of(event) if only is None or s is only)
        marks = ",".join("?" * len(srcs))
        with self.db.transaction() as c:
            row = c.execute(f"SELECT state FROM attempts WHERE id = ? AND state IN ({marks})",
                            (attempt_id, *srcs)).fetchone()
            if row is None:
                return False
            nxt = step(AttemptState(row[0]), event)
            assert isinstance(nxt, AttemptState)  # the WHERE clause admitted only legal sources
            cur = c.execute(
                "UPDATE attempts SET state = ?, approver = COALESCE(?, approver), result = COALESCE(?, result) "
                "WHERE id = ? AND state = ?", (nxt.value, approver, result, attempt_id, row[0]))
            if cur.rowcount != 1:
                return False
            if event in (Event.APPROVE, Event.REJECT):
                c.execute("INSERT INTO reviews VALUES (?,?,?,?,?)",
                          (attempt_id, approver or "", event.value, context, (now or datetime.min).isoformat()))
        return True

    def reviews(self, attempt_id: str) -> list[tuple[str, str, str]]:
        with self.db.transaction() as c:
            rows = c.execute("SELECT approver, decision, context FROM reviews WHERE attempt_id = ? ORDER BY rowid",
                             (attempt_id,)).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def recover(self) -> list[str]:
        """After a crash: an attempt left EXECUTING may or may not have had its effect -> UNCERTAIN."""
        with self.db.transaction() as c:
            ids = [r[0] for r in c.execute("SELECT id FROM attempts WHERE state = ?",
                                           (AttemptState.EXECUTING.value,)).fetchall()]
            c.execute("UPDATE attempts SET state = ?, result = COALESCE(result, 'crash') WHERE state = ?",
                      (AttemptState.UNCERTAIN.value, AttemptState.EXECUTING.value))
        return ids

    def snapshot(self) -> tuple[tuple[str, str, str | None, str | None], ...]:
        """Every attempt's (id, state, approver, result), sorted: the store's abstract state."""
        with self.db.transaction() as c:
            rows = c.execute("SELECT id, state, approver, result FROM attempts ORDER BY id").fetchall()
        return tuple((r[0], r[1], r[2], r[3]) for r in rows)

    def to_bytes(self) -> bytes:
        """The whole database as bytes (sqlite3 serialize): how the exploration saves a state."""
        db = self._sqlite()
        with db.transaction():
            pass
        return bytes(db.conn.serialize())

    @staticmethod
    def from_bytes(data: bytes) -> AttemptStore:
        store = AttemptStore(":memory:")
        store._sqlite().conn.deserialize(data)
        return store

    def close(self) -> None:
        self.db.close()
