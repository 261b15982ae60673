"""One test per evaluation case of *Policy-Mediated Autonomy with Resumable Action Attempts*
("Evaluation should exercise ..."), against the wired services in model.admission.deployments.deployment,
on both store backends: a real SQLite file and a schema of a throwaway PostgreSQL server (``store_target``
in tests/conftest.py)."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta

import pytest

from model.admission.deployments.deployment import AGENT, APPROVER, CRED, EPOCH, TENANT, World, publish_request
from model.admission.refusal import Refusal, RefusalReason
from model.admission.resumable.admission_service import Denied, Executed, Held
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import AttemptState, Event
from model.admission.resumable.authority import Grant, LiveDenial
from model.admission.resumable.handler import ResultKind
from model.admission.resumable.replay import Replayed
from model.admission.resumable.review import Recorded
from model.admission.resumable.tenant_policy import PolicyEffect, TenantPolicies, evaluate, join

NOW = EPOCH


@pytest.fixture
def world(store_target: tuple[str, str | None]) -> World:
    return World(AttemptStore(*store_target))


def hold(world: World) -> Held:
    out = world.admission.submit(publish_request(), NOW)
    assert isinstance(out, Held)
    return out


def hold_and_approve(world: World) -> Held:
    h = hold(world)
    assert isinstance(world.approvals.decide(h.attempt_id, APPROVER, True, NOW), Recorded)
    return h


# --- the three policy outcomes ---------------------------------------------------------------

def test_policy_outcome_deny_terminates_admission(world: World) -> None:
    world.policies = TenantPolicies({(TENANT, "write_note"): PolicyEffect.DENY})
    out = world.admission.submit(publish_request(path="/notes", body={"resource": "note-1"}), NOW)
    assert isinstance(out, Denied)
    att = world.store.get(out.attempt_id)
    assert att is not None and att.state is AttemptState.DENIED and world.effects == []


def test_policy_outcome_allow_enters_effect_path_under_live_authorization(world: World) -> None:
    world.policies = TenantPolicies({(TENANT, "write_note"): PolicyEffect.ALLOW})
    out = world.admission.submit(publish_request(path="/notes", body={"resource": "note-1"}), NOW)
    assert isinstance(out, Executed) and out.result.kind is ResultKind.COMPLETED
    assert len(world.effects) == 1
    # allow is admission, not authority: without a grant the handler still refuses the effect
    world.authority = world.authority.without_grant(TENANT, Grant(AGENT, "write_note", "*"))
    out2 = world.admission.submit(publish_request(path="/notes", body={"resource": "note-1"}), NOW)
    assert isinstance(out2, Executed) and out2.result.kind is ResultKind.FAILED
    assert out2.result.denial is LiveDenial.GRANT and len(world.effects) == 1


def test_policy_outcome_require_review_holds_with_recoverable_subject(world: World) -> None:
    h = hold(world)
    att = world.store.get(h.attempt_id)
    assert att is not None and att.state is AttemptState.HELD
    assert att.request == publish_request() and att.body_digest == h.body_digest
    assert world.effects == []


# --- precedence, default, failure ----------------------------------------------------------------

@pytest.mark.parametrize(("effects", "expected"), [
    ((PolicyEffect.ALLOW, PolicyEffect.DENY), PolicyEffect.DENY),
    ((PolicyEffect.REQUIRE_REVIEW, PolicyEffect.DENY), PolicyEffect.DENY),
    ((PolicyEffect.ALLOW, PolicyEffect.REQUIRE_REVIEW), PolicyEffect.REQUIRE_REVIEW),
    ((PolicyEffect.ALLOW, PolicyEffect.ALLOW), PolicyEffect.ALLOW),
])
def test_precedence_across_keys_restrictive_join(world: World, effects: tuple[PolicyEffect, PolicyEffect],
                                                 expected: PolicyEffect) -> None:
    world.policies = TenantPolicies({(TENANT, "publish_report"): effects[0], (TENANT, "share_externally"): effects[1]})
    assert evaluate(world.policies, TENANT, ("publish_report", "share_externally")) is expected
    out = world.admission.submit(publish_request(), NOW)
    kind = {PolicyEffect.DENY: Denied, PolicyEffect.REQUIRE_REVIEW: Held, PolicyEffect.ALLOW: Executed}[expected]
    assert isinstance(out, kind)


def test_missing_policy_defaults_to_allow_but_not_past_authentication(world: World) -> None:
    world.policies = TenantPolicies({})
    assert join(()) is PolicyEffect.ALLOW
    assert isinstance(world.admission.submit(publish_request(path="/notes", body={"resource": "note-1"}), NOW),
                      Executed)
    out = world.admission.submit(publish_request(credential="cred-nope", path="/notes"), NOW)
    assert out == Refusal(RefusalReason.UNAUTHENTICATED, LiveDenial.CREDENTIAL_UNKNOWN.value)
    out = world.admission.submit(publish_request(tenant="globex", credential=CRED, path="/notes"), NOW)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.TENANT_SCOPE
    assert len(world.effects) == 1


def test_policy_service_failure_refuses_never_allows(world: World) -> None:
    class Down:
        def lookup(self, tenant: str, key: str) -> PolicyEffect | None:
            raise ConnectionError("policy service unreachable")

    world.policies = Down()
    out = world.admission.submit(publish_request(path="/notes", body={"resource": "note-1"}), NOW)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.POLICY_UNAVAILABLE
    assert world.effects == [] and world.store.snapshot() == ()


# --- review paths ----------------------------------------------------------------------------------

def test_unsupported_route_refused_rather_than_held(world: World) -> None:
    out = world.admission.submit(publish_request(path="/credentials/collect", body={"resource": "vault"}), NOW)
    assert out == Refusal(RefusalReason.NOT_REPLAYABLE, "POST /credentials/collect cannot be replayed")
    assert world.store.snapshot() == () and world.effects == []


def test_non_persistable_request_refused_rather_than_pending(world: World) -> None:
    world.store.close()  # the store can no longer persist anything
    out = world.admission.submit(publish_request(), NOW)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.NOT_PERSISTABLE
    assert world.effects == []


def test_held_attempt_does_not_execute_before_approval(world: World) -> None:
    h = hold(world)
    out = world.replays.replay(h.attempt_id, publish_request().identity, NOW)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.NOT_APPROVED_OR_ALREADY_RESULTED
    assert world.effects == []
    # the approval service records the decision but never executes either
    assert isinstance(world.approvals.decide(h.attempt_id, APPROVER, True, NOW, "looks fine"), Recorded)
    assert world.effects == []
    assert world.store.reviews(h.attempt_id) == [(APPROVER, "approve", "looks fine")]


def test_requester_cannot_approve_own_attempt(world: World) -> None:
    h = hold(world)
    world.approvals.eligible = {TENANT: frozenset({AGENT, APPROVER})}
    out = world.approvals.decide(h.attempt_id, AGENT, True, NOW)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.INELIGIBLE_APPROVER


def test_rejected_attempt_never_replays(world: World) -> None:
    h = hold(world)
    assert isinstance(world.approvals.decide(h.attempt_id, APPROVER, False, NOW), Recorded)
    out = world.replays.replay(h.attempt_id, publish_request().identity, NOW)
    assert isinstance(out, Refusal) and world.effects == []


def test_only_matching_approved_request_replays(world: World) -> None:
    h = hold_and_approve(world)
    other = hold(world)  # held but not approved
    assert isinstance(world.replays.replay(other.attempt_id, publish_request().identity, NOW), Refusal)
    out = world.replays.replay(h.attempt_id, publish_request().identity, NOW)
    assert isinstance(out, Replayed) and out.result.kind is ResultKind.COMPLETED
    assert [e.body for e in world.effects] == [publish_request().body]
    att = world.store.get(h.attempt_id)
    assert att is not None and att.state is AttemptState.COMPLETED and att.approver == APPROVER


@pytest.mark.parametrize("change", ["credential_revoked", "grant_revoked", "role_removed", "credential_expired",
                                    "scope_removed", "resource_deleted"])
def test_authority_revoked_between_approval_and_replay_prevents_effect(world: World, change: str) -> None:
    h = hold_and_approve(world)
    later = NOW
    if change == "credential_revoked":
        world.authority = world.authority.revoke_credential(CRED)
    elif change == "grant_revoked":
        world.authority = world.authority.without_grant(TENANT, Grant(AGENT, "publish_report", "*"))
    elif change == "role_removed":
        world.authority = replace(world.authority, roles={})
    elif change == "scope_removed":
        cred = replace(world.authority.credentials[CRED], scopes=frozenset({"write_note"}))
        world.authority = replace(world.authority, credentials={**world.authority.credentials, CRED: cred})
    elif change == "resource_deleted":
        world.authority = replace(world.authority, resources=world.authority.resources - {(TENANT, "report-7")})
    else:
        cred = replace(world.authority.credentials[CRED], expires_at=NOW + timedelta(minutes=5))
        world.authority = replace(world.authority, credentials={**world.authority.credentials, CRED: cred})
        later = NOW + timedelta(minutes=5)  # exactly at expiry: no longer valid
    out = world.replays.replay(h.attempt_id, publish_request().identity, later)
    assert isinstance(out, Replayed) and out.result.kind is ResultKind.FAILED
    assert world.effects == []
    att = world.store.get(h.attempt_id)
    assert att is not None and att.state is AttemptState.FAILED


@pytest.mark.parametrize("field", ["tenant", "principal", "credential", "method", "path", "query"])
def test_changed_identity_cannot_select_saved_attempt(world: World, field: str) -> None:
    h = hold_and_approve(world)
    ident = replace(publish_request().identity, **{field: {"query": "x=1", "method": "PUT"}.get(field, "other")})
    out = world.replays.replay(h.attempt_id, ident, NOW)
    assert out == Refusal(RefusalReason.IDENTITY_MISMATCH, "replay identity differs from the saved attempt")
    assert world.effects == []
    # the mismatch did not burn the attempt: the true requester can still replay it
    assert isinstance(world.replays.replay(h.attempt_id, publish_request().identity, NOW), Replayed)


def test_duplicate_replay_refused_sequential_and_concurrent(world: World,
                                                           store_target: tuple[str, str | None]) -> None:
    h = hold_and_approve(world)
    assert isinstance(world.replays.replay(h.attempt_id, publish_request().identity, NOW), Replayed)
    again = world.replays.replay(h.attempt_id, publish_request().identity, NOW)
    assert isinstance(again, Refusal) and again.reason is RefusalReason.NOT_APPROVED_OR_ALREADY_RESULTED
    # concurrently: eight threads, each with its own connection to the same file, one approved attempt
    h2 = hold_and_approve(world)
    worlds = [World(AttemptStore(*store_target)) for _ in range(8)]
    barrier = threading.Barrier(len(worlds))
    outs: list[object] = [None] * len(worlds)

    def run(k: int) -> None:
        barrier.wait()
        outs[k] = worlds[k].replays.replay(h2.attempt_id, publish_request().identity, NOW)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(worlds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(o, Replayed) for o in outs) == 1
    assert sum(len(w.effects) for w in worlds) == 1


def test_dependency_failure_is_typed_and_final(world: World) -> None:
    h = hold_and_approve(world)
    world.fail_mode = "dependency"
    out = world.replays.replay(h.attempt_id, publish_request().identity, NOW)
    assert isinstance(out, Replayed) and out.result.kind is ResultKind.DEPENDENCY_FAILURE
    att = world.store.get(h.attempt_id)
    assert att is not None and att.state is AttemptState.DEPENDENCY_FAILED and world.effects == []
    world.fail_mode = ""
    assert isinstance(world.replays.replay(h.attempt_id, publish_request().identity, NOW), Refusal)


@pytest.mark.parametrize("mode", ["timeout-after-commit", "timeout-before-commit"])
def test_timeout_around_external_commit_records_uncertain_and_never_redispatches(world: World, mode: str) -> None:
    h = hold_and_approve(world)
    world.fail_mode = mode
    out = world.replays.replay(h.attempt_id, publish_request().identity, NOW)
    assert isinstance(out, Replayed) and out.result.kind is ResultKind.UNCERTAIN
    committed = len(world.effects)
    assert committed == (1 if mode == "timeout-after-commit" else 0)
    world.fail_mode = ""
    assert isinstance(world.replays.replay(h.attempt_id, publish_request().identity, NOW), Refusal)
    assert len(world.effects) == committed


def test_crash_while_executing_recovers_as_uncertain(world: World, store_target: tuple[str, str | None]) -> None:
    h = hold_and_approve(world)
    assert world.store.advance(h.attempt_id, Event.DISPATCH)
    world.store.close()  # the process dies between the claim and the recorded result
    store = AttemptStore(*store_target)
    assert store.recover() == [h.attempt_id]
    att = store.get(h.attempt_id)
    assert att is not None and att.state is AttemptState.UNCERTAIN
    w2 = World(store)
    assert isinstance(w2.replays.replay(h.attempt_id, publish_request().identity, NOW), Refusal)
    assert w2.effects == []


def test_admitted_attempt_left_by_a_crash_is_not_replayable(world: World) -> None:
    # an allowed attempt stored ADMITTED but never dispatched (crash in between) is not a held attempt
    world.store.create("crashed", publish_request(), AttemptState.SUBMITTED, NOW)
    assert world.store.advance("crashed", Event.ADMIT)
    out = world.replays.replay("crashed", publish_request().identity, NOW)
    assert isinstance(out, Refusal) and out.reason is RefusalReason.NOT_APPROVED_OR_ALREADY_RESULTED
    assert world.effects == []
