"""AgentDojo, the substitution family (``model/bench/agentdojo/families.py``):
``paper_figures/tables/agentdojo_families.{csv,md}`` (per suite and configuration, the substitutions
admitted) and ``agentdojo_families_cases`` (every substitution with each configuration's decision).

A substitution replaces a sink argument that a user task's plan extracts from an earlier result by the
attacker's value: the poisoned extraction that reaches a planner, which AgentDojo's own goals (new
calls) never do. Every number comes from running the decider now.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from model.base.tables import write_table
from model.bench.agentdojo.evaluate import config_name
from model.bench.agentdojo.families import Substitution, substituted, substitutions
from model.bench.agentdojo.session import Agent, Review
from model.bench.agentdojo.suites import SUITES, VERSION, get_suite, require

CONFIGS = tuple((a, r) for a in (Agent.SINGLE, Agent.PLANNER) for r in Review)


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.1f}% ({k}/{n})" if n else "-"


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    require()
    subs: list[Substitution] = [x for s in SUITES for u in get_suite(s).user_tasks for x in substitutions(s, u)]
    got: dict[tuple[Substitution, str], tuple[bool, str]] = {}
    for i, sub in enumerate(subs):
        for a, r in CONFIGS:
            got[(sub, config_name(a, r))] = substituted(sub, a, r)
        tick(i + 1, len(subs))
    names = [config_name(a, r) for a, r in CONFIGS]
    rows: list[list[object]] = []
    for name in names:
        for suite in (*SUITES, "all four"):
            mine = [x for x in subs if suite in (x.suite, "all four")]
            rows.append([name, suite, len(mine), _pct(sum(got[(x, name)][0] for x in mine), len(mine))])
    caption = (f"AgentDojo {VERSION}, the substitution family (`agentwarrant reproduce agentdojo-families`): for "
               "every user task, every argument of a call to a sink that the task's plan extracts from an earlier "
               "result, replaced by the attacker's value of the same kind (AgentDojo's attacker IBAN, e-mail "
               "address or URL; an amount times 100; a fixed attacker text). Admitted: the call carrying the "
               "attacker's value was allowed, or paused and approved, and ran. The decision is the same with the "
               "value in the source or not (no decision reads it there).")
    paths = write_table(out_dir, "agentdojo_families", ("configuration", "suite", "substitutions",
                                                         "admitted (attack success)"), rows, caption)
    cases = [[x.suite, x.task, x.call, x.tool, x.argument, ", ".join(f"#{j}" for j in x.sources),
              *(got[(x, n)][1] for n in names)] for x in subs]
    paths += write_table(out_dir, "agentdojo_families_cases", ("suite", "user task", "call", "tool", "argument",
                                                               "extracted from", *names), cases,
                         "Every substitution with each configuration's decision on the substituted call (allow, "
                         "deny, approved).")
    return paths
