"""Sharded cases on Dask (model/dist/shard.py): revision-corpus entries judged one per task
on a LocalCluster give the in-process reports; a DRT campaign split into seeded shards gives the same
summary on the cluster as the same shards run one after another here (tests/slow/test_dist_large.py;
here only how cases are split)."""

from __future__ import annotations

from typing import Any

from model.dist.shard import judge_corpus, shard_seed, shards_of
from model.revision.corpus import load_manifest


def test_revision_entries_on_the_cluster_equal_in_process(dask_client: Any) -> None:
    entries = [e for e in load_manifest() if e.base.name == "delete_ab"][:5]
    assert len({e.kind for e in entries}) > 2
    here = judge_corpus(entries)
    ticks: list[tuple[int, int]] = []
    there = judge_corpus(entries, dask_client, lambda d, t: ticks.append((d, t)))
    assert [(r.preservation, r.safety) for r in there] == [(r.preservation, r.safety) for r in here]
    assert ticks[-1] == (len(entries), len(entries))


def test_shards_split_evenly() -> None:
    assert shards_of(10, 4) == [3, 3, 2, 2]
    assert shards_of(2, 5) == [1, 1]
    assert len({shard_seed(7, i) for i in range(100)}) == 100
