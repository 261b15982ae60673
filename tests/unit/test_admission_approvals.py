"""Signed approvals (the Parmana paper §4.3, ``model/admission/decision/approvals.py``) checked
directly: every refusal of ``verify_approval`` with its reason and the detail a person reads, each
boundary of the time rules, the scope rules, the loaders' error locations and key revocation
(written against the mutants that survived the end-to-end tests, ``make mutation``)."""

from __future__ import annotations

import copy
import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from model.admission.decision.approvals import (
    CLOCK_SKEW,
    MAX_TTL,
    ApprovalVerified,
    ApproverKey,
    ApproverRegistry,
    load_approval,
    load_registry,
    verify_approval,
)
from model.admission.refusal import Refusal, RefusalReason
from model.base.canonical import JSON, canonical_bytes
from model.base.errors import InputKind, InvalidInput
from model.base.signing import KeyPair, format_instant

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
KEY = KeyPair.generate("k1")
REGISTRY = ApproverRegistry({("alice", "k1"): ApproverKey("alice", "k1", KEY.public)})
OTHER = KeyPair.generate("k1")
MS = timedelta(milliseconds=1)  # instants travel with millisecond precision


def signed(amount: float | None = 100, *, resource: str = "order-1", scope_resource: str | None = None,
           issued: datetime = NOW, life: timedelta = timedelta(minutes=15), key: KeyPair = KEY) -> dict[str, JSON]:
    scope: dict[str, JSON] = {"field": "value", "comparator": "lte", "value": amount} if amount is not None else \
        {"field": "resourceId", "comparator": "eq", "value": scope_resource or resource}
    payload: dict[str, JSON] = {
        "version": 1, "approvalId": "a1", "issuer": {"approverId": "alice", "keyId": "k1"},
        "issuedAt": format_instant(issued), "expiresAt": format_instant(issued + life),
        "capability": "paytm:refund", "resourceId": resource, "scope": scope, "nonce": "n1"}
    return {"payload": payload, "signature": {"algorithm": "ed25519", "keyId": "k1", "value": key.sign(payload)}}


def verify(obj: dict[str, JSON], *, amount: float | None = 50, action: str = "paytm:refund",
           resource: str = "order-1", now: datetime = NOW,
           registry: ApproverRegistry = REGISTRY) -> ApprovalVerified | Refusal:
    return verify_approval(load_approval(obj), action=action, resource=resource, amount=amount, now=now,
                           registry=registry)


def refused(out: object) -> tuple[RefusalReason, str]:
    assert isinstance(out, Refusal), out
    return out.reason, out.detail


def test_a_valid_approval_is_returned_as_verified() -> None:
    a = load_approval(signed())
    out = verify_approval(a, action="paytm:refund", resource="order-1", amount=100, now=NOW, registry=REGISTRY)
    assert isinstance(out, ApprovalVerified) and out.approval == a


def test_key_refusals_name_the_approver_key() -> None:
    assert refused(verify(signed(), registry=ApproverRegistry({}))) == (RefusalReason.UNKNOWN_APPROVER, "alice/k1")
    assert refused(verify(signed(), registry=REGISTRY.revoke("alice", "k1"))) == (RefusalReason.REVOKED_KEY,
                                                                                  "alice/k1")
    assert refused(verify(signed(key=OTHER))) == (RefusalReason.BAD_SIGNATURE, "a1: bad-ed25519")


def test_revoke_marks_only_that_key_and_keeps_its_public_key() -> None:
    bob = ApproverKey("bob", "k2", OTHER.public)
    reg = ApproverRegistry({("alice", "k1"): ApproverKey("alice", "k1", KEY.public), ("bob", "k2"): bob})
    after = reg.revoke("alice", "k1")
    assert after.keys == {("alice", "k1"): ApproverKey("alice", "k1", KEY.public, True), ("bob", "k2"): bob}
    assert not reg.keys[("alice", "k1")].revoked  # the registry is a value: the original is unchanged
    with pytest.raises(KeyError):
        reg.revoke("carol", "k9")


def test_lifetime_must_be_positive_and_at_most_24_hours() -> None:
    assert refused(verify(signed(life=timedelta(0)))) == (RefusalReason.TTL_TOO_LONG, "lifetime 0:00:00")
    too_long = MAX_TTL + MS
    assert refused(verify(signed(life=too_long))) == (RefusalReason.TTL_TOO_LONG, f"lifetime {too_long}")
    assert isinstance(verify(signed(life=MAX_TTL)), ApprovalVerified)


def test_issued_at_may_lead_now_by_exactly_the_clock_skew() -> None:
    assert isinstance(verify(signed(issued=NOW + CLOCK_SKEW)), ApprovalVerified)
    early = NOW + CLOCK_SKEW + MS
    assert refused(verify(signed(issued=early))) == (RefusalReason.NOT_YET_VALID, f"issued at {early.isoformat()}")


def test_expiry_is_exclusive_and_named() -> None:
    end = NOW + timedelta(minutes=15)
    assert refused(verify(signed(), now=end)) == (RefusalReason.EXPIRED, f"expired at {end.isoformat()}")
    assert isinstance(verify(signed(), now=end - MS), ApprovalVerified)


def test_action_and_resource_refusals_name_both_sides() -> None:
    assert refused(verify(signed(), action="paytm:charge")) == (
        RefusalReason.WRONG_ACTION, "approved paytm:refund, asked paytm:charge")
    assert refused(verify(signed(), resource="order-2")) == (
        RefusalReason.WRONG_RESOURCE, "approved order-1, asked order-2")


def test_scope_rules_and_their_messages() -> None:
    no_amount = "policy has no amount: the scope must name the resource"
    # a resource scope naming another resource than the approval's resourceId
    assert refused(verify(signed(None, scope_resource="order-2"), amount=None)) == (
        RefusalReason.SCOPE_MISMATCH, no_amount)
    assert refused(verify(signed(100), amount=None)) == (RefusalReason.SCOPE_MISMATCH, no_amount)
    assert isinstance(verify(signed(None), amount=None), ApprovalVerified)
    assert refused(verify(signed(None), amount=10)) == (
        RefusalReason.SCOPE_MISMATCH, "policy has an amount: the scope must bound it")


@pytest.mark.parametrize("amount", [math.nan, math.inf, -math.inf, True, -0.5])
def test_amounts_outside_the_approvals_domain_are_refused(amount: float) -> None:
    assert refused(verify(signed(100), amount=amount)) == (
        RefusalReason.AMOUNT_OUT_OF_DOMAIN, f"approved amounts 0..100, asked {amount}")


def test_an_amount_above_the_bound_is_refused_as_exceeded() -> None:
    assert refused(verify(signed(100), amount=100.5)) == (
        RefusalReason.AMOUNT_EXCEEDED, "approved up to 100, asked 100.5")


def test_load_registry_rejects_a_non_list_and_extra_keys_naming_the_place() -> None:
    with pytest.raises(InvalidInput) as err:
        load_registry({"approverId": "alice"}, "approvers.json")
    assert err.value.expected == "a list of approver keys" and err.value.found == "{'approverId': 'alice'}"
    assert err.value.kind is InputKind.SCHEMA and "approvers.json" in str(err.value.location)
    entry = {"approverId": "alice", "keyId": "k1", "publicKey": KEY.public_pem(), "extra": 1}
    with pytest.raises(InvalidInput) as err:
        load_registry([entry], "approvers.json")
    assert err.value.expected == "an object with approverId, keyId, publicKey[, pqPublicKey, revoked]"
    assert "[0]" in str(err.value.location)


def test_load_approval_reads_every_field() -> None:
    doc = signed(250)
    doc["signature"] = {**doc["signature"], "signedAt": format_instant(NOW)}  # type: ignore[dict-item]
    a = load_approval(doc)
    assert (a.approval_id, a.approver_id, a.key_id, a.capability, a.resource_id, a.nonce) == (
        "a1", "alice", "k1", "paytm:refund", "order-1", "n1")
    assert (a.issued_at, a.expires_at, a.scope_field, a.scope_value) == (NOW, NOW + timedelta(minutes=15), "value", 250)
    assert a.signed_bytes == canonical_bytes(doc["payload"]) and a.signature == doc["signature"]["value"]  # type: ignore[index]
    assert load_approval(signed(0.001)).scope_value == 0.001  # any positive bound


def _edit(path: tuple[str, ...], value: object) -> dict[str, JSON]:
    doc = copy.deepcopy(signed(None))
    target: Any = doc
    for p in path[:-1]:
        target = target[p]
    if value is _DROP:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


_DROP = object()
_PAYLOAD = "an object with keys ['approvalId', 'capability', 'expiresAt', 'issuedAt', 'issuer', 'nonce', " \
           "'resourceId', 'scope', 'version']"
_SIG = "an object with keys ['algorithm', 'keyId', 'pqValue', 'signedAt', 'value']"
_INSTANT = "an ISO-8601 UTC instant ending in Z"


@pytest.mark.parametrize(("path", "value", "where", "expected", "found"), [
    (("extra",), 1, "$", "an object with keys payload, signature", None),
    (("payload",), [], "$.payload", _PAYLOAD, "[]"),
    (("payload", "extra"), 1, "$.payload", _PAYLOAD, None),
    (("signature",), "sig", "$.signature", _SIG, "'sig'"),
    (("signature", "keyId"), _DROP, "$.signature", _SIG, None),
    (("signature", "extra"), 1, "$.signature", _SIG, None),
    (("payload", "version"), 2, "$.payload.version", "1", "2"),
    (("payload", "version"), True, "$.payload.version", "1", "True"),
    (("payload", "issuer"), {"approverId": "alice"}, "$.payload.issuer", "an object with keys approverId, keyId",
     "{'approverId': 'alice'}"),
    (("payload", "issuer"), "alice", "$.payload.issuer", "an object with keys approverId, keyId", "'alice'"),
    (("payload", "issuedAt"), "2026-03-01", "$.payload.issuedAt", _INSTANT, "'2026-03-01'"),
    (("payload", "expiresAt"), 5, "$.payload.expiresAt", _INSTANT, "5"),
    (("payload", "scope"), {"field": "value"}, "$.payload.scope", "an object with keys field, comparator, value",
     "{'field': 'value'}"),
    (("payload", "scope"), None, "$.payload.scope", "an object with keys field, comparator, value", "None"),
    (("payload", "scope"), {"field": "value", "comparator": "lte", "value": 0}, "$.payload.scope.value",
     "a positive finite number", "0"),
    (("payload", "scope"), {"field": "value", "comparator": "lte", "value": True}, "$.payload.scope.value",
     "a positive finite number", "True"),
    (("payload", "scope"), {"field": "value", "comparator": "lte", "value": "5"}, "$.payload.scope.value",
     "a positive finite number", "'5'"),
    (("payload", "scope"), {"field": "resourceId", "comparator": "eq", "value": ""}, "$.payload.scope.value",
     "a non-empty string", "''"),
    (("payload", "scope"), {"field": "value", "comparator": "eq", "value": 5}, "$.payload.scope",
     "field value/lte or resourceId/eq", None),
    (("payload", "scope"), {"field": "resourceId", "comparator": "lte", "value": "order-1"}, "$.payload.scope",
     "field value/lte or resourceId/eq", None),
    (("signature", "algorithm"), "rsa", "$.signature.algorithm", '"ed25519" or "ed25519+ml-dsa-65"', "'rsa'"),
    (("signature", "signedAt"), "yesterday", "$.signature.signedAt", _INSTANT, "'yesterday'"),
    (("signature", "value"), 7, "$.signature.value", "a non-empty string", "7"),
    (("payload", "issuer", "keyId"), "", "$.payload.issuer.keyId", "a non-empty string", "''"),
    (("signature", "keyId"), "k2", "$.signature.keyId", "the signed issuer.keyId", "'k2'"),
    (("payload", "approvalId"), 1, "$.payload.approvalId", "a non-empty string", "1"),
    (("payload", "issuer", "approverId"), None, "$.payload.issuer.approverId", "a non-empty string", "None"),
    (("payload", "capability"), "", "$.payload.capability", "a non-empty string", "''"),
    (("payload", "resourceId"), [], "$.payload.resourceId", "a non-empty string", "[]"),
    (("payload", "nonce"), "", "$.payload.nonce", "a non-empty string", "''"),
])
def test_load_approval_names_the_json_path_and_what_was_expected(path: tuple[str, ...], value: object, where: str,
                                                                  expected: str, found: str | None) -> None:
    doc = _edit(path, value)
    with pytest.raises(InvalidInput) as err:
        load_approval(doc, "ap.json")
    assert str(err.value.location) == f"ap.json at {where}" and err.value.expected == expected
    assert err.value.kind is InputKind.SCHEMA
    assert err.value.found == (found if found is not None else repr(doc if where == "$" else _at(doc, where))[:80])


def _at(doc: dict[str, JSON], where: str) -> object:
    target: Any = doc
    for p in where.split(".")[1:]:
        target = target[p]
    return target


def test_load_approval_refuses_a_number_it_cannot_hold_exactly() -> None:
    with pytest.raises(InvalidInput) as err:
        load_approval(signed(2**60), "ap.json")
    assert str(err.value.location) == "ap.json at $.payload.scope.value"
    assert err.value.expected == "an integer within ±(2**53 - 1)"


def test_load_registry_reads_keys_and_revocation() -> None:
    reg = load_registry([{"approverId": "alice", "keyId": "k1", "publicKey": KEY.public_pem()},
                         {"approverId": "bob", "keyId": "k2", "publicKey": KEY.public_pem(), "revoked": True}])
    assert reg.keys == {("alice", "k1"): ApproverKey("alice", "k1", KEY.public, False),
                        ("bob", "k2"): ApproverKey("bob", "k2", KEY.public, True)}


_ENTRY = "an object with approverId, keyId, publicKey[, pqPublicKey, revoked]"


@pytest.mark.parametrize(("change", "where", "expected", "found", "kind"), [
    ("not an object", "$[1]", _ENTRY, "'not an object'", InputKind.SCHEMA),
    ({"approverId": ""}, "$[1].approverId", "a non-empty string", "''", InputKind.SCHEMA),
    ({"keyId": 5}, "$[1].keyId", "a non-empty string", "5", InputKind.SCHEMA),
    ({"publicKey": ""}, "$[1].publicKey", "a non-empty string", "''", InputKind.SCHEMA),
    ({"publicKey": "c2hvcnQ="}, "$[1].publicKey", "a PEM Ed25519 public key or 32 raw bytes in base64", "c2hvcnQ=",
     InputKind.VALUE),
    ({"revoked": "yes"}, "$[1].revoked", "a boolean", "'yes'", InputKind.SCHEMA),
    ({"keyId": "k1"}, "$[1]", "each approver key once", "alice/k1", InputKind.REFERENCE),
])
def test_load_registry_names_the_entry_and_what_was_expected(change: object, where: str, expected: str, found: str,
                                                             kind: InputKind) -> None:
    first = {"approverId": "alice", "keyId": "k1", "publicKey": KEY.public_pem()}
    second = {**first, "keyId": "k2", **change} if isinstance(change, dict) else change
    with pytest.raises(InvalidInput) as err:
        load_registry([first, second], "approvers.json")
    assert (str(err.value.location), err.value.expected, err.value.found, err.value.kind) == (
        f"approvers.json at {where}", expected, found, kind)


def test_load_approval_refuses_text_rfc8785_cannot_encode_and_names_its_default_source() -> None:
    with pytest.raises(InvalidInput) as err:
        load_approval(_edit(("payload", "nonce"), "\ud800"), "ap.json")  # a lone surrogate
    assert (str(err.value.location), err.value.expected, err.value.found) == (
        "ap.json at $.payload", "a value RFC 8785 can canonicalize", "'input contains non-UTF-8 codepoints'")
    with pytest.raises(InvalidInput) as err:
        load_approval([])
    assert str(err.value.location) == "<approval> at $"


def test_load_registry_names_its_default_source() -> None:
    with pytest.raises(InvalidInput) as err:
        load_registry({})
    assert str(err.value.location) == "<approvers> at $"
