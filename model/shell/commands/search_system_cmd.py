"""``agentwarrant search`` on a generic system model (a model file whose ``kind`` names one: today
``admission-hold``, ``admission.py``): the layered search of ``bfs.py``, its verdicts, shortest traces and
counts, as a table or one canonical JSON object (our design for the missing Section 8 of Agenra, over
any finite system); with ``--symmetry`` the visited set keeps one state per orbit of the symmetry the
system declares (``symmetry.py``); with ``--workers``/``--scheduler`` the partitioned search of
``model/dist/system_search.py`` on a Dask cluster (same results; the JSON then names the cluster's
workers). Choices: only the explicit engine exists for these models (there is no SMT encoding), so
``--engine smt`` and ``--policy`` are refused as bad input; the exit status
follows the monitor search's: 1 when a forbidden query is Found or a goal is not, 3 when the budget ran
out first.
"""

from __future__ import annotations

import sys as sys_module
from collections.abc import Callable
from functools import partial
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from model.base.budget import Budget, Unknown, resident_bytes
from model.base.canonical import JSON, canonical_str
from model.base.errors import InputKind, InvalidInput
from model.base.exitcodes import Exit
from model.dist.cluster import WorkerLost, connect, wanted
from model.dist.driver import workers_of
from model.search.system.admission import AdmissionSystem, load, reduced_system
from model.search.system.bfs import Reached, SystemRun, passes, search, verdict_name
from model.search.system.protocol import QueryKind, System
from model.search.system.symmetry import reduced
from model.shell.display import print_table


def run_json(run: SystemRun, sys: AdmissionSystem, workers: int | None = None) -> dict[str, JSON]:
    queries: dict[str, JSON] = {}
    for q in sys.queries:
        v = run.verdict(q.name)
        entry: dict[str, JSON] = {"kind": q.kind.value, "verdict": verdict_name(v), "passes": passes(q, v)}
        if isinstance(v, Reached):
            entry["trace"] = list(v.trace)
        if isinstance(v, Unknown):
            entry["budget"] = v.to_json()
        queries[q.name] = entry
    out: dict[str, JSON] = {
        "model": run.system, "kind": "admission-hold", "bound": run.bound, "states": run.states,
        "transitions": run.transitions, "depth": run.depth, "seconds": round(run.seconds, 3), "mode": run.mode,
        "collision_probability": run.collision, "queries": queries,
        "passed": all(passes(q, run.verdict(q.name)) for q in sys.queries)}
    if workers is not None:
        out["workers"] = workers
    return out


def run_cli(path: str, engine: str, bound: int | None, policy: str | None, scheduler: str | None,
            workers: int | None, fingerprint: bool, budget: Budget, as_json: bool, symmetry: bool = False) -> None:
    if engine == "smt":
        raise InvalidInput("--engine", "explicit or both (a system model has no SMT encoding)", engine, InputKind.VALUE)
    if policy is not None:
        raise InvalidInput("--policy", "no policy file (a system model carries its own policy)", policy,
                           InputKind.VALUE)
    model = load(path)
    sys = AdmissionSystem(model)
    make: Callable[[], System[Any]] = partial(reduced_system, model) if symmetry else partial(AdmissionSystem, model)
    k, mode = model.bound if bound is None else bound, "fingerprint" if fingerprint else "exact"
    size: int | None = None
    if not wanted(scheduler, workers):
        run = _with_bar(partial(search, reduced(sys) if symmetry else sys, k, mode), k, budget)
    else:
        from model.dist.system_search import search_distributed

        try:
            with connect(scheduler, workers, budget.seconds) as client:
                size = len(workers_of(client))
                run = _with_bar(partial(search_distributed, client, make, k, mode), k, budget)
        except WorkerLost as exc:
            Console(stderr=True).print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
            raise SystemExit(Exit.UNKNOWN) from None
    if as_json:
        out = run_json(run, sys, size)
        out["symmetry"] = symmetry
        click.echo(canonical_str(out))
    else:
        _print(run, sys)
    if any(not passes(q, run.verdict(q.name)) and not isinstance(run.verdict(q.name), Unknown) for q in sys.queries):
        raise SystemExit(Exit.FAILS)
    if run.unknown is not None:
        raise SystemExit(Exit.UNKNOWN)


def _with_bar(go: Callable[..., SystemRun], k: int, budget: Budget) -> SystemRun:
    """``go(tick=..., meter=...)`` with the monitor search's bar on a terminal: layers as the bar,
    transitions, rate and memory beside it."""
    if not sys_module.stderr.isatty():
        return go(budget=budget)
    with Progress(TextColumn("explicit  "), BarColumn(), TaskProgressColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[work]}"), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("explicit", total=k * 100, work="")
        meter = budget.start(lambda used: bar.update(task, work=(
            f"{used.states:,} transitions  {used.states / max(used.seconds, 1e-9):,.0f}/s  "
            f"{resident_bytes() / 2**20:,.0f} MiB")))
        return go(tick=lambda done, total: bar.update(task, completed=done, total=total), meter=meter)


def _print(run: SystemRun, sys: AdmissionSystem) -> None:
    console = Console()
    table = Table(title=f"{escape(run.system)} ({sys.model.requesters} requesters), bound {run.bound}",
                  title_justify="left")
    for col in ("query", "kind", "verdict", "passes"):
        table.add_column(col)
    for q in sys.queries:
        v = run.verdict(q.name)
        what = f"found (length {v.length})" if isinstance(v, Reached) else verdict_name(v)
        table.add_row(q.name, q.kind.value, what, "yes" if passes(q, v) else "[red]no[/red]")
    print_table(console, table)
    for q in sys.queries:
        v = run.verdict(q.name)
        if isinstance(v, Reached):
            head = "attack" if q.kind is QueryKind.FORBIDDEN else "shortest trace"
            console.print(f"[bold]{q.name}[/bold]: {head}: " + escape(" ; ".join(v.trace)), highlight=False)
    console.print(f"explicit: {run.states} states, {run.transitions} transitions, depth {run.depth}, "
                  f"{run.seconds:.2f} s, visited set: {run.mode}"
                  + (f" (collision probability {run.collision:.1e})" if run.mode == "fingerprint" else ""),
                  highlight=False)
    if run.unknown is not None:
        console.print(f"[yellow]{escape(run.unknown.describe())}[/yellow]", highlight=False)
