"""The driver of the partitioned breadth-first search on Dask distributed: the search of
``model/search/explicit.py`` with its frontier partitioned by state hash across workers.

Each level submits, per partition ``p`` pinned to its worker, ``partition.expand`` (the real monitor
steps every frontier state there), then ``P`` small ``getitem`` tasks on the same worker that split its
output into one batch per destination, then per partition ``q`` ``partition.merge`` on ``q``'s worker,
which depends on the ``P`` batches addressed to it: Dask moves them worker to worker, so states never
pass through the driver. The driver gathers only each expand's ``Summary`` (transitions, query events,
new useful completions) and each merge's count of new states.

Results equal the single-process search exactly — states, transitions, depth, verdicts, shortest traces,
useful completions — because partitions order their frontier by the first-discovery key and merges keep
the least key per state (``partition.py`` argues it); ``tests/unit/test_dist_search.py`` checks it.

Budget: the meter ticks on the driver, once per level, by the level's transitions, and the clock is read
between levels; each expand also gets the seconds and transitions left, and stops early when they run
out, so a level cannot outlive the budget by much. A level that did not complete is discarded: what was
found in earlier levels keeps its (shortest) trace and every other query answers ``Unknown``, as in the
single-process engine (whose counts at exhaustion differ: it stops mid-level).
Progress: ``tick(done, total)`` in hundredths of levels, once per level.
"""

from __future__ import annotations

import operator
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from model.budget import Budget, BudgetExhausted, Meter, Spent, Unknown
from model.dist import partition as part
from model.dist.cluster import cancel, gather
from model.dist.measure import Measure, wire
from model.search.compact import Compact
from model.search.expand import Key
from model.search.explicit import ExplicitRun, _rebuild, answers
from model.search.model import QueryKind, SearchModel
from model.search.states import Transition
from model.search.verdict import Trace

if TYPE_CHECKING:
    from distributed import Client, Future

Tick = Callable[[int, int], None]
_STEPS = 100
_UNLIMITED = Budget()
_NOWHERE: Compact = ((), (), frozenset(), (), (), frozenset(), ())  # ``_rebuild`` reads only transitions


def workers_of(client: Client) -> list[str]:
    """The cluster's worker addresses, sorted: partition ``p`` lives on the ``p``-th."""
    return sorted(client.scheduler_info(n_workers=-1)["workers"])


def explore_distributed(client: Client, model: SearchModel, bound: int | None = None, tick: Tick | None = None,
                        budget: Budget = _UNLIMITED, reduction: bool = True, meter: Meter | None = None,
                        partitions: int | None = None, measure: Measure | None = None) -> ExplicitRun:
    """``explicit.explore`` over the cluster of ``client``, one partition per worker by default.

    ``measure``, when given, receives the workers' CPU (total and critical path) and, with ``exchange``,
    per level the new states, transitions, entries exchanged (all, and between partitions) and their
    pickled bytes, and each partition's resident size at the end (that costs time: not for timed runs).
    The run's ``cpu_seconds`` is the workers' CPU in expand and merge (the driver's is not counted)."""
    k = model.bound if bound is None else bound
    run = meter if meter is not None else budget.start()
    start = time.perf_counter()
    addrs = workers_of(client)
    P = partitions if partitions is not None else len(addrs)
    where = [[addrs[p % len(addrs)]] for p in range(P)]
    sid = uuid.uuid4().hex

    def g(futures: Any) -> Any:
        return gather(client, futures, addrs)

    nq = len(model.queries)
    # one string-hash seed on every worker lets partitions hash states natively (``partition.owner``)
    seeded = len(set(g([client.submit(part.probe, workers=where[p], pure=False) for p in range(P)]))) == 1
    if measure is not None:
        measure.seeded = seeded
    g([client.submit(part.start, sid, p, P, model, seeded, workers=where[p], pure=False) for p in range(P)])
    found: dict[int, Trace] = {}
    premise = [False] * nq
    complete: dict[int, dict[str, tuple[part.OrderKey, frozenset[Trace]]]] = {
        i: {} for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
    states, transitions, depth = 1, 0, 0
    exhausted: Unknown | None = None
    cpu = 0.0  # the workers' CPU seconds in expand and merge: ``cpu_seconds`` of the run
    try:
        for layer in range(k):
            reduce_here = reduction and layer < k - 1
            left = run.remaining_seconds()
            cap = None if run.budget.states is None else max(0, run.budget.states - run.states)
            exp = [client.submit(part.expand, sid, p, reduction, reduce_here, frozenset(found), left, cap,
                                 workers=where[p], pure=False) for p in range(P)]
            heads = [client.submit(operator.getitem, exp[p], 0, workers=where[p], pure=False) for p in range(P)]
            split = [[client.submit(operator.getitem, exp[p], q + 1, workers=where[p], pure=False)
                      for q in range(P)] for p in range(P)]
            merges = [client.submit(part.merge, sid, q, layer, *[split[p][q] for p in range(P)], workers=where[q],
                                    pure=False) for q in range(P)]
            summaries: list[part.Summary] = g(heads)
            if not all(s.complete for s in summaries):
                cancel(client, merges)
                n = sum(s.transitions for s in summaries)
                raise BudgetExhausted(run.budget, Spent(run.spent.seconds, run.states + n),
                                      "time" if run.remaining_seconds() == 0.0 else "states")
            merged: list[tuple[int, float]] = g(merges)
            new = [n for n, _ in merged]
            level = sum(s.transitions for s in summaries)
            cpu += sum(s.cpu for s in summaries) + sum(c for _, c in merged)
            if measure is not None:
                measure.critical_cpu += max(s.cpu for s in summaries) + max(c for _, c in merged)
            if measure is not None and measure.exchange:
                sizes: list[tuple[int, int]] = g([
                    client.submit(wire, split[p][q], p != q, workers=where[p], pure=False)
                    for p in range(P) for q in range(P)])
                measure.levels.append({
                    "level": layer + 1, "new_states": sum(new), "transitions": level,
                    "exchanged": sum(n for n, _ in sizes),
                    "remote": sum(n for i, (n, _) in enumerate(sizes) if i // P != i % P),
                    "remote_bytes": sum(b for _, b in sizes)})
            del exp, heads, split, merges
            transitions += level
            _events(client, sid, where, summaries, found, premise, complete)
            run.tick(level)
            run.check_time()
            if not sum(new):
                break
            states += sum(new)
            depth = layer + 1
            if tick is not None:
                tick((layer + 1) * _STEPS, k * _STEPS)
    except BudgetExhausted as exc:
        exhausted = Unknown.of(exc, f"explored {states} states and {transitions} transitions in complete levels; "
                                    f"level {depth + 1} of bound {k} incomplete")
    except KeyboardInterrupt:  # Ctrl-C: what the complete levels covered, as for a budget
        exhausted = Unknown(run.budget, run.spent, "interrupt", f"interrupted after {states} states and "
                            f"{transitions} transitions in complete levels; level {depth + 1} of bound {k} incomplete")
    finally:
        if measure is not None:
            measure.worker_cpu = cpu
        if measure is not None and measure.exchange:
            measure.memory = g([client.submit(part.memory, sid, p, workers=where[p], pure=False)
                                             for p in range(P)])
        alive = set(workers_of(client))  # a lost worker's partition is gone with it; free the others
        g([client.submit(part.drop, sid, p, workers=where[p], pure=False) for p in range(P) if where[p][0] in alive])
    verdicts, comps = answers(model, k, found, premise,
                              {i: {t for _, ts in cones.values() for t in ts} for i, cones in complete.items()},
                              states, exhausted)
    return ExplicitRun(k, tuple(verdicts), comps, states, transitions, depth, time.perf_counter() - start,
                       exhausted, reduction, cpu)


def _events(client: Client, sid: str, where: list[list[str]], summaries: list[part.Summary], found: dict[int, Trace],
            premise: list[bool], complete: dict[int, dict[str, tuple[part.OrderKey, frozenset[Trace]]]]) -> None:
    """Fold one complete level's summaries in: the least hit per query (its trace walked back through the
    partitions' links), premises, and per cone the orders of its least edge."""
    best: dict[int, part.Hit] = {}
    fresh: dict[int, dict[str, tuple[part.OrderKey, frozenset[Trace]]]] = {}
    for s in summaries:
        for i, hit in s.hits:
            if i not in found and (i not in best or hit[0] < best[i][0]):
                best[i] = hit
        for i in s.premises:
            premise[i] = True
        for i, (ckey, ekey, ts) in s.completions:
            if ckey not in complete[i] and (ckey not in fresh.setdefault(i, {}) or ekey < fresh[i][ckey][0]):
                fresh[i][ckey] = (ekey, ts)
    for i, cones in fresh.items():
        complete[i].update(cones)
    if best:
        for i, trace in zip(best, _traces(client, sid, where, list(best.values())), strict=True):
            found[i] = trace


def _traces(client: Client, sid: str, where: list[list[str]], hits: list[part.Hit]) -> list[Trace]:
    """Walk each hit's parent links back to the root, one round of lookups per level for all hits, then
    ask each parent's partition for the transitions the links name by key (one round)."""
    needs = [w[0] for w in where]
    # per hit, from the hit backwards: (parent's partition, parent's key, transition or its key, position)
    paths: list[list[tuple[int, part.OrderKey, Transition | Key, int | None]]] = [
        [(h[1], h[2], h[3], h[4])] for h in hits]
    at: list[tuple[int, part.OrderKey]] = [(h[1], h[2]) for h in hits]
    while any(a[1] for a in at):
        asks: dict[int, list[part.OrderKey]] = {}
        for a in at:
            if a[1]:
                asks.setdefault(a[0], []).append(a[1])
        futs: dict[int, Future[tuple[part.Link, ...]]] = {
            p: client.submit(part.links, sid, p, tuple(keys), workers=where[p], pure=False) for p, keys in asks.items()}
        got = {p: dict(zip(asks[p], ls, strict=True))
               for p, ls in zip(futs, gather(client, list(futs.values()), needs), strict=True)}
        for n, a in enumerate(at):
            if not a[1]:
                continue
            link = got[a[0]][a[1]]
            assert link is not None, "only the root has no link, and its key is ()"
            key, pp, tkey, pos = link
            paths[n].append((pp, key[:-1], tkey, pos))
            at[n] = (pp, key[:-1])
    wanted: dict[int, list[tuple[part.OrderKey, Key]]] = {}
    for path in paths:
        for pp, okey, tr, _ in path:
            if not isinstance(tr, Transition):
                wanted.setdefault(pp, []).append((okey, tr))
    futs2 = {p: client.submit(part.steps, sid, p, tuple(ks), workers=where[p], pure=False) for p, ks in wanted.items()}
    made = {(p, ask): tr for p, trs in zip(futs2, gather(client, list(futs2.values()), needs), strict=True)
            for ask, tr in zip(wanted[p], trs, strict=True)}
    return [_rebuild([(_NOWHERE, tr if isinstance(tr, Transition) else made[(pp, (okey, tr))], pos)
                      for pp, okey, tr, pos in reversed(path)]) for path in paths]
