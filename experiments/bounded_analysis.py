"""Bounded analysis of the report task under each policy variant (Agenra Section 3; our design for the
missing Section 8): ``paper_figures/tables/bounded_analysis.{csv,md}``.

For each (model, policy variant, bound) both engines run, every found trace and useful completion is
replayed through the Adapter on the reference tools, and one row per query records each engine's
verdict, the shortest trace length, the distinct useful completions (explicit engine), the states and
transitions explored, the time of each engine, whether the engines agree, and the replay outcome.
Times are wall-clock seconds of one run on the machine that ran it; they are measurements, not checks.
The explicit engine runs with sleep-set reduction; ``states/s`` and ``transitions/s`` are its rates per
CPU second of the process (one core, robust to other load on the machine; wall seconds are in
``explicit s``), ``transitions`` counts the transitions it explored.

Speed, ``search_speed.{csv,md}``: per run, in the same process, the unoptimized engine
(``baseline.explore_baseline``), the fast engine unreduced (same states and transitions, checked here)
and reduced: CPU seconds, transitions per CPU second, and the speed-ups over the baseline.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from model.base.paths import repo_root
from model.base.tables import write_table
from model.search.baseline import explore_baseline
from model.search.explicit import explore
from model.search.load import load_model
from model.search.model import SearchModel
from model.shell.api import bounded_search
from model.shell.frames import SEARCH_HEADER, search_rows

# (model file, policy file, variant name, bound), paths relative to corpus/search/
RUNS = (
    ("report.json", "../policies/report_no_origin.policy", "no origin rule", 5),
    ("report.json", "../policies/report.policy", "immediate producer", 5),
    ("report.json", "../policies/report_chained.policy", "chained origin", 5),
    ("report.json", "report_send2.policy", "send quota 2", 5),
    ("report_alice_known.json", "../policies/report_chained.policy", "chained origin, Alice's address known", 5),
    ("report_copying.json", "../policies/report_no_origin.policy", "no origin rule, agent retypes values", 4),
    ("report_copying.json", "../policies/report_chained.policy", "chained origin, agent retypes values", 4),
    ("report_trust.json", "../policies/report_chained.policy", "chained origin, compromised directory", 4),
    ("report_permit.json", "report_permit_core.policy", "exact-call approval", 5),
    ("payments.json", "../policies/payments.policy", "payments, manager review", 3),
    ("delete_ab.json", "../policies/delete_ab.policy", "delete A, B", 3),
    ("delete_ab.json", "delete_widened.policy", "delete, first grant widened", 3),
)

HEADER = ("variant", "policy", "model", *SEARCH_HEADER)
SPEED = ("variant", "model", "bound", "states", "transitions (unreduced)", "baseline cpu s", "baseline tr/s",
         "fast cpu s", "fast tr/s", "speed-up", "reduced transitions", "reduced cpu s", "reduced tr/s",
         "reduced speed-up")


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    base = repo_root() / "corpus" / "search"
    rows: list[list[object]] = []
    speed: list[list[object]] = []
    for n, (model_file, policy_file, variant, bound) in enumerate(RUNS):
        model = load_model(base / model_file, str(base / policy_file))
        speed.append(_speed(variant, model_file, model, bound))
        # the same rows a notebook gets from model.to_frame(model.bounded_search(...))
        rep = bounded_search(base / model_file, policy=base / policy_file, bound=bound)
        for row in search_rows(rep):
            rows.append([variant, rep.model.policy.name, model_file, *(row[h] for h in SEARCH_HEADER)])
        tick(n + 1, len(RUNS))
    caption = ("Bounded analysis (`agentwarrant reproduce bounded-analysis`): per policy variant and query, each "
               "engine's verdict and shortest trace length, distinct useful completions, explicit states and "
               "transitions, seconds per engine (SMT time is for all queries of the run), engine agreement and "
               "replay on the reference tools.")
    speed_caption = ("Explicit search speed in one process (`agentwarrant reproduce bounded-analysis`): the engine "
                     "as first written (baseline), the fast engine unreduced (same states and transitions) and with "
                     "sleep sets (reduced); CPU seconds and transitions per CPU second (one core); speed-up = "
                     "baseline CPU time / fast CPU time.")
    return [*write_table(out_dir, "bounded_analysis", HEADER, rows, caption),
            *write_table(out_dir, "search_speed", SPEED, speed, speed_caption), _figure(rows, out_dir)]


def _speed(variant: str, model_file: str, model: SearchModel, bound: int) -> list[object]:
    old = explore_baseline(model, bound)
    fast = explore(model, bound, reduction=False)
    assert (fast.states, fast.transitions) == (old.states, old.transitions), "the fast engine must equal the baseline"
    red = explore(model, bound, reduction=True)
    return [variant, model_file, bound, fast.states, fast.transitions, f"{old.cpu_seconds:.2f}",
            f"{old.transitions_per_second:.0f}", f"{fast.cpu_seconds:.2f}", f"{fast.transitions_per_second:.0f}",
            f"{old.cpu_seconds / fast.cpu_seconds:.1f}", red.transitions, f"{red.cpu_seconds:.2f}",
            f"{red.transitions_per_second:.0f}", f"{old.cpu_seconds / red.cpu_seconds:.1f}"]


def _figure(rows: list[list[object]], out_dir: Path) -> Path:
    """One cell per (variant, query): what the explicit engine found, with the shortest length, and
    whether Z3 agreed; a person reads the attack surface of each policy variant at a glance."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    col = {h: i for i, h in enumerate(HEADER)}
    variants = list(dict.fromkeys(str(r[col["variant"]]) for r in rows))
    queries = list(dict.fromkeys(str(r[col["query"]]) for r in rows))
    # 0 = not in this model, 1 = exhausted, 2 = forbidden found, 3 = goal found, 4 = vacuous
    codes = [[0] * len(queries) for _ in variants]
    text = [[""] * len(queries) for _ in variants]
    for r in rows:
        i, j = variants.index(str(r[col["variant"]])), queries.index(str(r[col["query"]]))
        verdict, kind = str(r[col["explicit"]]), str(r[col["kind"]])
        codes[i][j] = {"exhausted": 1, "vacuous": 4}.get(verdict, 3 if kind == "goal" else 2)
        length = r[col["explicit length"]]
        mark = "" if str(r[col["engines"]]) == "agree" else "*"
        text[i][j] = (f"{length}" if verdict == "found" else verdict[:3]) + mark
    cmap = ListedColormap(["#f2f2f2", "#b7dfb0", "#e8837a", "#8fb8e6", "#d9d9a0"])
    fig, ax = plt.subplots(figsize=(1.0 + 0.55 * len(queries), 1.2 + 0.42 * len(variants)))
    ax.imshow(codes, cmap=cmap, vmin=0, vmax=4, aspect="auto")
    for i in range(len(variants)):
        for j in range(len(queries)):
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(queries)), queries, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(variants)), variants, fontsize=7)
    ax.set_title("Bounded analysis: red = forbidden execution found (shortest length), green = none within the "
                 "bound,\nblue = useful completion found, olive = vacuous (nothing reachable satisfies the "
                 "premise),\ngrey = query not in the model; * = the SMT engine did not confirm (unsupported)",
                 fontsize=8)
    fig.tight_layout()
    path = out_dir / "bounded_analysis.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
