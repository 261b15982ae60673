"""``agentwarrant edit``: check execution edits (execution-edit-checking.md, Section V-C5).

``edit check INSTANCE.json [--engine declarative|explicit|symbolic] [--json] [--budget B]`` prints
the verdict, the counts (|B̂₀|, |B̂†|, |W†|, states of Can), the rounds |B̂₀|, |B̂₁|, … (every engine
computes them), and on rejection the proof. Exit status: 0 accepted, 1 rejected or invalid, 2 bad
input, 3 Unknown (the budget ran out; progress is shown on a terminal meanwhile).
``edit session DB run SCRIPT.json [--json]`` registers a session script's call model in a new SQLite
store and drives the runtime through its steps, one answer per line (exit 1 if a step's ``expect``
differs); ``edit session DB show`` prints the committed state, including the rule versions with
their phases (an inactive version holds content prepared by a ``preload`` step).
"""

from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path

import click

from model.budget import Budget, Unknown
from model.canonical import JSON, canonical_str, loads
from model.cliutil import budget_option, metered_progress
from model.edits.check import check
from model.edits.contract import show_outcome
from model.edits.load import load_instance
from model.edits.resolve import Word
from model.edits.verdict import Accepted, Engine, Invalid, Rejected, verdict_json
from model.errors import InputKind, InvalidInput
from model.exitcodes import EPILOG, Exit

SHOW = 20


def _w(word: Word) -> str:
    return " ".join(str(a) for a in word) or "ε"


@click.group()
def cli() -> None:
    """Execution edits: exact checking and the durable runtime."""


@cli.command("check", epilog=EPILOG)
@click.argument("instance", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--engine", type=click.Choice([e.value for e in Engine]), default=Engine.SYMBOLIC.value,
              show_default=True, help="Which fixed-point engine decides the instance.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as canonical JSON.")
@budget_option()
def check_cmd(instance: Path, engine: str, as_json: bool, budget: Budget) -> None:
    """Decide whether an edit instance is safe: Accepted(Can), Rejected(proof), Invalid or Unknown.

    Exit 0 accepted; 1 rejected (with its proof) or invalid (with the reason); 2 bad input; 3 the
    budget ran out (states count product states for symbolic, linearizations for explicit,
    linearizations and subsets for declarative)."""
    inst = load_instance(instance)
    with metered_progress(f"edit check ({engine})") as progress:
        verdict = check(inst, Engine(engine), budget=budget, progress=progress)
    if isinstance(verdict, Unknown):
        if as_json:
            click.echo(canonical_str(verdict.to_json()))
        else:
            click.echo(f"Unknown: {verdict.describe()} (budget {verdict.budget})")
        sys.exit(Exit.UNKNOWN)
    if as_json:
        click.echo(canonical_str(verdict_json(verdict)))
    elif isinstance(verdict, Invalid):
        click.echo(f"Invalid ({verdict.reason.value}): {verdict.detail}")
        click.echo(f"digest {verdict.digest}")
    else:
        _show(verdict, engine)
    sys.exit(Exit.HOLDS if isinstance(verdict, Accepted) else Exit.FAILS)


def _show(verdict: Accepted | Rejected, engine: str) -> None:
    c = verdict.counts
    click.echo(f"{'Accepted' if isinstance(verdict, Accepted) else 'Rejected'} by the {engine} engine")
    click.echo(f"digest {verdict.digest}")
    click.echo(f"candidates |B0| = {c.candidates}, safe |B†| = {c.safe}, prefixes |W†| = {c.prefixes}, "
               f"automaton states = {c.states}")
    click.echo("rounds " + " ".join(str(n) for n in c.rounds or ()))
    if isinstance(verdict, Accepted):
        click.echo("safe completions:")
        shown = list(islice(verdict.automaton.completions(), SHOW + 1))
        for o, y in shown[:SHOW]:
            click.echo(f"  [{show_outcome(o)}] {_w(y)}")
        if len(shown) > SHOW:
            click.echo(f"  … ({c.safe - SHOW} more)")
        return
    click.echo("rejection proof:")
    click.echo("  B0: " + "; ".join(f"[{show_outcome(o)}] {_w(y)}" for o, y in verdict.proof.candidates))
    for i, e in enumerate(verdict.proof.rounds):
        for r in e:
            click.echo(f"  E{i}: remove [{show_outcome(r.outcome)}] {_w(r.word)} — at prefix {_w(r.prefix)} "
                       f"outcome {show_outcome(r.missing)} has no remaining completion")


@cli.group("session")
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def session_group(ctx: click.Context, db: Path) -> None:
    """Drive the durable edit runtime stored in DB (SQLite) from a JSON session script."""
    ctx.obj = db


@session_group.command("run")
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print each answer as canonical JSON.")
@click.pass_obj
def session_run(db: Path, script: Path, as_json: bool) -> None:
    """Register the script's call model in a new store DB, run every step and print each answer.

    Exit status: 0 when every step gave its expected answer, 1 otherwise, 2 on bad input."""
    from model.edits.session import load_session, run_session

    sess = load_session(script)
    if db.exists() or not db.parent.is_dir():
        raise InvalidInput(str(db), "a path where a new store can be created",
                           "an existing file" if db.exists() else "no such directory", InputKind.IO)
    bad: list[int] = []

    def echo(i: int, answer: JSON, mismatch: str | None) -> None:
        if mismatch is not None:
            bad.append(i)
        text = canonical_str(answer) if as_json else _brief(answer)
        click.echo(f"{i:3d} {text}" + (f"   <-- {mismatch}" if mismatch else ""))

    run_session(sess, str(db), echo)
    sys.exit(1 if bad else 0)


@session_group.command("show")
@click.pass_obj
def session_show(db: Path) -> None:
    """Print the committed state of the store: workflow, versions, log, queue, checkpoints."""
    from model.edits.runtime import NoRecord, Runtime
    from model.edits.tree import show_node

    if not db.exists():
        raise InvalidInput(str(db), "an existing store file", "no such file", InputKind.IO)
    try:
        rt = Runtime(str(db))
    except NoRecord:
        raise InvalidInput(str(db), "a store created by 'edit session DB run'", "no execution record",
                           InputKind.VALUE) from None
    s = rt.state()
    rt.close()
    click.echo(f"domain {s.domain}, state version {s.ver}, rule version {s.eta}, policy version {s.policy_version}")
    click.echo("workflow " + (show_node(s.tree) if s.tree is not None else "-"))
    prepared = dict(s.prepared)
    click.echo("versions " + (" ".join(f"{v}:{ph}" + (f"[{loads(prepared[v].edit, '<store>')['edit']}]"
                                                       if v in prepared else "") for v, ph in s.versions) or "-"))
    click.echo("processed " + (" ".join(f"{p.mode.value}({p.call},{p.action})" for p in s.processed) or "ε"))
    click.echo("log " + (" ".join(f"{r.id}:{r.action}/{r.label}[{r.phase}]" for r in s.log) or "ε"))
    click.echo("queue " + (" ".join(f"{o.record}{'(sent)' if o.sent else ''}" for o in s.out) or "ε"))
    click.echo("checkpoints " + (" ".join(f"{k}={c.branch}" for k, c in s.checkpoints) or "-"))


def _brief(a: JSON) -> str:
    assert isinstance(a, dict)
    kind = a["answer"]
    if kind in ("accepted", "rejected", "invalid"):
        e = a["edit"]
        assert isinstance(e, dict)
        names = " ".join(str(v) for k, v in sorted(e.items()) if k != "edit" and isinstance(v, str))
        extra = f" ({a['reason']}: {a['detail']})" if kind == "invalid" else \
            f" -> {a['to']}, {a['completions']} completions" if kind == "accepted" else ""
        return f"{kind} {e['edit']} {names}{extra}  γ={str(a['digest'])[:12]}"
    # Values print as canonical JSON (null, true), never as Python reprs, so a line can be pasted back.
    rest = " ".join(f"{k}={v if isinstance(v, str) else canonical_str(v)}" for k, v in sorted(a.items())
                    if k != "answer")
    return f"{kind} {rest}"
