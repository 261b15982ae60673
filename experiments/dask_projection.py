"""The 10/100/1,000-worker projection of the partitioned search (``experiments/dask_scaling.py`` calls it):
``paper_figures/tables/dask_scaling_projection.{csv,md}`` and ``paper_figures/dask_projection.png``.
Its inputs are kept in ``paper_figures/tables/dask_projection_inputs.json``, so that
``python experiments/dask_projection.py`` redraws it (after changing an assumption) without the runs.

A simulation, level by level, of the design in ``model/dist`` on P workers, from what the scaling run
measured: the per-level profile of the exchange run (frontier, transitions, new states, entries sent and
the share that crossed on 2 workers, pickled bytes per crossing entry, the classes each partition's
children fell in), the sizes of the decision classes of its last level, the partitioned search's CPU
per transition on one worker (expand and merge, largest model), and the cost of one task to Dask's
scheduler (no-op tasks timed on the 2-worker cluster). Two workloads: the measured model, level by level
as measured, and 10^9 states, its last level's ratios (new states, transitions and entries per frontier
state) continued. Assumptions (stated in the table's caption too):

- expansion is balanced by chunks (``model/dist/search.py``): a level's frontier is cut into
  ``min(16 P, frontier / 250)`` chunks (at least one) and a level waits for the busiest worker, at
  most the mean plus one chunk (greedy list scheduling); fewer chunks than workers leave workers idle;
- the classes still decide ownership: a partition's share of the states it owns is the makespan of
  largest-first placement of the measured class sizes on P partitions (``skew``); the chunks an
  over-full owner cannot expand itself are stolen, and their states cross the wire once more;
- CPU per transition is the one measured on one worker, merge included (stolen chunks' decisions made
  again are not counted: the pessimism of the next items covers them only in part);
- of the children, the share crossing workers is the hash-partitioned ``(P-1)/P`` scaled by what
  producer-first placement saved on 2 workers (measured crossing share over 1/2);
- each worker sends and receives at ``BANDWIDTH`` bytes per second and a level's exchange cannot start
  before its expand ends (no overlap), plus one ``LATENCY`` per level;
- Dask's scheduler is one thread and handles, per level, an opening task per partition, two tasks per
  chunk (cut and expand; the driver dispatches each, so also one round trip, counted at the same cost),
  and the routing tasks: one per pair of partitions with children to send, ``P`` of them to itself; a
  sender's children fall in at most the ``D`` classes a partition's children fell in on 2 workers, so
  at most ``min(P - 1, D)`` other owners.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from model.dist.search import CHUNKS, MIN_CHUNK

BANDWIDTH = 1.0e9  # bytes/s per worker (10 Gbit/s)
LATENCY = 1.0e-3  # s per level (round trips through the scheduler)
WORKERS = (1, 2, 10, 100, 1000)
BIG = 1.0e9
INPUTS = "dask_projection_inputs.json"

#: a level: (frontier, transitions, entries)
Level = tuple[float, float, float]


def imbalance(sizes: list[int], p: int) -> float:
    """The fullest of ``p`` partitions' share over the mean share, classes of ``sizes`` placed largest
    first on the least loaded partition."""
    if p == 1 or not sizes:
        return 1.0
    loads = [0] * p
    for n in sorted(sizes, reverse=True):
        i = loads.index(min(loads))
        loads[i] += n
    return max(loads) / (sum(sizes) / p)


def simulate(levels: list[Level], p: int, per_transition: float, bytes_per_entry: float, per_task: float,
             skew: float, crossing: float, dests: float) -> dict[str, float]:
    """Seconds per component over ``levels`` on ``p`` workers (module docstring)."""
    out = {"compute": 0.0, "exchange": 0.0, "schedule": 0.0}
    for frontier, transitions, entries in levels:
        work = transitions * per_transition
        if p == 1:
            out["compute"] += work
            continue
        chunks = max(1, min(CHUNKS * p, math.ceil(frontier / MIN_CHUNK)))
        out["compute"] += max(work / p, work / chunks) + work / chunks  # idle workers; the last chunk
        stolen = frontier * (1 - 1 / skew)  # the states an over-full owner hands over
        remote = entries * min(1.0, crossing * 2 * (p - 1) / p)
        out["exchange"] += (remote + stolen) / p * bytes_per_entry / BANDWIDTH + LATENCY
        out["schedule"] += (p + 3 * chunks + p + p * min(p - 1, dests)) * per_task
    out["total"] = sum(out.values())
    return out


def shapes(inputs: dict[str, Any]) -> dict[str, list[Level]]:
    """The measured levels of the largest model, and the 10^9-state workload continuing its last level."""
    measured: list[Level] = [(lv["frontier"], lv["transitions"], lv["exchanged"]) for lv in inputs["levels"]]
    last = inputs["levels"][-1]
    growth = last["new_states"] / max(1.0, last["frontier"])
    tps = last["transitions"] / max(1.0, last["frontier"])
    eps = last["exchanged"] / max(1.0, last["frontier"])
    big = list(measured)
    seen = 1.0 + sum(lv["new_states"] for lv in inputs["levels"])
    frontier = float(last["new_states"])
    while seen < BIG and growth > 1.0:
        big.append((frontier, frontier * tps, frontier * eps))
        new = min(frontier * growth, BIG - seen)
        seen += new
        frontier = new
    return {f"{inputs['model']} bound {inputs['bound']}": measured, "10^9 states": big}


def project(out_dir: Path, table: str, m: Any, costs: list[dict[str, Any]], per_task: float) -> list[Path]:
    """Record the inputs from the scaling run's measure ``m`` and ``costs``, then draw the projection."""
    big = max(costs, key=lambda c: c["states"])
    frontier = 1
    levels = []
    for lv in m.levels:
        levels.append({"frontier": frontier, "transitions": lv["transitions"], "new_states": lv["new_states"],
                       "exchanged": lv["exchanged"], "remote": lv["remote"], "remote_bytes": lv["remote_bytes"],
                       "sender_classes": lv.get("sender_classes", 2)})
        frontier = lv["new_states"]
    inputs = {"model": big["model"], "bound": big["bound"], "states": big["states"],
              "transitions": big["transitions"], "per_transition": big["dask1_cpu"] / big["transitions"],
              "per_task": per_task, "class_sizes": m.class_sizes or [1], "levels": levels}
    path = out_dir / "tables" / INPUTS
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(inputs, indent=1) + "\n")
    return [path, *draw(out_dir, table, inputs)]


def draw(out_dir: Path, table: str, inputs: dict[str, Any]) -> list[Path]:
    from model.base.tables import write_table

    per_transition, per_task = inputs["per_transition"], inputs["per_task"]
    lvs = inputs["levels"]
    remote = sum(lv["remote"] for lv in lvs)
    bytes_per_entry = sum(lv["remote_bytes"] for lv in lvs) / max(1, remote)
    crossing = remote / max(1, sum(lv["exchanged"] for lv in lvs))
    dests = lvs[-1]["sender_classes"] / 2  # classes per sender, last level, 2 partitions
    sizes = inputs["class_sizes"]
    rows: list[list[object]] = []
    curves: dict[str, list[float]] = {}
    for label, levels in shapes(inputs).items():
        one = simulate(levels, 1, per_transition, bytes_per_entry, per_task, 1.0, crossing, dests)["total"]
        for p in WORKERS:
            skew = imbalance(sizes, p)
            r = simulate(levels, p, per_transition, bytes_per_entry, per_task, skew, crossing, dests)
            limit = max(("compute", "exchange", "schedule"), key=lambda c: r[c])
            rows.append([label, p, sum(1 for _ in levels), f"{skew:.2f}", f"{r['compute']:.3g}",
                         f"{r['exchange']:.3g}", f"{r['schedule']:.3g}", f"{r['total']:.3g}",
                         f"{one / r['total']:.1f}", f"{one / r['total'] / p:.2f}", limit])
            curves.setdefault(label, []).append(one / r["total"])
    caption = (f"Projected partitioned search on P workers (experiments/dask_projection.py, inputs in "
               f"{INPUTS}), from the measured CPU per transition on one worker ({per_transition * 1e6:.0f} µs, "
               f"merge included, {inputs['model']}), scheduling cost per task ({per_task * 1e3:.2f} ms, no-op "
               f"tasks timed on 2 workers), {bytes_per_entry:.0f} pickled bytes per crossing entry, "
               f"{crossing:.2f} of the entries crossing on 2 workers, {dests:.0f} classes per partition's "
               f"children in the last level, {len(sizes)} decision classes in that level (the largest "
               f"{sizes[0] / sum(sizes):.3f} of the states). Workloads: the measured levels, and 10^9 states "
               f"continuing the last level's ratios. Assumed: expansion in min({CHUNKS} P, frontier / {MIN_CHUNK}) "
               f"chunks and a level as long as the mean plus one chunk; ownership by class, placed largest first "
               f"(skew: the fullest owner over the mean), its excess stolen and sent once more; "
               f"{BANDWIDTH / 1e9:.0f} GB/s per worker, {LATENCY * 1e3:.0f} ms per level, no overlap of "
               "expand and exchange; a single-threaded scheduler handling per level P opening tasks, 3 per "
               "chunk (cut, expand, the driver's dispatch) and P + P*min(P-1, classes per partition's "
               "children) routing tasks. Seconds per component; speedup over 1 worker; efficiency = "
               "speedup / P; limit: the largest component.")
    paths = write_table(out_dir, table,
                        ["workload", "workers", "levels", "skew", "compute_s", "exchange_s", "schedule_s",
                         "total_s", "speedup", "efficiency", "limit"], rows, caption)
    paths.append(_figure(out_dir, curves))
    return paths


def _figure(out_dir: Path, curves: dict[str, list[float]]) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for label, ys in curves.items():
        ax.plot(WORKERS, ys, marker="o", label=label)
    ax.plot(WORKERS, WORKERS, linestyle=":", color="grey", label="linear")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("workers")
    ax.set_ylabel("projected speedup over 1 worker")
    ax.legend()
    fig.tight_layout()
    path = out_dir / "dask_projection.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


if __name__ == "__main__":  # redraw from the recorded inputs: python experiments/dask_projection.py [DIR]
    figures = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "paper_figures"
    for written in draw(figures, "dask_scaling_projection", json.loads((figures / "tables" / INPUTS).read_text())):
        print(f"wrote {written}")
