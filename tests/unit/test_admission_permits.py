"""The permit holder as a fourth authority (``model.admission.resumable.permit_holder``): a route whose contract
requires a permit replays only with a valid permit for that attempt from a registered holder who is
neither the requester nor the approver; missing, forged, downgraded, expired, cross-attempt,
cross-tenant and role-confused permits are refused with named reasons, and none burns the attempt."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest

from model.admission.deployments.deployment import APPROVER, EPOCH, ROUTES, World, publish_request
from model.admission.refusal import Refusal, RefusalReason
from model.admission.resumable.admission_service import Held
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.handler import ResultKind, Route
from model.admission.resumable.permit_holder import Holder, issue_permit
from model.admission.resumable.replay import Replayed, ReplayService
from model.admission.resumable.review import Recorded
from model.admission.signatures.hybrid import generate_hybrid, public_keys, sign_object
from model.base.signing import KeyPair

NOW = EPOCH
TREASURY = generate_hybrid("treasury-1")
ROUTES_WITH_PERMIT = {**ROUTES, ("POST", "/reports/publish"): Route(
    "POST", "/reports/publish", ("publish_report", "share_externally"), tool="publisher", permit="treasury")}
HOLDERS = {"treasurer": Holder("treasurer", public_keys(TREASURY), frozenset({"treasury"})),
           APPROVER: Holder(APPROVER, public_keys(TREASURY), frozenset({"treasury"})),
           "agent-1": Holder("agent-1", public_keys(TREASURY), frozenset({"treasury"}))}


@pytest.fixture
def world(store_target: tuple[str, str | None]) -> World:
    return World(AttemptStore(*store_target))


def approved(world: World) -> str:
    h = world.admission.submit(publish_request(), NOW)
    assert isinstance(h, Held)
    assert isinstance(world.approvals.decide(h.attempt_id, APPROVER, True, NOW), Recorded)
    return h.attempt_id


def replays(world: World) -> ReplayService:
    return ReplayService(ROUTES_WITH_PERMIT, world.store, world.handler, HOLDERS)


def permit(world: World, attempt_id: str, holder: str = "treasurer", key: KeyPair = TREASURY, kind: str = "treasury",
           at: timedelta = timedelta(0)) -> dict[str, object]:
    att = world.store.get(attempt_id)
    assert att is not None
    return issue_permit(key, holder, kind, att, NOW + at)


def refused(out: object) -> RefusalReason:
    assert isinstance(out, Refusal), out
    return out.reason


def test_valid_permit_from_a_fourth_authority_releases_once(world: World) -> None:
    aid = approved(world)
    p = permit(world, aid)
    out = replays(world).replay(aid, publish_request().identity, NOW, p)
    assert isinstance(out, Replayed) and out.result.kind is ResultKind.COMPLETED and len(world.effects) == 1
    assert refused(replays(world).replay(aid, publish_request().identity, NOW, p)) \
        is RefusalReason.NOT_APPROVED_OR_ALREADY_RESULTED


def test_bad_permits_refused_by_name_and_never_burn_the_attempt(world: World) -> None:
    aid, other = approved(world), approved(world)
    r = replays(world)
    ident = publish_request().identity
    good = permit(world, aid)
    forged = copy.deepcopy(good)
    forged["payload"]["expiresAt"] = "2099-01-01T00:00:00.000Z"  # type: ignore[index]
    downgraded = copy.deepcopy(good)
    downgraded["signature"] = {"algorithm": "ed25519", "keyId": "treasury-1",
                               "value": TREASURY.sign(good["payload"])}
    other_tenant = copy.deepcopy(good)
    other_tenant["payload"]["tenant"] = "globex"  # type: ignore[index]
    other_tenant["signature"] = sign_object(TREASURY, other_tenant["payload"])
    cases = [
        (other_tenant, RefusalReason.PERMIT_MISMATCH),
        (None, RefusalReason.PERMIT_MISSING),
        ({"payload": {}}, RefusalReason.PERMIT_INVALID),
        (forged, RefusalReason.PERMIT_INVALID),
        (downgraded, RefusalReason.PERMIT_INVALID),
        (permit(world, aid, key=generate_hybrid("treasury-1")), RefusalReason.PERMIT_INVALID),
        (permit(world, aid, holder="mallory"), RefusalReason.PERMIT_INVALID),
        (permit(world, aid, kind="payroll"), RefusalReason.PERMIT_MISMATCH),
        (permit(world, other), RefusalReason.PERMIT_MISMATCH),
        (permit(world, aid, at=timedelta(minutes=-20)), RefusalReason.PERMIT_EXPIRED),
        (permit(world, aid, at=timedelta(minutes=5)), RefusalReason.PERMIT_EXPIRED),  # not yet valid
        (permit(world, aid, holder=APPROVER), RefusalReason.PERMIT_ROLE_CONFLICT),
        (permit(world, aid, holder="agent-1"), RefusalReason.PERMIT_ROLE_CONFLICT),
    ]
    for p, reason in cases:
        assert refused(r.replay(aid, ident, NOW, p)) is reason, (p, reason)
    assert world.effects == []
    assert isinstance(r.replay(aid, ident, NOW, good), Replayed)  # still approved: nothing above claimed it


def test_routes_without_a_permit_contract_are_unchanged(world: World) -> None:
    aid = approved(world)
    assert isinstance(world.replays.replay(aid, publish_request().identity, NOW), Replayed)
