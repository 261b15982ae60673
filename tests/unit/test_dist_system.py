"""The partitioned search of a generic system (model/dist/system_search.py) on a LocalCluster of two worker
processes: its states, transitions, depth and every verdict with its shortest trace equal the single-process
search's (model/search/system/bfs.py), exact and over fingerprints, with one, two and three partitions, on
generated finite systems and on the admission model (whose local states are rebuilt on the worker that
receives them); a budget answers Unknown; the shard of a state agrees across processes; the CLI runs it."""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

import cloudpickle
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from model.base.budget import Budget, Unknown
from model.dist import system as ws
from model.dist.measure import Measure
from model.dist.system_search import search_distributed, trace_of
from model.search.fpset import collision_probability
from model.search.system.admission import AdmissionSystem, load
from model.search.system.bfs import Reached, SystemRun, search
from model.search.system.compact_layer import Codec
from model.shell.cli import main
from tests.property.test_system_differential import _Graph, graphs

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"
# the generated graph lives in a test module the workers cannot import: send the class by value
cloudpickle.register_pickle_by_value(sys.modules[_Graph.__module__])


def same(a: SystemRun, b: SystemRun) -> None:
    assert (b.states, b.transitions, b.depth) == (a.states, a.transitions, a.depth)
    assert b.verdicts == a.verdicts  # Reached carries the trace: shortest traces are the same traces


@settings(max_examples=25, deadline=None)
@given(graphs(), st.integers(0, 6), st.sampled_from([1, 2, 3]), st.sampled_from(["exact", "fingerprint"]))
def test_equals_single_process_on_generated_systems(dask_client: Any, g: _Graph, k: int, parts: int,
                                                     mode: str) -> None:
    a = search(g, k)
    b = search_distributed(dask_client, partial(_Graph, g.edges, len(g.queries)), k, mode, partitions=parts)
    same(a, b)
    # per partition n(n-1)/2^65: at most the bound of all states in one set, nothing in exact mode
    assert b.mode == mode and 0.0 <= b.collision <= (collision_probability(b.states) if mode == "fingerprint" else 0.0)


@pytest.mark.parametrize(("name", "bound", "mode"), [("admission_hold.json", 6, "exact"),
                                                     ("admission_hold.json", 6, "fingerprint"),
                                                     ("admission_hold_r4.json", 6, "exact")])
def test_equals_single_process_on_admission(dask_client: Any, name: str, bound: int, mode: str) -> None:
    m = load(SEARCH / name)
    a = search(AdmissionSystem(m), bound)
    measure = Measure(exchange=False)
    b = search_distributed(dask_client, partial(AdmissionSystem, m), bound, mode, measure=measure)
    same(a, b)
    assert any(isinstance(v, Reached) for _, v in a.verdicts)
    assert 0 < measure.critical_cpu <= measure.worker_cpu == b.cpu_seconds
    assert measure.memo_refused == []  # each partition adopted the others' shares of the step memo


def test_budget_answers_unknown_and_keeps_found_traces(dask_client: Any) -> None:
    m = load(SEARCH / "admission_hold.json")
    full = search(AdmissionSystem(m), 6)
    run = search_distributed(dask_client, partial(AdmissionSystem, m), 6, budget=Budget(states=300))
    assert run.unknown is not None and run.unknown.limit == "states"
    assert run.states < full.states
    for (name, v), (_, w) in zip(run.verdicts, full.verdicts, strict=True):
        assert v == w if isinstance(v, Reached) else isinstance(v, Unknown), name  # found in a complete level


def test_warm_stops_at_the_time_budget(dask_client: Any) -> None:
    m = load(SEARCH / "admission_hold_r4.json")
    make = partial(AdmissionSystem, m)
    for part, seconds in ((0, 0.0), (1, None)):  # no time left, then no limit: the same share of the memo
        ws.start("warm-budget", part, 2, make, False)
        try:
            ws.warm("warm-budget", part, 2, 8, b"k" * 16, seconds)
            calls = ws.get("warm-budget", part).sys.steps.calls  # type: ignore[attr-defined]
            assert (calls == 0) if seconds == 0.0 else (calls > 100)
        finally:
            ws.drop("warm-budget", part)
    # the driver answers Unknown for a budget spent while the memo is built (about 2 CPU s at this bound)
    run = search_distributed(dask_client, make, 8, budget=Budget(seconds=0.01))
    assert run.unknown is not None and run.unknown.limit == "time"
    assert all(isinstance(v, Unknown) for _, v in run.verdicts)


def test_shard_agrees_across_processes(dask_client: Any) -> None:
    m = load(SEARCH / "admission_hold_r4.json")
    sys_ = AdmissionSystem(m)
    states = [t for _l, t, _h, _p in sys_.successors(sys_.initial())][:20]

    def shards(xs: list[Any]) -> list[int]:
        p = ws.Part(0, 7, AdmissionSystem(m), False, Codec(AdmissionSystem(m)))
        return [ws.shard(p, x) for x in xs]

    here = shards(states)
    there = dask_client.gather([dask_client.submit(shards, states, pure=False, workers=[w])
                                for w in sorted(dask_client.scheduler_info()["workers"])])
    assert all(t == here for t in there)
    assert len(set(here)) > 1  # the shards spread the states


def test_trace_of_replays_positions() -> None:
    m = load(SEARCH / "admission_hold.json")
    sys_ = AdmissionSystem(m)
    run = search(sys_, 4)
    v = run.verdict("held_replayed_executes")
    assert isinstance(v, Reached)
    cur, order = sys_.initial(), 0
    for label in v.trace:  # the positions of the trace's labels, packed as the partitions pack them
        j = next(i for i, (lab, _t, _h, _p) in enumerate(sys_.successors(cur)) if lab == label)
        cur = list(sys_.successors(cur))[j][1]
        order = order << ws.SHIFT | j
    assert trace_of(sys_, order, v.length) == v.trace


def test_cli_runs_admission_on_a_cluster() -> None:
    res = CliRunner().invoke(main, ["search", str(SEARCH / "admission_hold.json"), "--workers", "2", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    single = json.loads(CliRunner().invoke(main, ["search", str(SEARCH / "admission_hold.json"), "--json"]).output)
    assert {k: out[k] for k in ("states", "transitions", "depth", "queries")} == \
        {k: single[k] for k in ("states", "transitions", "depth", "queries")}
    assert out["workers"] == 2 and "workers" not in single


@pytest.mark.parametrize("mode", ["exact", "fingerprint"])
def test_symmetry_reduced_equals_single_process(dask_client: Any, mode: str) -> None:
    """Reduced by the requesters' symmetry, states of one orbit meet in one partition (sharded by the
    orbit key): the partitioned run equals the single-process reduced run, traces included."""
    from model.search.system.admission import reduced_system

    m = load(SEARCH / "admission_hold_r4.json")
    a = search(reduced_system(m), 5, mode)
    b = search_distributed(dask_client, partial(reduced_system, m), 5, mode, partitions=3)
    same(a, b)
    assert a.states < search(AdmissionSystem(m), 5).states
