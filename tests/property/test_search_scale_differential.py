"""The explicit engines on generated models: the single-process search with the exact visited set, the
same search over 64-bit fingerprints (``model/search/fingerprint.py``), and the search partitioned on a
Dask LocalCluster of two worker processes (``model/dist``) with exact and with fingerprint visited sets.
On generated variants of the report task and
on models holding values Python's ``==`` confuses, all four give the same states, transitions, depth,
verdicts with their shortest traces and useful completions, with and without sleep sets."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.dist import search as dist_search
from model.dist.measure import Measure
from model.dist.search import explore_distributed
from model.oracle.generators import search_confusable_variants, search_report_variants
from model.search.explicit import ExplicitRun, explore
from model.search.fingerprint import explore_fingerprint
from model.search.model import SearchModel


def same(a: ExplicitRun, b: ExplicitRun) -> None:
    assert (b.states, b.transitions, b.depth) == (a.states, a.transitions, a.depth)
    assert b.verdicts == a.verdicts  # Found carries the trace: the same shortest traces
    assert b.completions == a.completions


def check(client: Any, model: SearchModel, bound: int, reduction: bool) -> None:
    exact = explore(model, bound, reduction=reduction)
    fp = explore_fingerprint(model, bound, reduction=reduction)
    same(exact, fp)
    assert (exact.mode, fp.mode) == ("exact", "fingerprint")
    assert 0.0 < fp.collision < 1e-9
    m = Measure(exchange=False)
    same(exact, explore_distributed(client, model, bound, reduction=reduction, measure=m))
    assert m.seeded
    dfp = explore_distributed(client, model, bound, reduction=reduction, fingerprints=True)
    same(exact, dfp)
    # every expand pinned to its partition's worker, and chunks from one state up that either worker may run
    same(exact, explore_distributed(client, model, bound, reduction=reduction, chunks=None))
    floor = dist_search.MIN_CHUNK
    dist_search.MIN_CHUNK = 1
    try:
        same(exact, explore_distributed(client, model, bound, reduction=reduction, chunks=64, fingerprints=True))
        same(exact, explore_distributed(client, model, bound, reduction=reduction, chunks=3))
    finally:
        dist_search.MIN_CHUNK = floor
    assert dfp.mode == "fingerprint" and 0.0 < dfp.collision <= fp.collision


_FAST = settings(max_examples=4, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@_FAST
@given(search_report_variants(), st.booleans())
def test_report_variants(dask_client: Any, variant: tuple[SearchModel, int], reduction: bool) -> None:
    model, bound = variant
    check(dask_client, model, bound, reduction)


@_FAST
@given(search_confusable_variants(), st.booleans())
def test_confusable_values(dask_client: Any, model: SearchModel, reduction: bool) -> None:
    check(dask_client, model, 3, reduction)
