"""DRT campaigns and the revision corpus sharded over a Dask cluster (sharded the same way as the search):
independent cases go out with ``client.map`` and come back as the same values the in-process run makes.

- **Revision corpus**: one task per manifest entry (``revise`` on the entry's policies, workload, bound
  and prefix; the entry travels pickled, so workers need no corpus checkout). The reports equal the
  in-process ones except ``seconds``.
- **DRT campaign**: ``cases`` split into ``shards`` shards; shard ``i`` runs ``drt.campaign`` with
  ``shards_of(cases, n)[i]`` cases and hypothesis seed ``shard_seed(seed, i)`` against its own oracle
  process on its worker. Choice: a sharded campaign is defined by its shards — its summary is the sum
  of theirs (counts, answer kinds, skips, mismatches in shard order) and equals running the same shards
  one after another in one process (``tests/unit/test_dist_shard.py``); it is not the one-process
  campaign of ``seed`` (hypothesis draws one stream per seed). Workers need the checkout (the
  strategies are ``model/oracle/generators.py``) and the oracle executable; mismatches are saved as vectors on
  the driver, where ``corpus/vectors`` is.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from model.dist.cluster import gather

if TYPE_CHECKING:
    from distributed import Client

    from model.oracle.drt import Summary
    from model.revision.corpus import Entry
    from model.revision.report import RevisionReport

Tick = Callable[[int, int], None]


def judge(entry: Entry) -> RevisionReport:
    from model.revision.revise import revise

    return revise(entry.base.policy, entry.new, entry.effects, entry.base.workload, entry.base.bound, entry.prefix)


def judge_corpus(entries: Sequence[Entry], client: Client | None = None, tick: Tick | None = None
                 ) -> list[RevisionReport]:
    """Every entry's report, in manifest order: in process, or one task per entry on ``client``'s cluster."""
    if client is None:
        out: list[RevisionReport] = []
        for i, e in enumerate(entries):
            if tick is not None:
                tick(i, len(entries))
            out.append(judge(e))
        return out
    from distributed import as_completed

    futs = client.map(judge, list(entries), pure=False)
    for n, _ in enumerate(as_completed(futs), 1):  # type: ignore[no-untyped-call]
        if tick is not None:
            tick(n, len(entries))
    reports: list[RevisionReport] = gather(client, futs)
    return reports


def shards_of(cases: int, shards: int) -> list[int]:
    """Cases per shard: as even as possible, earlier shards take the remainder, no empty shard."""
    n = max(1, min(shards, cases))
    return [cases // n + (1 if i < cases % n else 0) for i in range(n)]


def shard_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def lean_oracle(timeout: float | None = None) -> Any:
    from model.oracle.inproc import open_oracle

    return open_oracle(timeout=timeout)


def run_shard(judgment: str, cases: int, seed: int, repo: str, oracle: Callable[[], Any] = lean_oracle) -> Summary:
    """One shard on a worker: its own oracle process, vectors kept in a scratch folder (the driver saves them)."""
    from model.oracle import generators
    from model.oracle.drt import campaign

    with oracle() as o, tempfile.TemporaryDirectory() as scratch:
        return campaign(judgment, cases, o, generators, seed, vectors=Path(scratch))


def combine(judgment: str, parts: Sequence[Summary], vectors: Path | None = None) -> Summary:
    """The sum of the shards' summaries; mismatches saved under ``vectors`` (default corpus/vectors)."""
    from model.oracle.drt import VECTORS, Summary, save_vector

    out = Summary(judgment)
    for s in parts:
        out.cases += s.cases
        out.compared += s.compared
        out.skipped += s.skipped
        out.kinds += s.kinds
        out.mismatches += s.mismatches
        out.replays += s.replays
        out.seconds += s.seconds
        if not out.fault:
            out.fault, out.fault_kind = s.fault, s.fault_kind
    out.vectors = [save_vector(m, VECTORS if vectors is None else vectors) for m in out.mismatches]
    return out


def sharded_campaign(client: Client | None, judgment: str, cases: int, seed: int, shards: int, repo: Path,
                     oracle: Callable[[], Any] = lean_oracle, tick: Tick | None = None,
                     vectors: Path | None = None) -> Summary:
    """The campaign of ``shards`` shards (module docstring), on ``client``'s cluster or, without one, in
    this process one shard after another. ``seconds`` is the sum of the shards' times."""
    sizes = shards_of(cases, shards)
    args = [(judgment, n, shard_seed(seed, i), str(repo)) for i, n in enumerate(sizes)]
    parts: list[Summary] = []
    if client is None:
        for a in args:
            parts.append(run_shard(*a, oracle=oracle))
            if tick is not None:
                tick(sum(p.cases for p in parts), cases)
        return combine(judgment, parts, vectors)
    from distributed import as_completed

    futs = [client.submit(run_shard, *a, oracle=oracle, pure=False) for a in args]
    done = 0
    for f in as_completed(futs):  # type: ignore[no-untyped-call]
        done += f.result().cases
        if tick is not None:
            tick(done, cases)
    parts = gather(client, futs)
    return combine(judgment, parts, vectors)
