"""Differential test of the permit evidence check (Agenra Table 1; the signed approvals of the Parmana
paper, Section 4.3): ``model.monitor.decide.permits.signed_approval_evidence`` over a real
``SqliteNonceStore`` against the oracle's ``permit_evidence`` judgment
(lean/AgentWarrant/Spec/Monitor/Evidence.lean), and the primitives it rests on (``sha512``,
``ed25519_verify``, ``canonical_json``) against ``hashlib``, ``cryptography`` and ``canonical_bytes``.

A case is a registry of freshly generated Ed25519 keys, a nonce store, a clock reading, a call's effect
units and arguments, and an approval: a valid one signed in the wire format, or one of the breakages in
``KINDS`` (tampered signatures and payloads, another key, unknown or revoked approvers, expired, not yet
valid or too long-lived approvals, reused nonces, another action, resource or scope, amounts out of
bound, malformed documents, downgraded suites and forms, calls with no or two effect units, and each side of
the clock rules' boundaries to the microsecond). What is
compared: the verdict (accepted, or the refusal's reason code), the nonce store after the check, and the
RFC 8785 bytes of the payload. Choices: permits.py's own refusals (effect count, a non-string resource,
a missing amount) carry a message rather than a code, so they are compared through a fixed map
(``_PERMIT_CODES``); the Lean model answers ``unsupported`` for numbers outside its domain, which the
generator never draws (an ``unsupported`` answer is a mismatch). Hybrid approver keys are not drawn: the
Lean model has no ML-DSA-65.
"""

from __future__ import annotations

import base64
import hashlib
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from model.admission.decision.approvals import ApproverKey, ApproverRegistry
from model.admission.decision.evidence import APPROVAL_NAMESPACE
from model.admission.decision.nonces import SqliteNonceStore
from model.admission.signatures.hybrid import COMMITMENT, HYBRID, HYBRID_LABEL, signed_form
from model.base.canonical import JSON, canonical_bytes
from model.base.signing import public_raw, verify_bytes
from model.monitor.decide.matching import Effect
from model.monitor.decide.permits import EvidenceAccepted, signed_approval_evidence
from model.oracle.lean import LeanOracle
from model.oracle.results import Agree, CaseResult, Mismatch

JUDGMENT = "permit_evidence"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
GROUP_L = 2**252 + 27742317777372353535851937790883648493
_PERMIT_CODES = (("effect units", "not-one-effect"), ("is not a string", "resource-not-a-string"),
                 ("is not an amount", "not-an-amount"))
KINDS = ("valid", "valid-amount", "valid-long", "valid-unicode", "tampered-signature", "tampered-payload",
         "other-key", "unknown-approver", "revoked", "expired", "not-yet-valid", "ttl-too-long", "ttl-zero",
         "reused", "wrong-action", "wrong-resource", "scope-mismatch", "amount-exceeded", "amount-negative",
         "malformed-key", "malformed-version", "malformed-instant", "malformed-empty", "malformed-keyid",
         "malformed-base64", "truncated-signature", "hybrid-suite", "commitment-form", "hybrid-label",
         "no-effect", "two-effects", "number-resource", "no-amount",
         "edge-skew", "edge-skew-over", "edge-expiry", "edge-expiry-before", "edge-ttl", "edge-ttl-over")
# the boundaries of the clock rules, to the microsecond: the first of each pair holds, the second does not
# (issued exactly 60 s ahead, or 1 µs more; expiring at the clock's reading, or 1 µs after; a lifetime of
# exactly 24 h, or 1 µs more)
EDGE_ACCEPTED = ("edge-skew", "edge-expiry-before", "edge-ttl")


@dataclass
class Approver:
    approver_id: str
    key_id: str
    private: Ed25519PrivateKey
    revoked: bool = False

    @property
    def public(self) -> bytes:
        return public_raw(self.private.public_key())


@dataclass
class EvidenceCase:
    kind: str
    registry: list[Approver]
    spent: list[str]
    now: datetime
    effects: list[tuple[str, JSON]]
    args: dict[str, JSON]
    amount_argument: str | None
    approval: JSON
    extra: dict[str, Any] = field(default_factory=dict)


def _instant(t: datetime, digits: int) -> str:
    base = t.strftime("%Y-%m-%dT%H:%M:%S")
    return base + ("." + f"{t.microsecond:06d}"[:digits] if digits else "") + "Z"


def _micros(t: datetime) -> int:
    return (t - EPOCH) // timedelta(microseconds=1)


def _text(r: random.Random, unicode: bool = False) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_:/"
    if unicode:
        alphabet += "é\u00fc\u4e2d\U0001f600\"\\\n\t\u0001\u007f\u2028"
    return "".join(r.choice(alphabet) for _ in range(r.randint(1, 12)))


def _key(r: random.Random) -> Ed25519PrivateKey:
    """A key drawn from ``r``, so a case (and a mismatch) replays from its seed."""
    return Ed25519PrivateKey.from_private_bytes(r.randbytes(32))


def _sign(priv: Ed25519PrivateKey, data: bytes) -> str:
    return base64.b64encode(priv.sign(data)).decode("ascii")


def draw_case(r: random.Random, kind: str) -> EvidenceCase:
    """A case of ``kind``: a valid approval for a one-effect call, then the breakage ``kind`` names."""
    approvers = [Approver(f"ap-{i}", f"k{i}", _key(r)) for i in range(r.randint(1, 3))]
    me = r.choice(approvers)
    unicode = kind == "valid-unicode" or r.random() < 0.2
    action = r.choice(["pay", "refund", "delete", "mail:send"])
    resource = _text(r, unicode)
    with_amount = kind in ("valid-amount", "amount-exceeded", "amount-negative", "no-amount") or \
        (kind not in ("valid", "scope-mismatch") and r.random() < 0.4)
    now = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=r.randint(0, 10**8), microseconds=r.randint(0, 999999))
    issued = now - timedelta(seconds=r.randint(0, 600), microseconds=r.randint(0, 999999))
    ttl = timedelta(seconds=r.randint(603, 86400))  # past the clock even when the instants drop their fraction
    if kind == "expired":
        issued, ttl = now - timedelta(seconds=r.randint(60, 3600)), timedelta(seconds=r.randint(1, 59))
    elif kind == "not-yet-valid":
        issued = now + timedelta(seconds=r.randint(61, 3600))
    elif kind == "ttl-too-long":
        ttl = timedelta(hours=24, seconds=r.randint(1, 3600))  # whole seconds: instants may drop the fraction
    elif kind == "ttl-zero":
        ttl = timedelta(0)
    elif kind in ("edge-skew", "edge-skew-over"):
        issued = now + timedelta(seconds=60, microseconds=int(kind == "edge-skew-over"))
    elif kind in ("edge-expiry", "edge-expiry-before"):
        issued = now - timedelta(hours=1)
        ttl = timedelta(hours=1, microseconds=int(kind == "edge-expiry-before"))
    elif kind in ("edge-ttl", "edge-ttl-over"):
        issued = now - timedelta(hours=1)
        ttl = timedelta(hours=24, microseconds=int(kind == "edge-ttl-over"))
    digits = 6 if kind.startswith("edge-") else r.randint(0, 6)
    max_amount: JSON = r.choice([500, 12.5, 0.001, 99999, 1.25e-7, 3])
    amount: JSON = r.choice([0, max_amount, max_amount / 2]) if with_amount else None
    if kind == "amount-exceeded":
        amount = r.choice([max_amount * 2 if isinstance(max_amount, int) else 1000000, 1000001])
    elif kind == "amount-negative":
        amount = r.choice([-1, -0.25])
    scope: JSON = ({"field": "value", "comparator": "lte", "value": max_amount} if with_amount
                   else {"field": "resourceId", "comparator": "eq", "value": resource})
    if kind == "scope-mismatch":
        scope = {"field": "resourceId", "comparator": "eq", "value": resource + "x"}
    nonce = _text(r, unicode)
    # a long approval id takes the payload over 4,096 bytes: the signature is then over the commitment form
    approval_id = _text(r, unicode) + ("L" * 4200 if kind == "valid-long" else "")
    payload: dict[str, JSON] = {
        "version": 1, "approvalId": approval_id, "issuer": {"approverId": me.approver_id, "keyId": me.key_id},
        "issuedAt": _instant(issued, digits), "expiresAt": _instant(issued + ttl, digits),
        "capability": action if kind != "wrong-action" else action + "-other",
        "resourceId": resource if kind != "wrong-resource" else resource + "-other", "scope": scope, "nonce": nonce}
    if kind == "malformed-version":
        payload["version"] = 2
    if kind == "malformed-instant":
        payload["expiresAt"] = r.choice(["2026-02-29T00:00:00Z", "2026-01-01 00:00:00Z", "2026-13-01T00:00:00Z",
                                         "2026-01-01T00:00:00.1234567Z", "2026-01-01T24:00:00Z"])
    if kind == "malformed-empty":
        payload[r.choice(["approvalId", "capability", "resourceId", "nonce"])] = ""
    message = canonical_bytes(payload)
    signer = me.private if kind != "other-key" else _key(r)
    if kind == "commitment-form":
        sig = _sign(signer, COMMITMENT + hashlib.sha512(message).digest())
    elif kind == "hybrid-label":
        sig = _sign(signer, HYBRID_LABEL + signed_form(message))
    else:
        sig = _sign(signer, signed_form(message))
    signature: dict[str, JSON] = {"algorithm": "ed25519", "keyId": me.key_id, "value": sig}
    if r.random() < 0.5:
        signature["signedAt"] = _instant(issued, 3)
    if kind == "tampered-signature":
        raw = bytearray(base64.b64decode(sig))
        i = r.randrange(64)
        raw[i] ^= 1 << r.randrange(8)
        signature["value"] = base64.b64encode(bytes(raw)).decode("ascii")
    elif kind == "tampered-payload":
        payload["nonce"] = nonce + "x"
    elif kind == "malformed-keyid":
        signature["keyId"] = me.key_id + "x"
    elif kind == "malformed-base64":
        signature["value"] = sig[:-2] + "!="
    elif kind == "truncated-signature":
        signature["value"] = base64.b64encode(base64.b64decode(sig)[:63]).decode("ascii")
    elif kind == "hybrid-suite":
        signature["algorithm"] = HYBRID
        signature["pqValue"] = base64.b64encode(bytes(r.choice([3309, 100]))).decode("ascii")
    approval: dict[str, JSON] = {"payload": payload, "signature": signature}
    if kind == "malformed-key":
        approval["payload"] = {**payload, "extra": 1} if r.random() < 0.5 else \
            {k: v for k, v in payload.items() if k != "scope"}
    registry = [a for a in approvers if not (kind == "unknown-approver" and a is me)]
    if kind == "revoked":
        me.revoked = True
    spent = [f"ap-{i}/{_text(r)}" for i in range(r.randint(0, 3))]
    if kind == "reused":
        spent.append(f"{me.approver_id}/{nonce}")
    effects: list[tuple[str, JSON]] = [(action, resource)]
    if kind == "no-effect":
        effects = []
    elif kind == "two-effects":
        effects = [(action, resource), (action, resource + "2")]
    elif kind == "number-resource":
        effects = [(action, r.choice([1, True, None]))]
    args: dict[str, JSON] = {"target": resource}
    amount_argument = "amount" if with_amount else None
    if with_amount and kind != "no-amount":
        args["amount"] = amount
    elif kind == "no-amount":
        args["amount"] = r.choice(["12", True, None])
    return EvidenceCase(kind, registry, spent, now, effects, args, amount_argument, approval)


def python_answer(case: EvidenceCase) -> dict[str, Any]:
    """The Python model's verdict, reason code and nonce store after the check."""
    registry = ApproverRegistry({(a.approver_id, a.key_id): ApproverKey(a.approver_id, a.key_id, a.public, a.revoked)
                                 for a in case.registry})
    store = SqliteNonceStore(":memory:")
    try:
        for s in case.spent:
            store.spend(APPROVAL_NAMESPACE, s, case.now)
        check = signed_approval_evidence(registry, store, lambda: case.now, case.amount_argument)
        effects = tuple(Effect(a, res) for a, res in case.effects)
        out = check("tool", effects, case.args, case.approval)
        if isinstance(out, EvidenceAccepted):
            verdict, reason = "accepted", None
        else:
            verdict = "refused"
            reason = next((code for text, code in _PERMIT_CODES if text in out.reason), out.reason.split(":")[0])
        candidates = set(case.spent)
        p = case.approval.get("payload") if isinstance(case.approval, dict) else None
        issuer = p.get("issuer") if isinstance(p, dict) else None
        if isinstance(issuer, dict) and isinstance(p, dict):
            candidates.add(f"{issuer.get('approverId')}/{p.get('nonce')}")
        after = sorted(s for s in candidates if store.is_spent(APPROVAL_NAMESPACE, s))
    finally:
        store.close()
    canonical = None
    if isinstance(case.approval, dict) and "payload" in case.approval:
        canonical = canonical_bytes(case.approval["payload"]).hex()
    return {"verdict": verdict, "reason": reason, "spent": after, "canonical": canonical}


def oracle_input(case: EvidenceCase) -> dict[str, Any]:
    return {"registry": [{"approverId": a.approver_id, "keyId": a.key_id, "publicKey": a.public.hex(),
                          "revoked": a.revoked} for a in case.registry],
            "spent": case.spent, "now": _micros(case.now), "effects": [list(e) for e in case.effects],
            "args": case.args, "amountArgument": case.amount_argument, "approval": case.approval}


def python_input(case: EvidenceCase) -> dict[str, Any]:
    return {"kind": case.kind, "now": case.now.isoformat(),
            "keys": [{"approverId": a.approver_id, "keyId": a.key_id, "public": a.public.hex(), "revoked": a.revoked}
                     for a in case.registry],
            "spent": case.spent, "effects": [list(e) for e in case.effects], "args": case.args,
            "amountArgument": case.amount_argument, "approval": case.approval}


def run_evidence(oracle: LeanOracle, case: EvidenceCase) -> CaseResult:
    py = python_answer(case)
    inp = oracle_input(case)
    lean = oracle.call(JUDGMENT, inp)
    got = {"verdict": lean["verdict"], "reason": lean["reason"], "spent": sorted(lean["spent"]),
           "canonical": lean["canonical"]}
    if got != py:
        return Mismatch(JUDGMENT, (case.kind,), python_input(case), inp, py, got)
    return Agree(f"{case.kind}:{py['verdict']}:{py['reason']}")


# --- the primitives ----------------------------------------------------------------------------------


SIG_KINDS = ("valid", "flip-r", "flip-s", "s-plus-l", "other-message", "random-key", "other-key")


def draw_signature(r: random.Random, kind: str) -> tuple[bytes, bytes, bytes]:
    """(public key, message, signature) for ``kind``: a valid signature, or one tampered in R or S,
    S replaced by S + L (non-canonical), another message, a random 32-byte key or another key."""
    priv = _key(r)
    pub = public_raw(priv.public_key())
    msg = r.randbytes(r.choice([0, 1, 31, 64, 111, 112, 127, 128, 129, 300, r.randint(0, 600)]))
    sig = bytearray(priv.sign(msg))
    if kind == "flip-r":
        sig[r.randrange(32)] ^= 1 << r.randrange(8)
    elif kind == "flip-s":
        sig[32 + r.randrange(32)] ^= 1 << r.randrange(8)
    elif kind == "s-plus-l":
        s = int.from_bytes(sig[32:], "little") + GROUP_L
        sig[32:] = s.to_bytes(32, "little")
    elif kind == "other-message":
        msg = msg + b"x"
    elif kind == "random-key":
        pub = r.randbytes(32)
    elif kind == "other-key":
        pub = public_raw(_key(r).public_key())
    return pub, msg, bytes(sig)


def run_signature(oracle: LeanOracle, pub: bytes, msg: bytes, sig: bytes, kind: str) -> CaseResult:
    py = verify_bytes(pub, msg, base64.b64encode(sig).decode("ascii"))  # the verifier the monitor calls
    inp = {"publicKey": pub.hex(), "message": msg.hex(), "signature": sig.hex()}
    lean = oracle.call("ed25519_verify", inp)["valid"]
    if lean != py:
        return Mismatch("ed25519_verify", (kind,), inp, inp, py, lean)
    return Agree(f"{kind}:{py}")


def run_sha512(oracle: LeanOracle, msg: bytes) -> CaseResult:
    py = hashlib.sha512(msg).hexdigest()
    inp = {"message": msg.hex()}
    lean = oracle.call("sha512", inp)["digest"]
    if lean != py:
        return Mismatch("sha512", (str(len(msg)),), inp, inp, py, lean)
    return Agree("sha512")


# --- edge cases of Ed25519 verification ------------------------------------------------------------
# Small-order and non-canonical encodings, where RFC 8032 leaves verifiers room and OpenSSL (under
# ``cryptography``) makes the choices the Lean model copies: a key's y is read modulo p, x = 0 with the
# sign bit set stays 0, the check is cofactorless and compares R byte for byte. The points are built
# with the textbook affine formulas below; they only construct inputs, both sides decide.

_P = 2**255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P


def _add(p: tuple[int, int], q: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = p, q
    t = _D * x1 * x2 * y1 * y2 % _P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, _P - 2, _P) % _P, (y1 * y2 + x1 * x2) * pow(1 - t, _P - 2, _P) % _P)


def _mul(n: int, p: tuple[int, int]) -> tuple[int, int]:
    acc = (0, 1)
    while n:
        if n & 1:
            acc = _add(acc, p)
        p, n = _add(p, p), n >> 1
    return acc


def _base() -> tuple[int, int]:
    y = 4 * pow(5, _P - 2, _P) % _P
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P) % _P
    if v * x * x % _P != u:
        x = x * pow(2, (_P - 1) // 4, _P) % _P
    return (_P - x if x & 1 else x), y


def _enc(pt: tuple[int, int]) -> bytes:
    return (pt[1] | ((pt[0] & 1) << 255)).to_bytes(32, "little")


def edge_signatures(r: random.Random) -> list[tuple[str, bytes, bytes, bytes]]:
    """(kind, public key, message, signature): the identity as key (canonical, y = p + 1, sign bit set),
    a key of order 2 (verifies for about half the messages, by the parity of k), and R = identity for
    S = 0 encoded canonically and as y = p + 1."""
    s = r.randrange(GROUP_L)
    sig = _enc(_mul(s, _base())) + s.to_bytes(32, "little")
    identity, identity_high = (1).to_bytes(32, "little"), (_P + 1).to_bytes(32, "little")
    out = [("identity-key", identity, b"m", sig), ("identity-key-y-over-p", identity_high, b"m", sig),
           ("identity-key-sign-bit", (1 | 1 << 255).to_bytes(32, "little"), b"m", sig)]
    out += [("order-2-key", (_P - 1).to_bytes(32, "little"), bytes([i]), sig) for i in range(8)]
    out += [("identity-r", identity, b"m", identity + bytes(32)),
            ("noncanonical-r", identity, b"m", identity_high + bytes(32))]
    return out
