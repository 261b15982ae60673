"""Scaling the explicit search out on Dask: ``paper_figures/tables/dask_scaling.{csv,md}``
(speed-up of the partitioned search at 1 and 2 workers over the single-process engine, same results
checked), ``dask_scaling_levels.{csv,md}`` (per level of the largest run: states, transitions, entries
exchanged between partitions and their pickled bytes) and ``dask_scaling_design.{csv,md}`` (the 100-worker
projection the README quotes, computed from those measurements).

Method: per (model, bound) the single-process engine (``explicit.explore``, sleep sets on) runs in this
process; then for 1 and 2 workers a LocalCluster of that many single-threaded worker processes on the
loopback address starts, a warm-up search at bound 2 loads the modules in the workers, and the timed
partitioned search runs (one partition per worker). Each time is the best of ``REPEAT`` runs, in
wall-clock seconds on the machine that ran it (this one: 2 cores shared with other jobs, so the wall
clock measures contention as much as the design). Hence also CPU: the single process's, the workers'
total (what partitioning costs in extra work) and the critical path (per level the slowest expand plus
the slowest merge), whose ratio to the single-process CPU bounds what idle dedicated cores could give.
A separate, untimed 2-worker run records exchange volume and resident memory (``model/dist/measure.py``).

Registered as ``dask-scaling`` but not part of ``reproduce all`` (it starts six clusters and runs
minutes); run it with ``agentwarrant reproduce dask-scaling``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from model.dist.cluster import connect
from model.dist.measure import Measure
from model.dist.search import explore_distributed
from model.reproduce import repo_root
from model.search.explicit import ExplicitRun, explore
from model.search.load import load_model
from model.tables import write_table

# (model file under corpus/search, bound)
RUNS = (("report.json", 5), ("report.json", 6), ("report_permit.json", 5))
WORKERS = (1, 2)
REPEAT = 2
DESIGN_WORKERS = 100
DESIGN_STATES = 1_000_000_000  # a search that outgrows one machine: 10^9 states


def _same(a: ExplicitRun, b: ExplicitRun) -> bool:
    return (a.states, a.transitions, a.depth, a.verdicts, a.completions) == \
        (b.states, b.transitions, b.depth, b.verdicts, b.completions)


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    search = repo_root() / "corpus" / "search"
    models = {name: load_model(search / name) for name, _ in RUNS}
    total = len(RUNS) * (1 + len(WORKERS))
    done = 0
    single: dict[tuple[str, int], tuple[float, ExplicitRun]] = {}
    for name, k in RUNS:
        runs = sorted((explore(models[name], k) for _ in range(REPEAT)), key=lambda r: r.seconds)
        single[(name, k)] = (runs[0].seconds, runs[0])
        done += 1
        tick(done, total)
    rows: list[list[object]] = []
    measure = Measure()
    for w in WORKERS:
        with connect(workers=w) as client:
            for name, k in RUNS:
                explore_distributed(client, models[name], 2)  # warm-up: imports and compiled policy in workers
                best, run, cpu = None, None, Measure(exchange=False)
                for _ in range(REPEAT):
                    m = Measure(exchange=False)
                    start = time.perf_counter()
                    run = explore_distributed(client, models[name], k, measure=m)
                    t = time.perf_counter() - start
                    if best is None or t < best:
                        best, cpu = t, m
                assert run is not None and best is not None
                s_time, s_run = single[(name, k)]
                rows.append([name, k, s_run.states, s_run.transitions, f"{s_time:.2f}", f"{s_run.cpu_seconds:.2f}",
                             w, f"{best:.2f}", f"{cpu.worker_cpu:.2f}", f"{cpu.critical_cpu:.2f}",
                             f"{s_time / best:.2f}", f"{s_run.cpu_seconds / cpu.critical_cpu:.2f}",
                             _same(s_run, run), f"{os.getloadavg()[0]:.1f}"])
                done += 1
                tick(done, total)
            if w == max(WORKERS):
                name, k = max(RUNS, key=lambda r: single[r][1].states)
                explore_distributed(client, models[name], k, measure=measure)
    paths = write_table(out_dir, "dask_scaling",
                        ["model", "bound", "states", "transitions", "single_s", "single_cpu_s", "workers",
                         "dask_s", "workers_cpu_s", "critical_cpu_s", "speedup", "cpu_path_speedup", "same_results",
                         "load"], rows,
                        "Partitioned search on a Dask LocalCluster vs the single-process engine (sleep sets on), "
                        f"best of {REPEAT} wall-clock runs; speedup = single_s / dask_s (wall clock); workers_cpu_s: "
                        "the workers' CPU in expand and merge; critical_cpu_s: per level the slowest expand plus the "
                        "slowest merge; cpu_path_speedup = single_cpu_s / critical_cpu_s, what dedicated idle cores "
                        "would give at most, communication and scheduling excluded. same_results: states, "
                        "transitions, depth, verdicts with shortest traces and useful completions all equal; load: "
                        "the machine's 1-minute load average after the run (2 cores, shared with other jobs).")
    paths += _levels(out_dir, measure, *max(RUNS, key=lambda r: single[r][1].states))
    return paths


def _levels(out_dir: Path, m: Measure, name: str, k: int) -> list[Path]:
    rows: list[list[object]] = []
    frontier = 1
    for lv in m.levels:
        per_entry = lv["remote_bytes"] / lv["remote"] if lv["remote"] else 0.0
        rows.append([lv["level"], frontier, lv["transitions"], lv["new_states"], lv["exchanged"], lv["remote"],
                     lv["remote_bytes"], f"{per_entry:.0f}", f"{lv['exchanged'] / frontier:.2f}"])
        frontier = lv["new_states"]
    paths = write_table(out_dir, "dask_scaling_levels",
                        ["level", "frontier", "transitions", "new_states", "entries_sent", "entries_remote",
                         "remote_bytes", "bytes_per_entry", "entries_per_frontier_state"], rows,
                        f"{name} at bound {k} on 2 partitions: per level, the frontier expanded, the entries each "
                        "partition sent (one per distinct child, least key, link and sleep set), those that crossed "
                        "to the other worker and their pickled bytes.")
    states = sum(n for n, _ in m.memory)
    resident = sum(b for _, b in m.memory)
    last = m.levels[-1]
    per_state = resident / states
    per_entry = last["remote_bytes"] / max(1, last["remote"])
    fanout = last["exchanged"] / max(1, m.levels[-2]["new_states"] if len(m.levels) > 1 else 1)
    growth = m.levels[-1]["new_states"] / max(1, m.levels[-2]["new_states"])
    P = DESIGN_WORKERS
    per_worker = DESIGN_STATES / P
    # the largest level of a BFS whose layers grow by ``growth``: about (growth-1)/growth of all states
    level_states = DESIGN_STATES * (growth - 1) / growth
    level_frontier = level_states / growth
    sent = level_frontier * fanout * (P - 1) / P
    design = [
        ["measured: resident bytes per state (visited, key, link, frontier)", f"{per_state:.0f}"],
        ["measured: pickled bytes per exchanged entry (last level)", f"{per_entry:.0f}"],
        ["measured: entries sent per frontier state (last level)", f"{fanout:.2f}"],
        ["measured: layer growth factor (last two levels)", f"{growth:.2f}"],
        [f"design: states in total ({P} workers)", f"{DESIGN_STATES:.2e}"],
        ["design: states per worker", f"{per_worker:.2e}"],
        ["design: resident GB per worker", f"{per_worker * per_state / 1e9:.1f}"],
        ["design: states in the largest level", f"{level_states:.2e}"],
        ["design: entries crossing workers in that level", f"{sent:.2e}"],
        ["design: GB exchanged in that level (all workers)", f"{sent * per_entry / 1e9:.1f}"],
        ["design: GB each worker sends (and receives) in that level", f"{sent * per_entry / P / 1e9:.2f}"],
        ["design: split tasks per level (P expand, P*(P+1) getitem, P merge)", f"{P * (P + 3)}"],
    ]
    paths += write_table(out_dir, "dask_scaling_design", ["quantity", "value"], design,
                         f"A {P}-worker search of {DESIGN_STATES:.0e} states, projected from the measured {name} "
                         f"layers at bound {k} (partitioned uniformly by the stable state hash).")
    return paths
