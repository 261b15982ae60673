"""Signed records and their offline verification (the Parmana paper, Section 4.5).

A record is ``{"payload": {...}, "recordHash": sha256(canonical payload), "signature": {...}}``
with a classical or hybrid signature object (``model.admission.signatures.hybrid``: Ed25519, or Ed25519 and
ML-DSA-65, the commitment form above 4,096 bytes); the signature covers the RFC 8785 bytes of the whole
payload, so any change to any field fails verification while a different key order (which is
the same JSON) does not. Kinds: ``intent`` (stored *before* release), ``execution`` (after
release), ``refusal`` (one per refusal) and ``governance`` (maker-checker changes). Executions and
governance changes are each hash-chained: a payload's ``prev`` is the ``recordHash`` of the
previous record of its chain (``null`` for the first). ``verify_record`` needs only the record and
the public key; ``verify_chain`` also checks the links of a list of records.
Choices where the source is silent: ``seq`` numbers each chain from 0; intent and refusal records
carry ``prev: null`` and ``seq: null``; the store appends a chained record in one transaction that
reads the chain head, so concurrent writers cannot fork the chain.
"""

from __future__ import annotations

import enum
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from model.admission.signatures.hybrid import (
    CLASSICAL,
    DOWNGRADES,
    HYBRID,
    PublicKeys,
    SignatureBad,
    sign_object,
    verify_object,
)
from model.base.canonical import JSON, canonical_str, check_exact_json, digest, loads
from model.base.errors import InputKind, InvalidInput, Location
from model.base.signing import KeyPair, format_instant, public_raw
from model.base.store.kinds import kind
from model.base.store.sqlite import Database

CHAINED = ("execution", "governance")
KINDS = ("intent", "execution", "refusal", "governance")


class RecordDefect(enum.Enum):
    MALFORMED = "malformed"
    HASH_MISMATCH = "hash-mismatch"
    BAD_SIGNATURE = "bad-signature"
    DOWNGRADE = "downgrade"  # a classical signature for a hybrid key, a commitment on a short message, ...
    BROKEN_CHAIN = "broken-chain"


@dataclass(frozen=True, slots=True)
class RecordValid:
    kind: str
    record_hash: str


@dataclass(frozen=True, slots=True)
class RecordInvalid:
    defect: RecordDefect
    detail: str


def make_record(key: KeyPair, kind: str, body: JSON, now: datetime, prev: str | None = None,
                seq: int | None = None) -> dict[str, JSON]:
    payload = {"kind": kind, "recordId": str(uuid.uuid4()), "createdAt": format_instant(now),
               "prev": prev, "seq": seq, "body": body}
    return {"payload": payload, "recordHash": digest(payload), "signature": sign_object(key, payload)}


def records_document(doc: JSON, where: str) -> list[object]:
    """The records a verifier checks: a record, or a non-empty list of records. The one rule of the
    library and the CLI: an empty list holds nothing to vouch for, so it is refused as bad input rather
    than returned as an empty, valid-looking answer."""
    if isinstance(doc, list):
        if not doc:
            raise InvalidInput(where, "a record or a non-empty list of records", "an empty list", InputKind.VALUE)
        bad = next((i for i, r in enumerate(doc) if not isinstance(r, dict)), None)
        if bad is not None:
            raise InvalidInput(Location(where, json_path=f"$[{bad}]"), "a record (a JSON object)",
                               type(doc[bad]).__name__, InputKind.SCHEMA)
        return list(doc)
    if not isinstance(doc, dict):
        raise InvalidInput(where, "a record or a non-empty list of records", type(doc).__name__, InputKind.SCHEMA)
    return [doc]


_HASH = re.compile(r"[0-9a-fA-F]{64}")


def record_hash(text: str, where: str) -> str:
    """A ``recordHash`` as a caller writes it: 64 hexadecimal digits in any case, read as the lower-case
    form records carry (a hash is a number, not a spelling)."""
    if not isinstance(text, str) or _HASH.fullmatch(text) is None:
        raise InvalidInput(where, "a recordHash (64 hexadecimal digits)", repr(text)[:80], InputKind.VALUE)
    return text.lower()


def verify_record(record: object, public_key: bytes | Ed25519PublicKey | PublicKeys) -> RecordValid | RecordInvalid:
    """Offline: only the record and the key. Never raises."""
    if not isinstance(record, dict) or set(record) != {"payload", "recordHash", "signature"}:
        return RecordInvalid(RecordDefect.MALFORMED, "expected keys payload, recordHash, signature")
    p, sig = record["payload"], record["signature"]
    if not isinstance(p, dict) or p.get("kind") not in KINDS or not isinstance(sig, dict) \
            or sig.get("algorithm") not in (CLASSICAL, HYBRID):
        return RecordInvalid(RecordDefect.MALFORMED, f"payload with a known kind and an {CLASSICAL} or {HYBRID} "
                             "signature")
    try:
        check_exact_json(record, "<record>")
    except InvalidInput as exc:
        return RecordInvalid(RecordDefect.MALFORMED, str(exc))
    h = digest(p)
    if h != record["recordHash"]:
        return RecordInvalid(RecordDefect.HASH_MISMATCH, f"payload hashes to {h}")
    keys = public_raw(public_key) if isinstance(public_key, Ed25519PublicKey) else public_key
    v = verify_object(keys, p, sig)
    if isinstance(v, SignatureBad):
        defect = RecordDefect.DOWNGRADE if v.defect in DOWNGRADES else RecordDefect.BAD_SIGNATURE
        return RecordInvalid(defect, f"{v.defect.value}: {v.detail}")
    return RecordValid(str(p["kind"]), h)


def verify_chain(records: list[object], public_key: bytes | Ed25519PublicKey | PublicKeys
                 ) -> list[RecordValid] | RecordInvalid:
    """Verify each record, then the links of each chained kind (seq 0, 1, ...; prev = previous hash)."""
    out: list[RecordValid] = []
    heads: dict[str, tuple[int, str]] = {}
    for i, r in enumerate(records):
        v = verify_record(r, public_key)
        if isinstance(v, RecordInvalid):
            return RecordInvalid(v.defect, f"record {i}: {v.detail}")
        assert isinstance(r, dict)
        p = r["payload"]
        if v.kind in CHAINED:
            seq, prev = heads.get(v.kind, (-1, None))
            if p.get("seq") != seq + 1 or p.get("prev") != prev:
                return RecordInvalid(RecordDefect.BROKEN_CHAIN, f"record {i}: {v.kind} chain expects seq {seq + 1}")
            heads[v.kind] = (seq + 1, v.record_hash)
        out.append(v)
    return out


def chain_heads(verified: list[RecordValid]) -> dict[str, tuple[int, str]]:
    """Per chained kind: (number of records, recordHash of the last one) of records ``verify_chain`` accepted."""
    heads: dict[str, tuple[int, str]] = {}
    for v in verified:
        if v.kind in CHAINED:
            n, _head = heads.get(v.kind, (0, ""))
            heads[v.kind] = (n + 1, v.record_hash)
    return heads


KIND = kind("record store", 4, 1, """
CREATE TABLE records (
  id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, chain_seq INTEGER, hash TEXT NOT NULL,
  record TEXT NOT NULL);
CREATE UNIQUE INDEX chain ON records (kind, chain_seq)
""")


class RecordStore:
    """Durable records; chained kinds get their ``prev``/``seq`` inside the insert's transaction."""

    def __init__(self, key: KeyPair, path: str = ":memory:", redactor: Callable[[JSON], JSON] | None = None) -> None:
        self.key = key
        self.db = Database(path, KIND)
        self.redactor = redactor  # execution control's: no secret reaches a signed record

    def append(self, kind: str, body: JSON, now: datetime) -> dict[str, JSON]:
        if self.redactor is not None:
            body = self.redactor(body)
        with self.db.transaction() as c:
            prev: str | None = None
            seq: int | None = None
            if kind in CHAINED:
                row = c.execute("SELECT chain_seq, hash FROM records WHERE kind = ? ORDER BY chain_seq DESC LIMIT 1",
                                (kind,)).fetchone()
                seq, prev = (0, None) if row is None else (row[0] + 1, row[1])
            rec = make_record(self.key, kind, body, now, prev, seq)
            c.execute("INSERT INTO records (kind, chain_seq, hash, record) VALUES (?,?,?,?)",
                      (kind, seq, rec["recordHash"], canonical_str(rec)))
        return rec

    def all(self, kind: str | None = None) -> list[JSON]:
        with self.db.transaction() as c:
            rows = c.execute("SELECT record FROM records WHERE ? IS NULL OR kind = ? ORDER BY id", (kind, kind))
            return [loads(r[0], "<record store>") for r in rows.fetchall()]

    def close(self) -> None:
        self.db.close()
