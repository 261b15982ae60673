"""``agentwarrant edit``: check execution edits (execution-edit-checking.md, Section V-C5).

``edit check INSTANCE.json [--engine declarative|explicit|symbolic] [--json]`` prints the verdict,
the counts (|B̂₀|, |B̂†|, |W†|, states of Can), the rounds |B̂₀|, |B̂₁|, … when the engine computes
them, and on rejection the proof. Exit status: 0 accepted, 1 rejected or invalid, 2 bad input.
``edit`` is a group so the runtime commands of the next issue (``edit session``) can join it.
"""

from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path

import click

from model.canonical import canonical_str
from model.edits.check import check
from model.edits.contract import show_outcome
from model.edits.load import load_instance
from model.edits.resolve import Word
from model.edits.verdict import Accepted, Engine, Invalid, Rejected, verdict_json

SHOW = 20


def _w(word: Word) -> str:
    return " ".join(str(a) for a in word) or "ε"


@click.group()
def cli() -> None:
    """Execution edits: exact checking (and, later, the runtime)."""


@cli.command("check")
@click.argument("instance", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--engine", type=click.Choice([e.value for e in Engine]), default=Engine.SYMBOLIC.value,
              show_default=True, help="Which fixed-point engine decides the instance.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as canonical JSON.")
def check_cmd(instance: Path, engine: str, as_json: bool) -> None:
    """Decide whether an edit instance is safe: Accepted(Can), Rejected(proof) or Invalid."""
    inst = load_instance(instance)
    verdict = check(inst, Engine(engine))
    if as_json:
        click.echo(canonical_str(verdict_json(verdict)))
    elif isinstance(verdict, Invalid):
        click.echo(f"Invalid ({verdict.reason.value}): {verdict.detail}")
        click.echo(f"digest {verdict.digest}")
    else:
        c = verdict.counts
        click.echo(f"{'Accepted' if isinstance(verdict, Accepted) else 'Rejected'} by the {engine} engine")
        click.echo(f"digest {verdict.digest}")
        click.echo(f"candidates |B0| = {c.candidates}, safe |B†| = {c.safe}, prefixes |W†| = {c.prefixes}, "
                   f"automaton states = {c.states}")
        rounds = " ".join(str(n) for n in c.rounds) if c.rounds is not None else \
            "(not computed by this engine; use --engine explicit)"
        click.echo(f"rounds {rounds}")
        if isinstance(verdict, Accepted):
            click.echo("safe completions:")
            shown = list(islice(verdict.automaton.completions(), SHOW + 1))
            for o, y in shown[:SHOW]:
                click.echo(f"  [{show_outcome(o)}] {_w(y)}")
            if len(shown) > SHOW:
                click.echo(f"  … ({c.safe - SHOW} more)")
        elif isinstance(verdict, Rejected):
            click.echo("rejection proof:")
            click.echo("  B0: " + "; ".join(f"[{show_outcome(o)}] {_w(y)}" for o, y in verdict.proof.candidates))
            for i, e in enumerate(verdict.proof.rounds):
                for r in e:
                    click.echo(f"  E{i}: remove [{show_outcome(r.outcome)}] {_w(r.word)} — at prefix {_w(r.prefix)} "
                               f"outcome {show_outcome(r.missing)} has no remaining completion")
    sys.exit(0 if isinstance(verdict, Accepted) else 1)
