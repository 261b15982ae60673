"""The one breadth-first engine against the loops it replaced: ``paper_figures/tables/search_engine.{csv,md}``
— per run, transitions per CPU second of the search before (its own loop, read from git history) and
after (``model/search/engine.py``), alternated in one process.

Runs: the monitor engine's exact mode (``layered.layered`` over ``explicit.ExactStore``, sleep sets on) on
the report and deploy models, and the generic system search (``system/bfs.search``, exact mode) on the
four-requester admission model. The loops before are ``model/search/layered.py`` and
``model/search/system/bfs.py`` as they were in the parent of the commit that added
``model/search/engine.py``, loaded as modules; the old ``bfs.py``'s one import of ``cut_short`` (which has
since moved) is pointed at its new place. Each old loop runs over today's stores and successors, so the
ratio isolates the loop. Both give the same states, transitions, depth and verdicts (asserted).

Method: a warm-up run of each, then ``ROUNDS`` alternating rounds; per round the transitions per CPU
second (``time.process_time`` over the run); the table gives every round, the best, the median, and each
as a ratio to before. Without git history the table is not written.

Registered as ``search-engine`` (on demand); run ``agentwarrant reproduce search-engine``.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from model.base.paths import repo_root
from model.base.tables import write_table
from model.search.compact import empty
from model.search.expand import Context
from model.search.explicit import ExactStore
from model.search.load import load_model
from model.search.system import bfs
from model.search.system.admission import AdmissionSystem, load

ROUNDS = 5
MONITOR_RUNS = (("report.json", 5), ("deploy.json", 3))
SYSTEM_RUNS = (("admission_hold_r4.json", 7),)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(repo_root()), *args], capture_output=True, text=True,
                          check=True).stdout


def _old(path: str, name: str, patch: tuple[str, str] | None = None) -> ModuleType | None:
    """``path`` as it was before the engine, loaded as module ``name`` (None without git history)."""
    try:
        added = _git("log", "--diff-filter=A", "--format=%H", "--", "model/search/engine.py").split()
        if not added:
            return None
        src = _git("show", f"{added[-1]}^:{path}")
    except (OSError, subprocess.CalledProcessError):
        return None
    if patch is not None:
        src = src.replace(*patch)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(src)
    spec = importlib.util.spec_from_file_location(name, fh.name)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    os.unlink(fh.name)
    return mod


def _shape(run: Any) -> tuple[object, ...]:
    return run.states, run.transitions, run.depth, tuple((n, repr(v)) for n, v in run.verdicts)


def _rounds(name: str, k: int, before: Callable[[], Any], after: Callable[[], Any]) -> list[list[object]]:
    engines = (("before (own loop)", before), ("after (engine)", after))
    for _, f in engines:  # warm-up: imports, compiled policy, memo tables
        f()
    rates: dict[str, list[float]] = {n: [] for n, _ in engines}
    runs: dict[str, Any] = {}
    for _ in range(ROUNDS):
        for n, f in engines:
            run = f()
            rates[n].append(run.transitions / run.cpu_seconds if run.cpu_seconds > 0 else 0.0)
            runs[n] = run
    assert _shape(runs["before (own loop)"]) == _shape(runs["after (engine)"]), "the engine must search the same"
    best = {n: max(v) for n, v in rates.items()}
    median = {n: statistics.median(v) for n, v in rates.items()}
    b, m = best["before (own loop)"], median["before (own loop)"]
    return [[n, name, k, runs[n].states, runs[n].transitions, " ".join(f"{r:.0f}" for r in rates[n]),
             f"{best[n]:.0f}", f"{median[n]:.0f}", f"{best[n] / b:.3f}", f"{median[n] / m:.3f}",
             f"{os.getloadavg()[0]:.1f}"] for n, _ in engines]


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    from model.search.layered import layered

    old_layered = _old("model/search/layered.py", "search_pre_engine_layered")
    old_bfs = _old("model/search/system/bfs.py", "search_pre_engine_bfs",
                   ("from model.search.layered import cut_short", "from model.search.engine import cut_short"))
    if old_layered is None or old_bfs is None:
        return []
    search = repo_root() / "corpus" / "search"
    total = len(MONITOR_RUNS) + len(SYSTEM_RUNS)
    rows: list[list[object]] = []
    for i, (name, k) in enumerate(MONITOR_RUNS):
        model = load_model(search / name)
        rows += _rounds(name, k, _monitor(old_layered.layered, model, k), _monitor(layered, model, k))
        tick(i + 1, total)
    for j, (name, k) in enumerate(SYSTEM_RUNS):
        rows += _rounds(name, k, _system(old_bfs.search, search / name, k), _system(bfs.search, search / name, k))
        tick(len(MONITOR_RUNS) + j + 1, total)
    return write_table(
        out_dir, "search_engine",
        ["engine", "model", "bound", "states", "transitions", "rounds", "best", "median", "best_ratio_to_before",
         "median_ratio_to_before", "load"], rows,
        f"The one breadth-first engine against the loops it replaced (`agentwarrant reproduce search-engine`): "
        f"the monitor engine's exact mode (sleep sets on) and the generic system search, each loop read from "
        f"git history as it was before the engine and run over today's stores and successors; {ROUNDS} "
        f"alternating rounds in one process after a warm-up, transitions per CPU second in each round, their "
        f"best and median, and each as a ratio to the loop before. Both give the same states, transitions, "
        f"depth and verdicts. load: the 1-minute load average after the run.")


def _monitor(loop: Callable[..., Any], model: Any, k: int) -> Callable[[], Any]:
    """A run of ``loop`` over a fresh exact store; one decision memo per loop, warm after the warm-up run,
    as a long search's is."""
    ctx = Context(model, renaming=not model.policy.histories)
    return lambda: loop(ctx, ExactStore(empty(model.policy), ctx.independence), k)


def _system(search: Callable[..., Any], path: Path, k: int) -> Callable[[], Any]:
    """A run of ``search`` on the admission model; one memo of service steps per loop."""
    sys_ = AdmissionSystem(load(path))
    return lambda: search(sys_, k)
