"""Peak memory of one generic search in a fresh process (what ``experiments/system_scale.py`` reports per state;
our design, as ``model/search/peak.py`` for the monitor engine): the peak resident size (``ru_maxrss``)
above the process's size after loading the model and importing the engine. It lives in ``model/`` because a
spawned process must import the function it runs.
"""

from __future__ import annotations

import multiprocessing
import resource
from concurrent.futures import ProcessPoolExecutor

from model.search.system.bfs import SystemRun


def single(path: str, k: int, mode: str) -> tuple[SystemRun, int]:
    """The admission model at ``path`` searched to ``k`` with the ``mode`` visited set, and its peak bytes."""
    from model.base.budget import resident_bytes
    from model.search.system.admission import AdmissionSystem, load
    from model.search.system.bfs import search

    sys = AdmissionSystem(load(path))
    base = resident_bytes()
    run = search(sys, k, mode)
    return run, max(0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - base)


def fresh(path: str, k: int, mode: str) -> tuple[SystemRun, int]:
    """``single`` in a fresh spawned process (so the peak is this search's alone)."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(single, path, k, mode).result()
