"""Signature suites and forms for approvals, authorizations and records (the Parmana paper,
Section 4.5: "Signatures are Ed25519, optionally together with ML-DSA-65 as a hybrid pair with
distinct algorithms ... longer messages are signed as a fixed commitment (a domain prefix and the
SHA-512 digest); a verifier accepts the commitment form only above that length").

A signature object is ``{"algorithm": "ed25519", "keyId", "value"}`` (classical, the wire format of
Parmana's SDK) or ``{"algorithm": "ed25519+ml-dsa-65", "keyId", "value", "pqValue"}`` (hybrid).
The bytes signed are, for a message ``m`` (the RFC 8785 form of a payload):

- the *form*: ``m`` itself when ``len(m) <= 4096`` (raw), else ``COMMITMENT || SHA-512(m)`` (the
  commitment a KMS accepts). The form follows from the length alone, so a verifier never lets a
  signer choose it: a commitment signature on a short message is FORM_DOWNGRADE, a raw one on a
  long message FORM_MISMATCH;
- for a hybrid signature, ``HYBRID || form``: both halves sign the suite's label, so the Ed25519
  half lifted out of a hybrid signature does not verify as a classical signature (SUITE_DOWNGRADE).

Anti-downgrade between suites: a verifier holding a hybrid key (both public halves) refuses a
classical signature (SUITE_DOWNGRADE), and one holding only an Ed25519 key refuses a hybrid
signature (UNEXPECTED_SUITE) rather than check half of it. Choices where the source is silent:
where the paper makes ML-DSA optional, a key that has both halves makes both required; both domain
prefixes begin with the byte 0xFF, which no UTF-8 text and so no canonical JSON message contains,
so no signed form of one message is the raw form of another; signature lengths are checked before
verification (64 bytes, 3,309 bytes) so a truncated signature is named as such.
"""

from __future__ import annotations

import base64
import enum
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.mldsa import MLDSA65PrivateKey, MLDSA65PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_public_key

from model.base.canonical import JSON, canonical_bytes, is_exact_json
from model.base.errors import InputKind, InvalidInput
from model.base.signing import KeyPair, b64decode_strict, public_key_from_text, public_raw, verify_raw

CLASSICAL = "ed25519"
HYBRID = "ed25519+ml-dsa-65"
KMS_LIMIT = 4096
COMMITMENT = b"\xffagentwarrant/commitment/sha-512/v1\x00"
HYBRID_LABEL = b"\xffagentwarrant/hybrid/ed25519+ml-dsa-65/v1\x00"
ED25519_SIG, MLDSA65_SIG, MLDSA65_PUBLIC = 64, 3309, 1952


class SignatureDefect(enum.Enum):
    MALFORMED = "malformed-signature"
    TRUNCATED = "truncated-signature"
    SUITE_DOWNGRADE = "suite-downgrade"  # a classical signature where the key is hybrid
    UNEXPECTED_SUITE = "unexpected-suite"  # a hybrid signature where the verifier holds a classical key
    FORM_DOWNGRADE = "form-downgrade"  # the commitment form on a message of at most 4,096 bytes
    FORM_MISMATCH = "form-mismatch"  # the raw form on a message over 4,096 bytes
    BAD_CLASSICAL = "bad-ed25519"
    BAD_POST_QUANTUM = "bad-ml-dsa-65"


DOWNGRADES = frozenset({SignatureDefect.SUITE_DOWNGRADE, SignatureDefect.UNEXPECTED_SUITE,
                        SignatureDefect.FORM_DOWNGRADE, SignatureDefect.FORM_MISMATCH})


@dataclass(frozen=True, slots=True)
class PublicKeys:
    """What a verifier holds: the Ed25519 half, and the ML-DSA-65 half for a hybrid key."""

    ed25519: bytes
    mldsa65: bytes | None = None

    @property
    def suite(self) -> str:
        return CLASSICAL if self.mldsa65 is None else HYBRID


@dataclass(frozen=True, slots=True)
class SignatureOk:
    suite: str
    committed: bool


@dataclass(frozen=True, slots=True)
class SignatureBad:
    defect: SignatureDefect
    detail: str


def signed_form(message: bytes) -> bytes:
    return message if len(message) <= KMS_LIMIT else COMMITMENT + hashlib.sha512(message).digest()


def _other_form(message: bytes) -> bytes:
    return COMMITMENT + hashlib.sha512(message).digest() if len(message) <= KMS_LIMIT else message


def generate_hybrid(key_id: str) -> KeyPair:
    return KeyPair(key_id, Ed25519PrivateKey.generate(), MLDSA65PrivateKey.generate())


def public_keys(key: KeyPair) -> PublicKeys:
    pq = None if key.pq is None else key.pq.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return PublicKeys(key.public, pq)


def sign_message(key: KeyPair, message: bytes) -> dict[str, JSON]:
    """The signature object over ``message`` in the key's suite and the message's form."""
    form = signed_form(message)
    if key.pq is None:
        return {"algorithm": CLASSICAL, "keyId": key.key_id,
                "value": base64.b64encode(key.private.sign(form)).decode("ascii")}
    labelled = HYBRID_LABEL + form
    return {"algorithm": HYBRID, "keyId": key.key_id,
            "value": base64.b64encode(key.private.sign(labelled)).decode("ascii"),
            "pqValue": base64.b64encode(key.pq.sign(labelled)).decode("ascii")}


def sign_object(key: KeyPair, payload: object) -> dict[str, JSON]:
    return sign_message(key, canonical_bytes(payload))


def verify_message(keys: PublicKeys | bytes, message: bytes, sig: object) -> SignatureOk | SignatureBad:
    """Never raises: a verdict naming the first defect found."""
    k = keys if isinstance(keys, PublicKeys) else PublicKeys(keys)
    if not isinstance(sig, Mapping) or sig.get("algorithm") not in (CLASSICAL, HYBRID):
        return SignatureBad(SignatureDefect.MALFORMED, f"algorithm {CLASSICAL} or {HYBRID}")
    alg = sig["algorithm"]
    if set(sig) - {"algorithm", "keyId", "value", "pqValue", "signedAt"} or (("pqValue" in sig) != (alg == HYBRID)):
        return SignatureBad(SignatureDefect.MALFORMED, "pqValue exactly when the algorithm is hybrid")
    if message.startswith(b"\xff"):
        return SignatureBad(SignatureDefect.MALFORMED, "a message in a signing domain, not a payload")
    ed = b64decode_strict(sig.get("value"))
    pq = b64decode_strict(sig.get("pqValue")) if alg == HYBRID else b""
    if ed is None or pq is None:
        return SignatureBad(SignatureDefect.MALFORMED, "signature values in standard base64")
    if len(ed) != ED25519_SIG or (alg == HYBRID and len(pq) != MLDSA65_SIG):
        return SignatureBad(SignatureDefect.TRUNCATED, f"{len(ed)} and {len(pq)} signature bytes")
    if alg == CLASSICAL and k.suite == HYBRID:
        return SignatureBad(SignatureDefect.SUITE_DOWNGRADE, "the key is hybrid: both signatures are required")
    if alg == HYBRID and k.suite == CLASSICAL:
        return SignatureBad(SignatureDefect.UNEXPECTED_SUITE, "a hybrid signature and only an Ed25519 key")
    label = HYBRID_LABEL if alg == HYBRID else b""
    if not verify_raw(k.ed25519, label + signed_form(message), ed):
        if verify_raw(k.ed25519, label + _other_form(message), ed):
            long = len(message) > KMS_LIMIT
            return SignatureBad(SignatureDefect.FORM_MISMATCH if long else SignatureDefect.FORM_DOWNGRADE,
                                f"{'raw' if long else 'commitment'} form on a {len(message)}-byte message")
        if alg == CLASSICAL and verify_raw(k.ed25519, HYBRID_LABEL + signed_form(message), ed):
            return SignatureBad(SignatureDefect.SUITE_DOWNGRADE, "the Ed25519 half of a hybrid signature")
        return SignatureBad(SignatureDefect.BAD_CLASSICAL, "the Ed25519 signature does not verify")
    if alg == HYBRID:
        assert k.mldsa65 is not None
        try:
            MLDSA65PublicKey.from_public_bytes(k.mldsa65).verify(pq, label + signed_form(message))
        except InvalidSignature:
            return SignatureBad(SignatureDefect.BAD_POST_QUANTUM, "the ML-DSA-65 signature does not verify")
    return SignatureOk(alg, len(message) > KMS_LIMIT)


def verify_object(keys: PublicKeys | bytes, payload: object, sig: object) -> SignatureOk | SignatureBad:
    if not is_exact_json(payload):
        return SignatureBad(SignatureDefect.MALFORMED, "a payload that is exact JSON")
    return verify_message(keys, canonical_bytes(payload), sig)


def public_keys_from_text(text: str, source: str = "<key>") -> PublicKeys:
    """A key file: one Ed25519 key (PEM or base64 raw), or a hybrid pair: an Ed25519 PEM block and
    an ML-DSA-65 PEM block, in either order."""
    blocks = [b for b in text.split("-----BEGIN") if b.strip()]
    if len(blocks) <= 1:
        return PublicKeys(public_raw(public_key_from_text(text, source)))
    if len(blocks) != 2:
        raise InvalidInput(source, "one Ed25519 key, or an Ed25519 and an ML-DSA-65 PEM block",
                           f"{len(blocks)} PEM blocks", InputKind.VALUE)
    ed: bytes | None = None
    pq: bytes | None = None
    for b in blocks:
        try:
            key = load_pem_public_key(("-----BEGIN" + b).strip().encode("utf-8"))
        except (ValueError, TypeError, UnicodeEncodeError, UnsupportedAlgorithm) as exc:
            raise InvalidInput(source, "PEM public keys", str(exc)[:80], InputKind.VALUE) from None
        if isinstance(key, Ed25519PublicKey) and ed is None:
            ed = public_raw(key)
        elif isinstance(key, MLDSA65PublicKey) and pq is None:
            pq = key.public_bytes(Encoding.Raw, PublicFormat.Raw)
        else:
            raise InvalidInput(source, "one Ed25519 and one ML-DSA-65 public key", type(key).__name__,
                               InputKind.VALUE)
    assert ed is not None and pq is not None
    return PublicKeys(ed, pq)


def mldsa_public_from_text(text: str, source: str) -> bytes:
    """An ML-DSA-65 public key: PEM, or base64 of its 1,952 raw bytes."""
    raw = b64decode_strict(text.strip())
    if raw is not None and len(raw) == MLDSA65_PUBLIC:
        return raw
    try:
        key = load_pem_public_key(text.strip().encode("utf-8"))
    except (ValueError, TypeError, UnicodeEncodeError, UnsupportedAlgorithm):
        key = None
    if not isinstance(key, MLDSA65PublicKey):
        raise InvalidInput(source, "an ML-DSA-65 public key (PEM or 1952 raw bytes in base64)", text.strip()[:40],
                           InputKind.VALUE)
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def hybrid_public_pem(key: KeyPair) -> str:
    """The key file of a hybrid key: both public halves as PEM blocks."""
    assert key.pq is not None
    return key.public_pem() + key.pq.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo
                                                                ).decode("ascii")
