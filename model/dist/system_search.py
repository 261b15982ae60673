"""The driver of the partitioned breadth-first search of a generic system (``protocol.System``) on Dask
distributed: the search of ``model/search/system/bfs.py`` with its states partitioned across workers by a
stable hash (``system.py`` holds a partition and argues the order). Our design; the papers say nothing
about distribution.

Before the first level, when the system memoizes its successors in shares (``protocol.SharedMemo``: the
admission model's service steps, ``admission_share.py``), each partition builds its own shares of the memo
(``system.warm``) and adopts the others' (``system.adopt``, which verifies each and refuses one it cannot
trust — the partition then runs those steps itself); Dask moves the shares worker to worker.
Each level is one ``system.step`` per partition on its worker: merge the batches of the previous level
addressed to it, then expand the new frontier (the system's own ``successors``, run there). The driver
gathers the summaries (transitions, the least hitting transition per query, premises, children per
owner), rebuilds a found trace by replaying its order from the initial state, and submits a
``system.cut`` on each sender per owner that has children from it, then the next ``step`` on each owner,
which depends on the cuts addressed to it: Dask moves the batches worker to worker, never through the
driver. The last level ends with ``system.finish`` (merge only). Why one task per partition and level
here while the monitor engine cuts levels into chunks (``search.py``, balance): a state hash spreads a
level's states evenly, and each admission state costs about the same to expand, so the partitions' CPU
stays even without lending.

Results equal the single process's: states, transitions, depth, and every verdict with its shortest trace
(``tests/unit/test_dist_system.py`` checks it on generated systems and admission instances). Budget, progress
and a cut-short level as in ``search.py``: the meter ticks on the driver by each level's transitions,
each step gets the seconds and transitions left, and a level that did not complete is discarded, so every
query not already Found answers ``Unknown``. Each level is accounted as in ``search.py``: every expand
expanded its whole frontier and every merge read from each sender what the sender cut for it, else
(or when a task fails) the answer is ``Unknown`` (limit "lost"). With ``fingerprint`` each partition
keeps 64-bit fingerprints and the collision probability is the sum of the partitions' birthday bounds.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from model.base.budget import Budget, BudgetExhausted, Meter, Unknown
from model.dist import system as ws
from model.dist.driver import Lost, Placed, Tally, account, cap_of, check_complete, cut_short
from model.dist.fault_injection import Faults
from model.dist.measure import Measure
from model.search.system.bfs import Path, SystemRun, answers, replay
from model.search.system.protocol import System

if TYPE_CHECKING:
    from distributed import Client

Tick = Callable[[int, int], None]
_UNLIMITED = Budget()


def trace_of(sys: System[Any], order: int, length: int) -> Path:
    """The labels of the path whose order (``system.py``) is ``order``, replayed from the initial state."""
    return replay(sys, (order >> (ws.SHIFT * (length - 1 - m)) & ((1 << ws.SHIFT) - 1) for m in range(length)))


def search_distributed(client: Client, make: Callable[[], System[Any]], bound: int, mode: str = "exact",
                       tick: Tick | None = None, budget: Budget = _UNLIMITED, meter: Meter | None = None,
                       partitions: int | None = None, measure: Measure | None = None, faults: Faults | None = None
                       ) -> SystemRun:
    """``bfs.search`` of the system ``make()`` builds, over the cluster of ``client``, one partition per
    worker by default. ``make`` is sent to every worker (it must pickle: a class and its arguments, e.g.
    ``functools.partial(AdmissionSystem, model)``). ``measure``, when given, receives the workers' CPU
    (total and critical path) and the driver's; the run's ``cpu_seconds`` is the workers' CPU. ``faults`` are
    injected into the workers' tasks for this search (tests and ``experiments/dist_faults.py``)."""
    sys = make()
    run = meter if meter is not None else budget.start()
    start, clock = time.perf_counter(), time.process_time()
    placed = Placed(client, partitions)
    P, sid, g, on = placed.parts, placed.sid, placed.g, placed.on

    if faults is not None:
        placed.faults(faults)
    front: list[int] = g([on(p, ws.start, sid, p, P, make, mode == "fingerprint") for p in range(P)])
    tally = Tally(front, bound, tick, measure)
    sent: list[tuple[int, ...]] = []  # per owner, the entries each sender cut for it in the last level
    found: dict[int, Path] = {}
    mask = premise = transitions = 0
    exhausted: Unknown | None = None
    shared = ws.memo_of(sys) if P > 1 and bound > 0 else None
    adopted: list[Any] = [None] * P
    if shared is not None:  # each partition builds its shares of the memo, then adopts the others'
        key = os.urandom(16)
        blobs = [on(p, ws.warm, sid, p, P, bound, key, run.remaining_seconds(), retries=2) for p in range(P)]
        adopted = [on(q, ws.adopt, sid, q, P, bound, key, tuple(p for p in range(P) if p != q),
                      *(blobs[p] for p in range(P) if p != q), retries=2) for q in range(P)]
        del blobs
    futs = [on(q, ws.step, sid, q, 0, 0, run.remaining_seconds(), cap_of(run), adopted[q]) for q in range(P)] \
        if bound > 0 else []
    try:
        if shared is not None:
            warmed: list[tuple[int, tuple[str, ...], float]] = g(adopted)
            tally.worked([c for _, _, c in warmed])
            if measure is not None:
                measure.memo_refused = [r for _, rs, _ in warmed for r in rs]
            run.check_time()  # a warm stops at the time budget: the search then answers Unknown
        for layer in range(bound):
            summaries: list[ws.Summary] = g(futs)
            if layer > 0:
                front = [s.merged for s in summaries]
                account(f"entries merged at level {layer}", sent, [s.received for s in summaries])
            account(f"states expanded at level {layer}", front,
                    [s.expanded if s.complete else f for s, f in zip(summaries, front, strict=True)])
            # the merge of this level's states ran in the same tasks
            if layer > 0 and not tally.level(front, layer):
                break
            tally.worked([s.cpu for s in summaries])
            check_complete(run, summaries)
            for i in sorted({i for s in summaries for i, _ in s.hits} - set(found)):
                found[i] = trace_of(sys, min(o for s in summaries for j, o in s.hits if j == i), layer + 1)
                mask |= 1 << i
            for s in summaries:
                premise |= s.premises
            level = sum(s.transitions for s in summaries)
            transitions += level
            run.tick(level)
            run.check_time()
            cuts = {(p, q): on(p, ws.cut, sid, p, q) for p in range(P) for q in range(P) if summaries[p].sizes[q]}
            into = [[cuts[p, q] for p in range(P) if (p, q) in cuts] for q in range(P)]
            sent = [tuple(summaries[p].sizes[q] for p in range(P) if (p, q) in cuts) for q in range(P)]
            if layer == bound - 1:
                merged: list[tuple[int, float, tuple[int, ...]]] = g([on(q, ws.finish, sid, q, bound, *into[q])
                                                                       for q in range(P)])
                account(f"entries merged at level {bound}", sent, [r for _, _, r in merged])
                tally.worked([c for _, c, _ in merged])
                tally.level([n for n, _, _ in merged], bound)
                break
            futs = [on(q, ws.step, sid, q, layer + 1, mask, run.remaining_seconds(), cap_of(run),
                       [f for (p, _), f in cuts.items() if p == q], *into[q]) for q in range(P)]
            del cuts, into
    except (BudgetExhausted, Lost) as exc:
        exhausted = cut_short(run, exc, tally.states, transitions, tally.depth, bound)
    except KeyboardInterrupt:  # Ctrl-C: what the complete levels covered, as for a budget
        exhausted = cut_short(run, None, tally.states, transitions, tally.depth, bound)
    finally:
        if measure is not None:
            measure.worker_cpu = tally.cpu
            measure.driver_cpu = time.process_time() - clock
        if faults is not None:
            placed.faults(None)
        g([on(p, ws.drop, sid, p) for p in placed.alive()])
    return SystemRun(sys.name, bound, answers(sys.queries, bound, found, premise, tally.states, exhausted),
                     tally.states, transitions, tally.depth, time.perf_counter() - start, tally.cpu, mode,
                     tally.collision() if mode == "fingerprint" else 0.0, exhausted)
