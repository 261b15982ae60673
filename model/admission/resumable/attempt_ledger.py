"""The attempt store's ledger entries (``attempt_store``, ``model.admission.signatures.sealing``): what
each entry binds, and the state of every attempt the verified entries derive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from model.admission.resumable.envelope import Identity
from model.base.canonical import JSON, digest


@dataclass(slots=True)
class Derived:
    """What the verified ledger says of one attempt."""

    envelope: str
    state: str
    approver: str | None = None
    result: str | None = None  # the digest of the result text
    reviews: list[str] = field(default_factory=list)  # digests of its review rows, in order


def envelope(attempt_id: str, i: Identity, body_text: str) -> str:
    return digest([attempt_id, i.tenant, i.principal, i.credential, i.method, i.path, i.query, body_text])


def review(approver: str, decision: str, context: str, at: str) -> str:
    return digest([approver, decision, context, at])


def derive(entries: Sequence[JSON]) -> dict[str, Derived]:
    out: dict[str, Derived] = {}
    for e in entries:
        if not isinstance(e, dict) or not isinstance(e.get("attempt"), str):
            continue
        aid = str(e["attempt"])
        if "envelope" in e:
            out[aid] = Derived(str(e["envelope"]), str(e["state"]))
            continue
        s = out[aid]
        s.state = str(e["state"])
        if e.get("approver") is not None:
            s.approver = str(e["approver"])
        if e.get("result") is not None:
            s.result = str(e["result"])
        if e.get("review") is not None:
            s.reviews.append(str(e["review"]))
    return out


def adopted(rows: Sequence[Sequence[object]], reviews: Sequence[Sequence[object]]) -> list[JSON]:
    """Ledger entries for the rows of an unsealed store, as they stand."""
    out: list[JSON] = []
    for r in rows:
        aid = str(r[0])
        ident = Identity(*(str(x) for x in r[1:7]))
        out.append({"attempt": aid, "envelope": envelope(aid, ident, str(r[7])), "state": str(r[8])})
        out.append({"attempt": aid, "state": str(r[8]), "approver": None if r[9] is None else str(r[9]),
                    "result": None if r[10] is None else digest(str(r[10]))})
    for rid, approver, decision, context, at in reviews:
        state = next((str(r[8]) for r in rows if r[0] == rid), "")
        out.append({"attempt": str(rid), "state": state, "approver": None, "result": None,
                    "review": review(str(approver), str(decision), str(context), str(at))})
    return out
