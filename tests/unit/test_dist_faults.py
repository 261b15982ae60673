"""A partitioned search never reports a shorter run as complete (model/dist): it reads the cluster's workers
from the scheduler, not the client's cached view; a task that fails is run again or turns the answer into
Unknown (limit "lost"); a stalled task only delays; a task that hands over less than it was sent is caught
by the level's accounting. Faults are injected deterministically (model/dist/fault_injection.py) on a LocalCluster
of two worker processes; the many-runs version under a CPU hog is tests/slow/test_dist_faults_stress.py."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from model.dist import search as dist_search
from model.dist.cluster import workers
from model.dist.driver import workers_of
from model.dist.fault_injection import Faults, InjectedFault, hit, install
from model.dist.measure import Measure
from model.dist.search import explore_distributed
from model.dist.system_search import search_distributed
from model.search.explicit import ExplicitRun, explore
from model.search.load import load_model
from model.search.system.admission import AdmissionSystem, load
from model.search.system.bfs import SystemRun, search

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"


def same_or_lost(a: ExplicitRun | SystemRun, b: ExplicitRun | SystemRun) -> bool:
    """True when ``b`` is ``a``; False when ``b`` is Unknown because a task was lost (never a shorter run)."""
    if b.unknown is not None:
        assert b.unknown.limit == "lost", b.unknown
        assert b.states <= a.states and b.transitions <= a.transitions
        return False
    assert (b.states, b.transitions, b.depth) == (a.states, a.transitions, a.depth)
    assert b.verdicts == a.verdicts
    return True


def test_the_workers_come_from_the_scheduler_not_the_cached_view(dask_client: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # the client's periodic refresh stores an identity fetched for no worker, and a failed refresh is
    # dropped: scheduler_info() then lists no worker, and a search placed on it ran on 0 partitions
    from distributed.objects import SchedulerInfo

    async def dropped(*_a: Any, **_k: Any) -> None:
        return None

    monkeypatch.setattr(dask_client, "_update_scheduler_info", dropped)
    monkeypatch.setattr(dask_client, "_scheduler_identity", SchedulerInfo(
        dask_client.sync(dask_client.scheduler.identity, n_workers=0)))
    # the client's own periodic refresh (bound before the patch) may replace that view while this runs, with
    # one fetched for no worker too, or leave none at all under load: either way the cache lists no worker
    assert not (dask_client.scheduler_info(n_workers=-1) or {}).get("workers")
    assert len(workers_of(dask_client)) == len(workers(dask_client)) == 2
    m = load_model(SEARCH / "report.json")
    same_or_lost(explore(m, 2), explore_distributed(dask_client, m, 2))


def test_hit_fires_first_faults_in_order_then_draws() -> None:
    install(Faults(first=(("chunk", "stall"), ("chunk", "fail"), ("route", "drop")), seconds=0.0))
    try:
        assert not hit("open") and not hit("chunk")  # the stall
        with pytest.raises(InjectedFault):
            hit("chunk")
        assert hit("route") and not hit("route") and not hit("chunk")
        install(Faults(fail=1.0, sites=frozenset({"step"})))
        assert not hit("chunk")
        with pytest.raises(InjectedFault):
            hit("step")
    finally:
        install(None)
    assert not hit("step")


_REPORT = load_model(SEARCH / "report.json")
_SINGLE = explore(_REPORT, 3)
_HOLD = load(SEARCH / "admission_hold.json")
_HOLD_SINGLE = search(AdmissionSystem(_HOLD), 4)


# (fingerprints, chunks, faults on each worker's first calls of a site, whether the run must be complete)
@pytest.mark.parametrize(("fingerprints", "chunks", "first", "whole"), [
    # a failed cut and a failed chunk are run again by Dask; a stalled chunk or step only delays
    (False, 3, (("take", "fail"), ("chunk", "fail"), ("chunk", "stall")), True),
    (True, None, (("step", "stall"),), True),
    # a failed merge is not run again (half a merge would lose states): Unknown, never a shorter run
    (True, 3, (("open", "fail"),), False),
    (False, 3, (("finish", "fail"),), False),
    (False, None, (("step", "fail"),), False),
    # a task handing over less than it was given (a cut, a routed batch) is caught by the accounting
    (True, 3, (("take", "drop"),), False),
    (False, None, (("route", "drop"),) * 2, False),
])
def test_monitor_engine_under_injected_faults(dask_client: Any, monkeypatch: pytest.MonkeyPatch, fingerprints: bool,
                                              chunks: int | None, first: tuple[tuple[str, str], ...],
                                              whole: bool) -> None:
    monkeypatch.setattr(dist_search, "MIN_CHUNK", 1)
    b = explore_distributed(dask_client, _REPORT, 3, fingerprints=fingerprints, chunks=chunks,
                            faults=Faults(first=first, seconds=0.3))
    assert same_or_lost(_SINGLE, b) == whole


@pytest.mark.parametrize(("mode", "first", "whole"), [
    ("exact", (("step", "stall"), ("cut", "stall")), True),
    ("fingerprint", (("cut", "fail"),), False),
    ("exact", (("finish", "fail"),), False),
    ("fingerprint", (("cut", "drop"),) * 2, False),
    ("exact", (("warm", "drop"),), True),  # a share handed over empty is refused: its steps run on the adopter
    ("exact", (("warm", "fail"),), True),  # run again (retries)
])
def test_system_engine_under_injected_faults(dask_client: Any, mode: str, first: tuple[tuple[str, str], ...],
                                             whole: bool) -> None:
    measure = Measure(exchange=False)
    b = search_distributed(dask_client, partial(AdmissionSystem, _HOLD), 4, mode,
                           faults=Faults(first=first, seconds=0.3), measure=measure)
    assert same_or_lost(_HOLD_SINGLE, b) == whole
    assert bool(measure.memo_refused) == (first == (("warm", "drop"),))
