"""API keys scoped to capabilities, principals and tenant (the Parmana paper, Section 4.1:
"The caller's API key is limited to named capabilities, principals and tenant (E1)").

A key is presented as the token ``awk_<keyId>_<secret>``. The service holds, per key, the SHA-256
of the secret (never the secret), the tenant, and the principals and capabilities the key may act
for. ``authenticate`` answers one request (tenant, principal, capability) with ``Authenticated`` or a
``Refusal`` naming why: MALFORMED (not a token), UNAUTHENTICATED (unknown key or wrong secret),
REVOKED_KEY, TENANT_SCOPE, PRINCIPAL_SCOPE, CAPABILITY_SCOPE, checked in that order. Every attempt
with a parseable key id, accepted or refused, is appended to that caller's authentication-event
chain (``auth_events``) when a log is given. Choices where the source is silent: the secret is
compared in constant time; a capability ``*`` in a key is not supported (a key lists its
capabilities); the fingerprint recorded is ``sha256:`` and the first 16 hex digits of the secret's
digest, enough to tell keys apart in an audit and useless for recovering the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from model.admission.refusal import Refusal, RefusalReason
from model.admission.signatures.auth_events import AuthEvent, AuthEventLog
from model.base.errors import InputKind, InvalidInput, json_path

_TOKEN = re.compile(r"awk_([A-Za-z0-9-]{1,64})_([A-Za-z0-9_-]{16,256})")  # fullmatch: "$" admits a final newline
_ENTRY = frozenset({"keyId", "secretSha256", "tenant", "principals", "capabilities", "revoked"})


@dataclass(frozen=True, slots=True)
class ApiKey:
    key_id: str
    secret_sha256: str
    tenant: str
    principals: frozenset[str]
    capabilities: frozenset[str]
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class Authenticated:
    key_id: str
    tenant: str
    principal: str
    capability: str
    fingerprint: str


def fingerprint(secret: str) -> str:
    return "sha256:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()[:16]


def make_token(key_id: str, secret: str) -> str:
    return f"awk_{key_id}_{secret}"


def authenticate(keys: Mapping[str, ApiKey], token: str, *, tenant: str, principal: str, capability: str,
                 now: datetime, log: AuthEventLog | None = None) -> Authenticated | Refusal:
    m = _TOKEN.fullmatch(token) if isinstance(token, str) else None
    if m is None:
        return Refusal(RefusalReason.MALFORMED, "an API key token awk_<keyId>_<secret>")
    key_id, secret = m.group(1), m.group(2)
    out = _judge(keys.get(key_id), secret, tenant, principal, capability)
    if log is not None:
        outcome = "authenticated" if isinstance(out, Authenticated) else out.reason.value
        log.append(key_id, AuthEvent(outcome, tenant, principal, capability, fingerprint(secret)), now)
    return out


def _judge(k: ApiKey | None, secret: str, tenant: str, principal: str, capability: str) -> Authenticated | Refusal:
    digest = hashlib.sha256(secret.encode("utf-8")).hexdigest()
    if k is None or not hmac.compare_digest(digest, k.secret_sha256):
        return Refusal(RefusalReason.UNAUTHENTICATED, "unknown API key or wrong secret")
    if k.revoked:
        return Refusal(RefusalReason.REVOKED_KEY, k.key_id)
    if tenant != k.tenant:
        return Refusal(RefusalReason.TENANT_SCOPE, f"key {k.key_id} is for tenant {k.tenant}, not {tenant}")
    if principal not in k.principals:
        return Refusal(RefusalReason.PRINCIPAL_SCOPE, f"key {k.key_id} may not act for {principal}")
    if capability not in k.capabilities:
        return Refusal(RefusalReason.CAPABILITY_SCOPE, f"key {k.key_id} may not use {capability}")
    return Authenticated(k.key_id, tenant, principal, capability, fingerprint(secret))


def load_api_keys(obj: object, source: str = "<api keys>") -> dict[str, ApiKey]:
    """``[{"keyId", "secretSha256", "tenant", "principals": [...], "capabilities": [...], "revoked"?}]``."""
    def bad(path: tuple[str | int, ...], expected: str, found: object) -> InvalidInput:
        return InvalidInput(f"{source} at {json_path(path)}", expected, repr(found)[:80], InputKind.SCHEMA)

    if not isinstance(obj, list):
        raise bad((), "a list of API keys", obj)
    out: dict[str, ApiKey] = {}
    for i, e in enumerate(obj):
        if not isinstance(e, dict) or not _ENTRY - {"revoked"} <= set(e) or not set(e) <= _ENTRY:
            raise bad((i,), f"an object with keys {sorted(_ENTRY)} (revoked optional)", e)
        if not isinstance(e["keyId"], str) or not re.fullmatch(r"[A-Za-z0-9-]{1,64}", e["keyId"]):
            raise bad((i, "keyId"), "letters, digits and '-' (1 to 64)", e["keyId"])
        if not isinstance(e["secretSha256"], str) or not re.fullmatch(r"[0-9a-f]{64}", e["secretSha256"]):
            raise bad((i, "secretSha256"), "64 lower-case hex digits", e["secretSha256"])
        if not isinstance(e["tenant"], str) or not e["tenant"]:
            raise bad((i, "tenant"), "a non-empty string", e["tenant"])
        for f in ("principals", "capabilities"):
            if not isinstance(e[f], list) or not e[f] or not all(isinstance(x, str) and x for x in e[f]):
                raise bad((i, f), "a non-empty list of non-empty strings", e[f])
        if not isinstance(e.get("revoked", False), bool):
            raise bad((i, "revoked"), "a boolean", e["revoked"])
        if e["keyId"] in out:
            raise InvalidInput(f"{source} at {json_path((i, 'keyId'))}", "each key id once", e["keyId"],
                               InputKind.REFERENCE)
        out[e["keyId"]] = ApiKey(e["keyId"], e["secretSha256"], e["tenant"], frozenset(e["principals"]),
                                 frozenset(e["capabilities"]), e.get("revoked", False))
    return out
