"""``Runtime``: the trusted shell around the pure steps, durable in SQLite (*Exact Checking for Execution Edits*,
Sections IV-C, VI-B and Appendix A-K, Lemma 17; DESIGN.md: stdlib sqlite3, WAL).

Each atomic step of Table III is one ``BEGIN IMMEDIATE`` transaction that reads the committed
state, applies the pure step (``model.edits.runtime.steps``), and — only if the state changed — writes the
new state and appends one journal row, then commits. A stop at any point therefore leaves exactly
the last committed state: reopening the file (``Runtime(path)``) is the restart. Several
``Runtime`` objects or processes on one file serialize on SQLite's write lock, which is the
linearization point of Section VI-B: a tool call and a rule update commit in one order or the other.

Choices where the paper is silent:
- The state is stored whole as canonical JSON (one row) next to an append-only journal of
  ``(seq, step, input, state digest)`` (``model.edits.runtime.journal``) from which the state can be
  re-derived; ``verify`` checks that and every other table (``integrity``) after ``PRAGMA
  integrity_check``, and raises ``InvalidInput`` on any difference.
- The runtime's Ed25519 key (for checkpoints and tokens) is never in the store: it lives in a key
  file (0600; ``DB.key`` next to the store unless the caller names another, ``model.base.keyfile``) or is
  passed by the caller. The store keeps only the public key, so a wrong key is refused at open.
- The store is opened and stamped by ``model.base.store.sqlite`` (kind "edit runtime store"), or by
  ``model.base.store.postgres`` in a schema of a PostgreSQL database, where every step takes the schema's
  advisory lock (the counterpart of SQLite's write lock); ``create`` is exclusive on both.
- A session driver may ``mark`` the script step a runtime step belongs to: the step's answer is then
  written to ``steps`` in the same transaction as the state change, so after a crash a step either
  committed with its mark or not at all, and ``resume`` never runs a committed step again.
- A dispatched request's idempotency key is ``dispatch_key(record)``, a digest of the store's random
  id and the record ID, both committed before the request is handed to a tool: a re-delivery after a
  crash carries the same key; the tool's return is acknowledged in the store (``acknowledge``).
- The last state read is cached per object while its row's ``seq`` is unchanged.
- ``check`` decides with the symbolic engine and no budget (``model.edits.check.checker.decide``): a rejected
  edit always gets its rejection proof, built from the symbolic fixed point (no size cap).
- ``check`` runs in a read transaction and never writes (Table III: verified Invalid/Reject change
  nothing); preparing an accepted answer in an inactive version is the separate atomic step
  ``preload`` (Table III "Preload"), journalled as ``preload`` when it records new content.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from model.base.canonical import JSON, canonical_str, canonical_str_exact, loads
from model.base.errors import InputKind, InvalidInput
from model.base.keyfile import ensure_key, read_key
from model.base.signing import public_raw
from model.base.store.kinds import Mode, precheck
from model.base.store.postgres import PgConnection, PgDatabase, is_postgres
from model.base.store.sqlite import Database
from model.edits.runtime import integrity, journal, steps
from model.edits.runtime.answers import (
    CheckAnswer,
    CheckpointRefused,
    Deny,
    PreloadAnswer,
    QueueEmpty,
    Returned,
    Saved,
    Sent,
    Settled,
    SettleRefused,
    UpdateAnswer,
    UseAnswer,
    answer_json,
)
from model.edits.runtime.forms import Edit
from model.edits.runtime.record import State
from model.edits.runtime.record_json import state_digest, state_from_text, state_text
from model.edits.runtime.registration import Registration, bootstrap
from model.edits.runtime.store_schema import KIND, key_file_for, runtime_key

A = TypeVar("A")

_broken = integrity.broken


class Runtime:
    def __init__(self, path: str, key: Ed25519PrivateKey | None = None, key_file: str | None = None,
                 readonly: bool = False, schema: str | None = None) -> None:
        """Reopen the store at ``path`` (the restart): an SQLite file, or a ``postgresql://`` database
        and ``schema``. The key is ``key`` if given, else read from ``key_file`` (default ``path + ".key"``);
        ``readonly`` opens it with a read-only URI (a read-only transaction)."""
        self.path, self.schema = path, schema
        self.db: Database | PgDatabase = PgDatabase(path, KIND, schema, missing="refuse", serialize=True,
                                                    readonly=readonly) if is_postgres(path) \
            else Database(path, KIND, Mode.READ if readonly else Mode.OPEN)
        try:
            with self.db.transaction() as c:
                row = c.execute("SELECT store_id, public_key, script FROM meta WHERE id = 1").fetchone()
            if row is None:
                raise _broken(path, "no meta row")
            self.store_id, public, self.script = str(row[0]), str(row[1]), row[2]
            source = "the key passed by the caller" if key is not None else (key_file or key_file_for(path))
            k = key if key is not None else read_key(key_file or key_file_for(path))
            if public_raw(k.public_key()).hex() != public:
                raise InvalidInput(source, f"the key this store was created with (public key {public[:16]}…)",
                                   "another key", InputKind.VALUE)
        except BaseException:
            self.db.close()
            raise
        self.key = runtime_key(k)
        self._cache: tuple[int, State] | None = None
        self._mark: int | None = None

    @staticmethod
    def create(path: str, reg: Registration, seed: bytes | None = None, key_file: str | None = None,
               script: str | None = None, schema: str | None = None) -> tuple[Runtime, CheckAnswer]:
        """Register ℛ and run the checked root update into a new store, exclusively (an existing
        ``path`` is refused). The key comes from ``key_file`` (default ``path + ".key"``), created
        0600 from ``seed`` (random when ``None``) if absent. ``script`` is the digest of the session
        script driving the store, which ``resume`` checks; its answer to the root update is step 0."""
        if not is_postgres(path):
            precheck(path, KIND, Mode.CREATE)
        kf = key_file or key_file_for(path)
        key = runtime_key(ensure_key(kf, seed))
        answer, state = bootstrap(reg, key)

        def init(c: sqlite3.Connection) -> None:
            store_id = uuid.uuid4().hex
            c.execute("INSERT INTO meta VALUES (1, ?, ?, ?, ?)", (store_id, key.public.hex(), script,
                      key.sign(integrity.meta_payload(store_id, key.public.hex(), script))))
            c.execute("INSERT INTO state VALUES (1, 0, ?)", (state_text(state),))
            c.execute("INSERT INTO journal VALUES (0, 'register', ?, ?)", (state_text(state), state_digest(state)))
            for name in integrity.COUNTED:
                integrity.count(c, key, store_id, name)
            if script is not None:
                integrity.add_step(c, key, store_id, 0, 0, canonical_str(answer_json(answer)))

        if is_postgres(path):  # one transaction creates, stamps and fills it; an existing store is refused
            PgDatabase(path, KIND, schema, init=init).close()
        else:
            Database.create(path, KIND, init).close()
        return Runtime(path, key.private, schema=schema), answer

    def _read(self, c: sqlite3.Connection | PgConnection) -> tuple[int, State]:
        row = c.execute("SELECT seq FROM state WHERE id = 1").fetchone()
        if row is None:
            raise _broken(self.path, "no state row")
        if self._cache is not None and self._cache[0] == row[0]:
            return self._cache
        body = c.execute("SELECT body FROM state WHERE id = 1").fetchone()[0]
        try:
            self._cache = (row[0], state_from_text(body))
        except (InvalidInput, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise _broken(self.path, f"a state row that does not parse ({type(exc).__name__})") from None
        return self._cache

    def _step(self, name: str, inp: JSON, fn: Callable[[State], tuple[A, State]]) -> A:
        with self.db.transaction() as c:
            seq, s = self._read(c)
            answer, new = fn(s)
            if new is not s:
                if self._mark is not None:
                    if c.execute("SELECT 1 FROM steps WHERE idx = ?", (self._mark,)).fetchone() is not None:
                        raise InvalidInput(self.path, f"script step {self._mark} not yet run",
                                           "a store where it already ran (is another process driving it?)",
                                           InputKind.VALUE)
                    integrity.add_step(c, self.key, self.store_id, self._mark, seq + 1,
                                       canonical_str(answer_json(answer)))  # type: ignore[arg-type]
                c.execute("UPDATE state SET seq = ?, body = ? WHERE id = 1", (seq + 1, state_text(new)))
                c.execute("INSERT INTO journal VALUES (?, ?, ?, ?)",
                          (seq + 1, name, canonical_str(inp), state_digest(new)))
                self._cache = (seq + 1, new)
        return answer

    def _journalled(self, name: str, inp: JSON, answer: CheckAnswer | None = None) -> Any:
        text = canonical_str_exact(inp, "<input>")  # a number it would round is refused, not passed on
        return self._step(name, inp, lambda s: journal.apply(s, name, loads(text, "<input>"), self.key, answer))

    # --- script marks (session driver) ---

    def mark(self, idx: int | None) -> None:
        """Attribute the next committed step to script step ``idx`` (``None``: no script step)."""
        self._mark = idx

    def done(self, idx: int, answer: JSON) -> None:
        """Record script step ``idx``'s answer if its step changed nothing (else it is recorded already),
        at the state it saw: the committed state's sequence number, read in the recording transaction."""
        with self.db.transaction() as c:
            row = c.execute("SELECT seq FROM state WHERE id = 1").fetchone()
            if row is None:
                raise _broken(self.path, "no state row")
            integrity.add_step(c, self.key, self.store_id, idx, row[0], canonical_str(answer), replace=False)

    def acknowledge(self, record: str) -> None:
        """Record that the tool returned from delivering ``record``'s request (once per record)."""
        with self.db.transaction() as c:
            integrity.add_ack(c, self.key, self.store_id, record)

    def acks(self) -> list[str]:
        """The acknowledged records, in delivery order."""
        with self.db.transaction() as c:
            return [r[0] for r in c.execute("SELECT record FROM acks ORDER BY n")]

    def steps_done(self) -> list[tuple[int, int, JSON]]:
        """The recorded script steps ``(idx, seq, answer)`` in order."""
        with self.db.transaction() as c:
            rows = c.execute("SELECT idx, seq, answer FROM steps ORDER BY idx").fetchall()
        return [(r[0], r[1], loads(r[2], f"{self.path}: steps row {r[0]}")) for r in rows]

    def dispatch_key(self, record: str) -> str:
        """The idempotency key a tool receives with the request of authorization record ``record``."""
        return integrity.dispatch_key(self.store_id, record)

    # --- reading and verifying ---

    def state(self) -> State:
        with self.db.transaction() as c:
            return self._read(c)[1]

    def journal(self) -> list[tuple[int, str, str]]:
        with self.db.transaction() as c:
            return [(r[0], r[1], r[2]) for r in c.execute("SELECT seq, step, digest FROM journal ORDER BY seq")]

    def _rows(self) -> list[tuple[int, str, str, str]]:
        with self.db.transaction() as c:
            return [(r[0], r[1], r[2], r[3]) for r in
                    c.execute("SELECT seq, step, input, digest FROM journal ORDER BY seq")]

    def state_at(self, seq: int) -> State:
        """The committed state after journal row ``seq``, re-derived from the journal."""
        with self.db.transaction() as c:
            current, s = self._read(c)
        if seq == current:
            return s
        try:
            return journal.replay(self._rows(), self.key, upto=seq)[1]
        except journal.Tampered as exc:
            raise _broken(self.path, str(exc)) from None

    def verify(self) -> State:
        """``PRAGMA integrity_check``, then every table read in one transaction (no step falls between
        journal and state) and checked (``integrity.check``); ``InvalidInput`` names a difference."""
        problems = self.db.integrity()
        if problems:
            raise _broken(self.path, f"a file SQLite finds damaged ({' '.join(' '.join(problems[:2]).split())[:160]})")
        with self.db.transaction() as c:
            snap = integrity.read(c, self.path)
        if (snap.store_id, snap.public, snap.script) != (self.store_id, self.key.public.hex(), self.script):
            raise _broken(self.path, "a meta row that changed while the store was open")
        return integrity.check(self.path, self.key, snap)

    def token(self, call: str) -> str | None:
        """The published authorization token of a current call (what the Agent presents to ``use``)."""
        e = dict(self.state().entries).get(call)
        return None if e is None else e.token

    def request_of(self, call: str) -> JSON:
        """The certified canonical request of the call's action (``None`` for an unregistered call)."""
        s = self.state()
        e = dict(s.calls).get(call)
        return None if e is None else loads(dict(s.actions)[e.action].request, "<request>")

    # --- the atomic steps of Table III ---

    def check(self, edit: Edit) -> CheckAnswer:
        return steps.check(self.state(), edit)

    def try_update(self, edit: Edit, answer: CheckAnswer) -> UpdateAnswer:
        got: UpdateAnswer = self._journalled("update", journal.update_input(edit), answer)
        return got

    def preload(self, edit: Edit, answer: CheckAnswer) -> PreloadAnswer:
        got: PreloadAnswer = self._journalled("preload", journal.update_input(edit), answer)
        return got

    def use(self, call: str, token: str, request: JSON) -> UseAnswer:
        got: UseAnswer = self._journalled("use", {"call": call, "token": token, "request": request})
        return got

    def retry(self, call: str, token: str, request: JSON) -> Returned | Deny:
        return steps.retry(self.state(), call, token, request)

    def dispatch(self) -> Sent | QueueEmpty:
        got: Sent | QueueEmpty = self._journalled("dispatch", {})
        return got

    def settle(self, action: str, value: JSON) -> Settled | SettleRefused:
        got: Settled | SettleRefused = self._journalled("settle", {"action": action, "value": value})
        return got

    def checkpoint(self, k: str, branch: str) -> Saved | CheckpointRefused:
        got: Saved | CheckpointRefused = self._journalled("checkpoint", {"checkpoint": k, "branch": branch})
        return got

    def close(self) -> None:
        self.db.close()

