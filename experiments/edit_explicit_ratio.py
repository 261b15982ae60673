"""In-process ratio of the explicit edit engine to the published artifact's checker on the small rows of
``edit_timing_artifact`` ("When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking
for Execution Edits", Appendix A-M).

``experiments/edit_timing.py`` measures every row in fresh processes (slow: minutes); this script is
the quick form for the rows where the constant cost of a check dominates: one process, the two
checkers alternating check by check on freshly built equal instances (each built outside the timed
interval, our contract cache cleared before each build, as ``edit_timing`` does), many repetitions,
CPU time of the process (``time.process_time_ns``) per check. After a warm-up (CPython specializes
code after a few runs) it prints, per row, the median per-check time of each and their ratio, and
checks that our verdict and rounds equal the artifact's. The artifact is not part of this
repository: ``AGENTWARRANT_ARTIFACT`` points at the ``artifact/`` directory of a checkout of
eunomia-bpf/agent-check-restore-safety.

    AGENTWARRANT_ARTIFACT=/path/to/artifact python experiments/edit_explicit_ratio.py [--reps N] [--engine E]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from experiments.edit_timing import EXPLICIT_BUDGET, FAMILIES, NO_BUDGET
from model.edits.check.answer import Accepted
from model.edits.check.contract import outcomes
from model.shell.api import check_edit

ROWS = (("shared_accept", 2), ("shared_accept", 8), ("shared_reject", 2), ("shared_reject", 8),
        ("shared_reject", 32), ("unordered", 3), ("unordered", 4))
WARM_UP = 20


def _artifact() -> tuple[Any, Any]:
    d = os.environ.get("AGENTWARRANT_ARTIFACT")
    if not d or not (Path(d) / "exact_history_realization.py").is_file():
        sys.exit("set AGENTWARRANT_ARTIFACT to the artifact/ directory of a checkout of the artifact")
    sys.path.insert(0, d)
    return importlib.import_module("bench_exact_history_realization"), importlib.import_module(
        "exact_history_realization")


def row(family: str, size: int, engine: str, reps: int, bench: Any, checker: Any) -> tuple[float, float]:
    """Median CPU µs per check of ours and of the artifact's, alternating check by check."""
    budget = EXPLICIT_BUDGET if engine == "explicit" else NO_BUDGET
    build_ours = FAMILIES[family][0]

    def build_art() -> tuple[Any, Any]:
        if family == "unordered":
            return bench._unordered(size)  # type: ignore[no-any-return]
        return bench._shared_prefix(size, admitted=family == "shared_accept")  # type: ignore[no-any-return]

    clock = time.process_time_ns
    ours: list[int] = []
    art: list[int] = []
    last: tuple[Any, Any] = (None, None)
    for i in range(WARM_UP + reps):
        outcomes.cache_clear()
        inst = build_ours(size)
        t0 = clock()
        v = check_edit(inst, engine, budget=budget)
        t1 = clock()
        state, contract = build_art()
        t2 = clock()
        r = checker.check_admission(state, contract)
        t3 = clock()
        if i >= WARM_UP:
            ours.append(t1 - t0)
            art.append(t3 - t2)
        last = (v, r)
    v, r = last
    assert isinstance(v, Accepted) == bool(r.admitted), (family, size, v, r)
    assert list(v.counts.rounds or ()) == [len(s) for s in r.descending_chain], (family, size)
    return statistics.median(ours) / 1000, statistics.median(art) / 1000


def main(argv: list[str] | None = None, emit: Callable[[str], None] = print) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--reps", type=int, default=2000)
    ap.add_argument("--engine", default="explicit", choices=("explicit", "symbolic"))
    ap.add_argument("--rounds", type=int, default=3, help="passes over the rows (each row's figures per pass)")
    args = ap.parse_args(argv)
    bench, checker = _artifact()
    emit(f"engine={args.engine} reps={args.reps} load={os.getloadavg()[0]:.1f}")
    for p in range(args.rounds):
        for family, size in ROWS:
            o, a = row(family, size, args.engine, args.reps, bench, checker)
            emit(f"pass {p} {family:13s} {size:3d}  ours {o:8.1f} us  artifact {a:8.1f} us  ratio {o / a:.3f}")


if __name__ == "__main__":
    main()
