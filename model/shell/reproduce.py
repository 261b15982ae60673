"""``agentwarrant reproduce``: regenerate every table and figure into ``paper_figures/``.

Each experiment is a script in ``experiments/`` exposing
``reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]``: it computes its
results with the model (never copying expected numbers), writes them under ``out_dir`` and calls
``tick(done, total)`` as it goes so the CLI can draw one progress bar per experiment.
The registry below is the single list of experiments; add one line per new experiment.
"""

from __future__ import annotations

import importlib.util
import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from model.base.errors import InputKind, InvalidInput
from model.base.paths import repo_root

# name -> script file in experiments/
EXPERIMENTS: dict[str, str] = {
    "report-table": "report_table.py",
    "monitor-overhead": "monitor_overhead.py",
    "edit-timing": "edit_timing.py",
    "revision-corpus": "revision_corpus.py",
    "revision-families": "revision_families.py",
    "bounded-analysis": "bounded_analysis.py",
    "validation-scaling": "validation_scaling.py",
    "agentdojo": "agentdojo.py",
    "agentdojo-families": "agentdojo_families.py",
    "agentdojo-command-cpu": "agentdojo_command_cpu.py",
    "agentdojo-closed-drive": "agentdojo_closed_drive.py",
    "dask-scaling": "dask_scaling.py",
    "search-scale": "search_scale.py",
    "search-reductions": "search_reductions.py",
    "search-engine": "search_engine.py",
    "search-huge": "search_huge.py",
    "dask-partition-cost": "dask_partition_cost.py",
    "dask-timeline": "dask_timeline.py",
    "system-scale": "system_scale.py",
    "edits-bisim": "edits_bisim.py",
    "admission-store": "admission_store.py",
    "quota-scaling": "quota_scaling.py",
    "safety-share": "safety_share.py",
    "lean-faults": "lean_faults.py",
    "tamper-matrix": "tamper_matrix.py",
    "where-budgets": "where_budgets.py",
}
#: registered but left out of ``reproduce all`` (and so of ``make reproduce``): they start clusters or
#: servers, or run for many minutes; ``make bench`` runs them with the other timing experiments
ON_DEMAND: frozenset[str] = frozenset({"dask-scaling", "search-scale", "system-scale", "edits-bisim",
                                       "admission-store", "search-reductions",
                                       "search-engine", "search-huge",
                                       "dask-partition-cost", "dask-timeline"})

#: every committed table of paper_figures/tables/ -> what writes it: a ``reproduce`` experiment, or the
#: make target of a job that is not one (it needs a tool ``make reproduce`` must run without, or takes
#: tens of minutes). tests/whole_repo/test_reproduce_coverage.py checks that this is every table.
TABLE_SOURCES: dict[str, str] = {
    "report_task": "report-table",
    "monitor_overhead": "monitor-overhead", "monitor_scaling": "monitor-overhead",
    "edit_timing": "edit-timing", "edit_timing_artifact": "edit-timing",
    "revision_corpus": "revision-corpus", "revision_corpus_entries": "revision-corpus",
    "revision_speed": "revision-corpus", "quota_scaling": "quota-scaling", "revision_families": "revision-families",
    "safety_share": "safety-share", "lean_faults": "lean-faults", "tamper_matrix": "tamper-matrix",
    "where_budgets": "where-budgets",
    "bounded_analysis": "bounded-analysis", "search_speed": "bounded-analysis",
    "validation_scaling": "validation-scaling",
    "agentdojo": "agentdojo", "agentdojo_cases": "agentdojo", "agentdojo_search": "agentdojo",
    "agentdojo_attacks": "agentdojo", "agentdojo_targets": "agentdojo", "agentdojo_blocking": "agentdojo",
    "agentdojo_peers": "agentdojo", "agentdojo_families": "agentdojo-families",
    "agentdojo_families_cases": "agentdojo-families", "agentdojo_command_cpu": "agentdojo-command-cpu",
    "agentdojo_closed_drive": "agentdojo-closed-drive",
    "dask_scaling": "dask-scaling", "dask_scaling_levels": "dask-scaling", "dask_scaling_projection": "dask-scaling",
    "search_scale": "search-scale", "search_merge": "search-scale", "search_native": "search-scale",
    "search_intcode": "search-scale", "search_huge": "search-huge",
    "dask_partition_cost": "dask-partition-cost",
    "dask_partition_cost_monitor": "dask-partition-cost",
    "dask_timeline": "dask-timeline",
    "system_scale": "system-scale",
    "search_reductions": "search-reductions", "search_engine": "search-engine",
    "admission_races": "admission-store", "admission_throughput": "admission-store",
    "mutation": "make mutation",
    # Lean-dependent, so outside `make reproduce` (which must run without a toolchain)
    "drt_mutation": "make drt_mutation", "lean_backend_overhead": "make lean_backend_overhead",
    "drt_rate": "make drt_rate", "lean_search_agreement": "make lean_search_agreement",
    "drt_campaign": "agentwarrant drt",
    "edits_bisim": "edits-bisim",
    "lean_results": "make lean_results",
}

# name -> what it computes and writes (shown by `agentwarrant reproduce --help`)
DESCRIPTIONS: dict[str, str] = {
    "report-table": "Table 1 (Agenra §3), decided by the monitor",
    "monitor-overhead": "per-call cost of mediation, as ratios (benchmark)",
    "edit-timing": "edit checker time and memory by size (benchmark, figure)",
    "revision-corpus": "every revision of corpus/revisions/ judged (figure)",
    "revision-families": "generated binding-swap, origin/flow and long-loss revisions judged, every answer re-checked",
    "bounded-analysis": "attack search per policy variant, search speed (figure)",
    "validation-scaling": "monitor check time by policy size (benchmark, figure)",
    "agentdojo": "AgentDojo replayed under the monitor per agent and review model, variant and placement (figure)",
    "agentdojo-families": "AgentDojo: an attacker's value substituted in the user's own call, per configuration",
    "agentdojo-command-cpu": "AgentDojo: CPU of one task or pair command, for the slowest tasks and pairs (benchmark)",
    "agentdojo-closed-drive": "AgentDojo workspace: the user's own drive closed to untrusted data, utility and attacks",
    "dask-scaling": "search at scale: large models, fingerprint memory, Dask 1 and 2 workers, projection (on demand)",
    "search-scale": "exact vs fingerprint search on models of a million states, memory per state (on demand)",
    "system-scale": "the generic search on the admission model of a million states, exact vs fingerprint (on demand)",
    "search-reductions": "partial-order and symmetry reduction: states, transitions, CPU with and without (on demand)",
    "dask-partition-cost": "partitioned generic search run in one process: CPU, memo misses per partition (on demand)",
    "dask-timeline": "two Dask workers on banking: per phase, each worker's tasks, transfers and idle time (on demand)",
    "search-huge": "the integer-encoded search over fingerprints past 10^8 states, run once (on demand, CPU minutes)",
    "search-engine": "the one breadth-first engine against the loops it replaced, transitions per CPU s (on demand)",
    "edits-bisim": "ideal machine vs durable runtime, bounded weak bisimulation (on demand, ~15 min)",
    "admission-store": "gateway fleet races, faults and releases/s on SQLite and PostgreSQL (benchmark)",
    "tamper-matrix": "store rows edited, deleted, copied, reordered, rolled back, then used: effects from them",
    "quota-scaling": "simulation-certified revisions judged with quotas ×3 to ×10^6: same verdicts (benchmark)",
    "safety-share": "the safety search's share of a revise with many grants, before and after pruning (benchmark)",
    "lean-faults": "every entry point that asks the Lean oracle, against fake oracles that hang, exit, garble, flood",
    "where-budgets": "forbidden budgets with argument tests against the same without them (benchmark)",
}

Tick = Callable[[int, int], None]


def load_experiment(name: str) -> ModuleType:
    if name not in EXPERIMENTS:
        raise InvalidInput("reproduce", f"one of {', '.join(sorted(EXPERIMENTS))} or 'all'", name, InputKind.VALUE)
    path = repo_root() / "experiments" / EXPERIMENTS[name]
    if not path.is_file():
        raise InvalidInput(str(path), f"the script of experiment {name!r}", "no such file", InputKind.IO)
    spec = importlib.util.spec_from_file_location(f"experiments_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise InvalidInput(str(path), "a Python experiment script", "nothing loadable", InputKind.IO)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_experiment(name: str, out_dir: Path, tick: Tick, client: object = None) -> list[Path]:
    """Run one experiment; ``client`` (a Dask client) goes to experiments whose ``reproduce`` takes a
    ``client`` keyword (they shard their cases on its cluster)."""
    module = load_experiment(name)
    fn = getattr(module, "reproduce", None)
    if fn is None:
        raise InvalidInput(EXPERIMENTS[name], "a function reproduce(out_dir, tick)", "none", InputKind.REFERENCE)
    if client is not None and "client" in inspect.signature(fn).parameters:
        sharded: list[Path] = fn(out_dir, tick, client=client)
        return sharded
    paths: list[Path] = fn(out_dir, tick)
    return paths
