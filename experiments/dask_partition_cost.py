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
from model.dist import system as ws
from model.search.system.admission import AdmissionSystem, load
from model.search.system.admission_steps import Steps
from model.search.system.bfs import search

RUNS = (("admission_hold_r4.json", 8), ("admission_hold_r5.json", 9), ("admission_hold_r5.json", 11))
PARTS = 2


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
        tick(n + 1, len(RUNS))
    return write_table(
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


if __name__ == "__main__":
    for path in reproduce(repo_root() / "paper_figures", lambda _d, _t: None):
        print(path)
