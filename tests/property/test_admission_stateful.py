"""Stateful test (hypothesis RuleBasedStateMachine) of the signed-approval pipeline: any interleaving
of decisions, releases (of any issued authorization with any transaction), approver revocation
and policy upgrades keeps the release invariants of the Parmana paper, Section 4.4:
each authorization and each approval is released at most once, only the exact authorized
request is released, and nothing is released after its approver key was revoked or under an
outdated policy version."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, multiple, rule

from model.admission.deployments.release_deployment import REFUNDS_POLICY, Pipeline
from model.admission.refusal import Refusal
from model.admission.release.authorization import AUTHORIZATION_TTL
from model.admission.release.gateway import Authorized, Released
from model.base.canonical import JSON, digest
from model.base.signing import parse_instant

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class ReleasePipeline(RuleBasedStateMachine):
    authorizations = Bundle("authorizations")
    transactions = Bundle("transactions")

    def __init__(self) -> None:
        super().__init__()
        shm = "/dev/shm" if Path("/dev/shm").is_dir() else None  # fsync-free: this test is about logic, not disks
        self.pipe = Pipeline(Path(tempfile.mkdtemp(prefix="admission-stateful-", dir=shm)), NOW)
        self.clock = NOW
        self.version = 1
        self.revoked = False
        self.released: list[tuple[JSON, JSON]] = []  # (authorization payload, transaction) per release
        self.issued: dict[str, tuple[JSON, int, datetime]] = {}  # authorization id -> (tx, policy version, at)

    @initialize(target=transactions, nonce=st.sampled_from(["i0", "i1"]))
    def valid_transaction(self, nonce: str) -> JSON:
        return self.pipe.transaction(order="order-1", amount=120, approval=self.pipe.approval(nonce=nonce))

    @rule(target=transactions, order=st.sampled_from(["order-1", "order-2"]), amount=st.sampled_from([50, 120, 600]),
          nonce=st.sampled_from([f"n{i}" for i in range(8)]), signed=st.sampled_from([True, True, True, False]),
          risk=st.sampled_from([10, 10, 95]))
    def make_transaction(self, order: str, amount: int, nonce: str, signed: bool, risk: int) -> JSON:
        ap = self.pipe.approval(order=order, max_amount=500, nonce=nonce, issued=self.clock) if signed else None
        return self.pipe.transaction(order=order, amount=amount, risk=risk, approval=ap)

    @rule(target=authorizations, tx=transactions)
    def decide(self, tx: JSON) -> object:
        out = self.pipe.runtime.decide(tx, self.clock)
        if isinstance(out, Authorized):
            self.issued[out.authorization["payload"]["authorizationId"]] = (tx, self.version, self.clock)
            event("authorized")
            return (out.authorization, tx)
        assert isinstance(out, Refusal)
        return multiple()  # only real authorizations enter the bundle, so releases exercise them

    @rule(pair=authorizations, other=transactions, own=st.booleans(), wait=st.sampled_from([0, 0, 59, 61]),
          meanwhile=st.sampled_from(["", "", "", "upgrade", "revoke"]))
    def release(self, pair: tuple[JSON, JSON], other: JSON, own: bool, wait: int = 0, meanwhile: str = "") -> None:
        self.clock += timedelta(seconds=wait)
        if meanwhile == "upgrade":
            self.upgrade_policy()
        elif meanwhile == "revoke":
            self.revoke_approver(0)
        auth, tx = pair[0], (pair[1] if own else other)
        calls = len(self.pipe.calls)
        out = self.pipe.gate.release(auth, tx, self.clock)
        if isinstance(out, Released):
            self.released.append((auth["payload"], tx))
            event("released")
            assert len(self.pipe.calls) == calls + 1
            issued_tx, issued_version, decided_at = self.issued[auth["payload"]["authorizationId"]]
            assert digest(issued_tx["intent"]) == digest(tx["intent"])
            assert issued_version == self.version and not self.revoked
            assert self.clock < decided_at + AUTHORIZATION_TTL
            approved_at = parse_instant(tx["approvals"]["managerApproved"]["payload"]["expiresAt"])
            assert approved_at is not None and self.clock < approved_at
        else:
            assert isinstance(out, Refusal) and len(self.pipe.calls) == calls

    @rule(tx=transactions, wait=st.sampled_from([0, 0, 59, 60]))
    def decide_then_release(self, tx: JSON, wait: int) -> None:
        pair = self.decide(tx)
        if isinstance(pair, tuple):
            self.release(pair, tx, True, wait)

    @rule(seconds=st.sampled_from([1, 30, 61, 900]))
    def advance_clock(self, seconds: int) -> None:
        self.clock += timedelta(seconds=seconds)

    @rule(dice=st.integers(0, 5))
    def revoke_approver(self, dice: int) -> None:
        if dice:  # revocation is permanent: make it rare so runs also explore releases
            return
        self.pipe.govern({"kind": "approver", "approver": {"approverId": "alice", "keyId": "alice-key-1",
                                                           "publicKey": self.pipe.approver_key.public_pem(),
                                                           "revoked": True}})
        self.revoked = True

    @rule()
    def upgrade_policy(self) -> None:
        self.version += 1
        self.pipe.govern({"kind": "policy", "policy": {**REFUNDS_POLICY, "version": self.version}})

    @invariant()
    def each_authorization_and_approval_released_at_most_once(self) -> None:
        ids = [p["authorizationId"] for p, _tx in self.released]
        assert len(ids) == len(set(ids))
        nonces = [tx["approvals"]["managerApproved"]["payload"]["nonce"] for _p, tx in self.released]
        assert len(nonces) == len(set(nonces))
        assert len(self.pipe.calls) == len(self.released)


ReleasePipeline.TestCase.settings = settings(max_examples=60, stateful_step_count=20, deadline=None,
                                             suppress_health_check=[HealthCheck.too_slow])
test_release_pipeline_invariants = ReleasePipeline.TestCase
