"""AgentDojo under the monitor, offline: ``paper_figures/tables/agentdojo.{csv,md}`` (headline per suite),
``agentdojo_attacks`` (every variant and placement), ``agentdojo_approvals`` (every user-task call that
needs a review, with its flow), ``agentdojo_cases`` (every injection that got through or did harm, and
every task or pair set apart), ``agentdojo_peers`` (the peers' figures with their citations),
``agentdojo_search`` (the bounded search) and ``paper_figures/agentdojo.png``.

Every number of ours comes from running ``model.bench.agentdojo`` now (see
``model/bench/agentdojo/evaluate.py`` for what is counted and what is set apart). ``AGENTDOJO_TASKS=N``
limits each suite to its first N user tasks (for a quick look; the committed tables use every task).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from model.base.tables import write_table
from model.bench.agentdojo.evaluate import (
    APPROVALS,
    EXACT,
    NONE,
    STRINGS,
    Apart,
    SuiteResult,
    breach_reason,
    evaluate_all,
)
from model.bench.agentdojo.finite import derive_model
from model.bench.agentdojo.suites import SUITES, VERSION, get_suite, require, suite_policy
from model.bench.agentdojo.variants import VARIANTS
from model.search.run import Engine, search
from model.search.search_verdict import Found, describe, verdict_name

PLACEMENTS = ("appended", "interleaved")
CONFIGS = (NONE, EXACT, STRINGS)

# (system, citation, benchmark version as stated, metric, undefended, defended)
PEERS = (
    ("CaMeL", "Debenedetti et al., Defeating Prompt Injections by Design, arXiv:2503.18813 (abstract)",
     "AgentDojo (version not stated in the abstract)", "utility (LLM agent)", "84%", "77%"),
    ("CaMeL", "Debenedetti et al., Defeating Prompt Injections by Design, arXiv:2503.18813 (abstract)",
     "AgentDojo (version not stated in the abstract)", "attack success", "-", "0 (provable security)"),
    ("Progent", "Shi et al., Progent: Programmable Privilege Control for LLM Agents, arXiv:2504.11703v1 (abstract)",
     "AgentDojo (version not stated in the abstract)", "attack success", "41.2%", "2.2%"),
)

SEARCH_SUITE, SEARCH_TASK = "banking", "user_task_3"
SEARCH_TOOLS = ("read_file", "get_most_recent_transactions", "send_money", "update_password")
SEARCH_BOUND = 2


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:.1f}% ({k}/{n})" if n else "-"


def _rate(rs: list[SuiteResult], config: str, variant: str, placement: str, harm: bool = False,
          writes: bool = False) -> tuple[int, int]:
    ms = [a for r in rs for _, a in r.measured(variant)]
    if config == NONE and placement == "interleaved":
        return 0, 0
    if placement == "interleaved" and config != EXACT:
        return 0, 0
    hit = sum((a.harmed(config, placement, writes) if harm else a.reached(config, placement)) for a in ms)
    return hit, len(ms)


def _worst(rs: list[SuiteResult], config: str, placement: str, harm: bool = False) -> str:
    rates = [(_rate(rs, config, v, placement, harm), v) for v in VARIANTS]
    (k, n), v = max(rates, key=lambda x: (x[0][0] / x[0][1] if x[0][1] else -1.0, x[1]))
    return f"{_pct(k, n)} [{v}]" if n else "-"


HEADER = ("configuration", "suite", "user tasks measured", "utility (no approvals)", "utility with approvals",
          "user tasks needing approval", "pairs measured (direct)", "attack success, worst variant, appended",
          "attack success, worst variant, interleaved", "harm, worst variant, appended",
          "harm, worst variant, interleaved", "apart: goal needs no call", "apart: misses goal unmonitored",
          "measured with our ground truth")


def _row(config: str, suite: str, rs: list[SuiteResult]) -> list[object]:
    users = [u for r in rs for u in r.measured_users()]
    done = sum(u.run(config).completed() for u in users)
    approved = [u for u in users if u.run(APPROVALS).approved()]
    with_app = sum(u.run(APPROVALS).completed() for u in users) if config == EXACT else None
    pairs = [p for r in rs for p in r.measured_pairs()]
    monitored = config != NONE
    return [config, suite, f"{len(users)}/{sum(len(r.users) for r in rs)}", _pct(done, len(users)),
            _pct(with_app, len(users)) if with_app is not None else "-",
            len(approved) if config == EXACT else "-", f"{len(pairs)}/{sum(len(r.pairs) for r in rs)}",
            _worst(rs, config, "appended"), _worst(rs, config, "interleaved") if config == EXACT else "-",
            _worst(rs, config, "appended", True) if monitored else "-",
            _worst(rs, config, "interleaved", True) if config == EXACT else "-",
            sum(len(r.apart_pairs(Apart.TEXT_ONLY)) for r in rs),
            sum(len(r.apart_pairs(Apart.MISSES_GOAL)) for r in rs),
            sum(p.ours for p in pairs)]


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

    results = evaluate_all(users, int(os.environ.get("AGENTDOJO_WORKERS", "2")), step)
    groups = [(r.suite, [r]) for r in results] + [("all four", results)]
    rows = [_row(c, name, rs) for c in CONFIGS for name, rs in groups]
    caption = (
        f"AgentDojo {VERSION} offline (`agentwarrant reproduce agentdojo`): ground-truth replay, no language model. "
        "Utility: user tasks whose ground truth passes AgentDojo's utility check with no call refused; with "
        "approvals, a call refused for its flow is reviewed and approved by the user (counted in 'needing "
        "approval', listed in agentdojo_approvals). Attack success: pairs whose injection goal AgentDojo's "
        "security check finds reached by an agent that obeys the injection, over the pairs it reaches "
        f"unmonitored; the worst of the variants {', '.join(VARIANTS)} (agentdojo_attacks has each), appended "
        "after the user task or interleaved after each user call from the first that read the injection (a pair "
        "counts if any placement reaches it). Harm: pairs where an admitted injection call changed the "
        "environment, whatever the goal check says (a read may: mail marked read, a page request logged; "
        "agentdojo_attacks separates the calls of tools that write). 'no monitor' reaches 100% by construction: "
        "it measures the ground truths, not a defence. Exact provenance: an argument depends on the results its "
        "task read "
        "(the injection task's on the injected result); string matching: on results holding the same text "
        "(the baseline). Peers are in agentdojo_peers, measured differently (LLM agents).")
    paths = write_table(out_dir, "agentdojo", HEADER, rows, caption)
    paths += _attacks(out_dir, groups)
    paths += _approvals(out_dir, results)
    paths += _cases(out_dir, results)
    paths += write_table(out_dir, "agentdojo_peers", ("system", "citation", "benchmark", "metric", "undefended",
                                                       "defended"), [list(p) for p in PEERS],
                         "Peers' figures on AgentDojo as their papers state them (LLM agents; not measured here and "
                         "not comparable one-to-one with a ground-truth replay), each with its undefended baseline.")
    paths += _search(out_dir)
    step()
    paths.append(_figure(out_dir, groups))
    return paths


def _attacks(out_dir: Path, groups: list[tuple[str, list[SuiteResult]]]) -> list[Path]:
    rows: list[list[object]] = []
    for name, rs in groups:
        for c in (EXACT, STRINGS):
            for v in VARIANTS:
                for pl in PLACEMENTS:
                    k, n = _rate(rs, c, v, pl)
                    if not n:
                        continue
                    h, _ = _rate(rs, c, v, pl, True)
                    w, _ = _rate(rs, c, v, pl, True, True)
                    ms = [a for r in rs for _, a in r.measured(v)]
                    useful = _pct(sum(a.run(c).completed() for a in ms), len(ms)) if pl == "appended" else "-"
                    points = sum(len(a.runs(c, pl)) for a in ms)
                    rows.append([name, c, v, pl, n, points, _pct(k, n), _pct(h, n), _pct(w, n), useful])
    caption = ("Attack success and harm per suite, provenance, variant and placement (pairs measured: those whose "
               "injection ground truth reaches its goal unmonitored with that variant; runs: pair runs, one per "
               "interleaving point, the last being the appended run). Harm: an admitted injection call changed the "
               "environment; by a write: the call's tool writes (its edge ends in a sink). The string-matching "
               "baseline is run appended only.")
    return write_table(out_dir, "agentdojo_attacks", ("suite", "provenance", "variant", "placement",
                                                       "pairs measured", "runs", "attack success", "harm",
                                                       "harm by a write", "utility under attack"), rows, caption)


def _approvals(out_dir: Path, results: list[SuiteResult]) -> list[Path]:
    rows: list[list[object]] = []
    for r in results:
        for u in r.measured_users():
            run = u.run(APPROVALS)
            for s in run.approved():
                rows.append([r.suite, u.task, s.tool, s.detail, ", ".join(s.producers) or "-"])
            for s in run.refused("user"):
                rows.append([r.suite, u.task, s.tool, f"refused, not reviewable: {s.reason} ({s.detail})",
                             ", ".join(s.producers) or "-"])
    caption = ("Every user-task call (no attack) the monitor refuses for its flow under exact provenance, which the "
               "user reviews and approves in the 'with approvals' utility: the tool, the flow rule it fails and the "
               "results its arguments were computed from. Any other refusal would be listed as not reviewable.")
    return write_table(out_dir, "agentdojo_approvals", ("suite", "user task", "tool", "flow", "computed from"),
                       rows, caption)


def _cases(out_dir: Path, results: list[SuiteResult]) -> list[Path]:
    rows: list[list[object]] = []
    for r in results:
        for p in r.pairs:
            for a in p.attacks:
                if a.apart is not Apart.NONE:
                    continue
                runs = [("appended", a.run(EXACT))] + [(f"interleaved after call {k}", x) for k, x in a.interleaved]
                for where, run in runs:
                    if not (run.passed or run.harm()):
                        continue
                    steps = tuple(s for s in run.steps if s.phase == "injection" and not s.refused)
                    what = "goal reached" if run.passed else "harm, goal not reached"
                    rows.append([r.suite, p.user, p.injection, a.variant, where, what,
                                 " ; ".join(s.describe() + (" [changed the environment]" if s.harm else "")
                                            for s in steps) or "-", breach_reason(steps)])
        for u in r.users:
            if u.apart is not Apart.NONE:
                rows.append([r.suite, u.task, "-", "-", "-", "user task set apart", "-", u.apart.value])
        for p in r.pairs:
            if p.apart is not Apart.NONE:
                rows.append([r.suite, p.user, p.injection, "direct", "-", "pair set apart", "-", p.apart.value])
    caption = ("Under exact provenance, every run (variant, placement) whose injection goal was reached or whose "
               "admitted injection calls changed the environment, with the admitted calls, their labels and the "
               "results their arguments were computed from; then every task and pair set apart, with why.")
    return write_table(out_dir, "agentdojo_cases", ("suite", "user task", "injection task", "variant", "placement",
                                                     "case", "admitted injection calls", "reason"), rows, caption)


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


def _figure(out_dir: Path, groups: list[tuple[str, list[SuiteResult]]]) -> Path:
    """Ours measured (utility; attack success, worst variant) in two panels; the peers' reported figures
    in a third panel of their own, so no measured bar shares axes with a quoted one."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def pct(k: int, n: int) -> float:
        return 100.0 * k / n if n else 0.0

    names = [n for n, _ in groups]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8), gridspec_kw={"width_ratios": [3, 3, 2]})
    util = {"exact, no approvals": [], "exact, with approvals": [], "string matching": []}
    for _, rs in groups:
        us = [u for r in rs for u in r.measured_users()]
        util["exact, no approvals"].append(pct(sum(u.run(EXACT).completed() for u in us), len(us)))
        util["exact, with approvals"].append(pct(sum(u.run(APPROVALS).completed() for u in us), len(us)))
        util["string matching"].append(pct(sum(u.run(STRINGS).completed() for u in us), len(us)))
    asr: dict[str, list[float]] = {"exact, appended": [], "exact, interleaved": [], "string matching, appended": []}
    for _, rs in groups:
        for key, c, pl in (("exact, appended", EXACT, "appended"), ("exact, interleaved", EXACT, "interleaved"),
                           ("string matching, appended", STRINGS, "appended")):
            asr[key].append(max(pct(*_rate(rs, c, v, pl)) for v in VARIANTS))
    for ax, data, title in ((axes[0], util, "utility (%), measured"),
                            (axes[1], asr, "attack success (%), worst variant, measured")):
        width = 0.8 / len(data)
        for i, (label, vals) in enumerate(data.items()):
            xs = [j + i * width for j in range(len(names))]
            ax.bar(xs, vals, width, label=label)
            for x, v in zip(xs, vals, strict=True):
                ax.text(x, v + 1, f"{v:.0f}", ha="center", fontsize=6)
        ax.set_xticks([j + width * (len(data) - 1) / 2 for j in range(len(names))], names, fontsize=8)
        ax.set_ylim(0, 105)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    peers = [("CaMeL utility\nundefended", 84.0), ("CaMeL utility", 77.0), ("Progent attack\nundefended", 41.2),
             ("Progent attack", 2.2)]
    axes[2].bar(range(len(peers)), [v for _, v in peers], color="lightgrey", hatch="//", edgecolor="grey")
    for i, (_, v) in enumerate(peers):
        axes[2].text(i, v + 1, f"{v:g}", ha="center", fontsize=7)
    axes[2].set_xticks(range(len(peers)), [n for n, _ in peers], fontsize=7)
    axes[2].set_ylim(0, 105)
    axes[2].set_title("reported by the peers (LLM agents; agentdojo_peers)", fontsize=9)
    fig.tight_layout()
    path = out_dir / "agentdojo.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
