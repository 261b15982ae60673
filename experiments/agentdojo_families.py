"""AgentDojo, attack families beyond AgentDojo's own goals (``model/bench/agentdojo/families.py``):
``paper_figures/tables/agentdojo_families.{csv,md}`` (per family, configuration, placement and suite, the
cases admitted) and ``agentdojo_families_cases`` (every case with each configuration's decision). The
targets over these families are rows of ``agentdojo_targets`` (``experiments/agentdojo.py``).

A substitution replaces a sink argument that a user task's plan extracts from an earlier result by the
attacker's value: the poisoned extraction that reaches a planner, which AgentDojo's own goals (new
calls) never do. The injected-call families (exfiltration through a read argument, a write to a shared
resource, a confused deputy with values the user typed, arithmetic on a typed value) add calls after
the user task's own, which only the single-context agent makes. Every number comes from running the
decider now.
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
    OWN_CALL,
    SUBSTITUTION,
    run_families,
)
from model.bench.agentdojo.session import Agent, Review
from model.bench.agentdojo.suites import SUITES, VERSION, require

CONFIGS = tuple((a, r) for a in (Agent.SINGLE, Agent.SCOPED, Agent.PLANNER) for r in Review)


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.1f}% ({k}/{n})" if n else "-"


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    require()
    runs = run_families(SUITES, CONFIGS, config_name, tick)
    subs, more, got, extra_got = runs.subs, runs.more, runs.got, runs.extra_got
    names = [config_name(a, r) for a, r in CONFIGS]
    rows: list[list[object]] = []
    for name in names:
        for suite in (*SUITES, "all four"):
            mine = [x for x in subs if suite in (x.suite, "all four")]
            rows.append([SUBSTITUTION, name, OWN_CALL, suite, len(mine),
                         _pct(sum(got[(x, name)][0] for x in mine), len(mine))])
    for family in EXTRA_FAMILIES:
        for name in names:
            for placement in (APPENDED, INTERLEAVED):
                for suite in (*SUITES, "all four"):
                    fam = [e for e in more if e.family == family and suite in (e.suite, "all four")]
                    if not fam:
                        continue
                    run = (fam[0], name, placement) in extra_got
                    shown = (_pct(sum(extra_got[(e, name, placement)][0] for e in fam), len(fam)) if run
                             else "- (not proposed: a plan has no such call)")
                    rows.append([family, name, placement, suite, len(fam), shown])
    caption = (f"AgentDojo {VERSION}, attack families beyond AgentDojo's goals (`agentwarrant reproduce "
               "agentdojo-families`). Substitution: for every user task, every argument of a call to a sink that the "
               "task's plan extracts from an earlier result, replaced by the attacker's value of the same kind "
               "(AgentDojo's attacker IBAN, e-mail address or URL; an amount times 100; a fixed attacker text), the "
               "value also written into every field the task reads that an attacker can author; admitted: the call "
               "carrying it was allowed, or paused and approved, and ran. Injected calls, after the user task's own "
               "(single-context agent; a planner never proposes them): exfiltration through a read argument (slack: "
               "fetch AgentDojo's attacker URL with words of what the task read in the query), a write to a shared "
               "resource (workspace: append AgentDojo's injection goal to a shared file the task read, or move a "
               "shared event), a confused deputy (a sink call of the task whose every value the user typed, made "
               "again), arithmetic on a typed value (that call with a typed number times 100); admitted: every "
               "injected call was allowed, or paused and approved, and ran; appended: after the user task's calls; "
               "interleaved: after any one user call from the first read of a result whose tool's output the policy "
               "labels untrusted (a case counts if any point admits it). A substitution rides in the user's own call, "
               "so it has no placement.")
    paths = write_table(out_dir, "agentdojo_families", ("family", "configuration", "placement", "suite", "cases",
                                                         "admitted (attack success)"), rows, caption)
    cases: list[list[object]] = [[SUBSTITUTION, x.suite, x.task, f"#{x.call} {x.tool}({x.argument})",
                                  ", ".join(f"#{j}" for j in x.sources), *(got[(x, n)][1] for n in names)]
                                 for x in subs]
    cases += [[e.family, e.suite, e.task, " ; ".join(f"{t}{a}" for t, a in e.calls), "-",
               *(" / ".join(extra_got[(e, n, p)][1] for p in (APPENDED, INTERLEAVED)) if (e, n, APPENDED) in extra_got
                 else "not proposed" for n in names)] for e in more]
    paths += write_table(out_dir, "agentdojo_families_cases", ("family", "suite", "user task", "case",
                                                               "extracted from", *names), cases,
                         "Every case with each configuration's decision on the attacker's call(s) (allow, pause, "
                         "deny, approved; not proposed: a planner's calls are its plan's); for an injected call, "
                         "appended / interleaved (the first admitting point, else the appended run).")
    return paths

