"""Revoking approvals with a tenant-policy revision (``model/admission/resumable/revocation.py``), an
option beyond the source: without it, an approved attempt replays under a revised policy that denies
its route (the paper's rule); with it, the revision moves every approved, unreplayed attempt whose
route it denies to REVOKED, names itself in the store's signed ledger, and replay refuses. Both
backends."""

from __future__ import annotations

import pytest

from model.admission.deployments.deployment import APPROVER, EPOCH, ROUTES, TENANT, World, publish_request
from model.admission.refusal import Refusal, RefusalReason
from model.admission.resumable.admission_service import Held
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import AttemptState
from model.admission.resumable.replay import Replayed
from model.admission.resumable.revocation import revise
from model.admission.resumable.tenant_policy import PolicyEffect, TenantPolicies
from model.admission.signatures.sealing import Tampered


def _approved(w: World, title: str) -> str:
    out = w.admission.submit(publish_request(body={"resource": "report-7", "title": title}), EPOCH)
    assert isinstance(out, Held)
    assert not isinstance(w.approvals.decide(out.attempt_id, APPROVER, True, EPOCH), Refusal)
    return out.attempt_id


DENY = TenantPolicies({(TENANT, "publish_report"): PolicyEffect.DENY})
REVIEW = TenantPolicies({(TENANT, "publish_report"): PolicyEffect.REQUIRE_REVIEW})


def _replay(w: World, aid: str) -> Replayed | Refusal:
    return w.replays.replay(aid, publish_request().identity, EPOCH)


def test_without_the_option_an_approval_outlives_a_denying_revision(store_target: tuple[str, str | None]) -> None:
    w = World(AttemptStore(*store_target))
    aid = _approved(w, "q3")
    w.policies = DENY
    out = revise(w.store, ROUTES, DENY, TENANT, "rev-1", EPOCH)
    assert out.revoked == () and out.kept == (aid,)
    assert isinstance(_replay(w, aid), Replayed) and len(w.effects) == 1


def test_a_denying_revision_revokes_approved_unreplayed_attempts_in_the_chain(
        store_target: tuple[str, str | None]) -> None:
    w = World(AttemptStore(*store_target))
    done, a, b = _approved(w, "done"), _approved(w, "a"), _approved(w, "b")
    assert isinstance(_replay(w, done), Replayed) and len(w.effects) == 1
    kept = revise(w.store, ROUTES, REVIEW, TENANT, "rev-review", EPOCH, revoke_approved=True)
    assert kept.revoked == () and set(kept.kept) == {a, b}  # require-review is what the approval answered
    out = revise(w.store, ROUTES, DENY, TENANT, "rev-deny", EPOCH, revoke_approved=True)
    assert set(out.revoked) == {a, b} and out.kept == () and out.failed == ()
    for aid in (a, b):
        att = w.store.get(aid)
        assert att is not None and att.state is AttemptState.REVOKED
        refused = _replay(w, aid)
        assert isinstance(refused, Refusal) and refused.reason is RefusalReason.NOT_APPROVED_OR_ALREADY_RESULTED
    assert len(w.effects) == 1
    with w.store.db.transaction() as c:
        entries = w.store.seal.entries(c)
    named = {e["attempt"] for e in entries if isinstance(e, dict) and e.get("revision") == "rev-deny"}
    assert named == {a, b}
    assert w.store.verify() == 3


def test_a_revoked_attempt_reset_to_approved_is_refused(store_target: tuple[str, str | None]) -> None:
    from model.admission.deployments.tamper_rows import Target

    w = World(AttemptStore(*store_target))
    aid = _approved(w, "a")
    revise(w.store, ROUTES, DENY, TENANT, "rev-deny", EPOCH, revoke_approved=True)
    Target(*store_target).sql("UPDATE attempts SET state = 'approved' WHERE id = ?", (aid,))
    refused = _replay(w, aid)
    assert isinstance(refused, Refusal) and refused.reason is RefusalReason.STORE_TAMPERED and w.effects == []
    with pytest.raises(Tampered):
        w.store.verify()


def test_a_failing_policy_lookup_revokes_nothing(store_target: tuple[str, str | None]) -> None:
    class Down:
        def lookup(self, tenant: str, key: str) -> PolicyEffect | None:
            raise ConnectionError("policy service down")

    w = World(AttemptStore(*store_target))
    aid = _approved(w, "a")
    out = revise(w.store, ROUTES, Down(), TENANT, "r", EPOCH, revoke_approved=True)
    assert out.failed == (aid,) and out.revoked == ()
    assert isinstance(_replay(w, aid), Replayed)
