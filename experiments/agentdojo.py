"""AgentDojo under the monitor, offline: ``paper_figures/tables/agentdojo.{csv,md}``, the
case list ``agentdojo_cases.{csv,md}``, the bounded search ``agentdojo_search.{csv,md}`` and the figure
``paper_figures/agentdojo.png``.

Every number of ours comes from running ``model.bench.agentdojo`` now: AgentDojo's ground-truth
calls through the monitor on AgentDojo's environments, judged by AgentDojo's checks (see
``model/bench/agentdojo/evaluate.py`` for what is counted and what is set apart). The peers' figures
are quoted from their papers, marked as reported by them; they come from LLM agents, ours from
ground-truth replay, a different method (stated in the caption). ``AGENTDOJO_TASKS=N`` limits each
suite to its first N user tasks (for a quick look; the committed tables use every task).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from model.bench.agentdojo.evaluate import (
    CONFIGS,
    Apart,
    SuiteResult,
    breach_reason,
    breaches,
    evaluate_suite,
    refusals,
)
from model.bench.agentdojo.finite import derive_model
from model.bench.agentdojo.suites import SUITES, VERSION, get_suite, require, suite_policy
from model.search.run import Engine, search
from model.search.verdict import Found, describe, verdict_name
from model.tables import write_table

HEADER = ("source", "configuration", "suite", "method", "user tasks measured", "utility", "pairs measured",
          "attack success", "utility under attack", "apart: goal needs no call", "apart: no ground truth",
          "apart: misses goal unmonitored", "apart: check fails unmonitored", "measured with our ground truth")

# (system, method, utility, attack success) as their authors report them on AgentDojo with LLM agents.
PEERS = (
    ("CaMeL", "LLM agent planning in a capability interpreter", "77%", "provable security (no successful attack)"),
    ("Agenra prototype", "LLM agent behind the Agenra monitor (without -> with)", "46.7% -> 63.3%", "33.0% -> 0.0%"),
    ("Progent", "LLM agent behind privilege policies (without -> with)", "-", "39.9% -> 1.0%"),
)

METHOD = "ground-truth replay, no LLM"

# The bounded search: one banking task, the tools its ground truth and the payment/password attacks use.
SEARCH_SUITE, SEARCH_TASK = "banking", "user_task_3"
SEARCH_TOOLS = ("read_file", "get_most_recent_transactions", "send_money", "update_password")
SEARCH_BOUND = 2


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.1f}% ({k}/{n})" if n else "-"


def _row(config: str, suite: str, results: list[SuiteResult]) -> list[object]:
    users = [u for r in results for u in r.measured_users()]
    pairs = [p for r in results for p in r.measured_pairs()]
    n_users = sum(len(r.users) for r in results)
    n_pairs = sum(len(r.pairs) for r in results)
    done = sum(u.run(config).completed() for u in users)
    reached = sum(p.run(config).passed for p in pairs)
    useful = "-" if config == "no monitor" else _pct(sum(p.run(config).completed() for p in pairs), len(pairs))
    method = METHOD + ("" if config == "no monitor" else ", " + config.split(", ", 1)[1])
    apart = [sum(len(r.apart_pairs(a)) for r in results) for a in (Apart.TEXT_ONLY, Apart.NO_GROUND_TRUTH,
                                                                   Apart.MISSES_GOAL)]
    text_reached = sum(p.run(config).passed for r in results for p in r.apart_pairs(Apart.TEXT_ONLY))
    return ["measured here", config.split(", ")[0], suite, method, f"{len(users)}/{n_users}", _pct(done, len(users)),
            f"{len(pairs)}/{n_pairs}", _pct(reached, len(pairs)), useful,
            f"{apart[0]} (reached {text_reached})", apart[1], apart[2],
            sum(u.apart is Apart.CHECK_FAILS for r in results for u in r.users), sum(p.ours for p in pairs)]


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    require()
    limit = int(os.environ.get("AGENTDOJO_TASKS", "0")) or None
    users = {s: list(get_suite(s).user_tasks)[:limit] for s in SUITES}
    total = sum(len(u) * (1 + len(get_suite(s).injection_tasks)) for s, u in users.items()) + 1
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        tick(done, total)

    results = [evaluate_suite(s, users=users[s], tick=step) for s in SUITES]
    configs = ["no monitor", *(c.name for c in CONFIGS)]
    rows = [_row(c, r.suite, [r]) for c in configs for r in results]
    rows += [_row(c, "all four", results) for c in configs]
    rows += [["reported by them", name, "all four", method, "-", util, "-", asr, "-", "-", "-", "-", "-", "-"]
             for name, method, util, asr in PEERS]
    caption = (
        f"AgentDojo {VERSION} offline (`agentwarrant reproduce agentdojo`). Ours: every user task's ground-truth "
        "calls through the monitor on AgentDojo's environment (utility = AgentDojo's utility check passes and no "
        "call was refused), and for every (user task, injection task) pair the user task's calls then the "
        "injection task's, as an agent that always obeys the injection (attack success = AgentDojo's security "
        "check finds the goal reached). 'no monitor' is the same replay unmonitored: 100% attack success by "
        "construction. Pairs whose goal needs no tool call, injection tasks shipped without ground-truth calls "
        "and ground truths that miss their goal unmonitored are counted apart; for the 8 workspace injection tasks "
        "AgentDojo ships without ground-truth calls, ours (model/bench/agentdojo/ground_truths.py) stand in where "
        "AgentDojo's security check confirms them unmonitored (last column). Method difference: the peers' "
        "rows are reported by them for LLM agents, where many injections fail on their own and utility depends "
        "on the model; ours replay scripted calls with no language model, so attack success is an upper bound "
        "for an obeying agent and utility measures only what the policy refuses. Not comparable one-to-one.")
    paths = write_table(out_dir, "agentdojo", HEADER, rows, caption)
    paths += _cases(out_dir, results)
    paths += _search(out_dir)
    step()
    paths.append(_figure(out_dir, results))
    return paths


def _cases(out_dir: Path, results: list[SuiteResult]) -> list[Path]:
    rows: list[list[object]] = []
    for c in CONFIGS:
        for r in results:
            for task, s in refusals(r, c.name):
                rows.append([c.name, r.suite, "legitimate call refused", task, "-", s.tool, s.describe()])
            for p, steps in breaches(r, c.name):
                rows.append([c.name, r.suite, "injection goal reached", p.user, p.injection,
                             " ; ".join(s.describe() for s in steps) or "-", breach_reason(steps)])
    for r in results:
        for u in r.users:
            if u.apart is not Apart.NONE:
                rows.append(["-", r.suite, "user task set apart", u.task, "-", "-", u.apart.value])
        for p in r.pairs:
            if p.apart is not Apart.NONE:
                missed = [s.describe() for s in p.run("no monitor").steps if s.phase == "injection"]
                rows.append(["-", r.suite, "pair set apart", p.user, p.injection, " ; ".join(missed) or "-",
                             p.apart.value])
    caption = ("Every refused legitimate call (user tasks without an attack) and every injection goal reached "
               "under the monitor, with the monitor's reason, the label of admitted calls and the stored results "
               "each argument was taken from (`arg<-tool#record`); then every task and pair set apart, with why.")
    return write_table(out_dir, "agentdojo_cases", ("configuration", "suite", "case", "user task", "injection task",
                                                     "calls", "reason"), rows, caption)


def _search(out_dir: Path) -> list[Path]:
    rows: list[list[object]] = []
    for variant, name in (("weak", "weak control (flows ignore labels)"), ("", "suite policy")):
        model = derive_model(SEARCH_SUITE, SEARCH_TASK, suite_policy(SEARCH_SUITE, variant), SEARCH_TOOLS,
                             SEARCH_BOUND)
        rep = search(model, engine=Engine.EXPLICIT, do_replay=False)
        assert rep.explicit is not None
        for q in model.queries:
            v = rep.explicit.verdict(q.name)
            rows.append([name, model.policy.name, q.name, q.kind.value, SEARCH_BOUND, verdict_name(v),
                         v.length if isinstance(v, Found) else "-",
                         " ; ".join(describe(model, v.trace)) if isinstance(v, Found) else "-",
                         rep.explicit.states, f"{rep.explicit.seconds:.1f}"])
    caption = (f"Bounded search (explicit engine) on the finite model derived from AgentDojo {SEARCH_SUITE}, "
               f"{SEARCH_TASK} (model/bench/agentdojo/finite.py): modelled tools {', '.join(SEARCH_TOOLS)} (one "
               "call each, the suite's other tools capped at zero), the injection points' attacker values as "
               "result fields. Forbidden queries: an attacker value delivered to a sink; goal: the task's payment.")
    return write_table(out_dir, "agentdojo_search", ("policy", "policy name", "query", "kind", "bound", "verdict",
                                                      "shortest length", "trace", "states", "seconds"), rows, caption)


def _figure(out_dir: Path, results: list[SuiteResult]) -> Path:
    """Utility and attack success per suite and configuration, ours measured; peers' reported values as
    horizontal marks (labelled as reported), so a reader sees the trade-off and the method gap at once."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = ["no monitor", *(c.name for c in CONFIGS)]
    suites = [r.suite for r in results] + ["all four"]

    def rate(config: str, rs: list[SuiteResult], kind: str) -> float:
        if kind == "utility":
            us = [u for r in rs for u in r.measured_users()]
            return 100.0 * sum(u.run(config).completed() for u in us) / max(1, len(us))
        ps = [p for r in rs for p in r.measured_pairs()]
        return 100.0 * sum(p.run(config).passed for p in ps) / max(1, len(ps))

    # peers' values as their papers report them (LLM agents): hatched grey bars after our groups
    peers = {"utility": [("CaMeL", 77.0), ("Agenra prototype, no monitor", 46.7), ("Agenra prototype", 63.3)],
             "attack success": [("Agenra prototype, no monitor", 33.0), ("Agenra prototype", 0.0),
                                ("Progent, no defence", 39.9), ("Progent", 1.0)]}
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    width = 0.8 / len(configs)
    for ax, kind in zip(axes, ("utility", "attack success"), strict=True):
        for i, c in enumerate(configs):
            vals = [rate(c, [r], kind) for r in results] + [rate(c, results, kind)]
            ax.bar([j + i * width for j in range(len(suites))], vals, width, label=f"{c} (measured here)")
        ticks = [j + width * (len(configs) - 1) / 2 for j in range(len(suites))]
        labels = list(suites)
        for k, (name, value) in enumerate(peers[kind]):
            x = len(suites) + 0.1 + k * 0.45
            ax.bar([x], [value], 0.35, color="lightgrey", hatch="//", edgecolor="grey",
                   label="reported by them (LLM agents)" if k == 0 else None)
            ax.text(x, value + 1.5, f"{value:g}", ha="center", fontsize=7)
            ticks.append(x)
            labels.append(name)
        ax.set_xticks(ticks, labels, rotation=35, ha="right", fontsize=7)
        ax.set_ylim(0, 105)
        ax.set_ylabel(f"{kind} (%)")
        ax.set_title(f"{kind}: ground-truth replay (ours) beside peers' reports", fontsize=9)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=len(names), fontsize=7)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    path = out_dir / "agentdojo.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
