"""Hybrid Ed25519 + ML-DSA-65 signatures and the KMS commitment form (``model.admission.signatures.hybrid``) on
records, authorizations and approvals, and in the offline verifier: valid objects verify; forged,
downgraded (suite and form), truncated and cross-key inputs are refused, each with a named reason."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.admission.decision.approvals import (
    ApprovalVerified,
    ApproverKey,
    ApproverRegistry,
    load_approval,
    load_registry,
    verify_approval,
)
from model.admission.deployments.release_deployment import Pipeline
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.gateway import Authorized, Released, ReleaseGate
from model.admission.signatures.hybrid import (
    COMMITMENT,
    HYBRID_LABEL,
    KMS_LIMIT,
    PublicKeys,
    SignatureBad,
    SignatureDefect,
    SignatureOk,
    generate_hybrid,
    hybrid_public_pem,
    public_keys,
    public_keys_from_text,
    sign_object,
    verify_message,
    verify_object,
)
from model.admission.signatures.records import RecordDefect, RecordInvalid, RecordStore, RecordValid, verify_record
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON, canonical_bytes
from model.base.errors import InvalidInput
from model.base.signing import KeyPair, format_instant
from model.shell.cli import main

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
HK = generate_hybrid("rt-h")
CK = KeyPair.generate("rt-c")
D = SignatureDefect


def defect(v: object) -> SignatureDefect:
    assert isinstance(v, SignatureBad), v
    return v.defect


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def test_hybrid_and_classical_objects_verify_under_their_own_keys() -> None:
    p = {"x": 1}
    assert verify_object(public_keys(HK), p, sign_object(HK, p)) == SignatureOk("ed25519+ml-dsa-65", False)
    assert verify_object(CK.public, p, sign_object(CK, p)) == SignatureOk("ed25519", False)
    assert sign_object(CK, p)["value"] == CK.sign(p)  # classical, short: the SDK's bytes, unchanged


def test_suite_downgrades_refused_both_ways() -> None:
    p = {"x": 1}
    sig = sign_object(HK, p)
    stripped = {"algorithm": "ed25519", "keyId": sig["keyId"], "value": sig["value"]}
    assert defect(verify_object(public_keys(HK), p, stripped)) is D.SUITE_DOWNGRADE
    # a verifier holding only the Ed25519 half still refuses the lifted half: it signed the hybrid label
    assert defect(verify_object(HK.public, p, stripped)) is D.SUITE_DOWNGRADE
    assert defect(verify_object(HK.public, p, sig)) is D.UNEXPECTED_SUITE
    classical_by_same_ed_key = {"algorithm": "ed25519", "keyId": "rt-h", "value": HK.sign(p)}
    assert defect(verify_object(public_keys(HK), p, classical_by_same_ed_key)) is D.SUITE_DOWNGRADE


def test_forged_halves_and_truncations_are_named() -> None:
    p = {"x": 1}
    sig = sign_object(HK, p)
    other = generate_hybrid("rt-h")
    forged_pq = {**sig, "pqValue": sign_object(other, p)["pqValue"]}
    assert defect(verify_object(public_keys(HK), p, forged_pq)) is D.BAD_POST_QUANTUM
    forged_ed = {**sig, "value": sign_object(other, p)["value"]}
    assert defect(verify_object(public_keys(HK), p, forged_ed)) is D.BAD_CLASSICAL
    assert defect(verify_object(public_keys(HK), {"x": 2}, sig)) is D.BAD_CLASSICAL  # altered payload
    pq = base64.b64decode(str(sig["pqValue"]))
    assert defect(verify_object(public_keys(HK), p, {**sig, "pqValue": _b64(pq[:-1])})) is D.TRUNCATED
    ed = base64.b64decode(str(sig["value"]))
    assert defect(verify_object(public_keys(HK), p, {**sig, "value": _b64(ed[:32])})) is D.TRUNCATED
    assert defect(verify_object(public_keys(HK), p, {**sig, "value": "***"})) is D.MALFORMED
    no_pq = {k: v for k, v in sig.items() if k != "pqValue"}
    assert defect(verify_object(public_keys(HK), p, no_pq)) is D.MALFORMED  # hybrid algorithm without pqValue


def test_commitment_form_above_4096_bytes_and_no_downgrade_between_forms() -> None:
    big = {"blob": "a" * (KMS_LIMIT + 10)}
    small = {"blob": "a"}
    for key, keys in ((CK, CK.public), (HK, public_keys(HK))):
        ok = verify_object(keys, big, sign_object(key, big))
        assert isinstance(ok, SignatureOk) and ok.committed
    m_small, m_big = canonical_bytes(small), canonical_bytes(big)
    committed_small = {"algorithm": "ed25519", "keyId": "k",
                       "value": _b64(CK.private.sign(COMMITMENT + hashlib.sha512(m_small).digest()))}
    assert defect(verify_message(CK.public, m_small, committed_small)) is D.FORM_DOWNGRADE
    raw_big = {"algorithm": "ed25519", "keyId": "k", "value": _b64(CK.private.sign(m_big))}
    assert defect(verify_message(CK.public, m_big, raw_big)) is D.FORM_MISMATCH
    # a commitment string presented as a raw message is outside every payload's domain
    commitment = COMMITMENT + hashlib.sha512(m_big).digest()
    assert defect(verify_message(CK.public, commitment, sign_object(CK, big))) is D.MALFORMED
    assert defect(verify_message(public_keys(HK), HYBRID_LABEL + m_small, sign_object(HK, small))) is D.MALFORMED


def test_records_hybrid_and_downgraded(tmp_path: Path) -> None:
    store = RecordStore(HK, str(tmp_path / "r.db"))
    rec = store.append("execution", {"big": "b" * 5000}, NOW)
    assert isinstance(verify_record(rec, public_keys(HK)), RecordValid)
    down = copy.deepcopy(rec)
    down["signature"] = {"algorithm": "ed25519", "keyId": "rt-h", "value": rec["signature"]["value"]}
    out = verify_record(down, public_keys(HK))
    assert isinstance(out, RecordInvalid) and out.defect is RecordDefect.DOWNGRADE
    out = verify_record(rec, HK.public)
    assert isinstance(out, RecordInvalid) and out.defect is RecordDefect.DOWNGRADE and "unexpected-suite" in out.detail


def _gate(pipe: Pipeline, key: bytes | PublicKeys) -> ReleaseGate:
    return ReleaseGate(pipe.gov, ToolRegistry({"paytm:refund": lambda _i: {"ok": True}}), key, pipe.records,
                       pipe.nonces)


def test_authorizations_hybrid_release_and_downgrades_refused(tmp_path: Path) -> None:
    pipe = Pipeline(tmp_path, NOW, runtime_key=HK)
    tx = pipe.transaction(approval=pipe.approval())
    out = pipe.runtime.decide(tx, NOW)
    assert isinstance(out, Authorized) and out.authorization["signature"]["algorithm"] == "ed25519+ml-dsa-65"
    auth = out.authorization
    down = copy.deepcopy(auth)
    down["signature"] = {"algorithm": "ed25519", "keyId": "rt-h", "value": HK.sign(auth["payload"])}
    r = pipe.gate.release(down, tx, NOW)
    assert isinstance(r, Refusal) and r.reason is RefusalReason.SIGNATURE_DOWNGRADE, r
    r = _gate(pipe, HK.public).release(copy.deepcopy(auth), tx, NOW)  # a gate configured classical-only
    assert isinstance(r, Refusal) and r.reason is RefusalReason.SIGNATURE_DOWNGRADE and "unexpected-suite" in r.detail
    forged = copy.deepcopy(auth)
    forged["signature"]["pqValue"] = sign_object(generate_hybrid("x"), auth["payload"])["pqValue"]
    r = pipe.gate.release(forged, tx, NOW)
    assert isinstance(r, Refusal) and r.reason is RefusalReason.BAD_SIGNATURE and "bad-ml-dsa-65" in r.detail
    assert isinstance(pipe.gate.release(auth, tx, NOW), Released)


def _approval(key: KeyPair, hybrid: bool) -> dict[str, JSON]:
    payload = {"version": 1, "approvalId": "a1", "issuer": {"approverId": "alice", "keyId": key.key_id},
               "issuedAt": format_instant(NOW), "expiresAt": "2026-03-01T12:10:00.000Z", "capability": "pay",
               "resourceId": "o1", "scope": {"field": "resourceId", "comparator": "eq", "value": "o1"}, "nonce": "n"}
    sig = sign_object(key, payload) if hybrid else {"algorithm": "ed25519", "keyId": key.key_id,
                                                     "value": key.sign(payload)}
    return {"payload": payload, "signature": sig}


def test_approvals_from_a_hybrid_approver_need_both_signatures() -> None:
    ak = generate_hybrid("alice-h")
    reg = load_registry([{"approverId": "alice", "keyId": "alice-h", "publicKey": ak.public_pem(),
                          "pqPublicKey": hybrid_public_pem(ak).split("-----END PUBLIC KEY-----\n", 1)[1]}])
    assert reg.keys[("alice", "alice-h")].pq_public_key == public_keys(ak).mldsa65

    def check(doc: object, registry: ApproverRegistry = reg) -> object:
        return verify_approval(load_approval(doc), action="pay", resource="o1", amount=None, now=NOW,
                               registry=registry)

    assert isinstance(check(_approval(ak, True)), ApprovalVerified)
    out = check(_approval(ak, False))
    assert isinstance(out, Refusal) and out.reason is RefusalReason.SIGNATURE_DOWNGRADE
    classical_reg = ApproverRegistry({("alice", "alice-h"): ApproverKey("alice", "alice-h", ak.public)})
    out = check(_approval(ak, True), classical_reg)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.SIGNATURE_DOWNGRADE
    with pytest.raises(InvalidInput, match="pqPublicKey"):
        load_registry([{"approverId": "a", "keyId": "k", "publicKey": ak.public_pem(), "pqPublicKey": "AAAA"}])


def test_key_files_and_offline_verifier_handle_both_suites(tmp_path: Path) -> None:
    assert public_keys_from_text(hybrid_public_pem(HK)) == public_keys(HK)
    assert public_keys_from_text(CK.public_pem()) == PublicKeys(CK.public)
    with pytest.raises(InvalidInput, match="3 PEM blocks"):
        public_keys_from_text(hybrid_public_pem(HK) + CK.public_pem(), "k.pem")
    with pytest.raises(InvalidInput, match="one Ed25519 and one ML-DSA-65"):
        public_keys_from_text(CK.public_pem() + KeyPair.generate("z").public_pem(), "k.pem")
    rec = RecordStore(HK, ":memory:").append("execution", {"i": 1}, NOW)
    (tmp_path / "rec.json").write_text(json.dumps(rec))
    (tmp_path / "hybrid.pem").write_text(hybrid_public_pem(HK))
    (tmp_path / "classical.pem").write_text(HK.public_pem())
    run = CliRunner().invoke
    ok = run(main, ["verify-record", str(tmp_path / "rec.json"), "--key", str(tmp_path / "hybrid.pem")])
    assert ok.exit_code == 0 and ok.output.startswith("valid: execution"), ok.output
    half = run(main, ["verify-record", str(tmp_path / "rec.json"), "--key", str(tmp_path / "classical.pem")])
    assert half.exit_code == 1 and "(downgrade: record 0: unexpected-suite" in half.output, half.output


def test_hybrid_approval_and_registry_loaders_keep_the_pq_half_and_name_what_is_wrong() -> None:
    ak = generate_hybrid("alice-h")
    pq_pem = hybrid_public_pem(ak).split("-----END PUBLIC KEY-----\n", 1)[1]
    doc = _approval(ak, True)
    full = copy.deepcopy(doc)
    full["signature"]["signedAt"] = format_instant(NOW)  # every signature key at once
    a = load_approval(full, "a.json")
    assert a.pq_signature == doc["signature"]["pqValue"] and a.algorithm == doc["signature"]["algorithm"]
    no_pq = copy.deepcopy(doc)
    del no_pq["signature"]["pqValue"]
    extra_pq = _approval(ak, False)
    extra_pq["signature"]["pqValue"] = "x"
    bad_pq = copy.deepcopy(doc)
    bad_pq["signature"]["pqValue"] = 5
    for wrong, message in (
            (no_pq, "a.json at $.signature: expected pqValue exactly when the algorithm is hybrid, found "
                    "['algorithm', 'keyId', 'value']"),
            (extra_pq, "a.json at $.signature: expected pqValue exactly when the algorithm is hybrid, found "
                       "['algorithm', 'keyId', 'pqValue', 'value']"),
            (bad_pq, "a.json at $.signature.pqValue: expected a non-empty string, found 5")):
        with pytest.raises(InvalidInput) as e:
            load_approval(wrong, "a.json")
        assert str(e.value) == message
    entry = {"approverId": "a", "keyId": "k", "publicKey": ak.public_pem(), "pqPublicKey": pq_pem, "revoked": False}
    reg = load_registry([entry], "r.json")  # every registry key at once
    assert reg.keys[("a", "k")].pq_public_key == public_keys(ak).mldsa65
    revoked = reg.revoke("a", "k").keys[("a", "k")]
    assert revoked.revoked and revoked.pq_public_key == public_keys(ak).mldsa65
    for pq, message in ((5, "r.json at $[0].pqPublicKey: expected a non-empty string, found 5"),
                        ("AAAA", "r.json at $[0].pqPublicKey: expected an ML-DSA-65 public key (PEM or 1952 raw "
                                 "bytes in base64), found AAAA")):
        with pytest.raises(InvalidInput) as e:
            load_registry([{**entry, "pqPublicKey": pq}], "r.json")
        assert str(e.value) == message
