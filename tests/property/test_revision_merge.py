"""The product search with merging returns what the sequence enumeration it replaced returns:
on every entry of the revision corpus (task start and mid-task) and on generated revisions, the shortest
lost client and the shortest newly admitted forbidden trace are the same sequences (or both searches find
nothing), and merging never visits more nodes."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings

from model.monitor.language.policy import Policy
from model.oracle.generators import REVISION_WORKLOAD_JSON, revision_cases
from model.revision.corpus import Entry, load_manifest
from model.revision.explore.counterexample import Counterexample, Searched, lost_client, new_forbidden
from model.revision.explore.prefix import starting_point
from model.revision.explore.workload import workload_from_json


def same(a: Counterexample | Searched, b: Counterexample | Searched) -> bool:
    if isinstance(a, Searched) or isinstance(b, Searched):
        return isinstance(a, Searched) and isinstance(b, Searched) and a.bound == b.bound
    return (a.seq, a.names, a.refusal, a.confirmed) == (b.seq, b.names, b.refusal, b.confirmed)


@functools.cache
def _entries() -> tuple[Entry, ...]:
    return load_manifest()


@pytest.mark.parametrize("i", range(len(load_manifest())))
def test_corpus_entry(i: int) -> None:
    e = _entries()[i]
    old, new, workload, bound = e.base.policy, e.new, e.base.workload, e.base.bound
    point = None if e.prefix is None else starting_point(old, new, e.prefix)
    for search in (lost_client, new_forbidden):
        merged = search(old, new, workload, bound, point, merge=True)
        plain = search(old, new, workload, bound, point, merge=False)
        assert same(merged, plain), (e.id, search.__name__, merged, plain)
        if isinstance(merged, Searched) and isinstance(plain, Searched):
            assert merged.visited <= plain.visited


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(revision_cases())
def test_generated_revisions(case: tuple[Policy, Policy]) -> None:
    old, new = case
    workload = workload_from_json(REVISION_WORKLOAD_JSON)
    for search in (lost_client, new_forbidden):
        assert same(search(old, new, workload, 4, merge=True), search(old, new, workload, 4, merge=False))
