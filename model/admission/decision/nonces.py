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

Sealed (schema version 3; ``model.admission.signatures.sealing``): every spend, reservation and
finish is also an entry of the store's signed-head ledger, written in the same transaction. What a
use decides comes from the verified ledger: a nonce is spent if the ledger records it (a ``spent``
row deleted or edited by hand does not make it spendable again; one added by hand can only refuse);
``reserved`` asks the ledger; ``verified_request`` gives a reservation's request only if the ledger
records the reservation and not its finish and the request, sealed at rest under the token, opens to
the digest recorded. The holder and lease columns are not sealed: they decide who tries next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from model.admission.signatures.sealing import LEDGER, Conn, Sealed, SealedStore, Tampered, process_key
from model.base.canonical import JSON, digest
from model.base.signing import KeyPair
from model.base.store.kinds import kind
from model.base.store.postgres import MIGRATIONS, open_database

_RESERVATIONS = """
CREATE TABLE reservations (
  token TEXT PRIMARY KEY, request TEXT NOT NULL, holder TEXT NOT NULL, lease_until DOUBLE PRECISION NOT NULL,
  finished_at TEXT)
"""
KIND = kind("nonce store", 3, 3, """
CREATE TABLE spent (
  namespace TEXT NOT NULL, nonce TEXT NOT NULL, spent_at TEXT NOT NULL, PRIMARY KEY (namespace, nonce));
""" + _RESERVATIONS + ";" + LEDGER)
MIGRATIONS[(KIND.application_id, 1)] = _RESERVATIONS  # version 1 had no reservations
MIGRATIONS[(KIND.application_id, 2)] = LEDGER  # version 2 was not sealed: its rows are adopted, or refused


@dataclass(frozen=True, slots=True)
class Reservation:
    """A release whose nonces are spent: its token (idempotency key), request and holder. The request
    is plain when written, sealed as ``take_over`` returns it (``verified_request`` opens it)."""

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

    def verified_request(self, token: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Leasing:
    """How a release gate reserves: on ``store``, as ``holder``, with leases of ``seconds``."""

    store: LeaseStore
    holder: str
    seconds: float


class SqliteNonceStore(SealedStore):
    """The nonce store at ``path``: an SQLite file, ``:memory:``, or a ``postgresql://`` database
    (then ``schema`` names its namespace there); one class on both backends. ``key`` seals it
    (``model.admission.signatures.sealing``; every gateway sharing the store holds the same key;
    without one, the process's key); ``adopt`` trusts the rows of an unsealed, older store."""

    def __init__(self, path: str = ":memory:", schema: str | None = None, *, key: KeyPair | None = None,
                 adopt: bool = False) -> None:
        self.db = open_database(path, KIND, schema)
        self.seal = Sealed(key or process_key(), self.db.path)
        with self.db.transaction() as c:
            spent = c.execute("SELECT namespace, nonce FROM spent ORDER BY namespace, nonce").fetchall()
            unsealed = c.execute("SELECT token, request FROM reservations").fetchall()
            self.seal.begin(c, (lambda: _adopted(spent, unsealed)) if adopt else None, bool(spent or unsealed))

    def _spent(self, c: Conn) -> set[tuple[str, str]]:
        """The spent nonces the verified ledger records (a row missing from ``spent`` stays spent)."""
        out: set[tuple[str, str]] = set()
        for e in self.seal.entries(c):
            if isinstance(e, dict) and isinstance(e.get("spend"), list):
                ns, n = e["spend"]
                out.add((str(ns), str(n)))
        return out

    def is_spent(self, namespace: str, nonce: str) -> bool:
        with self.db.transaction() as c:
            if (namespace, nonce) in self._spent(c):
                return True
            row = c.execute("SELECT 1 FROM spent WHERE namespace = ? AND nonce = ?", (namespace, nonce)).fetchone()
        return row is not None  # a row the ledger lacks was added by hand: it can only refuse

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool:
        """True for exactly one caller per (namespace, nonce), across threads, processes and gateways."""
        return self.spend_all(((namespace, nonce),), now) is None

    def spend_all(self, items: Sequence[tuple[str, str]], now: datetime,
                  reservation: tuple[Reservation, float] | None = None) -> tuple[str, str] | None:
        """Spend every ``(namespace, nonce)`` or none: ``None`` when all were spent by this call,
        else the first one already spent (and nothing is spent). With ``reservation`` (and its
        lease deadline), the reservation is written in the same transaction, its request sealed."""
        try:
            with self.db.transaction() as c:
                c.execute("UPDATE heads SET n = n WHERE name = 'ledger'")  # appends serialize from here
                ledger = self._spent(c)
                entries: list[JSON] = []
                for ns, n in items:
                    cur = c.execute("INSERT INTO spent VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                    (ns, n, now.isoformat()))
                    if cur.rowcount != 1 or (ns, n) in ledger:
                        raise _AlreadySpent(ns, n)  # rolls the transaction back: nothing of this call stays
                    entries.append({"spend": [ns, n]})
                if reservation is not None:
                    r, until = reservation
                    c.execute("INSERT INTO reservations VALUES (?, ?, ?, ?, NULL)",
                              (r.token, self.seal.seal_text(r.request, r.token), r.holder, until))
                    entries.append({"reserve": r.token, "request": digest(r.request)})
                self.seal.append(c, entries)
        except _AlreadySpent as exc:
            return exc.item
        return None

    def reserved(self, token: str) -> bool:
        """Whether a reservation with this token committed (a gateway's own spend, outcome unknown)."""
        with self.db.transaction() as c:
            return any(isinstance(e, dict) and e.get("reserve") == token for e in self.seal.entries(c))

    def finish(self, token: str, now: datetime) -> None:
        with self.db.transaction() as c:
            cur = c.execute("UPDATE reservations SET finished_at = ? WHERE token = ? AND finished_at IS NULL",
                            (now.isoformat(), token))
            if cur.rowcount == 1:
                self.seal.append(c, [{"finish": token}])

    def unfinished(self) -> int:
        with self.db.transaction() as c:
            row = c.execute("SELECT COUNT(*) FROM reservations WHERE finished_at IS NULL").fetchone()
        return int(row[0])

    def take_over(self, holder: str, clock: float, lease_until: float) -> list[Reservation]:
        """Claim every unfinished reservation whose lease ended before ``clock``; each is claimed by
        exactly one caller (an update conditioned on the lease it saw). The holder and lease columns
        only say who tries next; what is released is checked by ``verified_request``."""
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

    def verified_request(self, token: str) -> str:
        """The request of reservation ``token`` as its gate wrote it, if the ledger records the
        reservation and not its finish; else ``Tampered`` (a row copied under a new token, a request
        edited, a finished reservation set unfinished again)."""
        with self.db.transaction() as c:
            entries = self.seal.entries(c)
            row = c.execute("SELECT request FROM reservations WHERE token = ?", (token,)).fetchone()
        wrote = [e.get("request") for e in entries if isinstance(e, dict) and e.get("reserve") == token]
        if len(wrote) != 1 or row is None:
            raise Tampered(self.seal.where, f"reservation {token} is not one a gate wrote (copied or forged)")
        if any(isinstance(e, dict) and e.get("finish") == token for e in entries):
            raise Tampered(self.seal.where, f"reservation {token} was finished (its finish was rolled back)")
        text = self.seal.open_text(str(row[0]), token)
        if digest(text) != wrote[0]:
            raise Tampered(self.seal.where, f"reservation {token} holds another request than the one reserved")
        return text

    def verify(self) -> int:
        """Check the whole store against its ledger: the spent rows are exactly the recorded spends,
        the reservations exactly the recorded ones, finished exactly when recorded finished. The
        number of ledger entries, or ``Tampered`` naming the first difference."""
        with self.db.transaction() as c:
            c.execute("UPDATE heads SET n = n WHERE name = 'ledger'")  # one moment for the ledger and the rows
            entries = self.seal.entries(c, full=True)
            spent = {(str(r[0]), str(r[1])) for r in c.execute("SELECT namespace, nonce FROM spent").fetchall()}
            stored = c.execute("SELECT token, finished_at, request FROM reservations").fetchall()
        rows = {str(r[0]): r[1] is not None for r in stored}
        spends = {(str(e["spend"][0]), str(e["spend"][1])) for e in entries
                  if isinstance(e, dict) and isinstance(e.get("spend"), list)}
        reserved = {str(e["reserve"]) for e in entries if isinstance(e, dict) and "reserve" in e}
        finished = {str(e["finish"]) for e in entries if isinstance(e, dict) and "finish" in e}
        where = self.seal.where
        for what, got, want in (("spent nonce", spent, spends), ("reservation", set(rows), reserved)):
            if got != want:
                odd = sorted(map(str, (got - want) or (want - got)))[0]
                raise Tampered(where, f"{what} {odd} {'not written by the store' if got - want else 'deleted'}")
        wrote = {str(e["reserve"]): e.get("request") for e in entries if isinstance(e, dict) and "reserve" in e}
        for token, done_at, sealed in stored:  # the unfinished ones, which recovery would release
            if done_at is None and digest(self.seal.open_text(str(sealed), str(token))) != wrote[str(token)]:
                raise Tampered(where, f"reservation {token} holds another request than the one reserved")
        for token, done in sorted(rows.items()):
            if done != (token in finished):
                raise Tampered(where, f"reservation {token} {'finished' if done else 'unfinished'} where the store "
                                      f"recorded it {'unfinished' if done else 'finished'}")
        return len(entries)

    def close(self) -> None:
        self.db.close()


def _adopted(spent: Sequence[Sequence[object]], reservations: Sequence[Sequence[object]]) -> list[JSON]:
    """Ledger entries for the rows of an unsealed store: its spends (its reservations' requests were
    stored in clear by that version, so they are recorded as finished and never re-released)."""
    out: list[JSON] = [{"spend": [str(ns), str(n)]} for ns, n in spent]
    for token, request in reservations:
        out += [{"reserve": str(token), "request": digest(str(request))}, {"finish": str(token)}]
    return out


class _AlreadySpent(Exception):
    def __init__(self, namespace: str, nonce: str) -> None:
        super().__init__(namespace, nonce)
        self.item = (namespace, nonce)

