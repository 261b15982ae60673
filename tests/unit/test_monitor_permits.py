"""Exact-call permits that require a signed single-use approval as evidence (Agenra Table 1 rows
5–7 with the Parmana paper §4.3 approvals, verified by model.admission)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from model.admission.decision.approvals import ApproverKey, ApproverRegistry
from model.admission.decision.nonces import SqliteNonceStore
from model.base.canonical import JSON
from model.base.signing import KeyPair, format_instant
from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Handle, Refusal
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.base import DenyReason
from model.monitor.decide.permits import EvidenceRefused, signed_approval_evidence
from model.monitor.decide.state import Permit

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
KEY = KeyPair.generate("k1")
OTHER = KeyPair.generate("k1")  # same key id, not registered
REGISTRY = ApproverRegistry({("manager", "k1"): ApproverKey("manager", "k1", KEY.public)})
ALICE = "alice@example.org"


def approval(resource: str = ALICE, nonce: str = "n1", key: KeyPair = KEY, capability: str = "message.send",
             ttl: timedelta = timedelta(minutes=15)) -> dict[str, JSON]:
    payload = {"version": 1, "approvalId": f"a-{nonce}", "issuer": {"approverId": "manager", "keyId": "k1"},
               "issuedAt": format_instant(NOW), "expiresAt": format_instant(NOW + ttl),
               "capability": capability, "resourceId": resource,
               "scope": {"field": "resourceId", "comparator": "eq", "value": resource}, "nonce": nonce}
    return {"payload": payload, "signature": {"algorithm": "ed25519", "keyId": "k1", "value": key.sign(payload)}}


@pytest.fixture
def setup() -> tuple[Adapter, ReportWorld, Handle, Handle]:
    world = ReportWorld()
    evidence = signed_approval_evidence(REGISTRY, SqliteNonceStore(), clock=lambda: NOW)
    ad = Adapter(load("report_permit"), world.tools(), "assistant", permit_evidence=evidence)
    s = ad.call("Sanitize", record=ad.call("Read"))
    a = ad.call("Lookup", name="Alice")
    assert isinstance(s, Handle) and isinstance(a, Handle)
    return ad, world, s, a.at("destination")


def test_a_signed_approval_backs_exactly_one_send(setup: tuple[Adapter, ReportWorld, Handle, Handle]) -> None:
    ad, world, s, a = setup
    permit = ad.issue_permit("Send", approval(), body=s, recipient=a)
    assert isinstance(permit, Permit) and permit.evidence is not None
    assert isinstance(ad.call("Send", body=s, recipient=a), Handle)
    assert world.mailbox[ALICE]
    again = ad.call("Send", body=s, recipient=a)
    assert isinstance(again, Refusal) and again.verdict.reason is DenyReason.PERMIT_CONSUMED


def test_a_replayed_approval_cannot_back_a_second_permit(setup: tuple[Adapter, ReportWorld, Handle, Handle]) -> None:
    ad, _, s, a = setup
    assert isinstance(ad.issue_permit("Send", approval(), body=s, recipient=a), Permit)
    second = ad.issue_permit("Send", approval(), body=s, recipient=a)
    assert isinstance(second, EvidenceRefused) and "nonce" in second.reason


@pytest.mark.parametrize(("bad", "why"), [
    (approval(key=OTHER), "signature"),
    (approval(resource="mallory@evil.example"), "resource"),
    (approval(capability="record.release"), "action"),
    ({"payload": {}, "signature": {}}, "malformed"),
    ("approved", "plain flag"),
])
def test_bad_evidence_issues_no_permit(setup: tuple[Adapter, ReportWorld, Handle, Handle], bad: JSON,
                                       why: str) -> None:
    ad, world, s, a = setup
    answer = ad.issue_permit("Send", bad, body=s, recipient=a)
    assert isinstance(answer, EvidenceRefused), why
    r = ad.call("Send", body=s, recipient=a)
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.PERMIT_MISSING
    assert world.mailbox == {}


def test_an_approval_cannot_override_the_flow_rule(setup: tuple[Adapter, ReportWorld, Handle, Handle]) -> None:
    ad, world, _, a = setup
    raw = ad.call("Read")
    assert isinstance(raw, Handle)
    assert isinstance(ad.issue_permit("Send", approval(), body=raw, recipient=a), Permit)
    r = ad.call("Send", body=raw, recipient=a)
    assert isinstance(r, Refusal) and r.verdict.reason in (DenyReason.ORIGIN, DenyReason.FLOW)
    assert DenyReason.FLOW in {v.reason for v in ad.explain("Send", body=raw, recipient=a)}
    assert world.mailbox == {}
