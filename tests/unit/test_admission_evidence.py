"""``verify_approval_evidence``: the entry point the monitor's exact-call permits use. Single use
under real concurrency (threads and processes), refusal values for every bad input, and the
decision-time peek (``spend=False``) that leaves the nonce for the release."""

from __future__ import annotations

import multiprocessing
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from model.admission.decision.approvals import ApprovalVerified, ApproverKey, ApproverRegistry
from model.admission.decision.evidence import verify_approval_evidence
from model.admission.decision.nonces import SqliteNonceStore
from model.admission.refusal import Refusal, RefusalReason
from model.base.canonical import JSON
from model.base.signing import KeyPair, format_instant

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
KEY = KeyPair.generate("k1")
REGISTRY = ApproverRegistry({("alice", "k1"): ApproverKey("alice", "k1", KEY.public)})


def approval(amount: float | None = 100, nonce: str = "n1", resource: str = "order-1") -> dict[str, JSON]:
    scope = {"field": "value", "comparator": "lte", "value": amount} if amount is not None else \
        {"field": "resourceId", "comparator": "eq", "value": resource}
    payload = {"version": 1, "approvalId": "a1", "issuer": {"approverId": "alice", "keyId": "k1"},
               "issuedAt": format_instant(NOW), "expiresAt": format_instant(NOW + timedelta(minutes=15)),
               "capability": "paytm:refund", "resourceId": resource, "scope": scope, "nonce": nonce}
    return {"payload": payload, "signature": {"algorithm": "ed25519", "keyId": "k1", "value": KEY.sign(payload)}}


def check(a: object, store: SqliteNonceStore, amount: float | None = 50, spend: bool = True) -> object:
    return verify_approval_evidence(a, action="paytm:refund", resource="order-1", amount=amount, now=NOW,
                                    registry=REGISTRY, nonce_store=store, spend=spend)


def test_peek_then_spend_then_reuse_refused() -> None:
    store = SqliteNonceStore()
    a = approval()
    assert isinstance(check(a, store, spend=False), ApprovalVerified)
    assert isinstance(check(a, store, spend=False), ApprovalVerified)  # decision-time checks do not burn it
    assert isinstance(check(a, store), ApprovalVerified)
    out = check(a, store)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.NONCE_SPENT
    out = check(a, store, spend=False)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.NONCE_SPENT


def test_resource_scoped_approval_for_call_without_amount() -> None:
    store = SqliteNonceStore()
    assert isinstance(check(approval(amount=None), store, amount=None), ApprovalVerified)
    out = check(approval(amount=None, nonce="n2"), store, amount=10)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.SCOPE_MISMATCH
    out = check(approval(amount=100, nonce="n3"), store, amount=None)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.SCOPE_MISMATCH


@pytest.mark.parametrize("bad", [None, 3, "x", [], {}, {"payload": {}, "signature": {}}])
def test_malformed_evidence_is_a_refusal_not_an_exception(bad: object) -> None:
    out = check(bad, SqliteNonceStore())
    assert isinstance(out, Refusal) and out.reason is RefusalReason.MALFORMED


def test_concurrent_use_threads_exactly_one_success(tmp_path: Path) -> None:
    path = str(tmp_path / "nonces.db")
    a = approval(nonce="race")
    n = 8
    stores = [SqliteNonceStore(path) for _ in range(n)]
    barrier = threading.Barrier(n)
    outs: list[object] = [None] * n

    def run(k: int) -> None:
        barrier.wait()
        outs[k] = check(a, stores[k])

    ts = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert sum(isinstance(o, ApprovalVerified) for o in outs) == 1
    assert sum(isinstance(o, Refusal) and o.reason is RefusalReason.NONCE_SPENT for o in outs) == n - 1


def _spend_in_child(path: str, start: multiprocessing.synchronize.Event, results: multiprocessing.Queue[bool]
                    ) -> None:
    store = SqliteNonceStore(path)
    start.wait()
    results.put(isinstance(check(approval(nonce="proc-race"), store), ApprovalVerified))


def test_concurrent_use_processes_exactly_one_success(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    path = str(tmp_path / "nonces.db")
    SqliteNonceStore(path).close()
    start = ctx.Event()
    results: multiprocessing.Queue[bool] = ctx.Queue()
    procs = [ctx.Process(target=_spend_in_child, args=(path, start, results)) for _ in range(4)]
    for p in procs:
        p.start()
    start.set()
    outs = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert sorted(outs) == [False, False, False, True]
