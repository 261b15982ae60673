"""``Runtime``: the trusted shell around the pure steps, durable in SQLite (execution-edit-checking.md,
Sections IV-C, VI-B and Appendix A-K, Lemma 17; DESIGN.md: stdlib sqlite3, WAL).

Each atomic step of Table III is one ``BEGIN IMMEDIATE`` transaction that reads the committed
state, applies the pure step (``model.edits.steps``), and — only if the state changed — writes the
new state and appends one journal row, then commits. A stop at any point therefore leaves exactly
the last committed state: reopening the file (``Runtime(path)``) is the restart. Several
``Runtime`` objects or processes on one file serialize on SQLite's write lock, which is the
linearization point of Section VI-B: a tool call and a rule update commit in one order or the other.

Choices where the paper is silent:
- The state is stored whole as canonical JSON (one row) next to an append-only journal of
  ``(seq, step, state digest)``; the runtime's Ed25519 key (for checkpoints and tokens) is kept in a
  separate table outside the record, so it never enters γ.
- A parsed copy of the last state read is cached per object and reused while the row's ``seq``
  is unchanged, so a step costs one small read when no other writer intervened.
- ``check`` decides with the symbolic engine and no budget (``model.edits.check.decide``): a rejected
  edit always gets its rejection proof, built from the symbolic fixed point (no size cap).
- ``check`` runs in a read transaction and never writes (Table III: verified Invalid/Reject change
  nothing); preparing an accepted answer in an inactive version is the separate atomic step
  ``preload`` (Table III "Preload"), journalled as ``preload`` when it records new content.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from model.admission.db import Database
from model.admission.signing import KeyPair
from model.canonical import JSON, loads
from model.edits import steps
from model.edits.answers import (
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
)
from model.edits.forms import Edit
from model.edits.record import State, state_digest, state_from_text, state_text
from model.edits.registration import Registration, bootstrap

_SCHEMA = """
CREATE TABLE IF NOT EXISTS secret (id INTEGER PRIMARY KEY CHECK (id = 1), seed BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS state (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, step TEXT NOT NULL, digest TEXT NOT NULL)
"""

A = TypeVar("A")


class NoRecord(Exception):
    """The store holds no execution record (``Runtime.create`` was never run on it)."""


def key_from_seed(seed: bytes) -> KeyPair:
    return KeyPair("@runtime", Ed25519PrivateKey.from_private_bytes(seed))


class Runtime:
    def __init__(self, path: str) -> None:
        self.db = Database(path, _SCHEMA)
        with self.db.transaction() as c:
            row = c.execute("SELECT seed FROM secret WHERE id = 1").fetchone()
        if row is None:
            self.db.close()
            raise NoRecord(path)
        self.key = key_from_seed(bytes(row[0]))
        self._cache: tuple[int, State] | None = None

    @staticmethod
    def create(path: str, reg: Registration, seed: bytes | None = None) -> tuple[Runtime, CheckAnswer]:
        """Register ℛ and run the checked root update, in one transaction on a fresh store."""
        seed = seed if seed is not None else os.urandom(32)
        key = key_from_seed(seed)
        answer, state = bootstrap(reg, key)
        db = Database(path, _SCHEMA)
        raw = key.private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        with db.transaction() as c:
            c.execute("INSERT INTO secret VALUES (1, ?)", (raw,))
            c.execute("INSERT INTO state VALUES (1, 0, ?)", (state_text(state),))
            c.execute("INSERT INTO journal VALUES (0, 'register', ?)", (state_digest(state),))
        db.close()
        return Runtime(path), answer

    def _read(self, c: object) -> tuple[int, State]:
        import sqlite3

        assert isinstance(c, sqlite3.Connection)
        seq_row = c.execute("SELECT seq FROM state WHERE id = 1").fetchone()
        if self._cache is not None and self._cache[0] == seq_row[0]:
            return self._cache
        body = c.execute("SELECT body FROM state WHERE id = 1").fetchone()[0]
        self._cache = (seq_row[0], state_from_text(body))
        return self._cache

    def _step(self, name: str, fn: Callable[[State], tuple[A, State]]) -> A:
        with self.db.transaction() as c:
            seq, s = self._read(c)
            answer, new = fn(s)
            if new is not s:
                c.execute("UPDATE state SET seq = ?, body = ? WHERE id = 1", (seq + 1, state_text(new)))
                c.execute("INSERT INTO journal VALUES (?, ?, ?)", (seq + 1, name, state_digest(new)))
                self._cache = (seq + 1, new)
        return answer

    def state(self) -> State:
        with self.db.transaction() as c:
            return self._read(c)[1]

    def journal(self) -> list[tuple[int, str, str]]:
        with self.db.transaction() as c:
            return [(r[0], r[1], r[2]) for r in c.execute("SELECT seq, step, digest FROM journal ORDER BY seq")]

    def token(self, call: str) -> str | None:
        """The published authorization token of a current call (what the Agent presents to ``use``)."""
        e = dict(self.state().entries).get(call)
        return None if e is None else e.token

    def request_of(self, call: str) -> JSON:
        """The certified canonical request of the call's action (``None`` for an unregistered call)."""
        s = self.state()
        e = dict(s.calls).get(call)
        return None if e is None else loads(dict(s.actions)[e.action].request, "<request>")

    def check(self, edit: Edit) -> CheckAnswer:
        return steps.check(self.state(), edit)

    def try_update(self, edit: Edit, answer: CheckAnswer) -> UpdateAnswer:
        return self._step("update", lambda s: steps.try_update(s, edit, answer, self.key))

    def preload(self, edit: Edit, answer: CheckAnswer) -> PreloadAnswer:
        return self._step("preload", lambda s: steps.preload(s, edit, answer))

    def use(self, call: str, token: str, request: JSON) -> UseAnswer:
        return self._step("use", lambda s: steps.use(s, call, token, request))

    def retry(self, call: str, token: str, request: JSON) -> Returned | Deny:
        return steps.retry(self.state(), call, token, request)

    def dispatch(self) -> Sent | QueueEmpty:
        return self._step("dispatch", steps.dispatch)

    def settle(self, action: str, value: JSON) -> Settled | SettleRefused:
        return self._step("settle", lambda s: steps.settle(s, action, value))

    def checkpoint(self, k: str, branch: str) -> Saved | CheckpointRefused:
        return self._step("checkpoint", lambda s: steps.checkpoint(s, k, branch, self.key))

    def close(self) -> None:
        self.db.close()
