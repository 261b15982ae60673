"""``agentwarrant drt``: a differential-testing campaign of the Python model against the Lean oracle.

``agentwarrant drt --replay`` needs no Lean: it replays every golden vector of corpus/vectors/
against the Python model, comparing with the oracle answer recorded in the vector, and exits 1 on
any disagreement (model/oracle/vectors.py).

``agentwarrant drt --cases N [--judgment J ...] [--seed S] [--no-build]`` runs N generated cases
per judgment (by default every judgment but the session ones, edit_runtime and edit_ideal) with a
progress bar, prints every mismatch in full (each is also saved under corpus/vectors/), and ends
with a summary table: cases, comparisons, skips with their reasons, mismatches, seconds, and what both
sides answered. Exit status: 0 no mismatch,
1 some mismatch, 3 no oracle can be found or built, or it failed (it cannot be started, gave no answer
within ``--oracle-timeout`` or ``--budget``, answered what is not an answer, or exited): one line on
stderr says why; the question is out of reach, not bad input (``model/base/exitcodes.py``). The table still
shows what ran before a fault. With ``--scheduler``/``--workers`` each worker's oracle has the
per-answer timeout, and ``--budget`` is refused (a deadline is this process's clock, not a worker's).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import NoReturn

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from model.base.budget import Budget
from model.base.errors import InputKind, InvalidInput
from model.base.exitcodes import EPILOG, Exit
from model.dist.cluster import cluster_options, wanted
from model.oracle import generators
from model.oracle.drt import ENGINES, VECTORS, Summary, campaign, report
from model.oracle.inproc import InProcOracle, open_oracle
from model.oracle.lean import JUDGMENTS, READ_TIMEOUT, SESSION_JUDGMENTS, OracleError, one_line
from model.oracle.library import build as build_library
from model.oracle.results import Mismatch, Skip
from model.oracle.toolchain import build_oracle, find_toolchain, missing_reason, oracle_path
from model.shell.display import print_table
from model.shell.options import budget_option

console = Console()
# Progress goes to stderr and only to a terminal: stdout carries the report, which users pipe or diff.
err_console = Console(stderr=True)


@click.command("drt", epilog=EPILOG)
@click.option("--cases", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Generated cases per judgment (monitor_step: runs of up to six calls).")
@click.option("--judgment", "judgments", type=click.Choice(JUDGMENTS + SESSION_JUDGMENTS), multiple=True,
              help="Judgment(s) to test (default: all but the session judgments edit_runtime and edit_ideal).")
@click.option("--seed", type=int, default=None,
              help="Seed of the cases (drawn and printed when not given): the campaign and each case are reproducible.")
@click.option("--engine", type=click.Choice(ENGINES), default="direct", show_default=True,
              help="How cases are drawn from the strategies: direct (a seeded random.Random per case, fast; "
                   "model/oracle/direct.py) or hypothesis (its generate phase).")
@click.option("--case", "case_index", type=click.IntRange(min=0), default=None,
              help="With --seed and the direct engine: run only case number CASE (the replay a mismatch prints).")
@click.option("--no-build", is_flag=True, help="Use the oracle executable as built; do not run leanpkg.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write the summary as OUT/tables/drt_campaign.{csv,md} (per judgment, then per rule kind).")
@click.option("--replay", is_flag=True,
              help="Without Lean: replay corpus/vectors/ against the Python model and the recorded oracle answers.")
@budget_option(Budget())
@click.option("--oracle-timeout", type=click.FloatRange(min=0, min_open=True), default=READ_TIMEOUT, show_default=True,
              help="Seconds to wait for each answer of the oracle process; past it, or past --budget (the campaign "
                   "is bounded by --cases without one), the campaign stops with exit 3.")
@cluster_options()
@click.option("--shards", type=click.IntRange(min=1), default=None,
              help="With --scheduler/--workers: shards per judgment (default: 4 per worker); shard i runs with "
                   "seed SEED*1000003+i.")
def cli(cases: int, judgments: tuple[str, ...], seed: int | None, engine: str, case_index: int | None,
        no_build: bool, out_dir: Path | None, replay: bool, budget: Budget, oracle_timeout: float,
        scheduler: str | None, workers: int | None, shards: int | None) -> None:
    """Compare the Python model with the Lean oracle on generated inputs.

    With --scheduler or --workers each judgment's cases are split into shards run on a Dask cluster, one
    oracle process per worker (model/dist/shard.py)."""

    if replay:
        _replay()
        return
    first = 0
    if case_index is not None:
        if seed is None or engine != "direct":
            raise InvalidInput("--case", "--seed S and the direct engine with it (a case is (seed, index))",
                               str(case_index), InputKind.VALUE)
        cases, first = 1, case_index
    tc = find_toolchain()
    if tc is not None and not no_build:
        build_oracle(tc)
        build_library(tc)  # (the in-process library is built from the same modules: keep it in step)
    elif not oracle_path().is_file():
        why = (f"{missing_reason()}, and no oracle executable at {oracle_path()}" if tc is None
               else f"no oracle executable at {oracle_path()} (build it with `make lean`, or drop --no-build)")
        click.echo(f"drt: unknown: cannot run: {why}", err=True)
        sys.exit(Exit.UNKNOWN)
    strategies = generators
    chosen = judgments or JUDGMENTS
    summaries: list[Summary] = []

    def show(m: Mismatch) -> None:
        console.print(escape(report(m)), highlight=False, soft_wrap=True)

    oracle_where = f"{oracle_path()}, one per worker"
    if wanted(scheduler, workers):
        if not budget.unlimited:  # a deadline is this process's clock, not a worker's
            raise InvalidInput("--budget", "no budget with --scheduler or --workers (each worker's oracle has "
                               "--oracle-timeout)", budget.spec(), InputKind.VALUE)
        summaries = _sharded(chosen, cases, seed, scheduler, workers, shards, oracle_timeout)
        for s in summaries:
            for m in s.mismatches:
                show(m)
    else:
        deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        try:
            oracle = open_oracle(timeout=oracle_timeout, deadline=deadline)
        except OracleError as exc:
            _fault(str(exc))
        with oracle, Progress(TextColumn("{task.description:<16}"), BarColumn(), MofNCompleteColumn(),
                              TimeElapsedColumn(), console=err_console, disable=not sys.stderr.isatty()) as progress:
            for j in chosen:
                task = progress.add_task(j, total=cases)

                def tick(done: int, total: int, _task: TaskID = task) -> None:
                    progress.update(_task, completed=done, total=total)

                summaries.append(campaign(j, cases, oracle, strategies, seed, tick, show, engine=engine,
                                          first=first))
                if summaries[-1].fault:
                    break  # (the process was given up: the other judgments are not asked)
    oracle_where = f"{'in-process ' if isinstance(oracle, InProcOracle) else ''}{oracle.exe}"
    table = Table(title=f"DRT: Python model vs Lean oracle ({oracle_where})")
    for col in ("judgment", "cases", "compared", "skipped", "mismatches", "seconds"):
        table.add_column(col, no_wrap=True)
    for s in summaries:
        table.add_row(s.judgment, str(s.cases), str(s.compared), str(sum(s.skipped.values())),
                      str(len(s.mismatches)), f"{s.seconds:.1f}")
    print_table(console, table)
    seeds = sorted({s.seed for s in summaries if s.seed is not None})
    if seeds and not wanted(scheduler, workers):
        console.print(f"cases drawn with seed {', '.join(map(str, seeds))} ({engine} engine)")
    for s in summaries:
        for reason, n in s.skipped.items():
            console.print(f"{s.judgment}: skipped {n}: {escape(reason)}", soft_wrap=True)
        kinds = ", ".join(f"{k} {n}" for k, n in s.kinds.most_common())
        console.print(f"{s.judgment}: both sides answered: {escape(kinds)}", soft_wrap=True)
        if s.coverage:
            hits = ", ".join(f"{k} {n}" for k, n in sorted(s.coverage.items()))
            console.print(f"{s.judgment}: steps reaching each rule kind: {escape(hits)}", soft_wrap=True)
    if out_dir is not None:
        for path in _write_table(out_dir, summaries, cases, seed, judgments):
            console.print(f"wrote {path}")
    total = sum(len(s.mismatches) for s in summaries)
    faults = [s for s in summaries if s.fault]
    if total:
        console.print(f"{total} mismatch(es); inputs saved under {VECTORS}:")
        for s in summaries:
            for p in s.vectors:
                console.print(f"  {p}")
        for s in summaries:
            for case_seed, i in s.replays:
                console.print(f"replay: agentwarrant drt --judgment {s.judgment} --seed {case_seed} --case {i}")
        if faults:  # the mismatches are witnesses whatever came after them; the fault is said too
            _fault(f"{faults[0].judgment}: {faults[0].fault}", exit_code=Exit.FAILS)
        sys.exit(Exit.FAILS)
    if faults:
        _fault(f"{faults[0].judgment}: after {faults[0].cases} case(s): {faults[0].fault}")
    console.print("0 mismatches")


def _fault(message: str, exit_code: Exit = Exit.UNKNOWN) -> NoReturn:
    """One line on stderr for an oracle fault (the campaign could not finish: unknown), and the exit."""
    what = "unknown" if exit_code == Exit.UNKNOWN else "stopped after the mismatches above"
    click.echo(f"drt: {what}: the campaign stopped at the Lean oracle: {one_line(message, 1000)}", err=True)
    sys.exit(exit_code)


def _write_table(out_dir: Path, summaries: list[Summary], cases: int, seed: int | None,
                 judgments: tuple[str, ...]) -> list[Path]:
    from model.base.tables import write_table

    rows: list[list[object]] = []
    for s in summaries:
        rows.append([s.judgment, "(all)", s.cases, s.compared, sum(s.skipped.values()), len(s.mismatches),
                     f"{s.seconds:.0f}"])
        for kind, n in sorted(s.kinds.items()):
            rows.append([s.judgment, f"answer {kind}", "", n, "", "", ""])
        for kind, n in sorted(s.coverage.items()):
            rows.append([s.judgment, f"reached {kind}", "", n, "", "", ""])
    header = ["judgment", "row", "cases", "compared", "skipped", "mismatches", "seconds"]
    return write_table(out_dir, "drt_campaign", header, rows,
                       f"DRT campaign: {cases} generated cases per judgment (seed {seed}); per judgment the totals, "
                       "then how many comparisons (monitor: steps) gave each answer and reached each rule kind. "
                       f"Regenerate: agentwarrant drt{''.join(f' --judgment {j}' for j in judgments)} --cases {cases} "
                       f"--seed {seed} --out paper_figures")


def _replay() -> None:
    from model.oracle.vectors import replay_all

    results = replay_all()
    bad = [(p, r) for p, r in results if isinstance(r, Mismatch)]
    skipped = [(p, r) for p, r in results if isinstance(r, Skip)]
    for path, m in bad:
        console.print(f"{path.name}:", highlight=False)
        console.print(escape(report(m)), highlight=False, soft_wrap=True)
    for path, sk in skipped:
        console.print(f"{path.name}: skipped: {escape(sk.reason)}", soft_wrap=True)
    console.print(f"replayed {len(results)} vector(s) from {VECTORS} against the Python model: "
                  f"{len(results) - len(bad) - len(skipped)} agree with the recorded oracle answer, "
                  f"{len(skipped)} skipped, {len(bad)} mismatch(es)")
    if bad:
        sys.exit(Exit.FAILS)


def _sharded(chosen: tuple[str, ...], cases: int, seed: int | None, scheduler: str | None, workers: int | None,
             shards: int | None, oracle_timeout: float) -> list[Summary]:
    import random
    from functools import partial

    from model.base.paths import repo_root
    from model.dist.cluster import connect
    from model.dist.driver import workers_of
    from model.dist.shard import lean_oracle, sharded_campaign

    base = seed if seed is not None else random.SystemRandom().randrange(2**31)
    out: list[Summary] = []
    with connect(scheduler, workers) as client, Progress(
            TextColumn("{task.description:<16}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=err_console, disable=not sys.stderr.isatty()) as progress:
        n = shards if shards is not None else 4 * len(workers_of(client))
        console.print(f"drt: {n} shards per judgment on {len(workers_of(client))} workers, seed {base}")
        for j in chosen:
            task = progress.add_task(j, total=cases)

            def tick(done: int, total: int, _task: TaskID = task) -> None:
                progress.update(_task, completed=done, total=total)

            out.append(sharded_campaign(client, j, cases, base, n, repo_root(), partial(lean_oracle, oracle_timeout),
                                        tick=tick))
    return out
