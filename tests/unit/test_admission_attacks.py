"""One test per attack class of the Parmana paper (Sections 3–6 and its threat list),
each named after what it attacks, against the wired pipeline in model.admission.deployments.release_deployment."""

from __future__ import annotations

import copy
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from model.admission.decision.governance import Proposal
from model.admission.decision.nonces import SqliteNonceStore
from model.admission.decision.signed_policy import load_policy
from model.admission.deployments.release_deployment import REFUNDS_POLICY, Pipeline, step_up
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.gateway import Authorized, Released, ReleaseGate
from model.admission.signatures.records import RecordStore
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON
from model.base.errors import InvalidInput
from model.base.signing import KeyPair, parse_instant

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
R = RefusalReason


@pytest.fixture
def pipe(tmp_path: Path) -> Pipeline:
    return Pipeline(tmp_path, NOW)


def authorize(pipe: Pipeline, tx: dict[str, JSON]) -> dict[str, JSON]:
    out = pipe.runtime.decide(tx, NOW)
    assert isinstance(out, Authorized), out
    return out.authorization


def approved_tx(pipe: Pipeline, **kw: object) -> dict[str, JSON]:
    return pipe.transaction(approval=pipe.approval(), **kw)  # type: ignore[arg-type]


def reason(out: object) -> RefusalReason | None:
    return out.reason if isinstance(out, Refusal) else None


def test_happy_path_releases_once_with_intent_before_execution(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    out = pipe.gate.release(authorize(pipe, tx), tx, NOW)
    assert isinstance(out, Released) and pipe.calls == [tx["intent"]]
    kinds = [r["payload"]["kind"] for r in pipe.records.all() if r["payload"]["kind"] in ("intent", "execution")]
    assert kinds == ["intent", "execution"]
    assert out.execution_record["payload"]["body"]["intentRecordHash"] == out.intent_record["recordHash"]


def test_replayed_authorization_refused(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    assert isinstance(pipe.gate.release(auth, tx, NOW), Released)
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.NONCE_SPENT
    assert len(pipe.calls) == 1


def test_replayed_authorization_concurrent_threads_exactly_one_release(pipe: Pipeline, tmp_path: Path) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    n = 8
    gates = [ReleaseGate(pipe.gov, ToolRegistry({"paytm:refund": pipe._refund}), pipe.runtime_key.public,
                         RecordStore(pipe.runtime_key, str(tmp_path / "records.db")),
                         SqliteNonceStore(str(tmp_path / "nonces.db"), key=pipe.store_key)) for _ in range(n)]
    barrier = threading.Barrier(n)
    outs: list[object] = [None] * n

    def run(k: int) -> None:
        barrier.wait()
        outs[k] = gates[k].release(copy.deepcopy(auth), copy.deepcopy(tx), NOW)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(o, Released) for o in outs) == 1
    assert all(reason(o) is R.NONCE_SPENT for o in outs if not isinstance(o, Released))
    assert len(pipe.calls) == 1


def test_forged_authorization_signed_by_another_key_refused(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    auth["signature"]["value"] = KeyPair.generate("runtime-1").sign(auth["payload"])
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.BAD_SIGNATURE and pipe.calls == []


@pytest.mark.parametrize("field", ["policyVersion", "requestHash", "expiresAt", "nonce"])
def test_altered_authorization_refused(pipe: Pipeline, field: str) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    auth["payload"][field] = {"policyVersion": 2, "requestHash": "0" * 64, "expiresAt": "2099-01-01T00:00:00.000Z",
                              "nonce": "other"}[field]
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.BAD_SIGNATURE and pipe.calls == []


def test_authorization_expiry_at_exact_instant(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    expires = parse_instant(auth["payload"]["expiresAt"])
    assert expires is not None
    assert reason(pipe.gate.release(auth, tx, expires)) is R.EXPIRED
    assert isinstance(pipe.gate.release(auth, tx, expires - timedelta(microseconds=1)), Released)


def test_approval_expiry_at_exact_instant(pipe: Pipeline) -> None:
    ap = pipe.approval(ttl=timedelta(minutes=15))
    tx = pipe.transaction(approval=ap)
    at = NOW + timedelta(minutes=15)
    assert reason(pipe.runtime.decide(tx, at)) is R.EXPIRED
    assert isinstance(pipe.runtime.decide(tx, at - timedelta(microseconds=1)), Authorized)


def test_approval_lifetime_over_24h_refused(pipe: Pipeline) -> None:
    tx = pipe.transaction(approval=pipe.approval(ttl=timedelta(hours=24, milliseconds=1)))
    assert reason(pipe.runtime.decide(tx, NOW)) is R.TTL_TOO_LONG
    assert isinstance(pipe.runtime.decide(pipe.transaction(approval=pipe.approval(ttl=timedelta(hours=24))), NOW),
                      Authorized)


def test_revoked_approver_key_refused_at_decision_and_release(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)  # decided while the key was valid
    pipe.govern({"kind": "approver", "approver": {"approverId": "alice", "keyId": "alice-key-1",
                                                  "publicKey": pipe.approver_key.public_pem(), "revoked": True}})
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.REVOKED_KEY
    assert reason(pipe.runtime.decide(approved_tx(pipe), NOW)) is R.REVOKED_KEY and pipe.calls == []


def test_acting_without_any_approval_refused(pipe: Pipeline) -> None:
    assert reason(pipe.runtime.decide(pipe.transaction(approved=False), NOW)) is R.NO_RULE_MATCHED


def test_plain_true_flag_without_signed_approval_refused(pipe: Pipeline) -> None:
    tx = pipe.transaction(approved=True)  # the flag says approved; no signed artifact
    assert reason(pipe.runtime.decide(tx, NOW)) is R.NO_RULE_MATCHED


def test_unregistered_approver_refused(pipe: Pipeline) -> None:
    tx = pipe.transaction(approval=pipe.approval(key=KeyPair.generate("mallory-key")))
    assert reason(pipe.runtime.decide(tx, NOW)) is R.UNKNOWN_APPROVER


def test_forged_approval_refused(pipe: Pipeline) -> None:
    ap = pipe.approval(max_amount=50)
    ap["payload"]["scope"]["value"] = 5000  # raise the approved ceiling after signing
    assert reason(pipe.runtime.decide(pipe.transaction(amount=120, approval=ap), NOW)) is R.BAD_SIGNATURE


def test_approval_used_for_another_resource_refused(pipe: Pipeline) -> None:
    tx = pipe.transaction(order="order-2", approval=pipe.approval(order="order-1"))
    assert reason(pipe.runtime.decide(tx, NOW)) is R.WRONG_RESOURCE


def test_approval_used_for_larger_amount_refused(pipe: Pipeline) -> None:
    assert reason(pipe.runtime.decide(pipe.transaction(amount=500.01, approval=pipe.approval(max_amount=500)),
                                      NOW)) is R.AMOUNT_EXCEEDED
    assert isinstance(pipe.runtime.decide(pipe.transaction(amount=500, approval=pipe.approval(max_amount=500)), NOW),
                      Authorized)


def test_amount_outside_the_approvals_domain_refused(pipe: Pipeline) -> None:
    """A "≤ 500" approval does not cover a negative amount (a refund of -1,000,000 is a charge), nor NaN."""
    for amount in (-1_000_000, -0.01):
        tx = pipe.transaction(amount=amount, approval=pipe.approval(max_amount=500))
        assert reason(pipe.runtime.decide(tx, NOW)) is R.AMOUNT_OUT_OF_DOMAIN, amount
    for amount in (float("nan"), float("-inf")):  # refused before the approval is looked at, or by it
        tx = pipe.transaction(amount=amount, approval=pipe.approval(max_amount=500))
        assert reason(pipe.runtime.decide(tx, NOW)) in (R.MALFORMED, R.AMOUNT_OUT_OF_DOMAIN), amount
    assert isinstance(pipe.runtime.decide(pipe.transaction(amount=0, approval=pipe.approval(max_amount=500)), NOW),
                      Authorized)


def test_approval_used_for_another_action_refused(pipe: Pipeline) -> None:
    tx = pipe.transaction(approval=pipe.approval(capability="github:pr-merge"))
    assert reason(pipe.runtime.decide(tx, NOW)) is R.WRONG_ACTION


def test_approval_used_twice_refused(pipe: Pipeline) -> None:
    ap = pipe.approval()
    tx = pipe.transaction(approval=ap)
    assert isinstance(pipe.gate.release(authorize(pipe, tx), tx, NOW), Released)
    assert reason(pipe.runtime.decide(pipe.transaction(amount=10, approval=ap), NOW)) is R.NONCE_SPENT


def test_declaring_one_action_and_executing_another_refused(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    tx["signals"]["amount"] = 100  # signals claim 100, the intent refunds 120
    assert reason(pipe.runtime.decide(tx, NOW)) is R.SIGNAL_BINDING
    good = approved_tx(pipe)
    auth = authorize(pipe, good)
    swapped = copy.deepcopy(good)
    swapped["intent"]["params"]["amount"] = 499  # authorized one call, try to release another
    assert reason(pipe.gate.release(auth, swapped, NOW)) is R.CONTENT_HASH and pipe.calls == []


def test_wrongly_typed_signal_refused(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    tx["signals"]["riskScore"] = "10"
    assert reason(pipe.runtime.decide(tx, NOW)) is R.SIGNAL_TYPE


def test_declared_fact_causes_refusal_only(pipe: Pipeline) -> None:
    assert reason(pipe.runtime.decide(approved_tx(pipe, risk=95), NOW)) is R.RULE_REFUSED


def test_outdated_policy_version_refused_at_release(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    pipe.govern({"kind": "policy", "policy": {**REFUNDS_POLICY, "version": 2}})
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.POLICY_VERSION and pipe.calls == []


def test_weaker_policy_downgrade_refused_at_proposal(pipe: Pipeline) -> None:
    weaker = {**REFUNDS_POLICY, "rules": REFUNDS_POLICY["rules"][1:]}  # same version, high-risk rule dropped
    assert reason(pipe.gate.gov.propose({"kind": "policy", "policy": weaker}, "maker-cred")) is R.POLICY_VERSION


def test_stale_signals_refused_at_release(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    stale = copy.deepcopy(tx)
    stale["signals"]["riskScore"] = 95  # the risk changed after the decision
    assert reason(pipe.gate.release(auth, stale, NOW)) is R.SIGNALS_CHANGED and pipe.calls == []


def test_no_intent_store_means_no_release(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    pipe.gate.records.close()
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.INTENT_NOT_STORED and pipe.calls == []


def test_every_refusal_yields_signed_refusal_record(pipe: Pipeline) -> None:
    from model.admission.signatures.records import RecordValid, verify_chain
    pipe.runtime.decide(pipe.transaction(approved=False), NOW)
    pipe.gate.release({"payload": {}, "signature": {}}, pipe.transaction(), NOW)
    refusals = pipe.records.all("refusal")
    assert [r["payload"]["body"]["stage"] for r in refusals] == ["decision", "release"]
    checked = verify_chain(pipe.records.all(), pipe.runtime_key.public)
    assert isinstance(checked, list) and all(isinstance(v, RecordValid) for v in checked)


def test_single_person_governance_change_refused(pipe: Pipeline) -> None:
    change = {"kind": "policy", "policy": {**REFUNDS_POLICY, "version": 5}}
    prop = pipe.gov.propose(change, "maker-cred")
    assert isinstance(prop, Proposal)
    same_cred = pipe.gov.approve(prop.id, "maker-cred", step_up(pipe.maker_key, prop.id, change, NOW), NOW)
    assert reason(same_cred) is R.SAME_PERSON
    same_person = pipe.gov.approve(prop.id, "maker-cred-2", step_up(pipe.checker_key, prop.id, change, NOW), NOW)
    assert reason(same_person) is R.SAME_PERSON
    other_change = {"kind": "policy", "policy": {**REFUNDS_POLICY, "version": 6}}
    unbound = pipe.gov.approve(prop.id, "checker-cred", step_up(pipe.checker_key, prop.id, other_change, NOW), NOW)
    assert reason(unbound) is R.MALFORMED
    assert pipe.gov.policies["refunds"].version == 1


@pytest.mark.parametrize("name", ["../evil", "..", "a/b", "/etc/passwd", "refunds\x00", ".hidden", ""])
def test_policy_name_path_traversal_refused(pipe: Pipeline, name: str) -> None:
    out = pipe.gov.propose({"kind": "policy", "policy": {**REFUNDS_POLICY, "name": name, "version": 9}}, "maker-cred")
    assert reason(out) is R.BAD_NAME
    with pytest.raises(InvalidInput):
        load_policy({**REFUNDS_POLICY, "name": name})
    assert sorted(p.name for p in (pipe.root / "policies").iterdir()) == ["refunds.v1.json"]


def test_approve_rule_without_approval_signal_fails_at_load() -> None:
    bad = {**REFUNDS_POLICY, "rules": [{"id": "r", "when": {"signal": "amount", "op": "le", "value": 10},
                                        "decision": "approve"}]}
    with pytest.raises(InvalidInput, match="approval signal"):
        load_policy(bad)
    either = {**REFUNDS_POLICY, "rules": [{"id": "r", "when": {"any": [
        {"signal": "managerApproved", "op": "eq", "value": True}, {"signal": "amount", "op": "le", "value": 10}]},
        "decision": "approve"}]}
    with pytest.raises(InvalidInput, match="approval signal"):
        load_policy(either)


def test_unavailable_nonce_store_refuses_rather_than_releasing(pipe: Pipeline) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)
    pipe.gate.nonces.close()  # type: ignore[attr-defined]
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.STORE_UNAVAILABLE and pipe.calls == []
    assert reason(pipe.runtime.decide(approved_tx(pipe), NOW)) is R.STORE_UNAVAILABLE


@pytest.mark.parametrize("fault", [sqlite3.OperationalError("database is locked"), ConnectionError("reset"),
                                   InvalidInput("nonces.db", "a store SQLite can read and write", "disk I/O error")])
def test_a_store_outage_refuses_store_unavailable(pipe: Pipeline, fault: Exception,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)

    def down(*_: object, **__: object) -> None:
        raise fault

    monkeypatch.setattr(pipe.nonces, "spend_all", down)
    assert reason(pipe.gate.release(auth, tx, NOW)) is R.STORE_UNAVAILABLE and pipe.calls == []


def test_a_bug_is_raised_not_reported_as_a_store_outage(pipe: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    tx = approved_tx(pipe)
    auth = authorize(pipe, tx)

    def bug(*_: object, **__: object) -> None:
        raise TypeError("spend_all() got an unexpected keyword argument")

    monkeypatch.setattr(pipe.nonces, "spend_all", bug)
    with pytest.raises(TypeError):
        pipe.gate.release(auth, tx, NOW)
    monkeypatch.setattr(pipe.nonces, "is_spent", bug)
    with pytest.raises(TypeError):
        pipe.runtime.decide(approved_tx(pipe), NOW)
    assert pipe.calls == []


def test_refusal_stands_when_its_record_cannot_be_stored(pipe: Pipeline) -> None:
    pipe.records.close()
    out = pipe.runtime.decide(pipe.transaction(approved=False), NOW)
    assert reason(out) is R.NO_RULE_MATCHED and "not stored" in out.detail  # type: ignore[union-attr]


def test_execution_record_written_later_when_store_fails_after_release(pipe: Pipeline) -> None:
    class FailingOnce(RecordStore):
        fail = True

        def append(self, kind: str, body: JSON, now: datetime) -> dict[str, JSON]:
            if kind == "execution" and self.fail:
                self.fail = False
                raise OSError("disk full")
            return super().append(kind, body, now)

    store = FailingOnce(pipe.runtime_key, str(pipe.root / "records.db"))
    gate = ReleaseGate(pipe.gov, ToolRegistry({"paytm:refund": pipe._refund}), pipe.runtime_key.public, store,
                       pipe.nonces)
    tx = approved_tx(pipe)
    out = gate.release(authorize(pipe, tx), tx, NOW)
    assert isinstance(out, Released) and out.execution_record is None and len(pipe.calls) == 1
    assert len(gate.unwritten) == 1 and store.all("execution") == []
    assert gate.flush() == 0
    [rec] = store.all("execution")
    assert rec["payload"]["body"]["intentRecordHash"] == out.intent_record["recordHash"]
