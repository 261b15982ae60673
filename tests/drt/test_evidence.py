"""The permit evidence check in Lean (lean/AgentWarrant/Spec/Monitor/Evidence.lean, EvidenceCrypto.lean)
against the Python model (model/oracle/drt_evidence.py), and its primitives against the standards'
test vectors: SHA-512 (FIPS 180-4 examples) and Ed25519 (RFC 8032, Section 7.1). Each vector is also
checked on the Python side (``hashlib``, ``cryptography``), so a mistyped vector fails rather than
passing on both."""

from __future__ import annotations

import hashlib
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from model.base.canonical import canonical_bytes
from model.base.signing import public_raw
from model.oracle.drt import report
from model.oracle.drt_evidence import (
    KINDS,
    SIG_KINDS,
    draw_case,
    draw_signature,
    edge_signatures,
    run_evidence,
    run_sha512,
    run_signature,
)
from model.oracle.lean import LeanOracle
from model.oracle.results import Agree, Mismatch

pytestmark = pytest.mark.lean

# FIPS 180-4 examples (the NIST "Example Algorithm" documents for SHA-512)
SHA512_VECTORS = [
    (b"abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
             "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    (b"", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
          "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
    (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
     "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"),
    (b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
     b"nopqrstu",
     "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
]

# RFC 8032, Section 7.1: (secret key, public key, message, signature), TESTs 1, 2, 3 and SHA(abc)
ED25519_VECTORS = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ("833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"),
]


@pytest.mark.parametrize(("message", "expected"), SHA512_VECTORS)
def test_sha512_vectors(oracle: LeanOracle, message: bytes, expected: str) -> None:
    assert hashlib.sha512(message).hexdigest() == expected
    assert oracle.call("sha512", {"message": message.hex()})["digest"] == expected


@pytest.mark.parametrize(("secret", "public", "message", "signature"), ED25519_VECTORS)
def test_ed25519_vectors(oracle: LeanOracle, secret: str, public: str, message: str, signature: str) -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(secret))
    assert public_raw(key.public_key()).hex() == public
    assert key.sign(bytes.fromhex(message)).hex() == signature  # Ed25519 signing is deterministic
    good = {"publicKey": public, "message": message, "signature": signature}
    assert oracle.call("ed25519_verify", good)["valid"] is True
    bad = dict(good, message=message + "00")
    assert oracle.call("ed25519_verify", bad)["valid"] is False


def test_sha512_generated(oracle: LeanOracle) -> None:
    r = random.Random(20261206)
    for n in [0, 1, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256, 1000, 5000]:
        res = run_sha512(oracle, r.randbytes(n))
        assert isinstance(res, Agree), report(res) if isinstance(res, Mismatch) else res


def test_ed25519_generated(oracle: LeanOracle) -> None:
    r = random.Random(20261207)
    seen: dict[str, int] = {}
    for i in range(4 * len(SIG_KINDS)):
        kind = SIG_KINDS[i % len(SIG_KINDS)]
        res = run_signature(oracle, *draw_signature(r, kind), kind)
        if isinstance(res, Mismatch):
            pytest.fail(report(res))
        assert isinstance(res, Agree)
        seen[res.kind] = seen.get(res.kind, 0) + 1
    assert seen.get("valid:True") == 4 and not any(k.startswith("valid:False") for k in seen), seen
    assert any(k.endswith(":False") for k in seen), seen


def test_ed25519_edges(oracle: LeanOracle) -> None:
    """Small-order and non-canonical encodings: both sides accept some and refuse others, and agree on each."""
    answers = set()
    for kind, pub, msg, sig in edge_signatures(random.Random(20261209)):
        res = run_signature(oracle, pub, msg, sig, kind)
        if isinstance(res, Mismatch):
            pytest.fail(report(res))
        assert isinstance(res, Agree)
        answers.add(res.kind)
    assert {"identity-key:True", "identity-key-y-over-p:True", "noncanonical-r:False"} <= answers, answers
    assert {"order-2-key:True", "order-2-key:False"} <= answers, answers


def test_canonical_json(oracle: LeanOracle) -> None:
    values = [{"b": [1, 2.5, -0.000001, 1.23e-18, 1e-7, 0.1, 100, 9007199254740991], "a": "x\n\u0001\u007fé",
               "\u00e9": None, "Z": True, "\U0001f600": 1, "\uffff": 2, "": [], "e": {}},
              "\"\\\b\f\n\r\t\u2028", [0, -0.0, 1.5, -12.5e-3, 123456789012345e-20, 1e300 / 1e290]]
    for v in values:
        assert oracle.call("canonical_json", {"value": v})["bytes"] == canonical_bytes(v).hex(), v


def test_permit_evidence(oracle: LeanOracle) -> None:
    r = random.Random(20261208)
    seen: dict[str, int] = {}
    for i in range(3 * len(KINDS)):
        kind = KINDS[i % len(KINDS)]
        res = run_evidence(oracle, draw_case(r, kind))
        if isinstance(res, Mismatch):
            pytest.fail(report(res))
        assert isinstance(res, Agree)
        seen[res.kind] = seen.get(res.kind, 0) + 1
    verdicts = {k.split(":", 1)[1] for k in seen}
    # every valid kind is accepted; the breakages reach at least a dozen different refusals
    for k in ("valid", "valid-amount", "valid-long", "valid-unicode"):
        assert seen.get(f"{k}:accepted:None") == 3, seen
    assert len({v for v in verdicts if v.startswith("refused")}) >= 12, sorted(verdicts)
