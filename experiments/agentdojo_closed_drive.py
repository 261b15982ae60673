"""AgentDojo workspace, the user's own drive closed to untrusted data: ``paper_figures/tables/
agentdojo_closed_drive.{csv,md}``, what the option costs in utility and what it removes from the attack
families, against the suite policy, per deployable configuration.

In the suite policy (``corpus/agentdojo/workspace.policy``) creating a file, or appending to one that
no one else reads, is a write to the user's own drive and open to anything: a task that files what
it read (a summary into a new file, an item onto the user's own list) runs without review, and so
does a substitution that rides in such a call. ``workspace_closed_drive.policy`` pauses a write to the
drive that carries an untrusted value, as a mail does. Both are measured here rather than one picked:
utility (AgentDojo's utility check with no call refused, over the user tasks whose ground truth
passes it unmonitored) and the families of ``model/bench/agentdojo/families.py`` for workspace
(substitution in the user's own call; injected calls appended and interleaved). AgentDojo's own
injection goals are not rerun: closing a sink only adds a flow guard, so every call the closed policy
admits the suite policy admits too (a pause is approved by the same reviewer in both), and no attack
success can rise; ``agentwarrant reproduce agentdojo`` measures them under the suite policy.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from model.base.tables import write_table
from model.bench.agentdojo.evaluate import config_name
from model.bench.agentdojo.families import (
    APPENDED,
    EXTRA_FAMILIES,
    INTERLEAVED,
    SUBSTITUTION,
    extra_points,
    extra_run,
    extras,
    substituted,
    substitutions,
)
from model.bench.agentdojo.session import Agent, Review
from model.bench.agentdojo.suites import VERSION, get_suite, require, suite_policy
from model.bench.agentdojo.task_replay import run_user_task

SUITE = "workspace"
POLICIES = (("", "suite policy (own drive open)"), ("closed_drive", "own drive closed to untrusted data"))
CONFIGS = tuple((a, r) for a in (Agent.SINGLE, Agent.SCOPED, Agent.PLANNER) for r in (Review.NONE, Review.AWARE))


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.1f}% ({k}/{n})" if n else "-"


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    require()
    users = [u for u in get_suite(SUITE).user_tasks if run_user_task(SUITE, u, None).passed]
    subs = [x for u in get_suite(SUITE).user_tasks for x in substitutions(SUITE, u)]
    more = [x for u in get_suite(SUITE).user_tasks for x in extras(SUITE, u)]
    total, done = len(POLICIES) * len(CONFIGS), 0
    rows: list[list[object]] = []
    for variant, label in POLICIES:
        policy = suite_policy(SUITE, variant)
        for agent, review in CONFIGS:
            useful = sum(run_user_task(SUITE, u, policy, agent, review).completed() for u in users)
            row: list[object] = [label, config_name(agent, review), _pct(useful, len(users)),
                                 _pct(sum(substituted(x, agent, review, variant)[0] for x in subs), len(subs))]
            for family in EXTRA_FAMILIES:
                fam = [e for e in more if e.family == family]
                if not fam:
                    continue
                if not agent.single_context:
                    row.append("- (not proposed)")
                    continue
                appended = sum(extra_run(e, agent, review, None, variant)[0] for e in fam)
                inter = sum(any(extra_run(e, agent, review, k, variant)[0] for k in (*extra_points(e), None))
                            for e in fam)
                row.append(f"{_pct(appended, len(fam))} / {_pct(inter, len(fam))}")
            rows.append(row)
            done += 1
            tick(done, total)
    families = [f for f in EXTRA_FAMILIES if any(e.family == f for e in more)]
    caption = (f"AgentDojo {VERSION} workspace (`agentwarrant reproduce agentdojo-closed-drive`): the user's own "
               "drive open to anything (the suite policy) or closed to untrusted data (a write to the drive carrying "
               "an untrusted value pauses for the reviewer, `corpus/agentdojo/workspace_closed_drive.policy`), per "
               "deployable configuration. Utility: user tasks completed (AgentDojo's utility check, no call "
               "refused) over those whose ground truth passes unmonitored. Families (model/bench/agentdojo/"
               f"families.py): {SUBSTITUTION} (admitted: the call carrying the attacker's value ran); injected "
               f"calls appended / interleaved (a case counts if any point admits it; {APPENDED} and {INTERLEAVED} "
               "as in agentdojo_families). A planner proposes no injected call. AgentDojo's own goals are not "
               "rerun: the closed policy only adds a flow guard, so it admits no call the suite policy refuses.")
    return write_table(out_dir, "agentdojo_closed_drive",
                       ("policy", "configuration", "utility", f"{SUBSTITUTION} (admitted)",
                        *(f"{f} (appended / interleaved)" for f in families)), rows, caption)
