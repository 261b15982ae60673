"""A search of more than 10^8 states on one machine: ``paper_figures/tables/search_huge.{csv,md}`` — the
integer-encoded search (``model/search/native/intcode.py``) in its fingerprint mode (64-bit fingerprints
of every state in one open-addressing table sized for the run, the state vectors of the layers that are
expanded only, none of the last layer's) on a corpus model to a bound past 10^8 states, run once: states,
transitions, depth, wall and CPU seconds, peak resident size, bytes per state, the collision probability,
the verdicts, and a check of the same search at a smaller bound against the exact visited set.

Method. One run in this process, which loads nothing else: peak is ``ru_maxrss`` (the kernel's peak
resident size of the process, everything the search held at once: fingerprint table, vectors, parent
links, the Python tables behind the kernel's, allocator slack), ``bytes_per_state`` is that peak above
the resident size after loading the model, divided by the states visited. The collision probability is
the birthday bound n(n-1)/2^65 of ``fpset.py``: the probability that some two distinct states shared a
fingerprint, in which case the fingerprint mode undercounts (the exact mode never does). The check row
runs the same model at ``CHECK_BOUND`` in both modes and compares states, transitions, depth, verdicts
with their traces and completions.

``python experiments/search_huge.py [MODEL BOUND CAPACITY]`` (default: the report model at bound 12 with a
table of 2^29 slots, 4 GiB, room for 4·10^8 states at three quarters full); registered as ``search-huge``,
on demand (at its default about 21 CPU minutes and 8.3 GiB). Progress goes to stderr once a minute.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

from model.base.budget import resident_bytes
from model.base.paths import repo_root
from model.base.tables import write_table
from model.search.layered import ExplicitRun
from model.search.load import load_model
from model.search.native.intcode import explore_native, kernel_module
from model.search.search_verdict import Found, verdict_name

MODEL, BOUND, CAPACITY = "report.json", 12, 1 << 29
CHECK_BOUND = 8  # the exact and the fingerprint mode compared (seconds)


def _verdicts(run: ExplicitRun) -> str:
    return "; ".join(f"{q}: {verdict_name(v)}" + (f" ({len(v.trace)})" if isinstance(v, Found) else "")
                     for q, v in run.verdicts)


def _answers(run: ExplicitRun) -> tuple[object, ...]:
    return (run.states, run.transitions, run.depth, run.verdicts, run.completions, run.unknown)


def _check(path: Path) -> bool:
    """The fingerprint mode answers as the exact mode at ``CHECK_BOUND``."""
    model = load_model(path)
    exact = explore_native(model, CHECK_BOUND)
    fp = explore_native(model, CHECK_BOUND, fingerprint=True)
    assert exact is not None and fp is not None
    return _answers(exact) == _answers(fp)


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    return main(MODEL, BOUND, CAPACITY, out_dir, tick)


def main(name: str, k: int, capacity: int, out_dir: Path | None = None,
         progress: Callable[[int, int], None] | None = None) -> list[Path]:
    if kernel_module() is None:
        print("search_huge: the kernel is not built (python -m model.search.native.build)", file=sys.stderr)
        return []
    path = repo_root() / "corpus" / "search" / name
    model = load_model(path)
    base = resident_bytes()
    last = [0.0]
    t0 = time.perf_counter()

    def tick(done: int, total: int) -> None:
        if progress is not None:
            progress(done, total)
        now = time.perf_counter()
        if now - last[0] >= 60:
            last[0] = now
            print(f"search_huge: {done / 100:.2f} of {total // 100} layers, {now - t0:.0f} s, "
                  f"{resident_bytes() / 2**30:.2f} GiB", file=sys.stderr, flush=True)

    run = explore_native(model, k, tick, fingerprint=True, capacity=capacity)
    assert run is not None, "the model is inside the encoding"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    load = os.getloadavg()[0]
    print(f"search_huge: {run.states} states, {run.transitions} transitions, {run.cpu_seconds:.0f} CPU s, "
          f"peak {peak / 2**30:.2f} GiB", file=sys.stderr, flush=True)
    same = _check(path)
    row = [name, k, run.states, run.transitions, run.depth, f"{run.seconds:.0f}", f"{run.cpu_seconds:.0f}",
           f"{run.transitions / run.cpu_seconds:.0f}", f"{peak / 2**30:.2f}", f"{(peak - base) / run.states:.1f}",
           f"{capacity * 8 / 2**30:.0f}", f"{run.collision:.1e}", run.unknown is None, _verdicts(run),
           f"{CHECK_BOUND}: {same}", f"{load:.1f}"]
    print(row, file=sys.stderr)
    return write_table(
        out_dir or repo_root() / "paper_figures", "search_huge",
        ["model", "bound", "states", "transitions", "depth", "wall_s", "cpu_s", "transitions_per_cpu_s",
         "peak_gib", "bytes_per_state", "fingerprint_table_gib", "collision_probability", "complete", "verdicts",
         "same_as_exact_at", "load"], [row],
        "A search past 10^8 states on one machine (`python experiments/search_huge.py`, registered as "
        "`search-huge`): the integer-encoded search in its fingerprint mode (64-bit fingerprints of every state in "
        "one table sized for the run, state vectors of the expanded layers only), without sleep sets, run once "
        "on 2 cores shared with other jobs; wall_s and cpu_s the search's seconds; peak_gib the process's peak "
        "resident size; bytes_per_state that peak above the size after loading the model, per state; "
        "collision_probability n(n-1)/2^65 (the fingerprint mode may undercount only if two distinct states "
        "shared a fingerprint); complete: every layer explored to the bound within no budget; verdicts with the "
        "shortest length of each trace found; same_as_exact_at: at that bound the fingerprint mode gave the "
        "exact mode's states, transitions, depth, verdicts with traces and completions; load: the 1-minute "
        "load average at the end.")


if __name__ == "__main__":
    args = sys.argv[1:]
    for out in (main(args[0], int(args[1]), int(args[2])) if len(args) == 3 else main(MODEL, BOUND, CAPACITY)):
        print(out)
