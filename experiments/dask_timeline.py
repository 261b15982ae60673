"""Where the wall time of a two-worker partitioned search goes, phase by phase:
``paper_figures/tables/dask_timeline.{csv,md}`` (``python experiments/dask_timeline.py [MODEL BOUND]``;
default the AgentDojo banking model with seven tools at bound 4, the exact mode).

The driver marks each phase of a level (``Measure.marks``: the merges that open it, the chunks, the
driver's placement and routing, and the last level's merge), and Dask's task stream
(``distributed.get_task_stream``) gives, per task, the worker and the wall interval of its compute and of
its transfers. Per phase and worker the table sums the compute seconds of each kind of task (clipped to
the phase), the transfer seconds, and the rest of the phase as idle (waiting for the other worker, for the
driver, or for the scheduler). Beside them, per run, each worker process's CPU in all (the tasks and
Dask's own threads), read before and after with ``Client.run``, and the driver's.

Choices: one run after a warm-up at bound 1 on a fresh two-worker ``LocalCluster`` (as
``dask_scaling.py`` runs it); wall intervals are ``time.time()`` of each process on the same machine.
Registered as ``dask-timeline`` (on demand).
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from model.base.paths import repo_root
from model.base.tables import write_table
from model.dist.cluster import connect
from model.dist.measure import Measure
from model.dist.search import explore_distributed
from model.search.load import load_model

MODEL, BOUND = "agentdojo_banking_wide.json", 4
KINDS = ("open_level", "take", "chunk", "packed", "batch", "finish", "step")


def _kind(key: object) -> str:
    from dask.utils import key_split

    name = key_split(key)
    return name if name in KINDS else "other"


def phases(marks: list[tuple[str, float, float]]) -> list[tuple[str, float, float, float]]:
    """(phase, start, stop, the driver's CPU in it) between consecutive marks, named by the mark that
    ends it: ``L opened`` is level L's merges, ``L expanded`` its chunks, ``L routed`` the driver's
    placement and the routing tasks' submission, ``K finished`` the last level's routing and merge."""
    return [(b[0], a[1], b[1], b[2] - a[2]) for a, b in pairwise(marks)]


def timeline(stream: list[dict[str, Any]], marks: list[tuple[str, float, float]], workers: list[str]
             ) -> list[list[object]]:
    """Per phase and worker: the phase's wall seconds, the driver's CPU, compute seconds per kind of task,
    transfer seconds and idle seconds (the phase less both)."""
    rows: list[list[object]] = []
    for name, lo, hi, driver in phases(marks):
        for w, addr in enumerate(workers):
            busy: dict[str, float] = defaultdict(float)
            moved = 0.0
            for task in stream:
                if task.get("worker") != addr:
                    continue
                for ss in task.get("startstops", ()):
                    overlap = min(hi, ss["stop"]) - max(lo, ss["start"])
                    if overlap <= 0:
                        continue
                    if ss["action"] == "compute":
                        busy[_kind(task["key"])] += overlap
                    else:  # transfer, deserialize: the worker's share of moving data
                        moved += overlap
            span = hi - lo
            idle = max(0.0, span - sum(busy.values()) - moved)
            rows.append([name, w, f"{span:.2f}", f"{driver:.2f}"] + [f"{busy[k]:.2f}" for k in KINDS]
                        + [f"{busy['other']:.2f}", f"{moved:.2f}", f"{idle:.2f}"])
    return rows


def run(name: str, k: int, tick: Callable[[int, int], None] | None = None, profile: bool = False
        ) -> tuple[list[list[object]], str]:
    """The timed two-worker exact search of ``name`` at bound ``k`` under the task stream: the table's rows
    and its caption's measured line. ``profile``: the workers run Dask's profiler (``cluster.connect``)."""
    from distributed import get_task_stream

    model = load_model(repo_root() / "corpus" / "search" / name)
    with connect(workers=2, profile=profile) as client:
        explore_distributed(client, model, 1)  # warm-up: imports in the workers
        workers = sorted(client.run(os.getpid))
        cpu0 = client.run(time.process_time)
        m = Measure(exchange=False)
        start = time.perf_counter()
        with get_task_stream(client) as ts:
            out = explore_distributed(client, model, k, measure=m)
        wall = time.perf_counter() - start
        cpu1 = client.run(time.process_time)
        stream = ts.data
    if out.unknown is not None:  # a table of a run cut short would pass for the whole search's
        raise RuntimeError(f"the timed search was cut short ({out.unknown.limit}: {out.unknown.reason})")
    if tick is not None:
        tick(1, 1)
    rows = timeline(stream, m.marks, workers)
    proc = [cpu1[w] - cpu0[w] for w in workers]
    procs = " and ".join(f"{c:.1f}" for c in proc)
    line = (f"{name} at bound {k}: {out.states} states, wall {wall:.1f} s, the tasks' CPU {m.worker_cpu:.1f} s "
            f"(critical path {m.critical_cpu:.1f} s), the worker processes' CPU {procs} s, "
            f"the driver's {m.driver_cpu:.1f} s, states lent {m.lent}, Dask's profiler {'on' if profile else 'off'}, "
            f"load {os.getloadavg()[0]:.1f} after the run.")
    return rows, line


def table(out_dir: Path, rows: list[list[object]], line: str) -> list[Path]:
    return write_table(
        out_dir, "dask_timeline",
        ["phase", "worker", "wall_s", "driver_cpu_s"] + [f"{k}_s" for k in KINDS] + ["other_s", "transfer_s", "idle_s"],
        rows,
        "Where the wall time of the two-worker partitioned search goes (`python experiments/dask_timeline.py`): "
        "per phase of each level (the driver's marks: `L opened` level L's merges, `L expanded` its chunks, "
        "`L routed` the driver's placement and the routing tasks' submission, `K finished` the last level's "
        "routing and merge) and worker, the phase's wall seconds, the driver's CPU in it, each kind of task's "
        "compute wall seconds in it (Dask's task stream), the seconds moving data (transfer, deserialisation) "
        "and the rest idle. " + line)


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    rows, line = run(MODEL, BOUND, tick)
    return table(out_dir, rows, line)


if __name__ == "__main__":  # pragma: no cover - manual runs
    args = [a for a in sys.argv[1:] if a != "--profile"]
    model_name, bound = (args[0], int(args[1])) if len(args) > 1 else (MODEL, BOUND)
    r, text = run(model_name, bound, profile="--profile" in sys.argv)
    print(text)
    for path in table(repo_root() / "paper_figures", r, text):
        print(path)
