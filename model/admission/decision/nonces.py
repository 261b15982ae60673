"""Single-use nonces, spent atomically (the Parmana paper, Sections 4.3–4.4: "single use
(nonce spent atomically)", "spent atomically in a shared Postgres store so each authorization is
used once across instances").

One class on both backends (``model.base.store.postgres``): an SQLite file, the embedded default, or a schema
of a shared PostgreSQL database for a fleet of gateways. ``spend`` is one
``INSERT ... ON CONFLICT DO NOTHING`` into a table whose primary key is ``(namespace, nonce)``, in
one transaction, and succeeds iff it inserted the row: two threads, processes or gateways spending
the same nonce get exactly one ``True``. ``spend_all`` spends several nonces all-or-nothing in one
transaction (a release spends its authorization's nonce and every approval's together, so a crash
or a dropped connection between them cannot leave some spent and others not). Choices: namespaces
separate approval nonces from authorization nonces so an approval's nonce cannot be confused with
an authorization's; spent nonces are never deleted (the TTL bound would allow pruning expired ones;
we do not, to keep the check trivially sound).

Reservations (schema version 2; where the paper is silent on a gateway dying between spending and
releasing): ``spend_all`` may write, in the same transaction as the nonces, a *reservation*: a
random token naming this release, the request it releases (authorization and transaction, as
JSON), its holder and a lease deadline. The token is the release's idempotency key. A gateway whose
commit outcome is unknown (the connection dropped during COMMIT) asks ``reserved(token)`` whether its
own spend landed; ``finish`` marks the release done; ``take_over`` lets any gateway claim, by one
conditional update, a reservation whose lease expired before it was finished, so exactly one
gateway completes it. Lease deadlines are Unix seconds on the gateways' clocks (on both backends,
so the rule is the same; clock skew between gateways must be below the lease). A lease that
expires while its holder is still working lets a second gateway run the same release: the tool
sees the same idempotency key both times, so the effect happens once only if the tool honours it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from model.base.store.kinds import kind
from model.base.store.postgres import MIGRATIONS, open_database

_RESERVATIONS = """
CREATE TABLE reservations (
  token TEXT PRIMARY KEY, request TEXT NOT NULL, holder TEXT NOT NULL, lease_until DOUBLE PRECISION NOT NULL,
  finished_at TEXT)
"""
KIND = kind("nonce store", 3, 2, """
CREATE TABLE spent (
  namespace TEXT NOT NULL, nonce TEXT NOT NULL, spent_at TEXT NOT NULL, PRIMARY KEY (namespace, nonce));
""" + _RESERVATIONS)
MIGRATIONS[(KIND.application_id, 1)] = _RESERVATIONS  # version 1 had no reservations


@dataclass(frozen=True, slots=True)
class Reservation:
    """A release whose nonces are spent: its token (idempotency key), request and holder."""

    token: str
    request: str
    holder: str


class NonceStore(Protocol):
    def is_spent(self, namespace: str, nonce: str) -> bool: ...

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool: ...

    def spend_all(self, items: Sequence[tuple[str, str]], now: datetime,
                  reservation: tuple[Reservation, float] | None = None) -> tuple[str, str] | None: ...


class LeaseStore(NonceStore, Protocol):
    def reserved(self, token: str) -> bool: ...

    def finish(self, token: str, now: datetime) -> None: ...

    def take_over(self, holder: str, clock: float, lease_until: float) -> list[Reservation]: ...


@dataclass(frozen=True, slots=True)
class Leasing:
    """How a release gate reserves: on ``store``, as ``holder``, with leases of ``seconds``."""

    store: LeaseStore
    holder: str
    seconds: float


class SqliteNonceStore:
    """The nonce store at ``path``: an SQLite file, ``:memory:``, or a ``postgresql://`` database
    (then ``schema`` names its namespace there); one class on both backends."""

    def __init__(self, path: str = ":memory:", schema: str | None = None) -> None:
        self.db = open_database(path, KIND, schema)

    def is_spent(self, namespace: str, nonce: str) -> bool:
        with self.db.transaction() as c:
            row = c.execute("SELECT 1 FROM spent WHERE namespace = ? AND nonce = ?", (namespace, nonce)).fetchone()
        return row is not None

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool:
        """True for exactly one caller per (namespace, nonce), across threads, processes and gateways."""
        return self.spend_all(((namespace, nonce),), now) is None

    def spend_all(self, items: Sequence[tuple[str, str]], now: datetime,
                  reservation: tuple[Reservation, float] | None = None) -> tuple[str, str] | None:
        """Spend every ``(namespace, nonce)`` or none: ``None`` when all were spent by this call,
        else the first one already spent (and nothing is spent). With ``reservation`` (and its
        lease deadline), the reservation is written in the same transaction."""
        try:
            with self.db.transaction() as c:
                for ns, n in items:
                    cur = c.execute("INSERT INTO spent VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                    (ns, n, now.isoformat()))
                    if cur.rowcount != 1:
                        raise _AlreadySpent(ns, n)  # rolls the transaction back: nothing of this call stays
                if reservation is not None:
                    r, until = reservation
                    c.execute("INSERT INTO reservations VALUES (?, ?, ?, ?, NULL)",
                              (r.token, r.request, r.holder, until))
        except _AlreadySpent as exc:
            return exc.item
        return None

    def reserved(self, token: str) -> bool:
        """Whether a reservation with this token committed (a gateway's own spend, outcome unknown)."""
        with self.db.transaction() as c:
            return c.execute("SELECT 1 FROM reservations WHERE token = ?", (token,)).fetchone() is not None

    def finish(self, token: str, now: datetime) -> None:
        with self.db.transaction() as c:
            c.execute("UPDATE reservations SET finished_at = ? WHERE token = ? AND finished_at IS NULL",
                      (now.isoformat(), token))

    def unfinished(self) -> int:
        with self.db.transaction() as c:
            row = c.execute("SELECT COUNT(*) FROM reservations WHERE finished_at IS NULL").fetchone()
        return int(row[0])

    def take_over(self, holder: str, clock: float, lease_until: float) -> list[Reservation]:
        """Claim every unfinished reservation whose lease ended before ``clock``; each is claimed by
        exactly one caller (an update conditioned on the lease it saw)."""
        with self.db.transaction() as c:
            seen = c.execute("SELECT token, request, lease_until FROM reservations "
                             "WHERE finished_at IS NULL AND lease_until < ?", (clock,)).fetchall()
        taken = []
        for token, request, was in seen:
            with self.db.transaction() as c:
                cur = c.execute("UPDATE reservations SET holder = ?, lease_until = ? "
                                "WHERE token = ? AND finished_at IS NULL AND lease_until = ?",
                                (holder, lease_until, token, was))
                if cur.rowcount == 1:
                    taken.append(Reservation(str(token), str(request), holder))
        return taken

    def close(self) -> None:
        self.db.close()


class _AlreadySpent(Exception):
    def __init__(self, namespace: str, nonce: str) -> None:
        super().__init__(namespace, nonce)
        self.item = (namespace, nonce)


