"""Bounded search at scale: ``paper_figures/tables/dask_scaling.{csv,md}`` — per (model, bound) of
``RUNS`` (AgentDojo banking with seven tools at bound 4, past a million states; the hold/replay admission
protocol with five requesters at bound 11, also past a million, on the generic engine
(``model/search/system``, distributed by ``model/dist/system_search.py``); the deployment
policy's larger fleet at bound 4 — at bound 5 its runs alone would take the whole run past half an
hour —; the payments policy's invoice model at bound 6 and the AgentDojo workspace model at bound 2,
where it stops growing: the search models added for scale, smallest last), the single-process search
(exact and fingerprint visited sets, time and peak memory) and the partitioned search on a Dask
LocalCluster of 1 and 2 worker processes (and of 2 in fingerprint mode), measured side by side in one
run, with the results checked equal; ``dask_scaling_levels`` (per level of
one partitioned run: states, transitions, entries exchanged and their bytes) and the projection to 10,
100 and 1,000 workers (``experiments/dask_projection.py``: ``dask_scaling_projection`` and
``paper_figures/dask_projection.png``).

Method: per (model, bound), with sleep sets on as the CLI runs,
1. the exact single-process search (``explicit.explore``) in a fresh spawned process: wall and CPU
   seconds, and its peak resident memory above the resident size after loading the model (``ru_maxrss``
   minus the size before the search), per state;
2. the fingerprint search (``fingerprint.explore_fingerprint``) the same way;
3. for 1 and 2 workers: a LocalCluster of that many single-threaded worker processes (one
   ``PYTHONHASHSEED``), a warm-up search at bound 1, then the timed partitioned search; on the 2-worker
   cluster also the partitioned fingerprint search.
A generic system model gets the same three steps with its own engine (``system.peak.fresh``,
``system_search.search_distributed``); the exchange-volume run and the projection take the monitor
engine's models only (the projection models its classes and chunks).
One run each (these runs take minutes); speedup = exact single wall / Dask wall. The machine's load is
recorded per row: on a shared machine the wall clock measures contention as much as the design, so the
CPU figures are there too (``critical_cpu_s``: per level the slowest step — the merge of the previous
level, then the expand —, plus the slowest final merge; ``driver_cpu_s``: the driver's process, which
also runs the LocalCluster's scheduler, during the timed run).

Registered as ``dask-scaling``, not part of ``reproduce all``; run ``agentwarrant reproduce dask-scaling``.
``AGENTWARRANT_DASK_RUNS="report.json:7,deploy.json:3"`` replaces ``RUNS`` (a shorter run on a busy machine).
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from model.base.canonical import load_file
from model.base.errors import InputKind, InvalidInput
from model.base.paths import repo_root
from model.base.tables import write_table
from model.dist.cluster import WorkerLost, connect
from model.dist.measure import Measure, single_run
from model.dist.search import explore_distributed
from model.dist.system_search import search_distributed
from model.search.explicit import ExplicitRun
from model.search.load import load_model
from model.search.system.admission import AdmissionSystem, is_system_file, load
from model.search.system.bfs import SystemRun
from model.search.system.system_peak import fresh

# (model file under corpus/search, bound)
RUNS = (("agentdojo_banking_wide.json", 4), ("admission_hold_r5.json", 11), ("deploy_fleet.json", 4),
        ("payments_invoices.json", 6), ("agentdojo_workspace.json", 2))
WORKERS = (1, 2)
LEVELS_BOUND = 7  # the exchange-volume run: the first model at most at this bound (untimed, 2 partitions)
TASKS = 2000  # no-op tasks timed for the scheduler's per-task cost


def _fresh(path: str, k: int, fingerprint: bool) -> tuple[ExplicitRun, float, int]:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(single_run, path, k, fingerprint).result()


Timed = tuple[float, Measure, bool]


def _timed(go: Callable[[Any, int, bool, Measure | None], Any], k: int, workers: int,
           same: Callable[[Any], bool], fingerprints: bool) -> list[Timed]:
    """The partitioned search ``go(client, bound, fingerprints, measure)`` on a fresh LocalCluster (then,
    with ``fingerprints``, its fingerprint mode on the same cluster): per run wall seconds, CPU measure,
    ``same`` as the single process. A worker lost to the machine (on a shared machine the scheduler has
    dropped starved workers) costs one more attempt on a new cluster; the second loss is raised."""
    for attempt in range(2):
        try:
            out: list[Timed] = []
            with connect(workers=workers) as client:
                go(client, 1, False, None)  # warm-up: imports in the workers
                for fp in (False, True) if fingerprints else (False,):
                    m = Measure(exchange=False)
                    start = time.perf_counter()
                    run = go(client, k, fp, m)
                    out.append((time.perf_counter() - start, m, same(run)))
            return out
        except WorkerLost:
            if attempt:
                raise
    raise AssertionError("unreachable")


def _same_system(a: SystemRun, b: SystemRun) -> bool:
    return (a.states, a.transitions, a.depth, a.verdicts) == (b.states, b.transitions, b.depth, b.verdicts)


def _measure(path: Path, k: int) -> tuple[Any, float, int, Any, float, int, dict[int, list[Timed]], bool]:
    """One model's runs: (exact run, its wall seconds, peak bytes, the fingerprint run, its wall, its peak,
    Dask runs per worker count, whether the fingerprint run equals the exact one)."""
    if is_system_file(load_file(str(path))):
        (exact, peak), (fp, fp_peak) = fresh(str(path), k, "exact"), fresh(str(path), k, "fingerprint")
        make = partial(AdmissionSystem, load(path))

        def system(client: Any, b: int, fpm: bool, m: Measure | None) -> SystemRun:
            return search_distributed(client, make, b, "fingerprint" if fpm else "exact", measure=m)

        dask = {w: _timed(system, k, w, partial(_same_system, exact), w == 2) for w in WORKERS}
        return exact, exact.seconds, peak, fp, fp.seconds, fp_peak, dask, _same_system(exact, fp)
    exact, wall, peak = _fresh(str(path), k, False)
    fpx, fp_wall, fp_peak = _fresh(str(path), k, True)
    mm = load_model(path)

    def monitor(client: Any, b: int, fpm: bool, m: Measure | None) -> ExplicitRun:
        return explore_distributed(client, mm, b, measure=m, fingerprints=fpm)

    dask = {w: _timed(monitor, k, w, partial(_same, exact), w == 2) for w in WORKERS}
    return exact, wall, peak, fpx, fp_wall, fp_peak, dask, _same(exact, fpx)


def _cpu_times() -> list[int] | None:
    """The machine's CPU time counters (``/proc/stat``'s ``cpu`` line), or None where there is none."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            return [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def _steal(a: list[int] | None, b: list[int] | None) -> str:
    """The percentage of CPU time stolen by the hypervisor between two readings ("" when unknown)."""
    if a is None or b is None or len(a) < 8 or len(b) < 8:
        return ""
    total = sum(b[:8]) - sum(a[:8])  # user nice system idle iowait irq softirq steal (guest is in user)
    return f"{100 * (b[7] - a[7]) / total:.0f}" if total > 0 else ""


def runs() -> tuple[tuple[str, int], ...]:
    """``RUNS``, or the environment's ``AGENTWARRANT_DASK_RUNS`` (``model:bound,...``)."""
    text = os.environ.get("AGENTWARRANT_DASK_RUNS")
    if not text:
        return RUNS
    out = []
    for item in text.split(","):
        name, sep, bound = item.strip().rpartition(":")
        if not sep or not bound.isdigit():
            raise InvalidInput("AGENTWARRANT_DASK_RUNS", "model.json:bound[,model.json:bound...]", text,
                               InputKind.VALUE)
        out.append((name, int(bound)))
    return tuple(out)


def _same(a: ExplicitRun, b: ExplicitRun) -> bool:
    return (a.states, a.transitions, a.depth, a.verdicts, a.completions) == \
        (b.states, b.transitions, b.depth, b.verdicts, b.completions)


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    spec = importlib.util.spec_from_file_location("experiments_dask_projection",
                                                  Path(__file__).with_name("dask_projection.py"))
    assert spec is not None and spec.loader is not None
    projection = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(projection)

    search = repo_root() / "corpus" / "search"
    todo = runs()
    total = len(todo) * (2 + len(WORKERS)) + 1
    done = 0
    rows: list[list[object]] = []
    costs: list[dict[str, Any]] = []
    paths: list[Path] = []
    for name, k in todo:
        before = _cpu_times()
        exact, wall, peak, fp, fp_wall, fp_peak, dask, fp_same = _measure(search / name, k)
        stolen = _steal(before, _cpu_times())
        done += 2 + len(WORKERS)
        tick(done, total)
        (w1, m1, same1), = dask[1]
        (w2, m2, same2), (wf, _, samef) = dask[2]
        rows.append([name, k, exact.states, exact.transitions, f"{wall:.1f}", f"{exact.cpu_seconds:.1f}",
                     f"{peak / 2**20:.0f}", f"{peak / exact.states:.0f}", f"{fp_wall:.1f}", f"{fp_peak / 2**20:.0f}",
                     f"{fp_peak / fp.states:.0f}", f"{fp.collision:.1e}", fp_same,
                     f"{w1:.1f}", f"{wall / w1:.2f}", f"{w2:.1f}", f"{wall / w2:.2f}", f"{wf:.1f}",
                     f"{fp_wall / wf:.2f}", f"{m1.worker_cpu:.1f}", f"{m2.worker_cpu:.1f}", f"{m2.critical_cpu:.1f}",
                     f"{m2.driver_cpu:.1f}", m2.lent,
                     same1 and same2 and samef, f"{os.getloadavg()[0]:.1f}", stolen])
        if isinstance(exact, ExplicitRun):  # the projection models the monitor engine's partitioned search
            costs.append({"model": name, "bound": k, "states": exact.states, "transitions": exact.transitions,
                          "single_cpu": exact.cpu_seconds, "single_wall": wall, "dask1_wall": w1,
                          "dask1_cpu": m1.worker_cpu, "depth": exact.depth})
        paths = _table(out_dir, rows)  # after each model: a long run that is stopped keeps its rows
    # the exchange volume and the projection: the monitor engine's partitioned search, on the first such model
    monitor = [(n, min(b, LEVELS_BOUND)) for n, b in todo if not is_system_file(load_file(str(search / n)))]
    if not monitor:
        return paths
    measure = Measure()
    name, k = monitor[0]
    with connect(workers=2) as client:
        explore_distributed(client, load_model(search / name), k, measure=measure)
        client.gather(client.map(abs, range(50)))  # warm
        start = time.perf_counter()
        client.gather(client.map(abs, range(TASKS)))
        per_task = (time.perf_counter() - start) / TASKS  # the scheduler's cost of one tiny task
    done += 1
    tick(done, total)
    paths += _levels(out_dir, measure, name, k)
    paths += projection.project(out_dir, "dask_scaling_projection", measure, costs, per_task)
    return paths


def _table(out_dir: Path, rows: list[list[object]]) -> list[Path]:
    return write_table(
        out_dir, "dask_scaling",
        ["model", "bound", "states", "transitions", "single_s", "single_cpu_s", "single_peak_mib", "bytes_per_state",
         "fingerprint_s", "fingerprint_peak_mib", "fingerprint_bytes_per_state", "collision_probability",
         "fingerprint_same", "dask1_s", "speedup1", "dask2_s", "speedup2", "dask2_fingerprint_s",
         "fingerprint_speedup2", "dask1_worker_cpu_s", "dask2_workers_cpu_s",
         "dask2_critical_cpu_s", "dask2_driver_cpu_s", "dask2_lent", "dask_same", "load", "steal_pct"], rows,
        "Bounded search at scale, measured side by side in one run (`agentwarrant reproduce dask-scaling`), sleep "
        "sets on. single: the exact visited set in one process; fingerprint: 64-bit fingerprints "
        "(model/search/fingerprint.py); peak memory: the process's peak resident size above its size after "
        "loading the model; dask1/dask2: the partitioned search on a LocalCluster of 1 and 2 worker processes "
        "(wall seconds, one run each); speedup = single_s / dask_s; dask2_fingerprint: the partitioned search "
        "over fingerprints on the 2-worker cluster, fingerprint_speedup2 = fingerprint_s / dask2_fingerprint_s; "
        "dask2_lent: frontier states the 2-worker run expanded away from their owner (model/dist/route.py, balance); "
        "*_same: states, transitions, depth, verdicts "
        "with their shortest traces and useful completions equal to the exact single process; load: the "
        "machine's 1-minute load average after the row (2 cores shared with other jobs: above 2 the wall clock "
        "measures contention); steal_pct: the share of the machine's CPU time the hypervisor gave to other "
        "machines during the row (/proc/stat; on a virtual machine a high share slows every run of the row, "
        "unevenly).")


def _levels(out_dir: Path, m: Measure, name: str, k: int) -> list[Path]:
    rows: list[list[object]] = []
    frontier = 1
    for lv in m.levels:
        per_entry = lv["remote_bytes"] / lv["remote"] if lv["remote"] else 0.0
        rows.append([lv["level"], frontier, lv["transitions"], lv["new_states"], lv["exchanged"], lv["remote"],
                     lv["remote_bytes"], f"{per_entry:.0f}", f"{lv['exchanged'] / frontier:.2f}", lv["tasks"],
                     lv["classes"],
                     f"{lv['largest'] / max(1, lv['new_states']):.3f}"])
        frontier = lv["new_states"]
    return write_table(out_dir, "dask_scaling_levels",
                       ["level", "frontier", "transitions", "new_states", "entries_sent", "entries_remote",
                        "remote_bytes", "bytes_per_entry", "entries_per_frontier_state", "tasks", "classes_placed",
                        "largest_partition_share"], rows,
                       f"{name} at bound {k} on 2 partitions: per level, the frontier expanded, the entries each "
                       "partition sent (one per distinct child it had not visited itself: least key, parent's "
                       "partition, transition key, sleep set), those that crossed to the other worker and their "
                       "pickled bytes, the tasks (one step per partition, one routing task per pair with "
                       "children to send), the decision classes placed so far and the share of the level's new "
                       "states on the fuller partition.")
