"""Single-use nonces, spent atomically (the Parmana paper, Sections 4.3–4.4: "single use
(nonce spent atomically)", "spent atomically in a shared Postgres store so each authorization is
used once across instances").

One class on both backends (``model.pgstore``): an SQLite file, the embedded default, or a schema
of a shared PostgreSQL database for a fleet of gateways. ``spend`` is one
``INSERT ... ON CONFLICT DO NOTHING`` into a table whose primary key is ``(namespace, nonce)``, in
one transaction, and succeeds iff it inserted the row: two threads, processes or gateways spending
the same nonce get exactly one ``True``. ``spend_all`` spends several nonces all-or-nothing in one
transaction (a release spends its authorization's nonce and every approval's together, so a crash
or a dropped connection between them cannot leave some spent and others not). Choices: namespaces
separate approval nonces from authorization nonces so an approval's nonce cannot be confused with
an authorization's; spent nonces are never deleted (the TTL bound would allow pruning expired ones;
we do not, to keep the check trivially sound).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from model.pgstore import open_database
from model.store_kinds import kind

KIND = kind("nonce store", 3, 1, """
CREATE TABLE spent (
  namespace TEXT NOT NULL, nonce TEXT NOT NULL, spent_at TEXT NOT NULL, PRIMARY KEY (namespace, nonce))
""")


class NonceStore(Protocol):
    def is_spent(self, namespace: str, nonce: str) -> bool: ...

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool: ...

    def spend_all(self, items: Sequence[tuple[str, str]], now: datetime) -> tuple[str, str] | None: ...


class SqliteNonceStore:
    """The nonce store at ``path``: an SQLite file, ``:memory:``, or a ``postgresql://`` database
    (then ``schema`` names its namespace there). The class keeps the name it had before the
    shared backend existed; ``open_nonce_store`` is the backend-neutral name."""

    def __init__(self, path: str = ":memory:", schema: str | None = None) -> None:
        self.db = open_database(path, KIND, schema)

    def is_spent(self, namespace: str, nonce: str) -> bool:
        with self.db.transaction() as c:
            row = c.execute("SELECT 1 FROM spent WHERE namespace = ? AND nonce = ?", (namespace, nonce)).fetchone()
        return row is not None

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool:
        """True for exactly one caller per (namespace, nonce), across threads, processes and gateways."""
        return self.spend_all(((namespace, nonce),), now) is None

    def spend_all(self, items: Sequence[tuple[str, str]], now: datetime) -> tuple[str, str] | None:
        """Spend every ``(namespace, nonce)`` or none: ``None`` when all were spent by this call,
        else the first one already spent (and nothing is spent)."""
        try:
            with self.db.transaction() as c:
                for ns, n in items:
                    cur = c.execute("INSERT INTO spent VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                    (ns, n, now.isoformat()))
                    if cur.rowcount != 1:
                        raise _AlreadySpent(ns, n)  # rolls the transaction back: nothing of this call stays
        except _AlreadySpent as exc:
            return exc.item
        return None

    def close(self) -> None:
        self.db.close()


class _AlreadySpent(Exception):
    def __init__(self, namespace: str, nonce: str) -> None:
        super().__init__(namespace, nonce)
        self.item = (namespace, nonce)


def open_nonce_store(target: str = ":memory:", schema: str | None = None) -> SqliteNonceStore:
    return SqliteNonceStore(target, schema)
