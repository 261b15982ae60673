"""Ed25519 over canonical JSON, keys and instants (the Parmana paper, Sections 4.3–4.5).

Everything signed is the RFC 8785 form of a JSON payload (``model.base.canonical``); signatures travel
as standard base64. Choices where the source is silent or where Parmana's SDK fixes them:
- Instants are the JavaScript ``toISOString`` form ``YYYY-MM-DDTHH:MM:SS.sssZ`` that Parmana
  signs; we also accept 0–6 fractional digits on input but always write milliseconds, UTC, ``Z``.
- Parmana's Python SDK signs ``json.dumps(sort_keys, compact, ensure_ascii=False)``. For the
  payloads it produces (ASCII keys, integers or short decimals) those bytes equal RFC 8785's;
  ``tests/property/test_admission_canonical_interop.py`` checks that equality on generated payloads rather
  than assuming it. We verify against RFC 8785 only — one byte form, no fallback.
- A public key is PEM (SubjectPublicKeyInfo) or the 32 raw bytes in base64.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.mldsa import MLDSA65PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_public_key,
)

from model.base.canonical import canonical_bytes, is_exact_json
from model.base.errors import InputKind, InvalidInput

_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$")


def parse_instant(text: object) -> datetime | None:
    """A UTC instant in ISO form with ``Z``; ``None`` if it is not one."""
    if not isinstance(text, str) or not _INSTANT.match(text):
        return None
    try:
        return datetime.fromisoformat(text[:-1]).replace(tzinfo=UTC)
    except ValueError:
        return None


def format_instant(moment: datetime) -> str:
    m = moment.astimezone(UTC)
    return m.strftime("%Y-%m-%dT%H:%M:%S.") + f"{m.microsecond // 1000:03d}Z"


def b64decode_strict(text: object) -> bytes | None:
    if not isinstance(text, str):
        return None
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None


def public_key_from_text(text: str, source: str = "<key>") -> Ed25519PublicKey:
    """PEM or base64 of the 32 raw bytes; anything else is ``InvalidInput``."""
    stripped = text.strip()
    if stripped.startswith("-----BEGIN"):
        try:
            key = load_pem_public_key(stripped.encode("utf-8"))
        except (ValueError, TypeError, UnicodeEncodeError, UnsupportedAlgorithm) as exc:
            raise InvalidInput(source, "a PEM Ed25519 public key", str(exc)[:80], InputKind.VALUE) from None
        if not isinstance(key, Ed25519PublicKey):
            raise InvalidInput(source, "an Ed25519 public key", type(key).__name__, InputKind.VALUE)
        return key
    raw = b64decode_strict(stripped)
    if raw is None or len(raw) != 32:
        raise InvalidInput(source, "a PEM Ed25519 public key or 32 raw bytes in base64", stripped[:40],
                           InputKind.VALUE)
    return Ed25519PublicKey.from_public_bytes(raw)


def public_raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def sign_bytes(key: Ed25519PrivateKey, message: bytes) -> str:
    return base64.b64encode(key.sign(message)).decode("ascii")


def sign_payload(key: Ed25519PrivateKey, payload: object) -> str:
    return sign_bytes(key, canonical_bytes(payload))


def verify_raw(public: bytes | Ed25519PublicKey, message: bytes, sig: bytes) -> bool:
    """Ed25519 verification of raw signature bytes: the one place every verifier in the project
    (classical, the hybrid suite's Ed25519 half, the evidence DRT) calls."""
    if len(sig) != 64:
        return False
    key = public if isinstance(public, Ed25519PublicKey) else Ed25519PublicKey.from_public_bytes(public)
    try:
        key.verify(sig, message)
    except InvalidSignature:
        return False
    return True


def verify_bytes(public: bytes | Ed25519PublicKey, message: bytes, signature_b64: object) -> bool:
    sig = b64decode_strict(signature_b64)
    return sig is not None and verify_raw(public, message, sig)


def verify_payload(public: bytes | Ed25519PublicKey, payload: object, signature_b64: object) -> bool:
    if not is_exact_json(payload):
        return False
    message = canonical_bytes(payload)
    return verify_bytes(public, message, signature_b64)


@dataclass(frozen=True)
class KeyPair:
    """A signing key with its id; tests and the CLI demo make these, deployments load them. ``pq``,
    when present, makes it a hybrid key (``model.admission.signatures.hybrid``): objects it signs there carry
    both signatures. ``sign`` below is the classical Ed25519 signature alone."""

    key_id: str
    private: Ed25519PrivateKey
    pq: MLDSA65PrivateKey | None = None

    @staticmethod
    def generate(key_id: str) -> KeyPair:
        return KeyPair(key_id, Ed25519PrivateKey.generate())

    @property
    def public(self) -> bytes:
        return public_raw(self.private.public_key())

    def private_pem(self) -> str:
        return self.private.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode("ascii")

    def public_pem(self) -> str:
        return self.private.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo).decode("ascii")

    def sign(self, payload: object) -> str:
        return sign_payload(self.private, payload)
