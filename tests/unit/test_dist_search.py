"""The partitioned search on Dask (model/dist): on a LocalCluster of two worker processes
on the loopback address its results equal the single-process engine's exactly — states, transitions,
depth, verdicts with their shortest traces, useful completions — with and without sleep sets, with more
partitions than workers (small bounds here); the owner hash agrees across processes; the budget answers
Unknown; the CLI connects with --scheduler. Every corpus model and bound 5: tests/slow/test_dist_large.py."""

from __future__ import annotations

import gc
import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from model.base.budget import Budget, Unknown
from model.dist import search as dist_search
from model.dist.frontier import cut
from model.dist.measure import Measure
from model.dist.partition import Summary, class_of, proj_text
from model.dist.route import assign, senders
from model.dist.search import explore_distributed
from model.search.compact import empty
from model.search.expand import Context, successors
from model.search.explicit import ExplicitRun, explore
from model.search.fingerprint import explore_fingerprint
from model.search.heap import paused, quiet, release
from model.search.load import load_model
from model.search.search_verdict import Found
from model.shell.cli import main

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"


def same(a: ExplicitRun, b: ExplicitRun) -> None:
    assert (b.states, b.transitions, b.depth) == (a.states, a.transitions, a.depth)
    assert b.verdicts == a.verdicts  # Found carries the trace: shortest traces are the same traces
    assert b.completions == a.completions


@pytest.mark.parametrize(("name", "bound", "reduction", "parts", "finds"), [
    ("report.json", 3, True, None, True), ("report.json", 3, False, None, True), ("payments.json", 3, True, 3, True)])
def test_equals_single_process(dask_client: Any, name: str, bound: int, reduction: bool, parts: int | None,
                               finds: bool) -> None:
    m = load_model(SEARCH / name)
    a = explore(m, bound, reduction=reduction)
    measure = Measure()
    b = explore_distributed(dask_client, m, bound, reduction=reduction, partitions=parts, measure=measure)
    same(a, b)
    assert any(isinstance(v, Found) for _, v in a.verdicts) == finds
    assert sum(r["new_states"] for r in measure.levels) + 1 == a.states
    assert max(r["remote"] for r in measure.levels) > 0  # states did cross between partitions
    # at the last level too, where a batch that leaves carries the states alone (``route.batch``, ``last``)
    assert measure.levels[-1]["remote"] > 0 and measure.levels[-1]["new_states"] > 0
    assert sum(n for n, _ in measure.memory) == a.states
    assert 0 < measure.critical_cpu <= measure.worker_cpu == b.cpu_seconds
    assert measure.seeded  # the LocalCluster's workers share one hash seed: the native owner hash ran
    P = parts or 2
    for lv in measure.levels:  # a step or opening per partition, two tasks a chunk, a routing task per pair
        assert P < lv["tasks"] <= P + 2 * P * dist_search.CHUNKS + P * P
    # the driver's timeline (experiments/dask_timeline.py): each level opened, expanded, routed, in time order
    names = [e for e, _, _ in measure.marks]
    assert names[0] == "start" and names[1:3 * a.depth + 1] == [
        f"{n} {phase}" for n in range(a.depth) for phase in ("opened", "expanded", "routed")]
    if a.depth == bound:
        assert names[-1] == f"{bound} finished"
    assert all(x[1] <= y[1] and x[2] <= y[2] for x, y in pairwise(measure.marks))


@pytest.mark.parametrize(("n", "count"), [(97_000, 16), (9_000, 5), (135, 16), (16, 16), (2_001, 2), (7, 1),
                                            (0, 1)])
def test_chunks_tile_the_frontier(n: int, count: int) -> None:
    """``frontier.cut``, which the owner's cut and the driver's count of the states a chunk must expand
    both use: the chunks tile the frontier in order, equal within a state."""
    spans = [cut(n, j, count) for j in range(count)]
    assert spans[0][0] == 0 and spans[-1][1] == n
    assert all(a[1] == b[0] for a, b in pairwise(spans))
    sizes = [hi - lo for lo, hi in spans]
    assert max(sizes) - min(sizes) <= 1


def test_local_workers_run_without_dasks_profiler(dask_client: Any) -> None:
    """``cluster.connect`` starts its workers without Dask's statistical profiler (its samples feed a
    dashboard no local cluster here serves, and cost the task thread CPU and the GIL)."""
    on = dask_client.run(lambda dask_worker: "profile" in dask_worker.periodic_callbacks)
    assert len(on) == 2 and not any(on.values())


def test_local_cluster_housekeeping_is_slowed(dask_client: Any) -> None:
    """``cluster.connect`` runs Dask's housekeeping timers at ``HOUSEKEEPING``'s intervals, not Dask's
    defaults (20 ms, 100 ms, 500 ms), in the workers and in the scheduler: they take CPU from the search."""
    from dask.utils import parse_timedelta

    from model.dist.cluster import HOUSEKEEPING

    want = {name: 1000 * parse_timedelta(HOUSEKEEPING[key]) for name, key in (
        ("tick", "distributed.admin.tick.interval"), ("memory_monitor", "distributed.worker.memory.monitor-interval"),
        ("monitor", "distributed.admin.system-monitor.interval"))}
    assert min(want.values()) >= 1000
    workers = dask_client.run(lambda dask_worker: {n: dask_worker.periodic_callbacks[n].callback_time for n in want})
    assert len(workers) == 2 and all(got == want for got in workers.values())
    ticks = dask_client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.periodic_callbacks["tick"].callback_time)
    assert ticks == want["tick"]


@pytest.mark.parametrize("fingerprints", [False, True])
def test_one_partition_equals_single_process(dask_client: Any, fingerprints: bool) -> None:
    """One partition (a cluster of one worker): its children are not hashed into classes, yet the driver's
    check of entries sent against entries merged must still count them. It once counted none and every
    one-worker run ended Unknown (lost) after the root's level."""
    m = load_model(SEARCH / "payments_invoices.json")
    a = explore_fingerprint(m, 4) if fingerprints else explore(m, 4)
    b = explore_distributed(dask_client, m, 4, partitions=1, fingerprints=fingerprints)
    assert b.unknown is None, b.unknown
    same(a, b)


@pytest.mark.parametrize(("name", "bound"), [("payments.json", 6), ("delete_ab.json", 3), ("report.json", 0),
                                             ("report.json", 1)])
def test_saturated_and_trivial_bounds_equal_single_process(dask_client: Any, name: str, bound: int) -> None:
    """A level that adds no state ends the search (its merge runs in the next level's step), and bounds
    0 and 1 have no or only a final merge."""
    m = load_model(SEARCH / name)
    a = explore(m, bound)
    assert a.depth < bound or bound <= 1
    same(a, explore_distributed(dask_client, m, bound))
    same(explore_fingerprint(m, bound), explore_distributed(dask_client, m, bound, fingerprints=True))


def test_class_is_stable_across_processes(dask_client: Any) -> None:
    """Worker processes have their own string-hash salt; the class must not depend on it."""
    m = load_model(SEARCH / "report.json")
    ctx = Context(m, renaming=True)
    level1 = [new for _, new, _, _, _ in successors(ctx, empty(m.policy))]
    states = level1 + [new for s in level1[:3] for _, new, _, _, _ in successors(ctx, s)]
    here = [class_of(s) for s in states]
    there = dask_client.submit(lambda ss: [class_of(s) for s in ss], states, pure=False).result()
    assert there == here
    assert len(set(here)) > 1
    assert len({proj_text(s) for s in states}) == len({s[1:] for s in states})
    # the native hash agrees between workers started with one seed (the LocalCluster's)
    seeded = [dask_client.submit(lambda ss: [class_of(s, True) for s in ss], states, workers=[w], pure=False).result()
              for w in sorted(dask_client.scheduler_info(n_workers=-1)["workers"])]
    assert seeded[0] == seeded[1] and len(set(seeded[0])) > 1


def test_assign_keeps_placements_balances_and_prefers_the_producer() -> None:
    def summary(*classes: tuple[int, int]) -> Summary:
        return Summary(0, (), frozenset(), (), True, 0.0, classes)

    table = {7: 1}
    delta = assign(table, [summary((7, 50), (1, 40), (2, 5)), summary((3, 30), (1, 1), (2, 4))], 2)
    # 130 children, cap 1.05 * 65; partition 1 starts with class 7's 50. Largest new class first: class 1
    # (41) goes to its producer 0; class 3 (30) would lift its producer 1 to 80, so to the least loaded, 0
    # (71); class 2 (9) would lift its producer 0 above the cap, so to 1 (59).
    assert delta == {1: 0, 3: 0, 2: 1}
    assert table == {7: 1, 1: 0, 3: 0, 2: 1}
    assert assign(table, [summary((7, 9), (3, 2)), summary((2, 5))], 2) == {}  # nothing new to place


def test_senders_are_the_pairs_with_children_and_the_owner_itself() -> None:
    def summary(*classes: tuple[int, int]) -> Summary:
        return Summary(0, (), frozenset(), (), True, 0.0, classes)

    table = {1: 0, 2: 2, 3: 2, 4: 1}
    # partition 0 sends to 0 and 2, partition 1 only to 2, partition 2 nothing; every owner merges its own
    assert senders(table, [summary((1, 3), (2, 1)), summary((3, 2)), summary()], 3) == [(0,), (1,), (0, 1, 2)]
    with pytest.raises(KeyError):  # a class the driver never placed is a bug, not an empty batch
        senders(table, [summary((9, 1))], 1)


def test_a_routing_task_never_cuts_another_levels_children() -> None:
    """In process: after the step of level 0, routing level 0 works and routing any other level is refused
    (the driver's dependencies keep a routing task before its sender's next step; this is the guard)."""
    from model.dist import level, partition, route

    m = load_model(SEARCH / "report.json")
    sid = "guard"
    try:
        partition.start(sid, 0, 1, m)
        s = level.step(sid, 0, 0, True, True, frozenset(), None, None, (), ())
        assert s.transitions > 0
        with pytest.raises(RuntimeError, match="children of level 0, not 1"):
            route.batch(sid, 0, 0, 1, {})
        assert len(route.batch(sid, 0, 0, 0, {})) == s.transitions  # level 1: every child is new
    finally:
        partition.drop(sid, 0)


def test_quiet_pauses_the_collector_and_freezes_what_the_task_leaves() -> None:
    kept: list[object] = []

    @quiet
    def task() -> bool:
        kept.append([[] for _ in range(1000)])
        return gc.isenabled()

    before = gc.get_freeze_count()
    was = gc.isenabled()
    try:
        gc.enable()
        assert task() is False  # paused while the task runs
        assert gc.isenabled()  # and restored afterwards
        assert gc.get_freeze_count() >= before + 1000  # the task's survivors are out of the collector's walks
        release()  # a search ended: the collector sees them again
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        if not was:
            gc.disable()


def test_fingerprint_mode_equals_single_process(dask_client: Any) -> None:
    m = load_model(SEARCH / "report.json")
    a = explore_fingerprint(m, 4)
    measure = Measure()
    b = explore_distributed(dask_client, m, 4, fingerprints=True, measure=measure)
    same(a, b)
    assert (b.mode, a.mode) == ("fingerprint", "fingerprint")
    assert 0.0 < b.collision <= a.collision  # per partition: no more pairs than in one table
    assert any(isinstance(v, Found) for _, v in b.verdicts)
    assert sum(n for n, _ in measure.memory) == a.states


@pytest.mark.parametrize("floor", [2000, 1])
def test_budget_gives_unknown_and_keeps_earlier_traces(dask_client: Any, monkeypatch: pytest.MonkeyPatch,
                                                        floor: int) -> None:
    """Pinned-size chunks and one-state chunks: each chunk gets the transitions left, so the level stops."""
    monkeypatch.setattr(dist_search, "MIN_CHUNK", floor)
    m = load_model(SEARCH / "report.json")
    full = explore(m, 4)
    b = explore_distributed(dask_client, m, 4, budget=Budget(states=600))
    assert b.unknown is not None and b.unknown.limit == "states"
    assert b.depth < 4
    for (name, v), (_, w) in zip(b.verdicts, full.verdicts, strict=True):
        assert isinstance(v, Found | Unknown), name
        if isinstance(v, Found):
            assert v == w  # found in a complete level: the single-process shortest trace
    assert any(isinstance(v, Unknown) for _, v in b.verdicts)


def test_cli_scheduler_equals_single_process(dask_client: Any) -> None:
    addr = dask_client.scheduler.address
    args = ["search", str(SEARCH / "report.json"), "--engine", "explicit", "--bound", "3", "--json"]
    one = CliRunner().invoke(main, [*args, "--interpreted"])  # the engine the partitioned search distributes
    dist = CliRunner().invoke(main, [*args, "--scheduler", addr])
    assert one.exit_code == dist.exit_code == 1  # the report model has a forbidden execution at bound 3
    a, b = json.loads(one.output), json.loads(dist.output)
    for doc in (a, b):
        doc["explicit"].pop("seconds")
    assert a == b


def test_cli_budget_exhausted_exits_3(dask_client: Any) -> None:
    args = ["search", str(SEARCH / "report.json"), "--engine", "explicit", "--bound", "3", "--json",
            "--budget", "50states", "--scheduler", dask_client.scheduler.address]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 3, out.output
    doc = json.loads(out.output)
    assert doc["explicit"]["budget"]["limit"] == "states"
    assert doc["unknown"]


def test_cli_fingerprint_on_a_cluster_equals_single_process(dask_client: Any) -> None:
    args = ["search", str(SEARCH / "report.json"), "--engine", "explicit", "--bound", "3", "--json", "--fingerprint"]
    one = CliRunner().invoke(main, args)
    dist = CliRunner().invoke(main, [*args, "--scheduler", dask_client.scheduler.address])
    assert one.exit_code == dist.exit_code == 1
    a, b = json.loads(one.output), json.loads(dist.output)
    assert a["explicit"]["mode"] == b["explicit"]["mode"] == "fingerprint"
    pa, pb = (doc["explicit"].pop("collision_probability") for doc in (a, b))
    assert 0 < pb <= pa  # on the cluster it is a sum over partitions: no more pairs than one table
    for doc in (a, b):
        doc["explicit"].pop("seconds")
    assert a == b


def test_single_process_search_runs_with_the_collector_paused_and_restores_it() -> None:
    """The baseline of the scaling comparison gets the same collector treatment as the workers."""
    seen: list[bool] = []
    model = load_model(SEARCH / "report.json")
    was = gc.isenabled()
    try:
        gc.enable()
        explore(model, bound=3, tick=lambda _d, _t: seen.append(gc.isenabled()))
        assert seen and not any(seen)
        assert gc.isenabled()
        gc.disable()
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize(("name", "bound", "reduction", "fingerprints", "chunks"), [
    ("report.json", 5, True, False, 64), ("report.json", 4, False, False, 3), ("payments.json", 5, True, False, 64),
    ("report.json", 5, True, True, 64), ("report.json", 5, True, False, None)])
def test_chunks_run_anywhere_and_keep_the_single_process_result(dask_client: Any, monkeypatch: pytest.MonkeyPatch,
                                                                 name: str, bound: int, reduction: bool,
                                                                 fingerprints: bool, chunks: int | None) -> None:
    """A level's frontier cut into chunks that Dask may run on either worker (or, with ``chunks=None``,
    every expand pinned to its partition) gives the same states, transitions, verdicts, shortest traces
    and completions."""
    monkeypatch.setattr(dist_search, "MIN_CHUNK", 1)  # chunks of a state or more: the small models are cut too
    m = load_model(SEARCH / name)
    a = explore_fingerprint(m, bound, reduction=reduction) if fingerprints else explore(m, bound, reduction=reduction)
    measure = Measure(exchange=False)
    b = explore_distributed(dask_client, m, bound, reduction=reduction, measure=measure, chunks=chunks,
                            fingerprints=fingerprints)
    same(a, b)
    if chunks is None:
        assert measure.lent == 0
