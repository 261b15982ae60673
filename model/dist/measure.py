"""What the scaling experiment measures of a partitioned search (what a cluster size is chosen by: memory
per worker and frontier exchange volume): the workers' CPU seconds, per level the entries each partition
sends and their pickled bytes (what Dask moves between workers), and at the end each partition's
resident size.

Choice: resident size is a deep ``sys.getsizeof`` over the partition's tables, each object counted once
(records and strings shared between states are counted once, as they are stored once); it leaves out
the per-process memo tables of ``expand.Context``, which do not grow with the visited set alone.
"""

from __future__ import annotations

import pickle
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from model.search.explicit import ExplicitRun


@dataclass
class Measure:
    """``exchange=False`` records only CPU (cheap, for timed runs): the workers' total, the critical
    path — per level the slowest step (merge, then expand), plus the slowest final merge: the CPU a
    level needs on dedicated cores, without communication — and the driver's process."""

    exchange: bool = True
    levels: list[dict[str, int]] = field(default_factory=list)
    memory: list[tuple[int, int]] = field(default_factory=list)  # per partition: (states, bytes)
    worker_cpu: float = 0.0
    critical_cpu: float = 0.0
    class_sizes: list[int] = field(default_factory=list)  # the last level's children per class, largest first
    seeded: bool = False  # the workers shared one string-hash seed: states hashed natively
    lent: int = 0  # frontier states expanded by a partition other than their owner (``route.balance``)
    driver_cpu: float = 0.0  # the driver's process CPU (with a LocalCluster, the scheduler's too)
    memo_refused: list[str] = field(default_factory=list)  # shared memo shares a partition refused, and why
    # the driver's timeline: (event, wall clock ``time.time()``, the driver's process CPU), one per phase of
    # each level (``experiments/dask_timeline.py`` lines the workers' tasks up against it)
    marks: list[tuple[str, float, float]] = field(default_factory=list)

    def mark(self, event: str) -> None:
        self.marks.append((event, time.time(), time.process_time()))


def wire(batch: object, remote: bool) -> tuple[int, int]:
    """(entries, pickled bytes) of one batch (``wire.pack``ed when it leaves its worker); bytes only for
    batches that leave their worker."""
    if isinstance(batch, bytes):
        return len(pickle.loads(batch)), len(batch)
    n = len(batch) if isinstance(batch, dict) else 0
    return n, len(pickle.dumps(batch, protocol=5)) if remote and n else 0


def deep_size(root: object) -> int:
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, tuple | list | set | frozenset):
            stack.extend(o)
        elif hasattr(o, "__slots__") and not isinstance(o, str | int | float | bool | bytes):
            stack.extend(getattr(o, s) for s in o.__slots__ if hasattr(o, s))
    return total


def single_run(path: str, k: int, fingerprint: bool) -> tuple[ExplicitRun, float, int]:
    """The single-process search of the model at ``path`` to bound ``k`` (exact, or over fingerprints), for a
    fresh process (the scaling experiment spawns one per run): the run, its wall seconds and its peak
    resident bytes above the resident size after loading the model (``ru_maxrss`` is the process's peak)."""
    from model.base.budget import resident_bytes
    from model.search.explicit import explore
    from model.search.fingerprint import explore_fingerprint
    from model.search.load import load_model

    model = load_model(Path(path))
    base = resident_bytes()
    start = time.perf_counter()
    run = (explore_fingerprint if fingerprint else explore)(model, k)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return run, wall, max(0, peak - base)
