"""The per-caller authentication-event chain (the Parmana paper, Section 4.5: "caller
authentication events form a per caller chain"; its limits: deleting a caller's whole history, or
reordering rows across callers, is not caught by the per-caller chain).

Each authentication attempt by an API key, accepted or refused, is a signed event::

    {"payload": {"kind": "auth-event", "caller", "seq", "prev", "at", "outcome", "tenant",
                 "principal", "capability", "credentialFingerprint"},
     "recordHash": sha256(canonical payload), "signature": {...}}

``seq`` numbers the caller's events from 0 and ``prev`` is the ``recordHash`` of the caller's
previous event (``null`` first), so each caller's events form one hash chain, signed by the service
key (classical or hybrid, ``model.admission.signatures.hybrid``). ``verify_caller_chain`` needs only the
events and the public key. Choices where the source is silent: the caller is the API key's id (a
refused, unparseable token has no caller and is not chained); the presented secret never enters an
event, only its fingerprint; the store appends inside one transaction that reads the caller's head,
so two gateways authenticating one caller cannot fork its chain (SQLite's write lock; on PostgreSQL
a transaction-scoped advisory lock on the caller).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from model.admission.signatures.hybrid import DOWNGRADES, PublicKeys, SignatureBad, sign_object, verify_object
from model.base.canonical import JSON, canonical_str, digest, is_exact_json, loads
from model.base.signing import KeyPair, format_instant
from model.base.store.kinds import kind
from model.base.store.postgres import PgDatabase, open_database

_KEYS = frozenset({"kind", "caller", "seq", "prev", "at", "outcome", "tenant", "principal", "capability",
                   "credentialFingerprint"})

KIND = kind("auth-event store", 6, 1, """
CREATE TABLE events (
  caller TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (caller, seq))
""")


class ChainDefect(enum.Enum):
    MALFORMED = "malformed"
    HASH_MISMATCH = "hash-mismatch"
    BAD_SIGNATURE = "bad-signature"
    DOWNGRADE = "downgrade"
    BROKEN_CHAIN = "broken-chain"
    MIXED_CALLERS = "mixed-callers"


@dataclass(frozen=True, slots=True)
class ChainValid:
    caller: str
    length: int
    head: str | None


@dataclass(frozen=True, slots=True)
class ChainInvalid:
    defect: ChainDefect
    detail: str


@dataclass(frozen=True, slots=True)
class AuthEvent:
    outcome: str  # "authenticated" or the refusal reason's value
    tenant: str
    principal: str
    capability: str
    fingerprint: str


def make_event(key: KeyPair, caller: str, seq: int, prev: str | None, e: AuthEvent, now: datetime
               ) -> dict[str, JSON]:
    payload: dict[str, JSON] = {"kind": "auth-event", "caller": caller, "seq": seq, "prev": prev,
                                "at": format_instant(now), "outcome": e.outcome, "tenant": e.tenant,
                                "principal": e.principal, "capability": e.capability,
                                "credentialFingerprint": e.fingerprint}
    return {"payload": payload, "recordHash": digest(payload), "signature": sign_object(key, payload)}


def verify_caller_chain(events: list[object], key: bytes | PublicKeys) -> ChainValid | ChainInvalid:
    """Offline: every event's hash and signature, one caller, seq 0, 1, ..., each ``prev`` the hash before."""
    caller: str | None = None
    head: str | None = None
    for i, ev in enumerate(events):
        if not isinstance(ev, dict) or set(ev) != {"payload", "recordHash", "signature"} or not is_exact_json(ev):
            return ChainInvalid(ChainDefect.MALFORMED, f"event {i}: expected payload, recordHash, signature")
        p = ev["payload"]
        if not isinstance(p, dict) or set(p) != _KEYS or p["kind"] != "auth-event" or not isinstance(p["caller"], str):
            return ChainInvalid(ChainDefect.MALFORMED, f"event {i}: expected an auth-event payload")
        if digest(p) != ev["recordHash"]:
            return ChainInvalid(ChainDefect.HASH_MISMATCH, f"event {i}: payload hashes to {digest(p)}")
        v = verify_object(key, p, ev["signature"])
        if isinstance(v, SignatureBad):
            d = ChainDefect.DOWNGRADE if v.defect in DOWNGRADES else ChainDefect.BAD_SIGNATURE
            return ChainInvalid(d, f"event {i}: {v.defect.value}")
        if caller is not None and p["caller"] != caller:
            return ChainInvalid(ChainDefect.MIXED_CALLERS, f"event {i}: caller {p['caller']}, chain of {caller}")
        caller = p["caller"]
        if p["seq"] != i or p["prev"] != head:
            return ChainInvalid(ChainDefect.BROKEN_CHAIN, f"event {i}: expected seq {i} after {head}")
        head = str(ev["recordHash"])
    return ChainValid(caller or "", len(events), head)


class AuthEventLog:
    """Durable per-caller chains: an SQLite file, ``:memory:`` or a ``postgresql://`` database."""

    def __init__(self, key: KeyPair, path: str = ":memory:", schema: str | None = None) -> None:
        self.key = key
        self.db = open_database(path, KIND, schema)

    def append(self, caller: str, event: AuthEvent, now: datetime) -> dict[str, JSON]:
        with self.db.transaction() as c:
            if isinstance(self.db, PgDatabase):  # SQLite's BEGIN IMMEDIATE already serializes writers
                c.execute("SELECT pg_advisory_xact_lock(hashtext(?))", ("auth-event:" + caller,))
            row = c.execute("SELECT seq, hash FROM events WHERE caller = ? ORDER BY seq DESC LIMIT 1",
                            (caller,)).fetchone()
            seq, prev = (0, None) if row is None else (int(row[0]) + 1, str(row[1]))
            rec = make_event(self.key, caller, seq, prev, event, now)
            c.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (caller, seq, rec["recordHash"], canonical_str(rec)))
        return rec

    def chain(self, caller: str) -> list[JSON]:
        with self.db.transaction() as c:
            rows = c.execute("SELECT record FROM events WHERE caller = ? ORDER BY seq", (caller,)).fetchall()
        return [loads(r[0], "<auth-event store>") for r in rows]

    def close(self) -> None:
        self.db.close()
