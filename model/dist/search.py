"""The driver of the partitioned breadth-first search on Dask distributed: the search of
``model/search/explicit.py`` (or, with ``fingerprints``, of ``model/search/fingerprint.py``) with its
frontier partitioned across workers by decision class (``partition.py``).

Each level, pinned (``chunks=None``), is one task per partition ``p`` on its worker, ``level.step``: it
merges the batches of the previous level addressed to ``p``, then expands the new frontier (the real
monitor steps every state there; its children stay on the worker). The driver gathers the summaries
(query events, children per class, the merge's count: its one round trip of the level), places the classes first seen
(``route.assign``) and submits a ``route.batch`` on ``p``'s worker for each owner ``q`` of classes ``p``'s
children fall in (``route.senders``; ``q = p`` always), then the next ``step`` on each ``q``, which
depends on the batches addressed to it: Dask moves them worker to worker, so states never pass through
the driver. The last level ends with ``level.finish`` (merge only). Per level the driver exchanges with
the workers only summaries and the new placements (a few integers a class).

**Balance.** A class is placed for good (a state reached again must meet its visited entry), but the
CPU of expanding a class's states is not proportional to their count: on the seven-tool AgentDojo
banking model at bound 4, pinned expands left one worker with 18 times the other's CPU at level 2 with
fewer states, and the classes of one level are mostly new in the next, so no history predicts it. So,
with ``chunks`` (the default with several partitions), ownership stays with the class and only the
*expansion* moves: each partition's new frontier is cut into up to ``chunks`` runs of at least
``MIN_CHUNK`` consecutive states (``level.open_level``, ``level.take``, ``frontier.cut``), and the driver
feeds each worker two chunks at a time (one once fewer are left than workers), its own partition's first
(no transfer, the decision memo warm), then, when its own are done, the last chunk of the partition with
the most left — pickled for the wire when it was cut (the last quarter of a partition's chunks), or else by
a task that jumps the owner's queue, so the thief waits at most for the owner's running chunk. A chunk's children join the
partition of the worker that ran it and are routed to their owners like any other (``partition.py``:
links and events name the owner and the state's index in its frontier, and a child reached by two
chunks keeps its least key). The driver steals, not Dask: Dask's stealing weighs every ``chunk`` task
alike, and one partition's chunks may cost many times another's. Where a state is expanded changes no
result; the cost is a round trip per chunk and, for a stolen chunk, its states on the wire and
decisions made again.

Results equal the single-process search exactly — states, transitions, depth, verdicts, shortest traces,
useful completions — because partitions order their frontier by the first-discovery key and merges keep
the least key per state (``partition.py`` argues it); ``tests/unit/test_dist_search.py`` checks it.

Budget: the meter ticks on the driver, once per level, by the level's transitions, and the clock is read
between levels; each step also gets the seconds and transitions left when it is submitted, and its
expand stops early when they run out, so a level cannot outlive the budget by much. A level that did
not complete is discarded: what was found in earlier levels keeps its (shortest) trace and every other
query answers ``Unknown``, as in the single-process engine (whose counts at exhaustion differ: it stops
mid-level).
Accounting (``driver.account``; the papers say nothing about distribution, the choice is ours): a level
counts only when its frontier sizes are what the merges admitted, every chunk came back having expanded
every state it was cut with, and every merge read from each sender the entries its summary routed there;
otherwise, or when a task fails or is cancelled, the search answers ``Unknown`` (limit "lost") with the
complete levels' counts. Cuts and chunks are run again by Dask when they fail (``driver.RETRIES``).
Progress: ``tick(done, total)`` in hundredths of levels, once per level.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from model.base.budget import Budget, BudgetExhausted, Meter, Unknown
from model.dist import level, route
from model.dist import links as lk
from model.dist import partition as part
from model.dist.cluster import cancel, first_done
from model.dist.driver import RETRIES, Lost, Placed, Tally, account, cap_of, check_complete, cut_short, transient
from model.dist.fault_injection import Faults
from model.dist.frontier import cut
from model.dist.measure import Measure, wire
from model.dist.traces import Cones, Tracer
from model.search.explicit import ExplicitRun, answers
from model.search.model import QueryKind, SearchModel
from model.search.search_verdict import Trace

if TYPE_CHECKING:
    from distributed import Client

Tick = Callable[[int, int], None]
_UNLIMITED = Budget()
#: chunks per partition and level (``chunks``): enough for Dask to even out two workers' levels
CHUNKS = 16
#: the fewest frontier states worth a chunk of their own (a chunk costs the driver a round trip). At 2000 the
#: seven-tool AgentDojo banking model's level 1 (644 states, each decided for the first time) was one chunk on
#: one worker and level 2 five a partition; at 250 the tasks' critical path at bound 4 was 0.525 and 0.542 of
#: their CPU against 0.539-0.549 at 2000 (``Measure.critical_cpu``, four runs at 2000 and two at 250 on a
#: machine at load 3-7; 0.5 is an even split): a small gain, within the runs' spread
MIN_CHUNK = 250


def _record(measure: Measure, g: Callable[[Any], Any], on: Callable[..., Any], split: dict[tuple[int, int], Any],
            summaries: list[part.Summary], table: dict[int, int], layer: int, transitions: int, chunks: int) -> None:
    """One level's exchange into ``measure``: entries sent (all, and between partitions), their pickled
    bytes, the tasks (steps and routing), the classes placed so far (measured runs only: pickling costs
    time); its new states and the fuller partition's share of them arrive with the next level's merge."""
    pairs = list(split)
    sizes: list[tuple[int, int]] = g([on(p, wire, split[p, q], p != q) for p, q in pairs])
    measure.levels.append({
        "level": layer + 1, "new_states": 0, "transitions": transitions,
        "exchanged": sum(n for n, _ in sizes),
        "remote": sum(n for (p, q), (n, _) in zip(pairs, sizes, strict=True) if p != q),
        "remote_bytes": sum(b for _, b in sizes), "classes": len(table), "largest": 0,
        "tasks": len(summaries) + 2 * chunks + len(pairs), "sender_classes": sum(len(s.classes) for s in summaries)})
    measure.class_sizes = sorted((n for n, _ in route.weights(summaries).values()), reverse=True)


def explore_distributed(client: Client, model: SearchModel, bound: int | None = None, tick: Tick | None = None,
                        budget: Budget = _UNLIMITED, reduction: bool = True, meter: Meter | None = None,
                        partitions: int | None = None, measure: Measure | None = None,
                        fingerprints: bool = False, chunks: int | None = CHUNKS, faults: Faults | None = None
                        ) -> ExplicitRun:
    """``explicit.explore`` over the cluster of ``client``, one partition per worker by default; with
    ``fingerprints``, ``fingerprint.explore_fingerprint`` (each partition keeps 64-bit fingerprints).

    ``measure``, when given, receives the workers' CPU (total and critical path) and, with ``exchange``,
    per level the new states, transitions, entries exchanged (all, and between partitions) and their
    pickled bytes, and each partition's resident size at the end (that costs time: not for timed runs).
    The run's ``cpu_seconds`` is the workers' CPU in expand, routing and merge (the driver's is not
    counted). ``chunks``: with several partitions, each level's frontier of each partition is cut into this
    many chunks that run wherever Dask schedules them (module docstring, balance); None pins every expand
    to its partition's worker. ``faults`` are injected into the workers' tasks for this search (tests and
    ``experiments/dist_faults.py``)."""
    k = model.bound if bound is None else bound
    run = meter if meter is not None else budget.start()
    start, clock = time.perf_counter(), time.process_time()
    placed = Placed(client, partitions)
    P, sid, where, addrs, g, on = placed.parts, placed.sid, placed.where, placed.addrs, placed.g, placed.on

    nq = len(model.queries)
    # one string-hash seed on every worker lets partitions hash states natively (``partition.class_of``)
    seeded = len(set(g([on(p, part.probe) for p in range(P)]))) == 1
    if measure is not None:
        measure.seeded = seeded
    if faults is not None:
        placed.faults(faults)
    *held, root = g([on(p, part.start, sid, p, P, model, seeded, fingerprints) for p in range(P)]
                    + [on(0, part.root_class, model, seeded)])
    # the root's class as the workers hash it (the driver's own string hash may be seeded otherwise)
    table = {root: 0}  # class -> partition, as every partition holds it
    if P == 1:
        table[part.ALONE] = 0  # a lone partition counts its children in this class, unhashed
    tracer = Tracer(client, sid, where, model, fingerprints)
    found: dict[int, Trace] = {}
    premise = [False] * nq
    complete: Cones = {i: {} for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
    transitions = 0
    tally = Tally([1] + [0] * (P - 1), k, tick, measure)  # the root on partition 0; CPU: ``cpu_seconds``
    exhausted: Unknown | None = None
    chunked = chunks is not None and P > 1
    account("states at the start", [1] + [0] * (P - 1), held)
    front: list[int] = held  # each partition's frontier at the level being expanded, as its merge counted it
    sent: list[tuple[int, ...]] = []  # per owner, the entries each sender routed to it in the last level

    def submit(layer: int, after: list[list[Any]], senders: list[tuple[int, ...]], batches: list[list[Any]]
               ) -> tuple[list[Any], list[Any]]:
        """Level ``layer``'s tasks: a ``step`` per partition, or an ``open_level`` per partition and its
        chunks, which Dask places (where their data is unless another worker is idle: work stealing)."""
        here = reduction and layer < k - 1
        seconds, cap, done = run.remaining_seconds(), cap_of(run), frozenset(found)
        if not chunked:
            return [on(q, level.step, sid, q, layer, reduction, here, done, seconds, cap, after[q], senders[q],
                       *batches[q]) for q in range(P)], []
        opened = [on(q, level.open_level, sid, q, layer, after[q], senders[q], *batches[q]) for q in range(P)]
        return opened, [(reduction, here, done, seconds, cap)]

    def dispatch(opened: list[level.Opened], args: tuple[Any, ...]) -> list[part.Summary]:
        """Run a level's chunks, two in flight per partition's worker (one once fewer chunks are left than
        workers): a worker that finishes one gets its own partition's next chunk, or, when its own are
        done, the last chunk of the partition with the most left (work stealing, by the driver: Dask's own
        stealing weighs every chunk alike, and one partition's chunks may cost many times the other's).
        Each chunk gets the seconds the budget has left when it is sent and the transitions left after the
        chunks already back, so a level overruns the budget by at most the chunks in flight. Every chunk comes back, and a complete one says it
        expanded every state it was sent (``Lost`` otherwise); Dask runs a failed cut or chunk again
        (``RETRIES``), which leave the partition as they found it when they fail."""
        assert chunks is not None
        reducing, here, done, _, cap = args
        spent = 0
        left: dict[int, list[tuple[int, bool, Any]]] = {}
        counts: list[int] = []
        for q, (_, _, n, _) in enumerate(opened):
            count = max(1, min(chunks, -(-n // MIN_CHUNK)))
            counts.append(count)
            # cut on the owner, last first: pop() takes the partition's chunks in frontier order; the last
            # quarter, which thieves take first, pickled for the wire when cut (``level.take``)
            left[q] = [(j, ready, on(q, level.take, sid, q, j, count, ready, retries=RETRIES))
                       for j in reversed(range(count)) for ready in [count > 1 and 4 * j >= 3 * count]] if n else []

        def give(w: int) -> tuple[Any, tuple[int, int, int]] | None:
            if left[w]:
                q, (j, _, f) = w, left[w].pop()
            else:
                q = max(left, key=lambda r: (len(left[r]), -r))
                if not left[q]:
                    return None
                # a stolen chunk: the owner's last, farthest from what it runs next, pickled for the wire there
                # (when not at its cut: ahead of the chunk queued there, behind the one running)
                j, ready, taken = left[q].pop(0)
                f = taken if ready else on(q, level.packed, taken, priority=1)
            room = None if cap is None else max(0, cap - spent)
            return on(w, level.chunk, sid, q, f, reducing, here, done, run.remaining_seconds(), room,
                      retries=RETRIES), (w, q, j)

        flying: dict[Any, tuple[int, int, int]] = {}
        for _ in range(2):
            for w in range(P):
                sent = give(w)
                if sent is not None:
                    flying[sent[0]] = sent[1]
        out: list[part.Summary] = []
        ran: list[tuple[int, int]] = []
        try:
            while flying:
                try:
                    back = first_done(client, list(flying), addrs)
                except BaseException as exc:
                    if transient(exc):
                        raise Lost(f"a chunk was cancelled ({exc})") from exc
                    raise
                for fut in back:
                    w, q, j = flying.pop(fut)
                    s = placed.g(fut)
                    n, count = opened[q][2], counts[q]
                    lo, hi = cut(n, j, count)
                    size = hi - lo
                    if s.complete and s.expanded != size:
                        raise Lost(f"chunk {j} of partition {q}: sent {size} states, it expanded {s.expanded}")
                    out.append(s)
                    ran.append((q, j))
                    spent += s.transitions
                    # near the level's end a chunk queued behind a running one could not be stolen by a
                    # worker that runs dry: with fewer chunks left than workers, a worker gets its next one
                    # only when it has none in flight (a round trip, against a chunk's seconds)
                    if sum(len(v) for v in left.values()) >= P or all(v[0] != w for v in flying.values()):
                        nxt = give(w)
                        if nxt is not None:
                            flying[nxt[0]] = nxt[1]
        finally:
            if flying:
                cancel(client, list(flying))
        account("chunks run per partition", [c if n else 0 for c, (_, _, n, _) in zip(counts, opened, strict=True)],
                [sum(1 for r, _ in ran if r == q) for q in range(P)])
        return out

    def mark(event: str) -> None:
        if measure is not None:
            measure.mark(event)

    mark("start")
    futs, chunk_futs = submit(0, [[] for _ in range(P)], [() for _ in range(P)], [[] for _ in range(P)]) if k > 0 \
        else ([], [])
    try:
        for layer in range(k):
            if chunked:
                opened: list[level.Opened] = g(futs)
                mark(f"{layer} opened")
                if layer > 0:
                    front = [new for new, _, _, _ in opened]
                    account(f"entries merged at level {layer}", sent, [r for _, _, _, r in opened])
                account(f"frontier of level {layer}", front, [n for _, _, n, _ in opened])
                ran = dispatch(opened, chunk_futs[0])
                mark(f"{layer} expanded")
                summaries = level.by_partition(opened, ran)
                if measure is not None:
                    measure.lent += sum(s.lent for s in ran)
            else:
                summaries = g(futs)
                mark(f"{layer} expanded")
                ran = []
                if layer > 0:
                    front = [s.merged for s in summaries]
                    account(f"entries merged at level {layer}", sent, [s.received for s in summaries])
                account(f"states expanded at level {layer}", front,
                        [s.expanded if s.complete else f for s, f in zip(summaries, front, strict=True)])
            if layer > 0:  # the merge of the previous level ran in the same tasks
                new = [s.merged for s in summaries]
                if measure is not None and measure.exchange:
                    measure.levels[-1].update(new_states=sum(new), largest=max(new))
                if not tally.level(new, layer):
                    break
            tally.worked([s.cpu for s in summaries])
            check_complete(run, summaries)
            delta = route.assign(table, summaries, P) if P > 1 else {}
            senders = route.senders(table, summaries, P)
            sent = route.routed(table, summaries, senders)
            last = layer == k - 1 and not fingerprints
            split = {(p, q): on(p, route.batch, sid, p, q, layer, delta, last) for q in range(P) for p in senders[q]}
            level_transitions = sum(s.transitions for s in summaries)
            tracer.fold(layer, summaries, found, premise, complete)
            transitions += level_transitions
            run.tick(level_transitions)
            run.check_time()
            if measure is not None and measure.exchange:
                _record(measure, g, on, split, summaries, table, layer, level_transitions, len(ran))
            mark(f"{layer} routed")
            if layer == k - 1:
                merged: list[tuple[int, float, tuple[int, ...]]] = g([
                    on(q, level.finish, sid, q, layer, senders[q], *[split[p, q] for p in senders[q]])
                    for q in range(P)])
                account(f"entries merged at level {k}", sent, [r for _, _, r in merged])
                tally.worked([c for _, c, _ in merged])
                if measure is not None and measure.exchange:
                    measure.levels[-1].update(new_states=sum(n for n, _, _ in merged),
                                              largest=max(n for n, _, _ in merged))
                tally.level([n for n, _, _ in merged], k)
                mark(f"{k} finished")
                break
            futs, chunk_futs = submit(layer + 1, [[f for (p, _), f in split.items() if p == q] for q in range(P)],
                                      senders, [[split[p, q] for p in senders[q]] for q in range(P)])
            del split
    except (BudgetExhausted, Lost) as exc:
        exhausted = cut_short(run, exc, tally.states, transitions, tally.depth, k)
    except KeyboardInterrupt:  # Ctrl-C: what the complete levels covered, as for a budget
        exhausted = cut_short(run, None, tally.states, transitions, tally.depth, k)
    finally:
        if measure is not None:
            measure.worker_cpu = tally.cpu
            measure.driver_cpu = time.process_time() - clock
        if measure is not None and measure.exchange:
            measure.memory = g([on(p, lk.memory, sid, p) for p in range(P)])
        if faults is not None:
            placed.faults(None)
        g([on(p, part.drop, sid, p) for p in placed.alive()])
    verdicts, comps = answers(model, k, found, premise,
                              {i: {t for _, ts in cones.values() for t in ts} for i, cones in complete.items()},
                              tally.states, exhausted)
    return ExplicitRun(k, tuple(verdicts), comps, tally.states, transitions, tally.depth, time.perf_counter() - start,
                       exhausted, reduction, tally.cpu, "fingerprint" if fingerprints else "exact",
                       tally.collision() if fingerprints else 0.0)
