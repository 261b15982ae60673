"""Execution authorizations (the Parmana paper, Section 4.4): signed, single use, time
bounded, and bound to the SHA-256 of the canonical request.

Payload::

    {"version": 1, "authorizationId", "policyName", "policyVersion", "policyContentHash", "ruleId",
     "requestHash", "signalsHash", "approvalsHash", "nonce", "issuedAt", "expiresAt"}

wrapped as ``{"payload": ..., "signature": {...}}``, a classical or hybrid signature object
(``model.admission.signatures.hybrid``; a hybrid runtime key signs with Ed25519 and ML-DSA-65).
Choices where the source is silent: the *request* is the intent (action, target, params), the
exact call the gate will release; signals and the presented approvals are bound by their own
digests so neither can be swapped between decision and release; the lifetime is 60 s.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from model.admission.decision.signed_policy import SignedPolicy
from model.admission.signatures.hybrid import CLASSICAL, HYBRID, sign_object
from model.base.canonical import JSON, check_exact_json, digest
from model.base.errors import InputKind, InvalidInput, json_path
from model.base.signing import KeyPair, format_instant, parse_instant

AUTHORIZATION_TTL = timedelta(seconds=60)
_KEYS = frozenset({"version", "authorizationId", "policyName", "policyVersion", "policyContentHash", "ruleId",
                   "requestHash", "signalsHash", "approvalsHash", "nonce", "issuedAt", "expiresAt"})


@dataclass(frozen=True, slots=True)
class Authorization:
    payload: Mapping[str, JSON]
    signature: Mapping[str, JSON]  # the whole signature object, checked by ``hybrid.verify_object``
    key_id: str
    authorization_id: str
    policy_name: str
    policy_version: int
    policy_content_hash: str
    request_hash: str
    signals_hash: str
    approvals_hash: str
    nonce: str
    issued_at: datetime
    expires_at: datetime


def issue(key: KeyPair, policy: SignedPolicy, rule_id: str, intent: JSON, signals: JSON, approvals: JSON,
          now: datetime, ttl: timedelta = AUTHORIZATION_TTL) -> dict[str, JSON]:
    payload = {"version": 1, "authorizationId": str(uuid.uuid4()), "policyName": policy.name,
               "policyVersion": policy.version, "policyContentHash": policy.content_hash, "ruleId": rule_id,
               "requestHash": digest(intent), "signalsHash": digest(signals), "approvalsHash": digest(approvals),
               "nonce": str(uuid.uuid4()), "issuedAt": format_instant(now), "expiresAt": format_instant(now + ttl)}
    return {"payload": payload, "signature": sign_object(key, payload)}


def load_authorization(obj: object, source: str = "<authorization>") -> Authorization:
    def bad(path: tuple[str | int, ...], expected: str, found: object) -> InvalidInput:
        return InvalidInput(f"{source} at {json_path(path)}", expected, repr(found)[:80], InputKind.SCHEMA)

    if not isinstance(obj, dict) or set(obj) != {"payload", "signature"}:
        raise bad((), "an object with keys payload, signature", obj)
    check_exact_json(obj, source)
    p, s = obj["payload"], obj["signature"]
    if not isinstance(p, dict) or set(p) != _KEYS:
        raise bad(("payload",), f"an object with keys {sorted(_KEYS)}", p)
    hybrid = isinstance(s, dict) and s.get("algorithm") == HYBRID
    want = {"algorithm", "keyId", "value", "pqValue"} if hybrid else {"algorithm", "keyId", "value"}
    if not isinstance(s, dict) or set(s) != want or s["algorithm"] not in (CLASSICAL, HYBRID):
        raise bad(("signature",), f"a signature object {{algorithm ({CLASSICAL} or {HYBRID}), keyId, value"
                  "[, pqValue when hybrid]}", s)
    for k in _KEYS - {"version", "policyVersion", "issuedAt", "expiresAt"}:
        if not isinstance(p[k], str):
            raise bad(("payload", k), "a string", p[k])
    for k in ("version", "policyVersion"):
        if not isinstance(p[k], int) or isinstance(p[k], bool):
            raise bad(("payload", k), "an integer", p[k])
    t = {k: parse_instant(p[k]) for k in ("issuedAt", "expiresAt")}
    for k, v in t.items():
        if v is None:
            raise bad(("payload", k), "an ISO-8601 UTC instant ending in Z", p[k])
    if not all(isinstance(s[k], str) for k in want - {"algorithm"}):
        raise bad(("signature",), "string keyId and signature values", s)
    issued, expires = t["issuedAt"], t["expiresAt"]
    assert issued is not None and expires is not None
    return Authorization(p, s, s["keyId"], p["authorizationId"], p["policyName"], p["policyVersion"],
                         p["policyContentHash"], p["requestHash"], p["signalsHash"], p["approvalsHash"], p["nonce"],
                         issued, expires)
