"""Where the CPU of the partitioned generic search goes: ``paper_figures/tables/dask_partition_cost.{csv,md}``
— per (admission model, bound), the single-process search against the same search cut into partitions
whose tasks (``model/dist/system.py``: ``start``, ``step``, ``cut``, ``finish``) run one after the other
in this process, without Dask: the CPU each partition's tasks take (the critical path's share of a run on
that many workers, before any transfer or scheduling), the real service runs (memo misses of
``admission_steps.Steps``) each makes, and what the memo's closure costs once.

Why in one process: on a shared machine the wall clock of a Dask run measures contention as much as the
design (``dask_scaling`` records the load beside it); CPU seconds of the same tasks, measured in one
process one after the other, do not depend on it. What this leaves out — pickling moves between workers,
Dask's scheduling, the driver's round trips — is what ``dask_scaling``'s wall and critical-path columns
show.

Columns: ``single_cpu_s`` and ``single_runs`` of the single process; ``part_cpu_s`` per partition;
``cpu_ratio`` = single CPU / the largest partition's (the most a run on that many workers could gain,
before transfers and scheduling); ``part_runs``: service runs per partition (each partition's own memo
starts empty, and a local state reached in another partition is rebuilt here by ``Steps._reach``);
``closure_runs`` and ``closure_cpu_s``: the service runs of every step of every requester that a search
to any bound can ask for (``Steps.closure``) and their CPU, once; ``memo_cpu_per_part_s`` = a partition's
runs at the closure's CPU per run: the share of a partition's CPU that is the memo made again;
``shared_part_cpu_s``, ``shared_cpu_ratio``, ``shared_part_runs``: the same partitions with the step memo
built once between them (``model/search/system/admission_share.py``: each builds its requesters' shares
to the bound, ``system.warm``, and adopts the others', ``system.adopt``, verifying them; the runs are the
partition's own, without the few the verification's sample runs on a scratch memo).

The monitor engine (``paper_figures/tables/dask_partition_cost_monitor.{csv,md}``, per model of
``MONITOR_RUNS``): the partitioned search of ``model/dist/search.py`` cut into chunks as its driver cuts them
(up to ``search.CHUNKS`` a partition, of at least ``search.MIN_CHUNK`` states), every task run in this process
one after the other — each partition's merge (``level.open_level``), its chunks on itself, the routing
(``route.batch``) and the last merge (``level.finish``) — and the driver's schedule replayed from the CPU each
chunk took: per level each worker runs its merge, then its own chunks in frontier order, and when they are
done the last chunk of the partition with the most left (the driver's stealing), then its routing tasks.
``critical_cpu_s`` sums per level the busier worker's CPU, plus the slower last merge: the CPU the search
needs on that many dedicated cores without transfers or scheduling; ``cpu_ratio`` = single CPU over it. What
the replay leaves out: a stolen chunk is counted at its owner's CPU (a thief decides again what the owner's
memo held), and Dask's own costs.

``python experiments/dask_partition_cost.py``; registered as ``dask-partition-cost`` (on demand, a few
CPU minutes).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from model.base.paths import repo_root
from model.base.tables import write_table
from model.dist import level, route
from model.dist import partition as part
from model.dist import search as ds
from model.dist import system as ws
from model.dist.frontier import expand_chunk
from model.search.explicit import explore
from model.search.load import load_model
from model.search.system.admission import AdmissionSystem, load
from model.search.system.admission_steps import Steps
from model.search.system.bfs import search

RUNS = (("admission_hold_r4.json", 8), ("admission_hold_r5.json", 9), ("admission_hold_r5.json", 11))
MONITOR_RUNS = (("deploy_fleet.json", 4), ("agentdojo_banking_wide.json", 4))
PARTS = 2


def _schedule(merges: list[float], chunks: list[list[float]], routes: list[float]) -> list[float]:
    """Each worker's CPU in one level under the driver's rule (``search.dispatch``): its merge, its own
    chunks in order, then, when its own are done, the last chunk of the partition with the most left; the
    worker that is free first takes the next one. Then its routing tasks."""
    busy = list(merges)
    left = [list(c) for c in chunks]
    while any(left):
        w = min(range(len(busy)), key=lambda i: (busy[i], i))
        if left[w]:
            busy[w] += left[w].pop(0)
        else:
            q = max(range(len(left)), key=lambda r: (len(left[r]), -r))
            busy[w] += left[q].pop()
    return [b + r for b, r in zip(busy, routes, strict=True)]


def _monitor(name: str, k: int, parts: int) -> list[object]:
    """One row of ``dask_partition_cost_monitor`` (module docstring)."""
    model = load_model(repo_root() / "corpus" / "search" / name)
    c = time.process_time()
    single = explore(model, k)  # the collector paused, as the partitions' tasks pause it
    single_cpu = time.process_time() - c
    sid = f"cost-monitor-{os.getpid()}-{k}"
    seeded = True  # one process: Python's hash agrees with itself
    for p in range(parts):
        part.start(sid, p, parts, model, seeded, False)
    table = {part.root_class(model, seeded): 0}
    senders: list[tuple[int, ...]] = [() for _ in range(parts)]
    batches: list[list[object]] = [[] for _ in range(parts)]
    critical = total = 0.0
    counts: list[str] = []
    transitions = 0
    for layer in range(k):
        here = layer < k - 1
        opened: list[level.Opened] = []
        for q in range(parts):
            opened.append(level.open_level(sid, q, layer, None, senders[q], *batches[q]))  # type: ignore[arg-type]
        costs: list[list[float]] = []
        ran: list[part.Summary] = []
        for q in range(parts):
            n = opened[q][2]
            count = max(1, min(ds.CHUNKS, -(-n // ds.MIN_CHUNK))) if n else 0
            mine = []
            for j in range(count):
                items = level.take(sid, q, j, count)
                c = time.process_time()
                ran.append(expand_chunk(sid, q, items, True, here, frozenset(), None, None, holder=q))
                mine.append(time.process_time() - c)
            costs.append(mine)
        counts.append("/".join(str(len(x)) for x in costs))
        summaries = level.by_partition(opened, ran)
        transitions += sum(s.transitions for s in summaries)
        delta = route.assign(table, summaries, parts)
        senders = route.senders(table, summaries, parts)
        split: dict[tuple[int, int], object] = {}
        routes = [0.0] * parts
        for q in range(parts):
            for p in senders[q]:
                c = time.process_time()
                split[p, q] = route.batch(sid, p, q, layer, delta, layer == k - 1)
                routes[p] += time.process_time() - c
        batches = [[split[p, q] for p in senders[q]] for q in range(parts)]
        busy = _schedule([o[1] for o in opened], costs, routes)
        critical += max(busy)
        total += sum(busy)
    last = [level.finish(sid, q, k - 1, senders[q], *batches[q])[1] for q in range(parts)]  # type: ignore[arg-type]
    critical += max(last)
    total += sum(last)
    states = sum(part.get(sid, p).stored for p in range(parts))
    for p in range(parts):
        part.drop(sid, p)
    same = (states, transitions) == (single.states, single.transitions)
    return [name, k, parts, single.states, single.transitions, f"{single_cpu:.1f}", f"{total:.1f}",
            f"{critical:.1f}", f"{single_cpu / critical:.2f}", " ".join(counts), same, f"{os.getloadavg()[0]:.1f}"]


def _parted(make: Callable[[], AdmissionSystem], k: int, parts: int, shared: bool
            ) -> tuple[list[float], list[int], int, int]:
    """The partitioned search's tasks in order, in this process: CPU and service runs per partition,
    states and transitions. ``shared``: the partitions build the step memo once between them and adopt
    each other's shares first (``warm``, ``adopt``), as ``system_search`` does."""
    sid = f"cost-{os.getpid()}-{k}-{shared}"
    cpu = [0.0] * parts
    for p in range(parts):
        c = time.process_time()
        ws.start(sid, p, parts, make, False)
        cpu[p] += time.process_time() - c
    if shared:
        key = os.urandom(16)
        blobs = []
        for p in range(parts):
            c = time.process_time()
            blobs.append(ws.warm(sid, p, parts, k, key))
            cpu[p] += time.process_time() - c
        for q in range(parts):
            c = time.process_time()
            _n, refused, _c = ws.adopt(sid, q, parts, k, key, tuple(p for p in range(parts) if p != q),
                                       *(blobs[p] for p in range(parts) if p != q))
            cpu[q] += time.process_time() - c
            if refused:
                raise RuntimeError(f"partition {q} refused a share of the memo: {refused}")
    batches: dict[int, tuple[object, ...]] = {q: () for q in range(parts)}
    transitions = 0
    for layer in range(k):
        for p in range(parts):
            c = time.process_time()
            out = ws.step(sid, p, layer, 0, None, None, None, *batches[p])  # type: ignore[arg-type]
            cpu[p] += time.process_time() - c
            transitions += out.transitions
        cut: dict[int, tuple[object, ...]] = {}
        for q in range(parts):
            got = []
            for p in range(parts):
                c = time.process_time()
                got.append(ws.cut(sid, p, q))
                cpu[p] += time.process_time() - c
            cut[q] = tuple(got)
        batches = cut
    for q in range(parts):
        c = time.process_time()
        ws.finish(sid, q, k, *batches[q])  # type: ignore[arg-type]
        cpu[q] += time.process_time() - c
    runs = [ws.get(sid, p).sys.steps.calls for p in range(parts)]  # type: ignore[attr-defined]
    states = sum(ws.get(sid, p).stored for p in range(parts))
    for p in range(parts):
        ws.drop(sid, p)
    return cpu, runs, states, transitions


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    rows: list[list[object]] = []
    for n, (name, k) in enumerate(RUNS):
        model = load(repo_root() / "corpus" / "search" / name)
        single = AdmissionSystem(model)
        c = time.process_time()
        run = search(single, k)
        single_cpu = time.process_time() - c
        cpu, runs, states, transitions = _parted(partial(AdmissionSystem, model), k, PARTS, False)
        scpu, sruns, sstates, stransitions = _parted(partial(AdmissionSystem, model), k, PARTS, True)
        steps = Steps(model.requesters, model.revisions)
        c = time.process_time()
        for i in range(1, model.requesters + 1):
            steps.closure(i, None, single.actions, "revoke" in model.faults, "crash" in model.faults)
        closure_cpu = time.process_time() - c
        per_run = closure_cpu / max(1, steps.calls)
        same = (states, transitions) == (run.states, run.transitions) == (sstates, stransitions)
        rows.append([name, k, PARTS, run.states, run.transitions, f"{single_cpu:.1f}", single.steps.calls,
                     " ".join(f"{x:.1f}" for x in cpu), f"{single_cpu / max(cpu):.2f}", " ".join(map(str, runs)),
                     steps.calls, f"{closure_cpu:.1f}", " ".join(f"{r * per_run:.1f}" for r in runs),
                     " ".join(f"{x:.1f}" for x in scpu), f"{single_cpu / max(scpu):.2f}", " ".join(map(str, sruns)),
                     same, f"{os.getloadavg()[0]:.1f}"])
        tick(n + 1, len(RUNS) + len(MONITOR_RUNS))
    paths = _monitor_table(out_dir, [_monitor(name, k, PARTS) for name, k in MONITOR_RUNS])
    tick(len(RUNS) + len(MONITOR_RUNS), len(RUNS) + len(MONITOR_RUNS))
    return paths + write_table(
        out_dir, "dask_partition_cost",
        ["model", "bound", "partitions", "states", "transitions", "single_cpu_s", "single_runs", "part_cpu_s",
         "cpu_ratio", "part_runs", "closure_runs", "closure_cpu_s", "memo_cpu_per_part_s", "shared_part_cpu_s",
         "shared_cpu_ratio", "shared_part_runs", "same", "load"], rows,
        "Where the CPU of the partitioned generic search goes (`python experiments/dask_partition_cost.py`, "
        "registered as `dask-partition-cost`): the single process against the partitioned search's tasks run "
        "one after the other in one process, without Dask; CPU seconds. part_cpu_s: each partition's tasks; "
        "cpu_ratio: single CPU over the largest partition's (the most that many workers could gain before "
        "transfers and scheduling); runs: real service runs (the admission steps' memo misses), per "
        "partition each memo starting empty; closure: every local step of every requester, once; "
        "memo_cpu_per_part_s: a partition's runs at the closure's CPU per run; shared_*: the same with the "
        "step memo built once between the partitions (each builds its requesters' shares to the bound and adopts "
        "the others', verifying them; its runs are those it built); same: states and "
        "transitions equal in all three; load: the 1-minute load average after the row.")



def _monitor_table(out_dir: Path, rows: list[list[object]]) -> list[Path]:
    return write_table(
        out_dir, "dask_partition_cost_monitor",
        ["model", "bound", "partitions", "states", "transitions", "single_cpu_s", "part_cpu_s", "critical_cpu_s",
         "cpu_ratio", "chunks_per_level", "same", "load"], rows,
        "Where the CPU of the partitioned monitor-engine search goes (`python experiments/dask_partition_cost.py`, "
        "registered as `dask-partition-cost`): the single process against the partitioned search's tasks "
        "(merges, chunks cut as the driver cuts them, routing, last merges) run one after the other in one "
        "process, without Dask; CPU seconds. part_cpu_s: all the tasks; critical_cpu_s: per level the busier "
        "worker under the driver's schedule replayed from each chunk's CPU (own chunks in order, then the last "
        "chunk of the partition with the most left), plus the slower last merge; cpu_ratio: single CPU over "
        "critical_cpu_s (the most that many workers could gain before transfers and scheduling; a stolen chunk "
        "counted at its owner's CPU); chunks_per_level: per level the chunks of each partition; same: states "
        "and transitions equal; load: the 1-minute load average after the row.")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["monitor"]:  # the monitor engine's table alone
        for path in _monitor_table(repo_root() / "paper_figures",
                                   [_monitor(name, k, PARTS) for name, k in MONITOR_RUNS]):
            print(path)
    else:
        for path in reproduce(repo_root() / "paper_figures", lambda _d, _t: None):
            print(path)
