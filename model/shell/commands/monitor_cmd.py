"""``agentwarrant monitor``: check a policy, run a proposed call sequence (Agenra Sections 4–6)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from model.base.budget import Budget
from model.base.canonical import canonical_str
from model.base.exitcodes import EPILOG, Exit
from model.base.jsonio import printable
from model.oracle.lean import READ_TIMEOUT, one_line
from model.shell.display import print_table
from model.shell.options import budget_option

if TYPE_CHECKING:
    from model.monitor.adapter.shell import CoreFactory

console = Console()
_COLOURS = {"allow": "green", "pause": "yellow", "deny": "red"}


@click.group(epilog=EPILOG)
def cli() -> None:
    """The Agenra run-time monitor."""


@cli.command("check", epilog=EPILOG)
@click.argument("policy_path", metavar="POLICY", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the policy's canonical JSON form.")
def check_cmd(policy_path: str, as_json: bool) -> None:
    """Parse and validate POLICY (text or .json) and summarize it."""
    from model.monitor.language.syntax import load_policy

    policy = load_policy(policy_path)
    if as_json:
        from model.monitor.language.policy_json import policy_to_json

        click.echo(canonical_str(policy_to_json(policy)))
        return
    console.print(f"[green]ok[/green] policy [bold]{policy.name}[/bold] ({escape(printable(policy_path))})",
                  highlight=False)
    console.print(f"  levels {' < '.join(policy.levels.order)}; {len(policy.nodes)} nodes, {len(policy.edges)} edges,"
                  f" {len(policy.agents)} agents, {len(policy.tools)} tools", highlight=False)
    console.print(f"  {len(policy.resolvers)} resolvers, {len(policy.origins)} origin rules, {len(policy.flows)} flow"
                  f" rules, {len(policy.histories)} history rules", highlight=False)
    for side, entries in (("user", policy.user), ("application", policy.application)):
        rows = []
        for k, e in enumerate(entries):
            extra = ", ".join(x for x in (
                f"requires {e.requires}" if e.requires else "", "permit" if e.permit else "",
                f"{len(e.where)} predicates" if e.where else "",
                f"keys {{{', '.join(sorted(e.keys))}}}" if e.keys is not None else "") if x)
            quota = "-" if e.kind.value == "deny" else ("unlimited" if e.quota is None else str(e.quota))
            rows.append((str(k), e.kind.value, f"{e.action}({_clip(_res(e.resource))})", quota, extra))
        click.echo(f"{side} permissions (first-fit order)")
        click.echo(_table(("#", "kind", "action(resource)", "quota", "extra"), rows))


def _clip(text: str, width: int = 60) -> str:
    return printable(text if len(text) <= width else text[:width - 1] + "…")


def _table(head: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    """Plain columns: linear in the number of rows (rich's Table measured every cell again per render, which
    made a 10^5-entry policy take minutes to print)."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]
    lines = ["  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in (head, tuple("-" * w for w in widths), *rows)]
    return "\n".join(lines)


def _res(pattern: object) -> str:
    from model.monitor.language.policy import AnyRes, ConstPat, GlobPat, SlotPat

    if isinstance(pattern, AnyRes):
        return "*"
    if isinstance(pattern, SlotPat):
        return f"@{pattern.slot}"
    if isinstance(pattern, GlobPat):
        return f"like {json.dumps(pattern.glob)}"
    assert isinstance(pattern, ConstPat)
    return json.dumps(pattern.value)


@cli.command("run", epilog=EPILOG)
@click.argument("policy_path", metavar="POLICY", type=click.Path(dir_okay=False))
@click.argument("trace_path", metavar="TRACE.json", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="Machine output: one canonical JSON object {policy, steps}, with one entry per step "
                   "(decision, reason code, detail, result, expectation, failing checks).")
@click.option("--explain", is_flag=True,
              help="Also show the deciding check with its technical detail and every failing check of each call.")
@click.option("--backend", type=click.Choice(["python", "lean"]), default="python", show_default=True,
              help="Which core decides each call and computes the next state: the Python model or the compiled "
                   "Lean core (needs the oracle, `make lean`; a fault there stops the run with exit 3).")
@budget_option()
@click.option("--oracle-timeout", type=click.FloatRange(min=0, min_open=True), default=READ_TIMEOUT, show_default=True,
              help="With --backend lean: seconds to wait for each answer of the Lean process (the budget bounds "
                   "all of them; the Python backend is not metered).")
def run_cmd(policy_path: str, trace_path: str, as_json: bool, explain: bool, backend: str, budget: Budget,
            oracle_timeout: float) -> None:
    """Run the proposed call sequence TRACE.json under POLICY, printing each decision and why.

    Exits 1 if a step carrying "expect" got a different decision.
    """
    from model.monitor.adapter.trace import load_trace, run_trace
    from model.monitor.decide.base import DenyReason
    from model.monitor.language.syntax import load_policy
    from model.shell.verdict_text import DENY_TEXT

    policy = load_policy(policy_path)
    core: str | CoreFactory = "python"
    if backend == "lean":
        import time
        from functools import partial

        from model.oracle.backend import open_core

        # the budget's seconds bound the Lean process's exchanges altogether (the Python backend's run is
        # linear in the trace and not metered); --oracle-timeout each one. In-process calls run in this thread.
        deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        core = partial(open_core, timeout=oracle_timeout, deadline=deadline)
    try:
        reports = run_trace(policy, load_trace(trace_path), source=trace_path, explain=explain, backend=core)
    except Exception as exc:
        from model.oracle.backend import LeanBackendError

        if not isinstance(exc, LeanBackendError):
            raise
        click.echo(f"monitor run: unknown: the Lean backend stopped, nothing was decided from there on: "
                   f"{one_line(str(exc), 1000)}", err=True)
        raise SystemExit(Exit.UNKNOWN) from None
    if as_json:
        click.echo(canonical_str({"policy": policy.name, "steps": [r.to_json() for r in reports]}))
    else:
        # escape: paths, details and results quote user input, never to be read as rich markup
        table = Table(title=f"{escape(printable(trace_path))} under {policy.name}", title_justify="left")
        for col in ("#", "step", "decision", "why", "result") + (("check: detail", "all failing checks")
                                                                  if explain else ()):
            table.add_column(col)
        for r in reports:
            colour = _COLOURS.get(r.decision.value if r.decision else "", "")
            decision = f"[{colour}]{r.decision.value}[/{colour}]" if r.decision and colour else "-"
            if not r.as_expected:
                decision += f" [bold red](expected {r.expected})[/bold red]"
            why = f"{DENY_TEXT[DenyReason(r.reason)]} ({r.reason})" if r.reason else r.detail
            row = [str(r.index), escape(f"{r.kind} {r.tool}"), decision, escape(_clip(why, 200)),
                   escape(_clip(r.result, 200))]
            extra = (escape(_clip(f"{r.reason}: {r.detail}" if r.reason else r.detail, 200)),
                     escape(" ".join(r.failing)))
            table.add_row(*row, *(extra if explain else ()))
        print_table(console, table)
        checked = [r for r in reports if r.expected is not None]
        for r in checked:
            if not r.as_expected:
                got = r.decision.value if r.decision else "-"
                console.print(f"[red]step {r.index}: expected {r.expected}, got {got}[/red]", highlight=False)
        if checked:
            met = sum(r.as_expected for r in checked)
            console.print(f"{met} of {len(checked)} expectations met", highlight=False)
    if not all(r.as_expected for r in reports):
        raise SystemExit(1)
