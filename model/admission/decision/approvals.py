"""Signed human approvals (the Parmana paper, Section 4.3) in the wire format of
Parmana's SDK (``parmana.crypto.approval.sign_approval``)::

    {"payload": {"version": 1, "approvalId", "issuer": {"approverId", "keyId"}, "issuedAt",
                 "expiresAt", "capability", "resourceId", "scope": {"field", "comparator", "value"},
                 "nonce"},
     "signature": {"algorithm": "ed25519", "keyId", "value", "signedAt"}}

or, from an approver whose registered key is hybrid, ``"algorithm": "ed25519+ml-dsa-65"`` with a
``pqValue`` beside ``value`` (``model.admission.signatures.hybrid``: both must verify, and such an approver's
classical-only signature is refused as a downgrade).

An approval counts only if it is signed over the canonical payload by a registered,
unrevoked approver key; bound to the action (``capability``) and resource (``resourceId``); bound
to the amount when the policy declares one; unexpired; and unspent. Binding rules, as in the SDK:
a policy *with* an amount needs ``scope = {"field": "value", "comparator": "lte", "value": max}``
and the amount must be ≤ max; a policy *without* one needs ``scope = {"field": "resourceId",
"comparator": "eq", "value": resourceId}``. Choices where the source is silent:
- ``resourceId`` must equal the resource in both cases (an amount approval is still for one
  resource), and a scope of the other kind is refused (SCOPE_MISMATCH) rather than ignored.
- Expiry is exclusive: at ``expiresAt`` to the microsecond the approval is expired. The lifetime
  ``expiresAt − issuedAt`` must be in (0, 24 h]; ``issuedAt`` may lead ``now`` by at most 60 s of
  clock skew (otherwise the 24 h bound could be stretched by back-dating ``now``).
- ``signature.keyId`` is unsigned, so it must equal the signed ``issuer.keyId``; ``signedAt`` is
  informational. Unknown keys in payload or signature are malformed (nothing unsigned slips in).
- Verification here is pure; spending the nonce is the caller's step (``evidence`` module).
- An amount approval's domain is ``0 ≤ amount ≤ max``: an "lte" scope bounds a magnitude, and a
  negative amount (a refund of −1,000,000 is a charge) is refused as AMOUNT_OUT_OF_DOMAIN, as are
  a non-finite amount and a boolean (the SDK compares ``value <= max`` only).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from model.admission.refusal import Refusal, RefusalReason
from model.admission.signatures.hybrid import (
    CLASSICAL,
    DOWNGRADES,
    HYBRID,
    PublicKeys,
    SignatureBad,
    mldsa_public_from_text,
    verify_message,
)
from model.base.canonical import JSON, canonical_bytes, check_exact_json
from model.base.errors import InputKind, InvalidInput, json_path
from model.base.signing import parse_instant, public_key_from_text, public_raw

DEFAULT_TTL = timedelta(minutes=15)
MAX_TTL = timedelta(hours=24)
CLOCK_SKEW = timedelta(seconds=60)

_PAYLOAD_KEYS = frozenset({"version", "approvalId", "issuer", "issuedAt", "expiresAt", "capability", "resourceId",
                           "scope", "nonce"})
_SIG_KEYS = frozenset({"algorithm", "keyId", "value", "signedAt", "pqValue"})


@dataclass(frozen=True, slots=True)
class Approval:
    approval_id: str
    approver_id: str
    key_id: str
    issued_at: datetime
    expires_at: datetime
    capability: str
    resource_id: str
    scope_field: str  # "value" or "resourceId"
    scope_value: str | int | float
    nonce: str
    signed_bytes: bytes  # RFC 8785 form of the payload
    signature: str  # base64, checked at verification
    algorithm: str = CLASSICAL
    pq_signature: str | None = None  # the ML-DSA-65 half of a hybrid signature


@dataclass(frozen=True, slots=True)
class ApproverKey:
    approver_id: str
    key_id: str
    public_key: bytes
    revoked: bool = False
    pq_public_key: bytes | None = None  # present: the approver's key is hybrid, and both halves are required


@dataclass(frozen=True, slots=True)
class ApproverRegistry:
    keys: Mapping[tuple[str, str], ApproverKey]

    def revoke(self, approver_id: str, key_id: str) -> ApproverRegistry:
        k = self.keys[(approver_id, key_id)]
        return ApproverRegistry({**self.keys, (approver_id, key_id): ApproverKey(k.approver_id, k.key_id,
                                                                                 k.public_key, True,
                                                                                 k.pq_public_key)})


@dataclass(frozen=True, slots=True)
class ApprovalVerified:
    approval: Approval


def _bad(source: str, path: tuple[str | int, ...], expected: str, found: object) -> InvalidInput:
    return InvalidInput(f"{source} at {json_path(path)}", expected, repr(found)[:80], InputKind.SCHEMA)


def _string(obj: Mapping[str, JSON], key: str, source: str, path: tuple[str | int, ...]) -> str:
    v = obj.get(key)
    if not isinstance(v, str) or not v:
        raise _bad(source, (*path, key), "a non-empty string", v)
    return v


def load_approval(obj: object, source: str = "<approval>") -> Approval:
    """The typed approval, or ``InvalidInput`` naming the JSON path that is wrong."""
    if not isinstance(obj, dict) or set(obj) != {"payload", "signature"}:
        raise _bad(source, (), "an object with keys payload, signature", obj)
    check_exact_json(obj, source)
    p, s = obj["payload"], obj["signature"]
    if not isinstance(p, dict) or set(p) != _PAYLOAD_KEYS:
        raise _bad(source, ("payload",), f"an object with keys {sorted(_PAYLOAD_KEYS)}", p)
    if not isinstance(s, dict) or not {"algorithm", "keyId", "value"} <= set(s) or not set(s) <= _SIG_KEYS:
        raise _bad(source, ("signature",), f"an object with keys {sorted(_SIG_KEYS)}", s)
    if p["version"] != 1 or isinstance(p["version"], bool):
        raise _bad(source, ("payload", "version"), "1", p["version"])
    issuer = p["issuer"]
    if not isinstance(issuer, dict) or set(issuer) != {"approverId", "keyId"}:
        raise _bad(source, ("payload", "issuer"), "an object with keys approverId, keyId", issuer)
    times = {}
    for k in ("issuedAt", "expiresAt"):
        t = parse_instant(p[k])
        if t is None:
            raise _bad(source, ("payload", k), "an ISO-8601 UTC instant ending in Z", p[k])
        times[k] = t
    scope = p["scope"]
    if not isinstance(scope, dict) or set(scope) != {"field", "comparator", "value"}:
        raise _bad(source, ("payload", "scope"), "an object with keys field, comparator, value", scope)
    if (scope["field"], scope["comparator"]) == ("value", "lte"):
        v = scope["value"]
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v <= 0:
            raise _bad(source, ("payload", "scope", "value"), "a positive finite number", v)
    elif (scope["field"], scope["comparator"]) == ("resourceId", "eq"):
        _string(scope, "value", source, ("payload", "scope"))
    else:
        raise _bad(source, ("payload", "scope"), "field value/lte or resourceId/eq", scope)
    if s["algorithm"] not in (CLASSICAL, HYBRID):
        raise _bad(source, ("signature", "algorithm"), f'"{CLASSICAL}" or "{HYBRID}"', s["algorithm"])
    if ("pqValue" in s) != (s["algorithm"] == HYBRID):
        raise _bad(source, ("signature",), "pqValue exactly when the algorithm is hybrid", sorted(s))
    pq = _string(s, "pqValue", source, ("signature",)) if "pqValue" in s else None
    if "signedAt" in s and parse_instant(s["signedAt"]) is None:
        raise _bad(source, ("signature", "signedAt"), "an ISO-8601 UTC instant ending in Z", s["signedAt"])
    sig = _string(s, "value", source, ("signature",))
    key_id = _string(issuer, "keyId", source, ("payload", "issuer"))
    if s["keyId"] != key_id:
        raise _bad(source, ("signature", "keyId"), "the signed issuer.keyId", s["keyId"])
    try:
        signed = canonical_bytes(p)
    except InvalidInput as exc:
        raise _bad(source, ("payload",), exc.expected, exc.found) from None
    return Approval(
        approval_id=_string(p, "approvalId", source, ("payload",)),
        approver_id=_string(issuer, "approverId", source, ("payload", "issuer")),
        key_id=key_id, issued_at=times["issuedAt"], expires_at=times["expiresAt"],
        capability=_string(p, "capability", source, ("payload",)),
        resource_id=_string(p, "resourceId", source, ("payload",)),
        scope_field=scope["field"], scope_value=scope["value"],
        nonce=_string(p, "nonce", source, ("payload",)), signed_bytes=signed, signature=sig,
        algorithm=str(s["algorithm"]), pq_signature=pq)


def verify_approval(a: Approval, *, action: str, resource: str, amount: int | float | None, now: datetime,
                    registry: ApproverRegistry) -> ApprovalVerified | Refusal:
    """Every binding rule except single use, in the order: key, signature, time, action, resource, scope."""
    key = registry.keys.get((a.approver_id, a.key_id))
    if key is None:
        return Refusal(RefusalReason.UNKNOWN_APPROVER, f"{a.approver_id}/{a.key_id}")
    if key.revoked:
        return Refusal(RefusalReason.REVOKED_KEY, f"{a.approver_id}/{a.key_id}")
    sig: dict[str, JSON] = {"algorithm": a.algorithm, "keyId": a.key_id, "value": a.signature}
    if a.pq_signature is not None:
        sig["pqValue"] = a.pq_signature
    checked = verify_message(PublicKeys(key.public_key, key.pq_public_key), a.signed_bytes, sig)
    if isinstance(checked, SignatureBad):
        why = RefusalReason.SIGNATURE_DOWNGRADE if checked.defect in DOWNGRADES else RefusalReason.BAD_SIGNATURE
        return Refusal(why, f"{a.approval_id}: {checked.defect.value}")
    life = a.expires_at - a.issued_at
    if life <= timedelta(0) or life > MAX_TTL:
        return Refusal(RefusalReason.TTL_TOO_LONG, f"lifetime {life}")
    if a.issued_at > now + CLOCK_SKEW:
        return Refusal(RefusalReason.NOT_YET_VALID, f"issued at {a.issued_at.isoformat()}")
    if now >= a.expires_at:
        return Refusal(RefusalReason.EXPIRED, f"expired at {a.expires_at.isoformat()}")
    if a.capability != action:
        return Refusal(RefusalReason.WRONG_ACTION, f"approved {a.capability}, asked {action}")
    if a.resource_id != resource:
        return Refusal(RefusalReason.WRONG_RESOURCE, f"approved {a.resource_id}, asked {resource}")
    if amount is None:
        if a.scope_field != "resourceId" or a.scope_value != resource:
            return Refusal(RefusalReason.SCOPE_MISMATCH, "policy has no amount: the scope must name the resource")
    else:
        if a.scope_field != "value":
            return Refusal(RefusalReason.SCOPE_MISMATCH, "policy has an amount: the scope must bound it")
        assert not isinstance(a.scope_value, str)  # the loader admits only numbers for a value scope
        if isinstance(amount, bool) or not math.isfinite(amount) or amount < 0:
            return Refusal(RefusalReason.AMOUNT_OUT_OF_DOMAIN, f"approved amounts 0..{a.scope_value}, asked {amount}")
        if amount > a.scope_value:
            return Refusal(RefusalReason.AMOUNT_EXCEEDED, f"approved up to {a.scope_value}, asked {amount}")
    return ApprovalVerified(a)


def load_registry(obj: object, source: str = "<approvers>") -> ApproverRegistry:
    """``[{"approverId", "keyId", "publicKey": PEM or base64 raw, "pqPublicKey"?: ML-DSA-65 PEM or
    base64 raw (a hybrid key), "revoked"?: bool}, ...]``."""
    if not isinstance(obj, list):
        raise _bad(source, (), "a list of approver keys", obj)
    keys: dict[tuple[str, str], ApproverKey] = {}
    for i, e in enumerate(obj):
        if not isinstance(e, dict) or not {"approverId", "keyId", "publicKey"} <= set(e) \
                or not set(e) <= {"approverId", "keyId", "publicKey", "pqPublicKey", "revoked"}:
            raise _bad(source, (i,), "an object with approverId, keyId, publicKey[, pqPublicKey, revoked]", e)
        aid, kid = _string(e, "approverId", source, (i,)), _string(e, "keyId", source, (i,))
        pk = public_key_from_text(_string(e, "publicKey", source, (i,)), f"{source} at {json_path((i, 'publicKey'))}")
        revoked = e.get("revoked", False)
        if not isinstance(revoked, bool):
            raise _bad(source, (i, "revoked"), "a boolean", revoked)
        if (aid, kid) in keys:
            raise InvalidInput(f"{source} at {json_path((i,))}", "each approver key once", f"{aid}/{kid}",
                               InputKind.REFERENCE)
        pq = mldsa_public_from_text(_string(e, "pqPublicKey", source, (i,)),
                                    f"{source} at {json_path((i, 'pqPublicKey'))}") if "pqPublicKey" in e else None
        keys[(aid, kid)] = ApproverKey(aid, kid, public_raw(pk), revoked, pq)
    return ApproverRegistry(keys)
