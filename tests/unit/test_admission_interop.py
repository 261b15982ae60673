"""Interoperability with a real client: approvals signed by Parmana's published
Python SDK (``parmana.crypto.approval.sign_approval``, a test dependency) verify in ours under the
same binding rules, go through our decision and release, and tampered ones are refused."""

from __future__ import annotations

import base64
import copy
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from parmana.crypto.approval import sign_approval

from model.admission.decision.approvals import ApprovalVerified, ApproverKey, ApproverRegistry
from model.admission.decision.evidence import verify_approval_evidence
from model.admission.decision.nonces import SqliteNonceStore
from model.admission.deployments.release_deployment import Pipeline
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.gateway import Authorized, Released
from model.base.signing import KeyPair, parse_instant

KEY = KeyPair.generate("alice-key-1")
REGISTRY = ApproverRegistry({("alice", "alice-key-1"): ApproverKey("alice", "alice-key-1", KEY.public)})
R = RefusalReason


def sdk(max_amount: float | None = 500.0, resource: str = "order-1", capability: str = "paytm:refund",
        ttl: int = 900) -> dict[str, Any]:
    return sign_approval(private_key_pem=KEY.private_pem(), approver_id="alice", key_id="alice-key-1",
                         capability=capability, resource_id=resource, max_amount=max_amount, ttl_seconds=ttl)


def check(a: object, amount: float | None, resource: str = "order-1", action: str = "paytm:refund",
          at: timedelta = timedelta(seconds=1)) -> ApprovalVerified | Refusal:
    assert isinstance(a, dict)
    issued = parse_instant(a["payload"]["issuedAt"]) if isinstance(a.get("payload"), dict) else None
    assert issued is not None
    return verify_approval_evidence(a, action=action, resource=resource, amount=amount, now=issued + at,
                                    registry=REGISTRY, nonce_store=SqliteNonceStore())


def reason(out: object) -> RefusalReason | None:
    return out.reason if isinstance(out, Refusal) else None


def test_sdk_amount_approval_verifies_up_to_its_amount() -> None:
    a = sdk(max_amount=500.0)  # the SDK signs 500.0 as the integer 500, as JavaScript would
    assert a["payload"]["scope"] == {"field": "value", "comparator": "lte", "value": 500}
    assert isinstance(check(a, 500), ApprovalVerified)
    assert isinstance(check(a, 499.99), ApprovalVerified)
    assert reason(check(a, 500.01)) is R.AMOUNT_EXCEEDED


def test_sdk_fractional_amount_approval_verifies() -> None:
    a = sdk(max_amount=123.45)
    assert isinstance(check(a, 123.45), ApprovalVerified)
    assert reason(check(a, 123.46)) is R.AMOUNT_EXCEEDED


def test_sdk_resource_approval_verifies_for_call_without_amount() -> None:
    a = sdk(max_amount=None, resource="acme/api#42", capability="github:pr-merge")
    assert isinstance(check(a, None, resource="acme/api#42", action="github:pr-merge"), ApprovalVerified)
    assert reason(check(a, None, resource="acme/api#43", action="github:pr-merge")) is R.WRONG_RESOURCE
    assert reason(check(a, 10, resource="acme/api#42", action="github:pr-merge")) is R.SCOPE_MISMATCH


def test_sdk_approval_bound_to_action_and_resource() -> None:
    a = sdk()
    assert reason(check(a, 10, action="paytm:payout")) is R.WRONG_ACTION
    assert reason(check(a, 10, resource="order-2")) is R.WRONG_RESOURCE


def test_sdk_approval_expires_at_its_exact_instant() -> None:
    a = sdk(ttl=900)
    assert isinstance(check(a, 10, at=timedelta(seconds=900) - timedelta(microseconds=1)), ApprovalVerified)
    assert reason(check(a, 10, at=timedelta(seconds=900))) is R.EXPIRED


@pytest.mark.parametrize("tamper", ["resourceId", "scope.value", "expiresAt", "capability", "nonce", "signature",
                                    "issuer.approverId"])
def test_tampered_sdk_approval_refused(tamper: str) -> None:
    a = copy.deepcopy(sdk())
    p = a["payload"]
    if tamper == "resourceId":
        p["resourceId"] = "order-2"
    elif tamper == "scope.value":
        p["scope"]["value"] = 5000
    elif tamper == "expiresAt":
        p["expiresAt"] = p["expiresAt"].replace(p["expiresAt"][:4], str(int(p["expiresAt"][:4]) + 1))
    elif tamper == "capability":
        p["capability"] = "paytm:payout"
    elif tamper == "nonce":
        p["nonce"] = "00000000-0000-4000-8000-000000000000"
    elif tamper == "signature":
        sig = bytearray(base64.b64decode(a["signature"]["value"]))
        sig[0] ^= 1
        a["signature"]["value"] = base64.b64encode(bytes(sig)).decode()
    else:
        p["issuer"]["approverId"] = "mallory"
    out = check(a, 10, resource=p["resourceId"], action=p["capability"])
    assert reason(out) in (R.BAD_SIGNATURE, R.UNKNOWN_APPROVER, R.TTL_TOO_LONG)
    assert not isinstance(out, ApprovalVerified)


def test_sdk_approval_through_decision_and_release(tmp_path: Path) -> None:
    a = sdk(max_amount=500.0)
    now = parse_instant(a["payload"]["issuedAt"])
    assert now is not None
    pipe = Pipeline(tmp_path, now, approver_key=KEY)
    tx = pipe.transaction(amount=120, approval=a)
    auth = pipe.runtime.decide(tx, now)
    assert isinstance(auth, Authorized)
    assert isinstance(pipe.gate.release(auth.authorization, tx, now), Released)
    assert reason(pipe.gate.release(auth.authorization, tx, now)) is R.NONCE_SPENT
    assert len(pipe.calls) == 1
