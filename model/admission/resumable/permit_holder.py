"""The permit holder, a fourth authority (*Policy-Mediated Autonomy with Resumable Action Attempts*, "Requester,
approver, and executor separation": "A permit holder can be a fourth authority where the operation contract
requires one").

A route whose contract names a permit kind (``Route.permit``) replays only with a signed permit for
that exact attempt from a registered holder of that kind::

    {"payload": {"permitId", "kind", "holder", "tenant", "attemptId", "bodyDigest", "issuedAt",
                 "expiresAt"}, "signature": {...}}   (classical or hybrid, ``model.admission.signatures.hybrid``)

``check_permit`` runs before the attempt is claimed (like the identity check, so a bad permit
cannot burn the attempt) and refuses with a named reason: PERMIT_MISSING, PERMIT_INVALID (not a
permit, unknown holder, a holder not registered for the kind, a bad or downgraded signature),
PERMIT_MISMATCH (another attempt, body, tenant or kind), PERMIT_EXPIRED, PERMIT_ROLE_CONFLICT (the
holder is the attempt's requester principal or its approver: the four authorities stay distinct).
Choices where the source is silent: a permit is not single use by itself (the attempt is: it moves
to EXECUTING once); expiry is exclusive; the permit binds the saved body's digest so a permit for
one request cannot release another under the same attempt id.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from model.admission.refusal import Refusal, RefusalReason
from model.admission.resumable.attempt_store import Attempt
from model.admission.signatures.hybrid import DOWNGRADES, PublicKeys, SignatureBad, sign_object, verify_object
from model.base.canonical import JSON
from model.base.signing import KeyPair, format_instant, parse_instant

_KEYS = frozenset({"permitId", "kind", "holder", "tenant", "attemptId", "bodyDigest", "issuedAt", "expiresAt"})


@dataclass(frozen=True, slots=True)
class Holder:
    holder_id: str
    key: PublicKeys
    kinds: frozenset[str]


@dataclass(frozen=True, slots=True)
class PermitOk:
    permit_id: str
    holder_id: str


def issue_permit(key: KeyPair, holder_id: str, kind: str, attempt: Attempt, now: datetime,
                 ttl: timedelta = timedelta(minutes=15)) -> dict[str, JSON]:
    payload: dict[str, JSON] = {"permitId": str(uuid.uuid4()), "kind": kind, "holder": holder_id,
                                "tenant": attempt.request.identity.tenant, "attemptId": attempt.id,
                                "bodyDigest": attempt.body_digest, "issuedAt": format_instant(now),
                                "expiresAt": format_instant(now + ttl)}
    return {"payload": payload, "signature": sign_object(key, payload)}


def check_permit(permit: object, kind: str, attempt: Attempt, holders: Mapping[str, Holder], now: datetime
                 ) -> PermitOk | Refusal:
    if permit is None:
        return Refusal(RefusalReason.PERMIT_MISSING, f"the route requires a {kind} permit")
    if not isinstance(permit, dict) or set(permit) != {"payload", "signature"} \
            or not isinstance(permit["payload"], dict) or set(permit["payload"]) != _KEYS \
            or not all(isinstance(v, str) for v in permit["payload"].values()):
        return Refusal(RefusalReason.PERMIT_INVALID, f"expected {{payload: {sorted(_KEYS)}, signature}}")
    p = permit["payload"]
    holder = holders.get(str(p["holder"]))
    if holder is None or kind not in holder.kinds:
        return Refusal(RefusalReason.PERMIT_INVALID, f"{p['holder']} holds no {kind} permits")
    sig = verify_object(holder.key, p, permit["signature"])
    if isinstance(sig, SignatureBad):
        return Refusal(RefusalReason.PERMIT_INVALID,
                       f"{'downgraded' if sig.defect in DOWNGRADES else 'bad'} signature: {sig.defect.value}")
    ident = attempt.request.identity
    for field, want in (("kind", kind), ("attemptId", attempt.id), ("bodyDigest", attempt.body_digest),
                        ("tenant", ident.tenant)):
        if p[field] != want:
            return Refusal(RefusalReason.PERMIT_MISMATCH, f"{field} {p[field]!r}, expected {want!r}")
    issued, expires = parse_instant(p["issuedAt"]), parse_instant(p["expiresAt"])
    if issued is None or expires is None:
        return Refusal(RefusalReason.PERMIT_INVALID, "issuedAt and expiresAt as UTC instants")
    if not issued <= now < expires:
        return Refusal(RefusalReason.PERMIT_EXPIRED, f"valid {p['issuedAt']} to {p['expiresAt']}")
    if holder.holder_id in (ident.principal, attempt.approver):
        role = "requester" if holder.holder_id == ident.principal else "approver"
        return Refusal(RefusalReason.PERMIT_ROLE_CONFLICT, f"{holder.holder_id} is the attempt's {role}")
    return PermitOk(str(p["permitId"]), holder.holder_id)
