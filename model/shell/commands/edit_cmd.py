"""``agentwarrant edit``: check execution edits (*Exact Checking for Execution Edits*, Section V-C5).

``edit check INSTANCE.json [--engine declarative|explicit|symbolic] [--json] [--explain] [--budget B]``
prints the verdict as one sentence (model/shell/verdict_text.py), the rounds |B̂₀|, |B̂₁|, … (every engine
computes them), then the safe completions or the rejection proof round by round; ``--explain`` adds the
digest and the counts (|B̂₀|, |B̂†|, |W†|, states of Can). Exit status: 0 accepted, 1 rejected or invalid,
2 bad input, 3 Unknown (the budget ran out; progress is shown on a terminal meanwhile).
``edit session DB run SCRIPT.json [--json] [--key FILE]`` registers a session script's call model in a
new SQLite store (created exclusively) and drives the runtime through its steps, one answer per line
naming the step and the answer (model/edits/runtime/session_text.py;
exit 1 if a step's ``expect`` differs); dispatched requests go to the fake tool ``DB.outbox`` with
their idempotency keys. ``edit session DB resume SCRIPT.json`` continues a session that stopped (a
crash, a kill) from its last committed step. ``edit session DB show`` opens the store read-only,
runs SQLite's integrity check, re-derives the state from the journal and prints it, including the
rule versions with their phases (an inactive version holds content prepared by a ``preload`` step);
a store that fails any check is bad input (exit 2); a legend ends the output. The signing key is read
from ``--key FILE``, else ``DB.key`` (created 0600 by ``run``); it is never stored in DB.
``edit register WORKFLOW.json SCRIPT.json [--json]`` runs ``CheckReg`` (model/edits/runtime/checkreg.py):
the typed workflow LTS with its map λ against the call model registered by the session script. An
ill-typed workflow is bad input (exit 2, naming the JSON path); a refused registration prints its
reason and detail (exit 1); an accepted one prints the registered runs (exit 0).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from model.base.budget import Budget, Unknown
from model.base.canonical import JSON, canonical_str, loads
from model.base.errors import InputKind, InvalidInput
from model.base.exitcodes import EPILOG, Exit
from model.edits.check.answer import Accepted, Engine, Invalid, Rejected, verdict_json
from model.edits.check.checker import check
from model.edits.check.contract import show_outcome
from model.edits.check.load_instance import load_instance
from model.edits.check.resolve import Word
from model.shell.options import budget_option, metered_progress

if TYPE_CHECKING:
    from model.edits.runtime.outbox import Outbox

SHOW = 20


def _w(word: Word) -> str:
    return " ".join(str(a) for a in word) or "ε"


@click.group(epilog=EPILOG)
def cli() -> None:
    """Execution edits: exact checking and the durable runtime."""


@cli.command("check", epilog=EPILOG)
@click.argument("instance", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--engine", type=click.Choice([e.value for e in Engine]), default=Engine.SYMBOLIC.value,
              show_default=True, help="Which fixed-point engine decides the instance.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as canonical JSON.")
@click.option("--explain", is_flag=True, help="Also print the instance digest and the counts.")
@budget_option()
def check_cmd(instance: Path, engine: str, as_json: bool, explain: bool, budget: Budget) -> None:
    """Decide whether an edit instance is safe: Accepted (with its safe completions), Rejected (with a
    rejection proof), Invalid, or Unknown when the budget runs out (states count product states for
    symbolic, linearizations for explicit, linearizations and subsets for declarative)."""
    from model.shell.verdict_text import edit_sentence

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
        sys.exit(Exit.HOLDS if isinstance(verdict, Accepted) else Exit.FAILS)
    click.echo(f"{edit_sentence(verdict)} [{engine} engine]")
    if explain:
        click.echo(f"digest {verdict.digest}")
    if isinstance(verdict, Invalid):
        sys.exit(Exit.FAILS)
    c = verdict.counts
    click.echo("rounds " + " ".join(str(n) for n in c.rounds or ()))  # candidates left after each round
    if explain:
        click.echo(f"candidates |B0| = {c.candidates}, safe |B†| = {c.safe}, prefixes |W†| = {c.prefixes}, "
                   f"automaton states = {c.states}")
    if isinstance(verdict, Accepted):
        click.echo("safe completions ([outcome] then the calls, new(call,action) or reuse(call,action)):")
        shown = list(islice(verdict.automaton.completions(), SHOW + 1))
        for o, y in shown[:SHOW]:
            click.echo(f"  [{show_outcome(o)}] {_w(y)}")
        if len(shown) > SHOW:
            click.echo(f"  … ({c.safe - SHOW} more)")
    elif isinstance(verdict, Rejected):
        click.echo(f"rejection proof: the candidates shrink {' → '.join(str(n) for n in verdict.proof.sizes())}")
        click.echo("  candidates: " + "; ".join(f"[{show_outcome(o)}] {_w(y)}" for o, y in verdict.proof.candidates))
        for i, e in enumerate(verdict.proof.rounds):
            for r in e:
                where = f"after {_w(r.prefix)}" if r.prefix else "at the start"
                click.echo(f"  round {i}: remove [{show_outcome(r.outcome)}] {_w(r.word)} — {where}, "
                           f"outcome {show_outcome(r.missing)} would have no completion left")
    sys.exit(Exit.HOLDS if isinstance(verdict, Accepted) else Exit.FAILS)


@cli.command("register", epilog=EPILOG)
@click.argument("workflow", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the answer as canonical JSON.")
def register_cmd(workflow: Path, script: Path, as_json: bool) -> None:
    """Register a typed workflow (an LTS with its map λ) against a session script's call model (CheckReg)."""
    from model.base.jsonio import load_file
    from model.edits.runtime.checkreg import RegAccepted, check_reg
    from model.edits.runtime.session_script import load_session
    from model.edits.runtime.workflow import workflow_from_json

    w, lam = workflow_from_json(load_file(str(workflow)), str(workflow))
    answer = check_reg(w, lam, load_session(script).registration)
    if isinstance(answer, RegAccepted):
        if as_json:
            click.echo(canonical_str({"accepted": [[o, list(r)] for o, r in answer.runs]}))
        else:
            click.echo(f"registered: {len(answer.runs)} runs, one per workflow trace")
            for o, r in answer.runs:
                click.echo(f"  [{o}] {' '.join(r) or 'ε'}")
        sys.exit(Exit.HOLDS)
    if as_json:
        click.echo(canonical_str({"refused": answer.reason.value, "detail": answer.detail}))
    else:
        click.echo(f"refused ({answer.reason.value}): {answer.detail}")
    sys.exit(Exit.FAILS)


@cli.group("session", epilog=EPILOG)
@click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def session_group(ctx: click.Context, db: Path) -> None:
    """Drive the durable edit runtime stored in DB (SQLite) from a JSON session script."""
    ctx.obj = db


_KEY_HELP = "The runtime's signing key (PKCS#8 PEM, mode 0600). Default: DB.key, created by 'run'."


def _script_options(fn: Callable[..., None]) -> Callable[..., None]:
    """SCRIPT, --json and --key, shared by 'run' and 'resume'."""
    for option in reversed((click.argument("script", type=click.Path(dir_okay=False, path_type=Path)),
                            click.option("--json", "as_json", is_flag=True,
                                         help="Print each answer as canonical JSON."),
                            click.option("--key", "key", type=click.Path(dir_okay=False), default=None,
                                         help=_KEY_HELP),
                            click.pass_obj)):
        fn = option(fn)
    return fn


def _echo(as_json: bool, bad: list[int], steps: Sequence[dict[str, Any]]) -> Callable[[int, JSON, str | None], None]:
    from model.edits.runtime.session_text import line

    def echo(i: int, answer: JSON, mismatch: str | None) -> None:
        if mismatch is not None:
            bad.append(i)
        # answer 0 is the registration's; answer i > 0 is script step i - 1
        text = canonical_str(answer) if as_json else line(steps[i - 1] if i > 0 else None, answer)
        click.echo(f"{i:3d} {text}" + (f"   <-- {mismatch}" if mismatch else ""))
    return echo


def _outbox(db: Path, readonly: bool = False) -> Outbox:
    """``DB.outbox``, which a session store was run with: missing is bad input (a lost outbox would
    forget what was performed, and a resume would perform it again)."""
    from model.edits.runtime.outbox import Outbox

    path = str(db) + ".outbox"
    if not Path(path).is_file():
        raise InvalidInput(path, "the outbox this store was run with", "no such file", InputKind.IO)
    return Outbox(path, readonly=readonly)


@session_group.command("run", epilog=EPILOG)
@_script_options
def session_run(db: Path, script: Path, as_json: bool, key: str | None) -> None:
    """Register the script's call model in a new store DB, run every step and print each answer.

    Exit status: 0 when every step gave its expected answer, 1 otherwise, 2 on bad input (an existing
    DB included: continue an interrupted session with 'resume')."""
    from model.base.store.kinds import Mode, precheck
    from model.edits.runtime.outbox import Outbox
    from model.edits.runtime.session_script import load_session, run_session
    from model.edits.runtime.store_schema import KIND

    sess = load_session(script)
    if db.exists():
        raise InvalidInput(str(db), "a path where a new store can be created",
                           "an existing file (continue an interrupted session with 'resume')", InputKind.IO)
    precheck(str(db), KIND, Mode.CREATE)  # the store's errors before the outbox's
    if Path(str(db) + ".outbox").exists():  # another store's, or a lost store's: never shared
        raise InvalidInput(str(db) + ".outbox", "a path where the new store's outbox can be created",
                           "an existing file", InputKind.IO)
    bad: list[int] = []
    tool = Outbox(str(db) + ".outbox")
    try:
        tool.lock(str(db))
        run_session(sess, str(db), _echo(as_json, bad, sess.steps), key_file=key, tool=tool)
    finally:
        tool.close()
    sys.exit(1 if bad else 0)


@session_group.command("resume", epilog=EPILOG)
@_script_options
def session_resume(db: Path, script: Path, as_json: bool, key: str | None) -> None:
    """Continue the session SCRIPT in the store DB it created, after a crash or a kill.

    Verifies the store and DB.outbox as 'show' does before anything else, then prints every step's
    answer (the recorded ones first), never runs a committed step again, and hands requests that were
    sent before the stop to the tool again under their idempotency keys (DB.outbox performs each key
    once). Another run or resume of the same store is refused ("store busy"). Exit status as for 'run'."""
    from model.base.store.kinds import Mode, precheck
    from model.edits.runtime.session_script import load_session, resume_session
    from model.edits.runtime.store_schema import KIND

    sess = load_session(script)
    precheck(str(db), KIND, Mode.OPEN)  # the store's errors before the outbox's
    bad: list[int] = []
    tool = _outbox(db)
    try:
        tool.lock(str(db))
        start, out = resume_session(sess, str(db), _echo(as_json, bad, sess.steps), key_file=key, tool=tool)
    finally:
        tool.close()
    click.echo(f"resumed at step {start} of {len(out) - 1}" if start < len(out) else
               "nothing to resume: every step had run", err=True)
    sys.exit(1 if bad else 0)


@session_group.command("show", epilog=EPILOG)
@click.option("--key", "key", type=click.Path(dir_okay=False), default=None, help=_KEY_HELP)
@click.pass_obj
def session_show(db: Path, key: str | None) -> None:
    """Print the committed state of the store: workflow, versions, log, queue, checkpoints.

    The store is opened read-only and verified first: SQLite's integrity check, then the state is
    re-derived from the journal (which needs the key) and compared with the stored state, every other
    table's signatures and counts are checked, and so is DB.outbox against the store. A store or outbox
    that fails a check (damaged, edited by hand, foreign, missing, of another schema version) is bad
    input: exit 2. A session run stopped between creating the store and binding its outbox is shown
    as it is, with a first line saying so ('resume' completes it).
    A legend of the notation ends the output."""
    from model.edits.runtime.runtime import Runtime
    from model.edits.runtime.session_script import attach
    from model.edits.runtime.session_text import LEGEND
    from model.edits.runtime.tree import show_node

    rt = Runtime(str(db), key_file=key, readonly=True)
    bound = True
    try:
        s = rt.verify()
        if rt.script is not None:  # a session store: its outbox must be the one it was run with
            tool = _outbox(db, readonly=True)
            try:
                bound = attach(rt, tool, s, bind=False)
            finally:
                tool.close()
    finally:
        rt.close()
    if not bound:  # what 'resume' completes: shown as it is, never bound by a reader
        click.echo(f"stopped at its start: {db}.outbox is not yet bound to this store (nothing was sent); "
                   "'resume' binds it and runs the script's steps")
    click.echo(f"domain {s.domain}, state version {s.ver}, rule version {s.eta}, policy version {s.policy_version}")
    click.echo("workflow " + (show_node(s.tree) if s.tree is not None else "-"))
    prepared = dict(s.prepared)

    def edit_of(v: str) -> str:
        return f"[{loads(prepared[v].edit, f'{db}: prepared version {v}')['edit']}]" if v in prepared else ""

    click.echo("versions " + (" ".join(f"{v}:{ph}{edit_of(v)}" for v, ph in s.versions) or "-"))
    click.echo("processed " + (" ".join(f"{p.mode.value}({p.call},{p.action})" for p in s.processed) or "ε"))
    click.echo("log " + (" ".join(f"{r.id}:{r.action}/{r.label}[{r.phase}]" for r in s.log) or "ε"))
    click.echo("queue " + (" ".join(f"{o.record}{'(sent)' if o.sent else ''}" for o in s.out) or "ε"))
    click.echo("checkpoints " + (" ".join(f"{k}={c.branch}" for k, c in s.checkpoints) or "-"))
    click.echo(LEGEND)
