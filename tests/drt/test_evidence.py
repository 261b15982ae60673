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
    EDGE_ACCEPTED,
    KINDS,
    SIG_KINDS,
    draw_case,
    draw_signature,
    edge_signatures,
    oracle_input,
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

# RFC 8032, Section 7.1: (secret key, public key, message, signature), TESTs 1, 2, 3, 1024 and SHA(abc)
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
    ("f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
     "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
     "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1"
     "e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
     "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a"
     "7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
     "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc10"
     "3b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
     "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2d17ba70eb6248e594e1a2297acbbb39d"
     "502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
     "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089b"
     "eccf80cfe2df16a2cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
     "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae0784504df543af8969b"
     "e3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
     "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988d"
     "cda6f3bfd15c4b4c4525004aa06eeff8ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
     "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7"
     "984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
     "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac09"
     "43bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
     "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f161"
     "0e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
     "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8ca"
     "c60c905c15fc910840b94c00a0b9d0",
     "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03"),
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


def _json(r: random.Random, depth: int) -> object:
    keys = ["a", "b", "Z", "é", "\ue000", "\uffff", "\U0001f600", "\U0001f600x", "", "\"\\", "\u0007"]
    pick = r.randrange(8 if depth else 5)
    if pick == 0:
        return r.choice([None, True, False])
    if pick == 1:
        return r.randint(-(2**53 - 1), 2**53 - 1)
    if pick == 2:  # at most 15 significant digits and below 10^15: the model's domain
        return float(f"{r.randint(1, 10**r.randint(1, 15) - 1)}e{r.randint(-40, 0)}") * r.choice([1, -1])
    if pick in (3, 4):
        return "".join(r.choice(keys) for _ in range(r.randint(0, 4)))
    if pick == 5:
        return [_json(r, depth - 1) for _ in range(r.randint(0, 3))]
    return {r.choice(keys) + r.choice(keys): _json(r, depth - 1) for _ in range(r.randint(0, 4))}


def test_canonical_json_generated(oracle: LeanOracle) -> None:
    r = random.Random(20261210)
    for _ in range(300):
        v = _json(r, 3)
        assert oracle.call("canonical_json", {"value": v})["bytes"] == canonical_bytes(v).hex(), v


def test_unsupported_number(oracle: LeanOracle) -> None:
    """A number outside the model's domain (here a float of 16 significant digits in the scope) is answered
    `unsupported`, with the store unchanged: never a verdict."""
    case = draw_case(random.Random(5), "valid-amount")
    case.approval["payload"]["scope"]["value"] = 0.1234567890123456
    out = oracle.call("permit_evidence", oracle_input(case))
    assert out["verdict"] == "unsupported" and out["reason"] is None and sorted(out["spent"]) == sorted(case.spent)
    # an integral value beyond 2^53 - 1 reads the same as an integer the Python loader refuses: no bytes either
    assert oracle.call("canonical_json", {"value": [1e20]})["bytes"] is None


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
    for k in ("valid", "valid-amount", "valid-long", "valid-unicode", *EDGE_ACCEPTED):
        assert seen.get(f"{k}:accepted:None") == 3, seen
    assert len({v for v in verdicts if v.startswith("refused")}) >= 12, sorted(verdicts)
    for k, why in (("edge-skew-over", "not-yet-valid"), ("edge-expiry", "expired"), ("edge-ttl-over", "ttl-too-long")):
        assert seen.get(f"{k}:refused:{why}") == 3, seen
