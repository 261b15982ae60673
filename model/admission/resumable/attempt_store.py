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

Sealed (schema version 2; ``model.admission.signatures.sealing``): each attempt's envelope
(identity and body), each transition (state, approver, the result's digest, the review row's digest,
a revoking revision) is also an entry of the store's signed-head ledger, in the same transaction.
Every read verifies the attempt against it (``get``, ``advance``, ``reviews``, ``recover``): the
body, sealed at rest under the attempt id, opens; the stored ``body_digest`` is the body's digest
recomputed; state, approver, result and review rows are those its transitions reached. Anything
else is ``Tampered``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from model.admission.resumable.attempt_ledger import adopted, derive, envelope, review
from model.admission.resumable.attempts import AttemptState, Event, sources_of, step
from model.admission.resumable.envelope import Identity, Request
from model.admission.signatures.sealing import LEDGER, Conn, Sealed, SealedStore, Tampered, process_key
from model.base.canonical import JSON, digest
from model.base.errors import InputKind, InvalidInput
from model.base.signing import KeyPair
from model.base.store.kinds import kind
from model.base.store.postgres import MIGRATIONS, PgDatabase, open_database
from model.base.store.sqlite import Database

_ATTEMPTS = """
CREATE TABLE attempts (
  id TEXT PRIMARY KEY, tenant TEXT NOT NULL, principal TEXT NOT NULL, credential TEXT NOT NULL,
  method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL, body TEXT NOT NULL,
  body_digest TEXT NOT NULL, state TEXT NOT NULL, approver TEXT, result TEXT, created_at TEXT NOT NULL)"""

KIND = kind("attempt store", 2, 2, _ATTEMPTS + """;
CREATE TABLE reviews (
  attempt_id TEXT NOT NULL, approver TEXT NOT NULL, decision TEXT NOT NULL, context TEXT NOT NULL,
  at TEXT NOT NULL);
""" + LEDGER, _ATTEMPTS + """;
CREATE TABLE reviews (
  attempt_id TEXT NOT NULL, approver TEXT NOT NULL, decision TEXT NOT NULL, context TEXT NOT NULL,
  at TEXT NOT NULL, rowid BIGSERIAL);
""" + LEDGER)
MIGRATIONS[(KIND.application_id, 1)] = LEDGER  # version 1 was not sealed: its rows are adopted, or refused


@dataclass(frozen=True, slots=True)
class Attempt:
    id: str
    request: Request
    body_digest: str
    state: AttemptState
    approver: str | None
    result: str | None


class AttemptStore(SealedStore):
    def __init__(self, path: str = ":memory:", schema: str | None = None, *, key: KeyPair | None = None,
                 adopt: bool = False) -> None:
        """``path``: an SQLite file, ``:memory:``, or a ``postgresql://`` database (``schema`` then
        names the store's namespace in it). ``key`` seals it (``model.admission.signatures.sealing``;
        without one, the process's key); ``adopt`` trusts the rows of an unsealed, older store."""
        self.db: Database | PgDatabase = open_database(path, KIND, schema)
        self.seal = Sealed(key or process_key(), self.db.path)
        with self.db.transaction() as c:
            rows = c.execute("SELECT id, tenant, principal, credential, method, path, query, body, state, approver, "
                             "result FROM attempts ORDER BY id").fetchall()
            reviews = c.execute("SELECT attempt_id, approver, decision, context, at FROM reviews ORDER BY rowid"
                                ).fetchall()
            self.seal.begin(c, (lambda: adopted(rows, reviews)) if adopt else None, bool(rows or reviews))
            if adopt:  # an unsealed version stored bodies in clear
                for r in rows:
                    c.execute("UPDATE attempts SET body = ? WHERE id = ?", (self.seal.seal_text(str(r[7]), str(r[0])),
                                                                          r[0]))

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
                       self.seal.seal_text(request.body_text, attempt_id), request.body_digest, state.value,
                       now.isoformat()))
            self.seal.append(c, [{"attempt": attempt_id, "envelope": envelope(attempt_id, i, request.body_text),
                                  "state": state.value}])

    def _verified(self, c: Conn, attempt_id: str) -> Attempt | None:
        """The attempt as the verified ledger has it, or ``Tampered`` naming the first difference: its
        envelope (identity and body), the body's digest recomputed, its state, approver, result and
        reviews must be the ones the store's transitions wrote."""
        # the head's row lock: the ledger and the rows are read as of one moment (PostgreSQL's READ
        # COMMITTED would otherwise let a replay commit between the two reads)
        c.execute("UPDATE heads SET n = n WHERE name = 'ledger'")
        sealed = derive(self.seal.entries(c)).get(attempt_id)
        row = c.execute("SELECT tenant, principal, credential, method, path, query, body, body_digest, state, "
                        "approver, result FROM attempts WHERE id = ?", (attempt_id,)).fetchone()
        if row is None and sealed is None:
            return None
        where = f"attempt {attempt_id}"
        if row is None or sealed is None:
            raise Tampered(self.seal.where, f"{where} {'deleted' if row is None else 'not written by the store'}")
        ident = Identity(row[0], row[1], row[2], row[3], row[4], row[5])
        body = self.seal.open_text(str(row[6]), attempt_id)  # sealed at rest: no request text in clear
        att = Attempt(attempt_id, Request(ident, body), row[7], AttemptState(row[8]), row[9], row[10])
        if envelope(attempt_id, ident, body) != sealed.envelope:
            raise Tampered(self.seal.where, f"{where}: identity or body differs from the one saved")
        if att.request.body_digest != att.body_digest:
            raise Tampered(self.seal.where, f"{where}: body_digest is not the digest of the saved body")
        if (att.state.value, att.approver) != (sealed.state, sealed.approver) or \
                (None if att.result is None else digest(att.result)) != sealed.result:
            raise Tampered(self.seal.where, f"{where}: state {att.state.value} where its transitions reached "
                                            f"{sealed.state} (a state, approver or result rolled back or edited)")
        reviews = [review(*r) for r in c.execute("SELECT approver, decision, context, at FROM reviews "
                                                  "WHERE attempt_id = ? ORDER BY rowid", (attempt_id,)).fetchall()]
        if reviews != sealed.reviews:
            raise Tampered(self.seal.where, f"{where}: {len(reviews)} review rows where the store recorded "
                                            f"{len(sealed.reviews)} (deleted, added or edited)")
        return att

    def get(self, attempt_id: str) -> Attempt | None:
        """The attempt, verified (``Tampered`` when its rows are not the ones the store wrote)."""
        with self.db.transaction() as c:
            return self._verified(c, attempt_id)

    def advance(self, attempt_id: str, event: Event, *, approver: str | None = None,
                result: str | None = None, context: str = "", now: datetime | None = None,
                only: AttemptState | None = None) -> bool:
        """Apply ``event`` if the attempt is in a legal source state (and in ``only``, if given);
        True iff it moved. The check, the update and its ledger entry are one transaction; the
        attempt is verified first."""
        srcs = sorted(s.value for s in sources_of(event) if only is None or s is only)
        marks = ",".join("?" * len(srcs))
        with self.db.transaction() as c:
            self._verified(c, attempt_id)  # takes the head's lock: appends serialize from here
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
            entry: dict[str, JSON] = {"attempt": attempt_id, "state": nxt.value, "approver": approver,
                                      "result": None if result is None else digest(result)}
            if event is Event.REVOKE:  # the revision that revoked it, in the chain
                entry["revision"] = context
            if event in (Event.APPROVE, Event.REJECT):
                at = (now or datetime.min).isoformat()
                c.execute("INSERT INTO reviews VALUES (?,?,?,?,?)",
                          (attempt_id, approver or "", event.value, context, at))
                entry["review"] = review(approver or "", event.value, context, at)
            self.seal.append(c, [entry])
        return True

    def approved(self, tenant: str) -> list[Attempt]:
        """The tenant's approved attempts not yet replayed, verified."""
        with self.db.transaction() as c:
            ids = [str(r[0]) for r in c.execute("SELECT id FROM attempts WHERE tenant = ? AND state = ? ORDER BY id",
                                                (tenant, AttemptState.APPROVED.value)).fetchall()]
            found = [self._verified(c, aid) for aid in ids]
        return [a for a in found if a is not None and a.result is None]

    def reviews(self, attempt_id: str) -> list[tuple[str, str, str]]:
        with self.db.transaction() as c:
            self._verified(c, attempt_id)
            rows = c.execute("SELECT approver, decision, context FROM reviews WHERE attempt_id = ? ORDER BY rowid",
                             (attempt_id,)).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def recover(self) -> list[str]:
        """After a crash: an attempt left EXECUTING may or may not have had its effect -> UNCERTAIN."""
        with self.db.transaction() as c:
            c.execute("UPDATE heads SET n = n WHERE name = 'ledger'")
            ids = [r[0] for r in c.execute("SELECT id FROM attempts WHERE state = ?",
                                           (AttemptState.EXECUTING.value,)).fetchall()]
            entries: list[JSON] = []
            for aid in ids:
                att = self._verified(c, aid)
                assert att is not None
                entries.append({"attempt": aid, "state": AttemptState.UNCERTAIN.value, "approver": None,
                                "result": digest("crash") if att.result is None else None})
            c.execute("UPDATE attempts SET state = ?, result = COALESCE(result, 'crash') WHERE state = ?",
                      (AttemptState.UNCERTAIN.value, AttemptState.EXECUTING.value))
            self.seal.append(c, entries)
        return ids

    def verify(self) -> int:
        """Check every attempt and review against the ledger: the number of attempts, or ``Tampered``."""
        with self.db.transaction() as c:
            c.execute("UPDATE heads SET n = n WHERE name = 'ledger'")
            sealed = derive(self.seal.entries(c, full=True))
            ids = {str(r[0]) for r in c.execute("SELECT id FROM attempts").fetchall()}
            ids |= {str(r[0]) for r in c.execute("SELECT attempt_id FROM reviews").fetchall()}
            for aid in sorted(ids | set(sealed)):
                if self._verified(c, aid) is None:
                    raise Tampered(self.seal.where, f"review rows of attempt {aid}, which the store never saved")
        return len(sealed)

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
    def from_bytes(data: bytes, key: KeyPair | None = None) -> AttemptStore:
        store = AttemptStore(":memory:", key=key)
        store._sqlite().conn.deserialize(data)
        return store

    def close(self) -> None:
        self.db.close()

