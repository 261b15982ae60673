"""``agentwarrant search MODEL.json [--engine explicit|smt|both] [--bound K] [--json]``: bounded analysis of a
finite model (our design for the missing Section 8 of Agenra; see ``model/search/run.py``).

Prints, per query, each engine's verdict (with the shortest length), the replay of every found trace
on the reference tools, the useful completions of each goal, and the explicit engine's counts. A
progress bar (stderr, transient) follows the layers of the explicit search and the unrollings of the
SMT one, on a terminal only. ``--budget`` bounds the whole search (time and/or transitions explored); what
it could not decide is Unknown. Exit status: 0 when the search passes (engines agree, every replay
reproduces, no forbidden execution, every goal reached), 1 for a finding (not an error), 2 for bad
input, 3 when the budget ran out before every query was decided, or the chosen engine cannot answer a
query (``Unsupported``: outside its fragment), and nothing was found.

The explicit engine is, by default, the compiled integer-encoded search (``model/search/native/intcode.py``)
where it is built and covers the model, else the interpreted one; ``--interpreted`` asks for the latter.
Both give the same verdicts, shortest traces and completions; the encoded one explores without sleep sets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskID, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from model.base.budget import Budget, Spent, resident_bytes
from model.base.canonical import JSON, canonical_str
from model.base.errors import InputKind, InvalidInput
from model.base.exitcodes import EPILOG, Exit
from model.dist.cluster import cluster_options, connect, wanted
from model.shell.display import print_table
from model.shell.options import budget_option

if TYPE_CHECKING:
    from model.search.explicit import ExplicitRun
    from model.search.model import SearchModel
    from model.search.run import SearchReport

console = Console()
err_console = Console(stderr=True)


def _short(answer: object) -> str:
    from model.base.budget import Unknown
    from model.search.search_verdict import Exhausted, Found, Unsupported, Vacuous

    if isinstance(answer, Found):
        return f"found (length {answer.length})"
    if isinstance(answer, Exhausted):
        return f"exhausted (bound {answer.bound})"
    if isinstance(answer, Vacuous):
        return f"vacuous (bound {answer.bound})"
    if isinstance(answer, Unsupported):
        return f"unsupported: {answer.reason}"
    if isinstance(answer, Unknown):
        return f"unknown ({answer.limit} budget exhausted)"
    return "-"


@click.command(epilog=EPILOG)
@click.argument("model_path", metavar="MODEL.json", type=click.Path(dir_okay=False))
@click.option("--engine", type=click.Choice(["explicit", "smt", "both"]), default="both", show_default=True)
@click.option("--bound", type=click.IntRange(0, 64), default=None, help="Steps to explore (default: the model's).")
@click.option("--policy", "policy_path", type=click.Path(dir_okay=False), default=None,
              help="Search under this policy instead of the one the model names.")
@click.option("--no-replay", is_flag=True, help="Do not replay found traces on the reference tools.")
@click.option("--no-reduction", is_flag=True,
              help="Explore every interleaving (no sleep sets): the state counts corpus/search/manifest.json records.")
@click.option("--interpreted", is_flag=True,
              help="Run the interpreted explicit engine (with sleep sets unless --no-reduction) even where the "
                   "compiled integer-encoded search covers the model (same verdicts, traces and completions).")
@click.option("--fingerprint", is_flag=True,
              help="Keep 64-bit fingerprints of visited states instead of the states (far less memory; the "
                   "result reports the collision probability; per partition on a cluster).")
@click.option("--symmetry", is_flag=True,
              help="A generic system model: store one state per orbit of the symmetry it declares (the admission "
                   "model's interchangeable requesters); verdicts and shortest lengths are the unreduced ones.")
@budget_option()
@cluster_options()
@click.option("--backend", type=click.Choice(["python", "lean"]), default="python", show_default=True,
              help="The monitor semantics of the explicit engine's transitions: the Python monitor, or the "
                   "compiled Lean core (decision and step; in-process where `make lean` built the library).")
@click.option("--json", "as_json", is_flag=True, help="Machine output: one canonical JSON object.")
def cli(model_path: str, engine: str, bound: int | None, policy_path: str | None, no_replay: bool,
        no_reduction: bool, interpreted: bool, fingerprint: bool, symmetry: bool, budget: Budget, scheduler: str | None,
        workers: int | None, backend: str, as_json: bool) -> None:
    """Search MODEL.json for forbidden executions and useful completions up to a bound.

    Exit 1 when a forbidden execution is found, a goal is not reached, the engines disagree or a replay
    fails; 3 when the budget ran out before some query was decided or the engine cannot answer a query
    (outside its fragment; the query is named).
    With --scheduler or --workers the explicit engine (for a system model, its own engine) runs partitioned
    on a Dask cluster (same results)."""
    from model.base.canonical import load_file
    from model.search.load import load_model
    from model.search.system.admission import is_system_file

    lean = backend == "lean"
    if lean and (fingerprint or wanted(scheduler, workers)):
        raise InvalidInput("--backend", "python with --fingerprint, --workers or --scheduler (the Lean backend runs "
                           "the exact single-process explicit engine)", backend, InputKind.VALUE)
    if is_system_file(load_file(model_path)):  # a generic system model: its own engine (model/search/system)
        from model.shell.commands.search_system_cmd import run_cli

        if lean:
            raise InvalidInput("--backend", "python for a generic system model (it has no Lean semantics)", backend,
                               InputKind.VALUE)
        run_cli(model_path, engine, bound, policy_path, scheduler, workers, fingerprint, budget, as_json, symmetry)
        return
    if symmetry:
        raise InvalidInput("--symmetry", "a generic system model that declares a symmetry (a monitor model "
                           "declares none)", model_path, InputKind.VALUE)
    model = load_model(model_path, policy_path)
    if lean:
        from functools import partial

        from model.oracle.backend import LeanBackendError
        from model.oracle.lean_step import LeanSemantics
        from model.search.explicit import explore

        try:
            semantics = LeanSemantics(model.policy)
            try:
                rep = _run(model, engine, bound, no_replay, no_reduction, budget,
                           partial(explore, semantics=semantics))
            finally:
                semantics.close()
        except LeanBackendError as exc:
            err_console.print(f"[red]error:[/red] the Lean backend failed: {escape(str(exc))}", highlight=False,
                              soft_wrap=True)
            raise SystemExit(Exit.UNKNOWN) from None
    elif not wanted(scheduler, workers):
        from model.search.fingerprint import explore_fingerprint
        from model.search.native.intcode import explore_auto

        rep = _run(model, engine, bound, no_replay, no_reduction, budget,
                   explore_fingerprint if fingerprint else None if interpreted else explore_auto)
    else:
        from functools import partial

        from model.dist.cluster import WorkerLost
        from model.dist.search import explore_distributed

        try:
            with connect(scheduler, workers, budget.seconds) as client:
                rep = _run(model, engine, bound, no_replay, no_reduction, budget,
                           partial(explore_distributed, client, fingerprints=fingerprint))
        except WorkerLost as exc:
            err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
            raise SystemExit(Exit.UNKNOWN) from None
    if as_json:
        click.echo(canonical_str(report_json(rep)))
    else:
        _print(rep)
    if rep.disagreements or rep.spurious or rep.findings():
        raise SystemExit(Exit.FAILS)
    if rep.unknown or rep.unanswered:
        raise SystemExit(Exit.UNKNOWN)


def _run(model: SearchModel, engine: str, bound: int | None, no_replay: bool, no_reduction: bool, budget: Budget,
         explorer: Callable[..., ExplicitRun] | None) -> SearchReport:
    from model.search.explicit import explore
    from model.search.run import Engine, search

    how = explore if explorer is None else explorer
    if not sys.stderr.isatty():
        rep = search(model, bound, Engine(engine), not no_replay, None, budget, reduction=not no_reduction,
                     explorer=how)
    else:
        with Progress(TextColumn("{task.description:<10}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn(),
                      TextColumn("{task.fields[states]}"), console=err_console, transient=True) as progress:
            tasks: dict[str, TaskID] = {}
            worked = {"states": ""}

            def tick(name: str, done: int, total: int) -> None:
                if name not in tasks:
                    tasks[name] = progress.add_task(name, total=total, states="")
                progress.update(tasks[name], completed=done, total=total, states=worked["states"])

            def spent(used: Spent) -> None:
                rate = used.states / used.seconds if used.seconds > 0 else 0.0
                worked["states"] = (f"{used.states:,} transitions  {rate:,.0f}/s  "
                                    f"{resident_bytes() / 2**20:,.0f} MiB")

            rep = search(model, bound, Engine(engine), not no_replay, tick, budget, spent,
                         reduction=not no_reduction, explorer=how)
    return rep


def report_json(rep: object) -> dict[str, JSON]:
    from model.search.compare import Agreement, Disagreement
    from model.search.run import SearchReport
    from model.search.search_verdict import answer_json, trace_json
    from model.search.trace_replay import Reproduced

    assert isinstance(rep, SearchReport)
    m = rep.model
    out: dict[str, JSON] = {"model": m.name, "policy": m.policy.name, "bound": rep.bound, "passed": rep.passed,
                            "findings": list(rep.findings()), "unknown": list(rep.unknown),
                            "unanswered": {q: why for q, why in rep.unanswered}}
    if rep.explicit is not None:
        e = rep.explicit
        out["explicit"] = {
            "states": e.states, "transitions": e.transitions, "depth": e.depth, "seconds": round(e.seconds, 3),
            "reduction": e.reduced, "mode": e.mode, "engine": e.engine, "collision_probability": e.collision,
            "budget": e.unknown.to_json() if e.unknown is not None else None,
            "queries": {n: answer_json(m, v) for n, v in e.verdicts},
            "completions": {n: [trace_json(m, t) for t in ts] for n, ts in e.completions},
        }
    if rep.smt is not None:
        out["smt"] = {"seconds": round(rep.smt.seconds, 3),
                      "queries": {n: answer_json(m, a) for n, a in rep.smt.answers}}
    out["comparison"] = [{"query": c.query, "agree": isinstance(c, Agreement),
                          "skipped": not isinstance(c, Agreement | Disagreement)} for c in rep.comparison]
    out["replays"] = [{"query": r.query, "source": r.source, "reproduced": isinstance(r.result, Reproduced),
                       "detail": list(r.result.effects) if isinstance(r.result, Reproduced) else r.result.reason}
                      for r in rep.replays]
    return out


def _print(rep: object) -> None:
    from model.search.compare import report as disagreement_report
    from model.search.run import SearchReport
    from model.search.search_verdict import Found, describe
    from model.search.trace_replay import Reproduced

    assert isinstance(rep, SearchReport)
    m = rep.model
    # escape: model, query and completion names are the user's text, never rich markup
    table = Table(title=f"{escape(m.name)} under {m.policy.name}, bound {rep.bound}", title_justify="left")
    for col in ("query", "kind", "explicit", "smt", "replay"):
        table.add_column(col)
    for q in m.queries:
        ex = _short(rep.explicit.verdict(q.name)) if rep.explicit is not None else "-"
        sm = _short(rep.smt.answer(q.name)) if rep.smt is not None else "-"
        reps = [r for r in rep.replays if r.query == q.name and r.source != "completion"]
        rp = "-" if not reps else ("reproduced" if all(isinstance(r.result, Reproduced) for r in reps)
                                   else "[red]spurious[/red]")
        table.add_row(escape(q.name), q.kind.value, escape(ex), escape(sm), rp)
    print_table(console, table)
    for q in m.queries:
        v = rep.explicit.verdict(q.name) if rep.explicit is not None else None
        if v is None and rep.smt is not None:
            v = rep.smt.answer(q.name)  # type: ignore[assignment]
        if isinstance(v, Found):
            console.print(f"[bold]{escape(q.name)}[/bold]: shortest trace", highlight=False)
            for line in describe(m, v.trace):
                console.print(f"  {escape(line)}", highlight=False)
    if rep.explicit is not None:
        for name, traces in rep.explicit.completions:
            console.print(f"[bold]{escape(name)}[/bold]: {len(traces)} distinct useful completions", highlight=False)
            for i, t in enumerate(traces, 1):
                console.print(f"  completion {i}:", highlight=False)
                for line in describe(m, t):
                    console.print(f"    {escape(line)}", highlight=False)
        e = rep.explicit
        console.print(f"explicit: {e.states} states, {e.transitions} transitions, depth {e.depth}, "
                      f"{e.seconds:.2f} s{' (sleep sets)' if e.reduced else ''}, visited set: {e.mode}, "
                      f"successors: {e.engine}"
                      + (f" (collision probability {e.collision:.1e})" if e.mode == "fingerprint" else ""),
                      highlight=False)
        if e.unknown is not None:
            console.print(f"[yellow]explicit: {escape(e.unknown.describe())}; completions may be incomplete[/yellow]",
                          highlight=False)
    if rep.smt is not None:
        console.print(f"smt: {rep.smt.seconds:.2f} s", highlight=False)
    for d in rep.disagreements:
        console.print(f"[red]{escape(disagreement_report(m, d))}[/red]", highlight=False)
    for r in rep.spurious:
        assert not isinstance(r.result, Reproduced)
        console.print(f"[red]spurious {r.source} trace for {r.query}: {escape(r.result.reason)}[/red]", highlight=False)
    from model.shell.verdict_text import search_sentence

    console.print(escape(search_sentence(rep)), highlight=False, soft_wrap=True)
    for name in rep.unknown:
        console.print(f"[yellow]{escape(name)}: unknown (budget exhausted)[/yellow]", highlight=False)
    for name, why in rep.unanswered:
        console.print(f"[yellow]{escape(name)}: unknown (no engine can answer it: {escape(why)})[/yellow]",
                      highlight=False, soft_wrap=True)
