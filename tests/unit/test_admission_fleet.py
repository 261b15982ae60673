"""Gateway processes on one shared nonce store (``model.admission.deployments.fleet``), small enough for the
default tier: four gateways racing every release release each approval exactly once on both
backends; on PostgreSQL, gateways SIGKILLed between reserve and release, connections dropped
mid-transaction and a server restarted under load lose nothing and duplicate nothing; a gateway that
lost its commit's acknowledgement releases on finding its own reservation, and a dead gateway's
reservation is completed once by another after its lease. The larger
campaign is tests/slow/test_admission_fleet_large.py and experiments/admission_store.py."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from model.admission.decision.nonces import Leasing, Reservation, SqliteNonceStore
from model.admission.deployments.deployment import World, publish_request
from model.admission.deployments.fleet import Campaign, Outcome, run
from model.admission.deployments.release_deployment import Pipeline
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.authorization import load_authorization
from model.admission.release.gateway import Authorized, Released, ReleaseGate
from model.admission.resumable.admission_service import Held
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import AttemptState, Event
from model.admission.resumable.review import Recorded
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON
from tests.postgres import fresh_schema

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _run(c: Campaign, tmp_path: Path, request: pytest.FixtureRequest) -> Outcome:
    server = request.getfixturevalue("pg_server") if c.backend == "postgres" else None
    out = run(c, tmp_path, NOW, server, fresh_schema())
    assert out.duplicates == 0 and out.lost == 0 and out.crashed == 0, out
    return out


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_four_gateways_racing_every_release_release_each_once(backend: str, tmp_path: Path,
                                                               request: pytest.FixtureRequest) -> None:
    out = _run(Campaign(backend, gateways=4, items=6), tmp_path, request)
    assert out.releases == 6 and out.attempts == 4 * 6 and out.reserved_unreleased == 0


def test_sigkill_between_reserve_and_release_loses_and_duplicates_nothing(tmp_path: Path,
                                                                        request: pytest.FixtureRequest) -> None:
    out = _run(Campaign("postgres", gateways=4, items=8, victims=2, order="rotate"), tmp_path, request)
    assert out.kills == 2 and out.recovered >= out.kills  # each victim's reservation completed by a survivor
    assert out.releases == 8 and out.reserved_unreleased == 0


def test_dropped_connections_mid_transaction_lose_and_duplicate_nothing(tmp_path: Path,
                                                                     request: pytest.FixtureRequest) -> None:
    out = _run(Campaign("postgres", gateways=4, items=12, drop_every=0.05), tmp_path, request)
    assert out.drops >= 1
    assert out.releases == 12 and out.reserved_unreleased == 0


def test_server_restarted_under_load_loses_and_duplicates_nothing(tmp_path: Path,
                                                                 request: pytest.FixtureRequest) -> None:
    out = _run(Campaign("postgres", gateways=4, items=12, restart=True, pace=0.05), tmp_path, request)
    assert out.restarts == 1
    assert out.releases == 12 and out.reserved_unreleased == 0


def _dispatch_and_die(target: str, schema: str | None, attempt_id: str) -> None:
    store = AttemptStore(target, schema)
    assert store.advance(attempt_id, Event.DISPATCH, only=AttemptState.APPROVED)  # reserved
    os.kill(os.getpid(), signal.SIGKILL)  # dies before the effect and its recorded result


def test_attempt_reserved_by_a_killed_gateway_is_recovered_uncertain_not_lost(
        store_target: tuple[str, str | None]) -> None:
    world = World(AttemptStore(*store_target))
    held = world.admission.submit(publish_request(), NOW)
    assert isinstance(held, Held)
    attempt_id = held.attempt_id
    assert isinstance(world.approvals.decide(attempt_id, "alice", True, NOW), Recorded)
    p = multiprocessing.get_context("fork").Process(target=_dispatch_and_die, args=(*store_target, attempt_id))
    p.start()
    p.join()
    assert p.exitcode == -signal.SIGKILL
    survivor = AttemptStore(*store_target)
    assert survivor.recover() == [attempt_id]
    att = survivor.get(attempt_id)
    assert att is not None and att.state is AttemptState.UNCERTAIN  # recorded, never re-dispatched
    again = World(survivor).replays.replay(attempt_id, publish_request().identity, NOW)
    assert isinstance(again, Refusal) and again.reason is RefusalReason.NOT_APPROVED_OR_ALREADY_RESULTED
    assert world.effects == []


class _CommitThenFail:
    """A nonce store whose commit lands but whose caller hears a failure (the acknowledgement lost)."""

    def __init__(self, inner: SqliteNonceStore) -> None:
        self.inner = inner

    def is_spent(self, namespace: str, nonce: str) -> bool:
        return self.inner.is_spent(namespace, nonce)

    def spend(self, namespace: str, nonce: str, now: datetime) -> bool:
        return self.inner.spend(namespace, nonce, now)

    def spend_all(self, items: Sequence[tuple[str, str]], now: datetime,
                  reservation: tuple[Reservation, float] | None = None) -> tuple[str, str] | None:
        self.inner.spend_all(items, now, reservation)
        raise ConnectionError("server closed the connection during COMMIT")


def _gate(pipe: Pipeline, nonces: object, store: SqliteNonceStore, holder: str, keys: list[str],
          lease: float) -> ReleaseGate:
    def effect(intent: JSON) -> JSON:
        assert isinstance(intent, dict)
        keys.append(str(intent["idempotencyKey"]))
        return {"done": True}

    return ReleaseGate(pipe.gov, ToolRegistry({"paytm:refund": effect}), pipe.runtime_key.public,
                       pipe.records, nonces, leasing=Leasing(store, holder, lease))  # type: ignore[arg-type]


def _authorized(pipe: Pipeline) -> tuple[dict[str, JSON], dict[str, JSON]]:
    tx = pipe.transaction(order="order-1", approval=pipe.approval(order="order-1", nonce="n-1"))
    out = pipe.runtime.decide(tx, NOW)
    assert isinstance(out, Authorized)
    return out.authorization, tx


def test_gateway_that_lost_its_commit_acknowledgement_finds_its_own_reservation_and_releases_once(
        store_target: tuple[str, str | None], tmp_path: Path) -> None:
    pipe = Pipeline(tmp_path, NOW, nonces_at=store_target[0], nonces_schema=store_target[1])
    auth, tx = _authorized(pipe)
    keys: list[str] = []
    store = SqliteNonceStore(*store_target, key=pipe.store_key)
    out = _gate(pipe, _CommitThenFail(store), store, "gw-a", keys, 60.0).release(auth, tx, NOW)
    assert isinstance(out, Released) and len(keys) == 1 and store.unfinished() == 0
    other = _gate(pipe, store, store, "gw-b", keys, 60.0)
    again = other.release(auth, tx, NOW)
    assert isinstance(again, Refusal) and again.reason is RefusalReason.NONCE_SPENT
    assert other.recover(NOW) == 0 and len(keys) == 1


def test_reservation_of_a_dead_gateway_is_completed_once_by_another_after_its_lease(
        store_target: tuple[str, str | None], tmp_path: Path) -> None:
    pipe = Pipeline(tmp_path, NOW, nonces_at=store_target[0], nonces_schema=store_target[1])
    auth, tx = _authorized(pipe)
    store = SqliteNonceStore(*store_target, key=pipe.store_key)
    dead = (Reservation("tok-dead", json.dumps({"authorization": auth, "transaction": tx}), "gw-dead"), 0.0)
    spent = [("authorization", load_authorization(auth).nonce), ("approval", "alice/n-1")]
    assert store.spend_all(spent, NOW, dead) is None
    keys: list[str] = []
    survivors = [_gate(pipe, store, store, f"gw-{k}", keys, 60.0) for k in range(3)]
    assert sum(g.recover(NOW) for g in survivors) == 1
    assert keys == ["tok-dead"] and store.unfinished() == 0
