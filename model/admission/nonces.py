"""Single-use nonces, spent atomically (the Parmana paper, Sections 4.3–4.4: "single use
(nonce spent atomically)", "spent atomically in a shared Postgres store so each authorization is
used once across instances").

The embedded default is SQLite: ``spend`` is one ``INSERT OR IGNORE`` into a table whose primary
key is ``(namespace, nonce)``, inside one ``BEGIN IMMEDIATE`` transaction, and succeeds iff it
inserted the row. Two threads or processes spending the same nonce on the same file therefore get
exactly one ``True``. Choices: namespaces separate approval nonces from authorization nonces so an
approval's nonce cannot be confused with an authorization's; spent nonces are never deleted (the
TTL bound would allow pruning expired ones; we do not, to keep the check trivially sound).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from model.store import Database
from model.store_kinds import kind

KIND = kind("nonce store", 3, 1, """
CREATE TABLE spent (
  namespace TEXT NOT NULL, nonce TEXT NOT NULL, spent_at TEXT NOT NULL, PRIMARY KEY (namespace, nonce))
""")


class NonceStore(Protocol):
    def is_spent(self, namespace: str, nonce: str) -> bool: ...

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool: ...


class SqliteNonceStore:
    def __init__(self, path: str = ":memory:") -> None:
        self.db = Database(path, KIND)

    def is_spent(self, namespace: str, nonce: str) -> bool:
        with self.db.transaction() as c:
            row = c.execute("SELECT 1 FROM spent WHERE namespace = ? AND nonce = ?", (namespace, nonce)).fetchone()
        return row is not None

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool:
        """True for exactly one caller per (namespace, nonce), across threads and processes."""
        with self.db.transaction() as c:
            cur = c.execute("INSERT OR IGNORE INTO spent VALUES (?, ?, ?)", (namespace, nonce, now.isoformat()))
            return cur.rowcount == 1

    def close(self) -> None:
        self.db.close()
