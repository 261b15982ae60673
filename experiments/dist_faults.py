"""Stress of the partitioned searches (``model/dist``) under load and injected faults: every run is checked
against the single-process search of the same model and bound, and must equal it or answer Unknown with
limit "lost" (a task failed or a level's accounting did not balance) — never a shorter run reported
complete.

Method: one LocalCluster of two single-threaded worker processes; optionally a CPU hog (a busy Python
process per ``--hogs``, killed by its pid at the end) so the scheduler, driver and workers compete for
the cores; faults from ``model/dist/fault_injection.py`` with per-task probabilities ``--fail``, ``--stall``
(sleeping ``--stall-seconds``) and ``--drop`` (a cut or routed batch handed over empty); the client's
cached view of the cluster refreshed every ``--info-interval`` (5 ms; Dask's default is 2 s), which
makes the view that lists no worker frequent — the partitioned search must not read it. Run ``i`` takes
the ``i``-th case of a fixed rotation: the monitor engine (``explore_distributed``) on the report,
payments and deployment search models at bounds 1–3, with and without sleep sets, exact and fingerprint
visited sets, pinned expands and chunks of one state and up (``MIN_CHUNK`` set to 1); and the generic
engine (``search_distributed``) on the hold/replay admission model at bounds 2–6 in both modes. The
single-process answers are computed once per case. The printed summary (JSON) counts runs, faults fired
on the workers, complete runs equal to the single process, Unknown answers and mismatches.

Run: ``.venv/bin/python experiments/dist_faults.py --runs 2000 --fail 0.03 --stall 0.03 --drop 0.02 --hogs 1``.
Not part of ``reproduce``: it measures no figure, it looks for wrong answers.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

SEARCH = Path(__file__).resolve().parents[1] / "corpus" / "search"
#: (model file, bound) per engine; the monitor engine's cases also vary reduction, mode and chunks
MONITOR = [("report.json", 1), ("report.json", 2), ("report.json", 3), ("payments.json", 2), ("deploy.json", 1),
           ("deploy.json", 2)]
SYSTEM = [("admission_hold.json", 2), ("admission_hold.json", 4), ("admission_hold.json", 6)]
#: (fingerprints, chunks): pinned, and chunks from one state up
SHAPES = [(False, None), (True, None), (False, 3), (True, 64), (False, 16), (True, 2)]


def cases() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for i, (name, k) in enumerate(MONITOR):
        for j, (fp, chunks) in enumerate(SHAPES):
            out.append(("monitor", (name, k, (i + j) % 2 == 0, fp, chunks)))
    for name, k in SYSTEM:
        for mode in ("exact", "fingerprint"):
            out.append(("system", (name, k, mode)))
    return out


def injected(per_worker: dict[str, dict[str, int]]) -> dict[str, int]:
    """The faults fired on all workers, per kind."""
    return {k: sum(d.get(k, 0) for d in per_worker.values()) for k in ("fail", "stall", "drop")}


def stress(runs: int, fail: float, stall: float, drop: float, seconds: float, seed: int,
           tick: Any = None) -> dict[str, Any]:
    from model.dist import search as dist_search
    from model.dist.cluster import connect
    from model.dist.fault_injection import Faults, fired
    from model.dist.search import explore_distributed
    from model.dist.system_search import search_distributed
    from model.search.explicit import explore
    from model.search.load import load_model
    from model.search.system.admission import AdmissionSystem, load
    from model.search.system.bfs import search

    dist_search.MIN_CHUNK = 1
    todo = cases()
    single: dict[int, Any] = {}
    b: Any
    counts = {"runs": 0, "equal": 0, "unknown": 0, "mismatches": 0}
    mismatches: list[str] = []
    start = time.monotonic()
    with connect(workers=2) as client:
        for i in range(runs):
            c = i % len(todo)
            kind, args = todo[c]
            faults = Faults(fail=fail, stall=stall, drop=drop, seconds=seconds, seed=seed * 1_000_003 + i)
            if kind == "monitor":
                name, k, reduction, fp, chunks = args
                m = load_model(SEARCH / name)
                if c not in single:
                    single[c] = explore(m, k, reduction=reduction)
                b = explore_distributed(client, m, k, reduction=reduction, fingerprints=fp, chunks=chunks,
                                        faults=faults)
            else:
                name, k, mode = args
                sm = load(SEARCH / name)
                if c not in single:
                    single[c] = search(AdmissionSystem(sm), k)
                b = search_distributed(client, partial(AdmissionSystem, sm), k, mode, faults=faults)
            a = single[c]
            counts["runs"] += 1
            if b.unknown is not None:
                counts["unknown"] += 1
                if b.unknown.limit != "lost" or b.states > a.states or b.transitions > a.transitions:
                    counts["mismatches"] += 1
                    mismatches.append(f"run {i} {kind} {args}: {b.unknown}")
            elif (b.states, b.transitions, b.depth, b.verdicts) == (a.states, a.transitions, a.depth, a.verdicts):
                counts["equal"] += 1
            else:
                counts["mismatches"] += 1
                mismatches.append(f"run {i} {kind} {args}: {(b.states, b.transitions, b.depth)} against "
                                  f"{(a.states, a.transitions, a.depth)}")
            if tick is not None and ((i + 1) % 50 == 0 or i + 1 == runs):
                tick(i + 1, runs, {**counts, "injected": injected(client.run(fired))})
        per_worker: dict[str, dict[str, int]] = client.run(fired)
    return {**counts, "injected": injected(per_worker), "cases": len(todo),
            "seconds": round(time.monotonic() - start, 1), "mismatch_runs": mismatches[:20]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--fail", type=float, default=0.03)
    ap.add_argument("--stall", type=float, default=0.03)
    ap.add_argument("--drop", type=float, default=0.02)
    ap.add_argument("--stall-seconds", type=float, default=0.2)
    ap.add_argument("--hogs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--info-interval", default="5ms",
                    help="the client's scheduler-info refresh interval (Dask's default is 2s; short, it makes the "
                         "client's cached view of the cluster list no worker more often)")
    a = ap.parse_args()
    import dask

    dask.config.set({"distributed.client.scheduler-info-interval": a.info_interval})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the hogs are killed on the way out
    hogs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(a.hogs)]
    try:
        def tick(n: int, total: int, counts: dict[str, Any]) -> None:
            print(f"{n}/{total} {json.dumps(counts)}", file=sys.stderr, flush=True)

        out = stress(a.runs, a.fail, a.stall, a.drop, a.stall_seconds, a.seed, tick)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    print(json.dumps({**out, "hogs": a.hogs, "fail": a.fail, "stall": a.stall, "drop": a.drop,
                      "info_interval": a.info_interval}))
    sys.exit(1 if out["mismatches"] else 0)


if __name__ == "__main__":
    main()
