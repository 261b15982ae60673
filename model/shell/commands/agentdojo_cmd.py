"""``agentwarrant agentdojo SUITE USER_TASK [INJECTION_TASK]``: replay one AgentDojo task (or pair)
through the monitor and print every call with the monitor's decision, its reason and where each
argument came from (``replay``), then AgentDojo's verdict. ``--agent`` picks the agent model
(single-context, planner, or the oracle upper bound), ``--review`` the review model; ``--plan`` prints
the planner's plan of the user task instead.

Exit codes (``model.base.exitcodes``): for a user task alone, 0 when it is completed under the monitor and
1 when it is not (the refused calls are the witness); for a pair, 0 when the injection goal is not
reached and 1 when it is (the admitted injection calls are the witness); 2 for an unknown suite or
task, or when the ``agentdojo`` extra is not installed.

One command is meant to answer in well under a second of CPU. AgentDojo's checks import ``deepdiff``,
which imports ``pandas`` and ``numpy`` if it can (pandas about a third of the command's CPU, numpy
a tenth) only to hash DataFrames and arrays; AgentDojo's environments hold none, so when none of them
is loaded yet the command imports ``deepdiff`` with both marked absent (``deepdiff`` then treats them
as not installed) and takes the marks away again at once, so other code in the same process (the
library API, a notebook) still imports them.
The suites' own loading is made light in ``model.bench.agentdojo.suites``.
"""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.markup import escape

from model.base.errors import InputKind, InvalidInput
from model.base.exitcodes import EPILOG, Exit
from model.bench.agentdojo.plans import describe
from model.bench.agentdojo.suites import SUITES, get_suite, suite_policy
from model.bench.agentdojo.task_replay import Agent, Review, Run, run_pair, run_user_task
from model.bench.agentdojo.variants import VARIANTS

console = Console()


def _task(kind: str, ids: list[str], given: str) -> None:
    if given not in ids:
        raise InvalidInput(kind, f"one of {', '.join(ids)}", given, InputKind.REFERENCE)


def _print(run: Run) -> None:
    for s in run.steps:
        marks = {"allow": "[green]allow[/green]", "approved": "[yellow]approved[/yellow]", "unmonitored": "ran"}
        mark = marks.get(s.decision, f"[red]{s.decision}[/red]")
        console.print(f"{s.phase:9} {mark} {escape(s.describe())}", highlight=False, soft_wrap=True)


@click.command("agentdojo", epilog=EPILOG)
@click.argument("suite", type=click.Choice(SUITES))
@click.argument("user_task")
@click.argument("injection_task", required=False)
@click.option("--policy", "policy_variant", default=None, show_default=False,
              help="Policy: the suite policy (default), a variant such as 'weak', or 'none' (unmonitored).")
@click.option("--agent", "agent_name", type=click.Choice(["single", "scoped", "planner", "oracle"]),
              default="single", show_default=True,
              help="The agent model (scoped: single-context with the plan's task quotas; oracle: the upper bound, "
                   "with the benchmark's knowledge).")
@click.option("--review", "review_name", type=click.Choice(["none", "rubber", "aware"]), default="none",
              show_default=True, help="The review model answering a Pause: none, rubber-stamp, provenance-aware.")
@click.option("--plan", "show_plan", is_flag=True, help="Print the planner's plan of the user task and exit.")
@click.option("--variant", type=click.Choice(VARIANTS), default="direct", show_default=True,
              help="The injection text's variant (pairs only).")
@click.option("--at", "at", type=int, default=None,
              help="Interleave: the injection calls follow the user call at this index (default: appended).")
@click.option("--json", "as_json", is_flag=True, help="Print the steps and verdict as JSON.")
def cli(suite: str, user_task: str, injection_task: str | None, policy_variant: str | None, agent_name: str,
        review_name: str, show_plan: bool, variant: str, at: int | None, as_json: bool) -> None:
    """Replay an AgentDojo user task's ground truth (and an injection task's after it) through the monitor."""
    if policy_variant is not None and not policy_variant.strip():  # '' names nothing; omit --policy instead
        raise InvalidInput("--policy", "'none' or a variant name (omit --policy for the suite policy)",
                           "an empty name", InputKind.VALUE)
    policy_variant = policy_variant or ""
    _deepdiff_without_pandas()
    dojo = get_suite(suite)
    _task("user task", list(dojo.user_tasks), user_task)
    if injection_task is not None:
        _task("injection task", list(dojo.injection_tasks), injection_task)
    if show_plan:
        click.echo("\n".join(describe(suite, user_task)))
        sys.exit(Exit.HOLDS)
    policy = None if policy_variant == "none" else suite_policy(suite, policy_variant)
    agent = {"single": Agent.SINGLE, "scoped": Agent.SCOPED, "planner": Agent.PLANNER,
             "oracle": Agent.ORACLE}[agent_name]
    review = {"none": Review.NONE, "rubber": Review.RUBBER, "aware": Review.AWARE}[review_name]
    if injection_task is None:
        run = run_user_task(suite, user_task, policy, agent, review)
        holds, verdict = run.completed(), ("completed" if run.completed() else "not completed")
    else:
        run = run_pair(suite, user_task, injection_task, policy, agent, review, variant, at)
        holds, verdict = not run.passed, ("injection goal reached" if run.passed else "injection goal not reached")
    if as_json:
        out = {"suite": suite, "user_task": user_task, "injection_task": injection_task, "verdict": verdict,
               "utility": run.utility, "steps": [{"phase": s.phase, "tool": s.tool, "args": json.loads(s.args),
                                                  "decision": s.decision, "reason": s.reason, "detail": s.detail,
                                                  "outcome": s.outcome, "producers": list(s.producers),
                                                  "label": s.label, "injected": s.injected, "harm": s.harm}
                                                 for s in run.steps]}
        click.echo(json.dumps(out, indent=1, sort_keys=True))
    else:
        _print(run)
        console.print(f"{suite} {user_task}{' + ' + injection_task if injection_task else ''}: {verdict}"
                      f" (AgentDojo's utility check: {'passes' if run.utility else 'fails'})", highlight=False,
                      soft_wrap=True)
    sys.exit(Exit.HOLDS if holds else Exit.FAILS)


_ABSENT = ("pandas", "numpy")  # optional for deepdiff; AgentDojo's environments hold neither's values


def _deepdiff_without_pandas() -> None:
    """Import ``deepdiff`` with ``pandas`` and ``numpy`` marked absent, then unmark them (module
    docstring)."""
    if any(m in sys.modules for m in _ABSENT) or "deepdiff" in sys.modules:
        return
    for m in _ABSENT:
        sys.modules[m] = None  # type: ignore[assignment]
    try:
        import deepdiff.deephash  # noqa: F401
    except ImportError:
        pass  # (the agentdojo extra is missing: get_suite says so)
    finally:
        for m in _ABSENT:
            if m in sys.modules and sys.modules[m] is None:
                del sys.modules[m]
