"""The 10/100/1,000-worker projection of the partitioned search (``experiments/dask_scaling.py`` calls it):
``paper_figures/tables/dask_scaling_projection.{csv,md}`` and ``paper_figures/dask_projection.png``.

A simulation, level by level, of the design in ``model/dist`` on P workers, from what the scaling run
measured: the per-level profile of the exchange run (frontier, transitions, entries sent per frontier
state, pickled bytes per entry, the share of entries that crossed on 2 workers, the decision classes
each partition's children fell in), the sizes of the decision classes of its last level, the
partitioned search's CPU per transition on one worker (expand and merge, largest model), and the cost
of one task to Dask's scheduler (no-op tasks timed on the 2-worker cluster). Assumptions (stated in the
table's caption too):

- a level waits for its fullest partition; states are placed by decision class, a class never split
  (``model/dist/route.py``), so the fullest partition's share is the makespan of longest-processing-time
  placement of the measured class sizes on P partitions (``imbalance``); the 10^9-state workload keeps
  the measured class shares (more states per class, not more classes: the pessimistic reading);
- CPU per transition is the one measured on one worker, merge included (each class is decided on one
  worker, so the decision memo is not duplicated);
- of the entries, the share crossing workers is the hash-partitioned ``(P-1)/P`` scaled by what
  producer-first placement saved on 2 workers (measured crossing share over 1/2);
- each worker sends and receives at ``BANDWIDTH`` bytes per second and a level's exchange cannot start
  before its expand ends (no overlap), plus one ``LATENCY`` per level (the driver's one round trip);
- a level is ``P`` step tasks (merge, then expand) and one routing task per pair of partitions that has
  children to send, ``P`` of them to itself: a sender's children fall in at most the ``D`` classes a
  partition's children fell in on 2 workers (measured, last level), so at most ``min(P - 1, D)`` other
  owners — pessimistic, as a partition holds fewer classes on more workers; the scheduler handles the
  tasks one after another at the measured per-task cost (Dask's scheduler is a single thread).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model.dist.measure import Measure
from model.tables import write_table

BANDWIDTH = 1.0e9  # bytes/s per worker (10 Gbit/s)
LATENCY = 1.0e-3  # s per level (round trips through the scheduler)
WORKERS = (1, 2, 10, 100, 1000)
BIG = 1.0e9


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


def simulate(levels: list[tuple[float, float, float]], p: int, per_transition: float, bytes_per_entry: float,
             per_task: float, skew: float, crossing: float, dests: float) -> dict[str, float]:
    """Seconds per component over ``levels`` of (frontier, transitions, entries) on ``p`` workers."""
    out = {"compute": 0.0, "exchange": 0.0, "schedule": 0.0}
    for _frontier, transitions, entries in levels:
        out["compute"] += skew * transitions / p * per_transition
        remote = entries * min(1.0, crossing * 2 * (p - 1) / p)
        out["exchange"] += (skew * remote / p * bytes_per_entry / BANDWIDTH + LATENCY) if p > 1 else 0.0
        out["schedule"] += (2 * p + p * min(p - 1, dests)) * per_task
    out["total"] = sum(out.values())
    return out


def project(out_dir: Path, table: str, m: Measure, costs: list[dict[str, Any]], per_task: float) -> list[Path]:
    big = max(costs, key=lambda c: c["states"])
    per_transition = big["dask1_cpu"] / big["transitions"]
    levels_run = len(m.levels) or 1
    remote = sum(lv["remote"] for lv in m.levels)
    bytes_per_entry = sum(lv["remote_bytes"] for lv in m.levels) / max(1, remote)
    crossing = remote / max(1, sum(lv["exchanged"] for lv in m.levels))
    last_frontier = max(1, m.levels[-2]["new_states"]) if levels_run > 1 else 1
    fanout = m.levels[-1]["exchanged"] / last_frontier
    tr_per_state = m.levels[-1]["transitions"] / last_frontier
    dests = m.levels[-1].get("sender_classes", 2) / 2  # classes per sender, last level, 2 partitions
    growth = big["states"] ** (1 / max(1, big["depth"]))
    shapes: dict[str, list[tuple[float, float, float]]] = {}
    for label, total in ((f"{big['model']} bound {big['bound']}", float(big["states"])), ("10^9 states", BIG)):
        levels, frontier, seen = [], 1.0, 1.0
        while seen < total:
            new = min(frontier * growth, total - seen)
            levels.append((frontier, frontier * tr_per_state, frontier * fanout))
            seen += new
            frontier = new
        shapes[label] = levels
    rows: list[list[object]] = []
    curves: dict[str, list[float]] = {}
    sizes = m.class_sizes or [1]
    for label, levels in shapes.items():
        one = simulate(levels, 1, per_transition, bytes_per_entry, per_task, 1.0, crossing, dests)["total"]
        for p in WORKERS:
            skew = imbalance(sizes, p)
            r = simulate(levels, p, per_transition, bytes_per_entry, per_task, skew, crossing, dests)
            limit = max(("compute", "exchange", "schedule"), key=lambda c: r[c])
            if limit == "compute" and skew > 1.5:
                limit = "largest class"
            rows.append([label, p, f"{skew:.2f}", f"{r['compute']:.3g}", f"{r['exchange']:.3g}",
                         f"{r['schedule']:.3g}", f"{r['total']:.3g}", f"{one / r['total']:.1f}",
                         f"{one / r['total'] / p:.2f}", limit])
            curves.setdefault(label, []).append(one / r["total"])
    caption = (f"Projected partitioned search on P workers (experiments/dask_projection.py), from the measured "
               f"CPU per transition on one worker ({per_transition * 1e6:.0f} µs, merge included, "
               f"{big['model']}), scheduling cost per "
               f"task ({per_task * 1e3:.2f} ms, no-op tasks timed on 2 workers), {bytes_per_entry:.0f} pickled "
               f"bytes per crossing entry, {fanout:.2f} entries per frontier state and {crossing:.2f} of them "
               f"crossing on 2 workers (the levels run), {dests:.0f} classes per partition's children in its "
               f"last level, {len(sizes)} decision classes in that level (the "
               f"largest {sizes[0] / sum(sizes):.3f} of the states), layer growth {growth:.1f}. Assumed: classes "
               f"placed largest first on the least loaded worker, never split (skew: fullest worker over the "
               f"mean), {BANDWIDTH / 1e9:.0f} GB/s per worker, {LATENCY * 1e3:.0f} ms latency per level, no "
               "overlap of expand and exchange, a single-threaded scheduler handling per level P step tasks and "
               "P + P*min(P-1, classes per partition's children) routing tasks. Seconds per component; "
               "speedup over 1 worker; efficiency = speedup / P; limit: the largest component (largest class: "
               "compute bound by the skew).")
    paths = write_table(out_dir, table,
                        ["workload", "workers", "skew", "compute_s", "exchange_s", "schedule_s", "total_s",
                         "speedup", "efficiency", "limit"], rows, caption)
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
