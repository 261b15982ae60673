"""Peak memory of one explicit search (what the scaling experiments report per stored state; our design
for the missing Section 8 of Agenra): run in a fresh process, the search's peak resident size above the
process's size after loading the model and importing the engines.

Choice: resident size (``ru_maxrss``, the kernel's peak), not ``tracemalloc`` — it counts everything the
search made the process hold, allocator slack and freed-but-kept arenas included, and costs nothing
while the search runs; ``tracemalloc`` would slow it several times over.
"""

from __future__ import annotations

import multiprocessing
import resource
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from model.search.layered import ExplicitRun


def single(path: str, policy: str | None, k: int, fingerprint: bool, reduction: bool) -> tuple[ExplicitRun, int]:
    """The search of the model at ``path`` (under ``policy`` when given) to bound ``k``, exact or over
    fingerprints, and its peak resident bytes above the loaded model's."""
    from model.base.budget import resident_bytes
    from model.search.explicit import explore
    from model.search.fingerprint import explore_fingerprint
    from model.search.load import load_model

    model = load_model(Path(path), policy)
    base = resident_bytes()
    run = (explore_fingerprint if fingerprint else explore)(model, k, reduction=reduction)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return run, max(0, peak - base)


def fresh(path: str, policy: str | None, k: int, fingerprint: bool, reduction: bool) -> tuple[ExplicitRun, int]:
    """``single`` in a fresh spawned process (so the peak is this search's alone)."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(single, path, policy, k, fingerprint, reduction).result()
