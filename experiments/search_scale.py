"""Bounded search at scale in one process: ``paper_figures/tables/search_scale.{csv,md}`` — per (model,
policy, bound) of ``RUNS``, the explicit engine with the exact visited set and with the fingerprint one
(``model/search/fingerprint.py``), each in a fresh spawned process: states, transitions, wall and CPU
seconds, peak memory and bytes per stored state, the collision probability, and whether the two runs
agree (states, transitions, depth, verdicts with their shortest traces, useful completions); and
``search_merge``: the transitions per CPU second of the shared search loop (``layered.py``) against the
loop the exact engine had before the loops were merged, timed alternately in one process.

Method. Searches run without sleep sets (``reduction=False``): the search whose counts the manifest
records, so each run also re-checks its rows of tier ``huge`` in ``corpus/search/manifest.json`` (the
default test tiers never run them). Memory: the process's peak resident size (``ru_maxrss``) minus its
resident size after loading the model and importing the engines, divided by the states visited — it
counts every byte the search allocated and held at its peak (visited set, frontiers, parent links, memo
tables, allocator slack), not a model of them. One run each (they take minutes).

The pre-merge loop is read from git history — ``model/search/explicit.py`` as it was in the parent of
the commit that added ``model/search/layered.py`` — and loaded as a module; without git history
``search_merge`` is not written.

``search_native``: the compiled search modules (``model/search/native``) against the interpreted ones, on every
explicit-search model of ``corpus/search`` at its bound in ``NATIVE_BOUNDS`` or its own (fingerprint mode, no sleep
sets): ``NATIVE_ROUNDS`` rounds, each a fresh process per build, the builds alternating, so background
load hits both alike; per build the transitions per CPU second of each round, their median, the ratio of
the medians, and whether both answered the same (states, transitions, depth, verdicts with traces,
completions). ``python experiments/search_scale.py --native`` writes that table alone. Without a build
the table is not written.

``search_intcode``: the integer-encoded search (``model/search/native/intcode.py``) against the current engine, in
one process, alternating (``intcode_table``); part of the default run, and ``python experiments/search_scale.py
--intcode`` writes that table alone (``--intcode delete_ab.json ...``: those models' rows alone, the table's
other rows kept). A saturated row below the target says why in its note: the share of the call that is work
both engines do, and the floor the monitor's own calls set (``oracle_floor``).

Registered as ``search-scale``, not part of ``reproduce all``; run ``agentwarrant reproduce search-scale``.
``AGENTWARRANT_SEARCH_SCALE_RUNS="agentdojo_banking_wide.json:6:fingerprint"`` replaces ``RUNS`` by the
listed ``model:bound[:fingerprint]`` runs (``fingerprint``: that mode alone, for a model whose exact
visited set would not fit or whose two runs would take too long; its exact columns are ``-``) and skips
``search_merge``. Every run keeps the table's rows of each other (model, policy, bound) it finds when it
writes, so one long run adds or replaces its own row (a row of a model no longer run stays until deleted).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from model.base.errors import InputKind, InvalidInput, Location
from model.base.paths import repo_root
from model.base.tables import write_table
from model.search.layered import ExplicitRun
from model.search.load import load_model
from model.search.manifest import load_manifest, rows_for
from model.search.peak import fresh
from model.search.search_verdict import Found, verdict_name

# (model under corpus/search, policy relative to it or None for the model's own, bound, exact mode too)
Run = tuple[str, str | None, int, bool]
RUNS: tuple[Run, ...] = (("report.json", None, 9, True), ("agentdojo_banking_wide.json", None, 4, True),
                         ("deploy_fleet.json", None, 5, True))
ENV = "AGENTWARRANT_SEARCH_SCALE_RUNS"
MERGE_RUN = ("report.json", 5)  # the loop-overhead comparison
MERGE_ROUNDS = 5
NATIVE_ROUNDS = 3
#: bound per model for ``search_native`` (a model not named: its own bound), runs of seconds at most
NATIVE_BOUNDS = {"report.json": 6, "agentdojo_banking.json": 2, "agentdojo_banking_weak.json": 2,
                 "agentdojo_banking_wide.json": 2, "agentdojo_workspace.json": 2, "deploy.json": 3,
                 "deploy_fleet.json": 3}


def _same(a: ExplicitRun, b: ExplicitRun) -> bool:
    return (a.states, a.transitions, a.depth, a.verdicts, a.completions) == \
        (b.states, b.transitions, b.depth, b.verdicts, b.completions)


def _own_policy(model: Path) -> str:
    """The policy path a model file names, as the manifest writes it (relative to corpus/search)."""
    doc = json.loads(model.read_text(encoding="utf-8"))
    return str(doc["policy"])


def _manifest_holds(name: str, policy: str | None, k: int, run: ExplicitRun) -> str:
    """"yes"/"no" against the manifest's rows for this run, "-" when it has none."""
    search = repo_root() / "corpus" / "search"
    pol = Path(load_model(search / name, None if policy is None else str(search / policy)).policy_path).resolve()
    rows = [r for r in load_manifest(search / "manifest.json")
            if r.model == name and r.bound == k and (search / r.policy).resolve() == pol]
    if not rows:
        return "-"
    for r in rows:
        v = run.verdict(r.query)
        if (verdict_name(v), v.length if isinstance(v, Found) else None, run.states) != (r.verdict, r.length, r.states):
            return "no"
    return "yes"


def _runs() -> tuple[tuple[Run, ...], bool]:
    """The runs to make and whether they are ``RUNS`` (the environment variable replaces them)."""
    spec = os.environ.get(ENV, "").strip()
    if not spec:
        return RUNS, True
    out: list[Run] = []
    for item in spec.split(","):
        parts = item.strip().split(":")
        if len(parts) not in (2, 3) or not parts[1].isdigit() or parts[2:] not in ([], ["fingerprint"]):
            raise InvalidInput(Location(ENV), "model.json:bound or model.json:bound:fingerprint, comma-separated",
                               item, InputKind.VALUE)
        out.append((parts[0], None, int(parts[1]), len(parts) == 2))
    return tuple(out), False


def _kept(out_dir: Path, runs: tuple[Run, ...]) -> list[list[object]]:
    """The committed table's rows of every (model, policy, bound) not among ``runs``."""
    path = out_dir / "tables" / "search_scale.csv"
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))[1:]
    mine = {(name, policy or "(model's)", str(k)) for name, policy, k, _ in runs}
    return [list(r) for r in rows if (r[0], r[1], r[2]) not in mine]


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    search = repo_root() / "corpus" / "search"
    runs, default = _runs()
    total = 2 * len(runs) + 1
    rows: list[list[object]] = []
    paths: list[Path] = []
    for i, (name, policy, k, both) in enumerate(runs):
        pol = None if policy is None else str(search / policy)
        fp, fp_peak = fresh(str(search / name), pol, k, True, False)
        tick(2 * i + 1, total)
        exact, peak = fresh(str(search / name), pol, k, False, False) if both else (fp, 0)
        tick(2 * i + 2, total)
        held = _manifest_holds(name, policy, k, exact)
        if held == "-":  # rows to review and add to the manifest (tier "huge")
            print(json.dumps(rows_for(name, policy or _own_policy(search / name), k, "huge", exact)),
                  file=sys.stderr)
        exact_cols: list[object] = [f"{exact.seconds:.1f}", f"{exact.cpu_seconds:.1f}", f"{peak / 2**20:.0f}",
                                    f"{peak / exact.states:.0f}"] if both else ["-"] * 4
        rows.append([name, policy or "(model's)", k, exact.states, exact.transitions, *exact_cols,
                     f"{fp.seconds:.1f}", f"{fp.cpu_seconds:.1f}", f"{fp_peak / 2**20:.0f}",
                     f"{fp_peak / fp.states:.0f}", f"{fp.collision:.1e}", _same(exact, fp) if both else "-", held,
                     f"{os.getloadavg()[0]:.1f}"])
        # after each model, so a long run that is stopped keeps its rows; the committed rows of other runs
        # are read again each time (two selected runs may write the table in turn)
        paths = _table(out_dir, _kept(out_dir, runs) + rows)
    if default:
        paths += _merge(out_dir)
        paths += native_table(out_dir)
        paths += intcode_table(out_dir)
    tick(total, total)
    return paths


def _table(out_dir: Path, rows: list[list[object]]) -> list[Path]:
    return write_table(
        out_dir, "search_scale",
        ["model", "policy", "bound", "states", "transitions", "exact_s", "exact_cpu_s", "exact_peak_mib",
         "exact_bytes_per_state", "fingerprint_s", "fingerprint_cpu_s", "fingerprint_peak_mib",
         "fingerprint_bytes_per_state", "collision_probability", "same", "manifest", "load"], rows,
        "The explicit search in one process, exact visited set against 64-bit fingerprints "
        "(`agentwarrant reproduce search-scale`), without sleep sets (the manifest's counts). Each run in a fresh "
        "process; *_s wall and *_cpu_s CPU seconds; peak: the peak resident size (ru_maxrss) above the size "
        "after loading the model, per visited state; collision_probability: n(n-1)/2^65 for n states; same: "
        "states, transitions, depth, verdicts with shortest traces and completions equal in both modes; "
        "manifest: the run matches its rows in corpus/search/manifest.json; load: the 1-minute load average "
        "after the row (2 cores shared with other jobs: above 2 the wall clock measures contention).")


def _pre_merge() -> Any | None:
    """The exact engine as it was before the loops were merged, loaded from git history (None without it)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(repo_root()), *args], capture_output=True, text=True,
                              check=True).stdout

    try:
        added = git("log", "--diff-filter=A", "--format=%H", "--", "model/search/layered.py").split()
        if not added:
            return None
        src = git("show", f"{added[-1]}^:model/search/explicit.py")
    except (OSError, subprocess.CalledProcessError):
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(src)
    spec = importlib.util.spec_from_file_location("search_pre_merge", fh.name)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["search_pre_merge"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    os.unlink(fh.name)
    return mod


def _merge(out_dir: Path) -> list[Path]:
    from model.search.explicit import explore

    old = _pre_merge()
    if old is None:
        return []
    name, k = MERGE_RUN
    model = load_model(repo_root() / "corpus" / "search" / name)
    engines = (("before (own loop)", old.explore), ("after (layered.py)", explore))
    for _, f in engines:  # warm-up: imports, compiled policy
        f(model, 3)
    rates: dict[str, list[float]] = {n: [] for n, _ in engines}
    runs: dict[str, ExplicitRun] = {}
    for _ in range(MERGE_ROUNDS):
        for n, f in engines:
            run = f(model, k)
            rates[n].append(run.transitions_per_second)
            runs[n] = run
    best = {n: max(v) for n, v in rates.items()}
    median = {n: statistics.median(v) for n, v in rates.items()}
    b, m = best["before (own loop)"], median["before (own loop)"]
    rows = [[n, name, k, runs[n].states, runs[n].transitions, " ".join(f"{r:.0f}" for r in rates[n]),
             f"{best[n]:.0f}", f"{median[n]:.0f}", f"{best[n] / b:.3f}", f"{median[n] / m:.3f}"] for n, _ in engines]
    assert _same(runs["before (own loop)"], runs["after (layered.py)"]), "the merged loop must search the same"
    return write_table(
        out_dir, "search_merge",
        ["engine", "model", "bound", "states", "transitions", "rounds", "best", "median", "best_ratio_to_before",
         "median_ratio_to_before"], rows,
        f"The exact engine's speed before and after its search loop was merged with the fingerprint mode's "
        f"(`agentwarrant reproduce search-scale`): sleep sets on, {MERGE_ROUNDS} alternating rounds in one "
        f"process after a warm-up, transitions per CPU second in each round, their best and median, and "
        f"each as a ratio to the loop before. Both runs give the same states, transitions, verdicts and completions.")


def _native_sample(name: str, k: int) -> dict[str, object]:
    """One fingerprint search in this process (the build ``model.search.native`` chose)."""
    from model.search.fingerprint import explore_fingerprint
    from model.search.native import status

    run = explore_fingerprint(load_model(repo_root() / "corpus" / "search" / name), k, reduction=False)
    return {"active": status().active, "states": run.states, "transitions": run.transitions,
            "cpu": run.cpu_seconds, "answers": repr((run.states, run.transitions, run.depth, run.verdicts,
                                                     run.completions, run.unknown))}


def _native_fresh(name: str, k: int, compiled: bool) -> dict[str, object]:
    from model.search.native import ENV

    env = {**os.environ, ENV: "1" if compiled else "0"}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--native-sample", name, str(k)],
                         capture_output=True, text=True, check=True, env=env, cwd=repo_root())
    got: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return got


def monitor_models(search: Path) -> list[str]:
    """The corpus's monitor search models by file name (system models carry a "kind"; the manifest is not a model)."""
    return sorted(p.name for p in search.glob("*.json") if p.name != "manifest.json"
                  and "kind" not in json.loads(p.read_text(encoding="utf-8")))


def native_table(out_dir: Path) -> list[Path]:
    from model.search.native import STAMP

    if not STAMP.is_file():
        print("search_native: the compiled modules are not built; table not written", file=sys.stderr)
        return []
    search = repo_root() / "corpus" / "search"
    names = monitor_models(search)
    rows: list[list[object]] = []
    for name in names:
        k = NATIVE_BOUNDS.get(name) or int(json.loads((search / name).read_text(encoding="utf-8"))["bound"])
        runs: dict[bool, list[dict[str, object]]] = {True: [], False: []}
        for _ in range(NATIVE_ROUNDS):
            for compiled in (True, False):
                runs[compiled].append(_native_fresh(name, k, compiled))
        assert all(r["active"] == "compiled" for r in runs[True]), "the build is stale: rebuild it"
        rate = {c: [float(str(r["transitions"])) / float(str(r["cpu"])) for r in rs] for c, rs in runs.items()}
        med = {c: statistics.median(v) for c, v in rate.items()}
        same = len({str(r["answers"]) for rs in runs.values() for r in rs}) == 1
        first = runs[True][0]
        rows.append([name, k, first["states"], first["transitions"], " ".join(f"{x:.0f}" for x in rate[True]),
                     " ".join(f"{x:.0f}" for x in rate[False]), f"{med[True]:.0f}", f"{med[False]:.0f}",
                     f"{med[True] / med[False]:.2f}", same, f"{os.getloadavg()[0]:.1f}"])
        print(rows[-1], file=sys.stderr)
    return write_table(
        out_dir, "search_native",
        ["model", "bound", "states", "transitions", "compiled_rates", "interpreted_rates", "compiled_median",
         "interpreted_median", "speedup", "same", "load"], rows,
        f"The compiled search modules (Cython, `model/search/native`) against the interpreted ones "
        f"(`python experiments/search_scale.py --native`): fingerprint mode without sleep sets, {NATIVE_ROUNDS} "
        f"rounds, each a fresh process per build, the builds alternating; transitions per CPU second of each "
        f"round and their medians; speedup: compiled median over interpreted median; same: every run of both "
        f"builds gave the same states, transitions, depth, verdicts with traces and completions; load: the "
        f"1-minute load average after the row (2 cores shared with other jobs).")


#: bound per model for ``search_intcode``: each interpreted run of seconds to a minute, so that the
#: encoding's one-off table fills (one call into Python per new key) are amortized as in a long run
INTCODE_BOUNDS = {"report.json": 7, "report_alice_known.json": 7, "report_trust.json": 7, "report_copying.json": 7,
                  "report_permit.json": 7, "delete_ab.json": 3, "deploy.json": 4, "deploy_fleet.json": 4,
                  "payments.json": 5, "payments_invoices.json": 6, "agentdojo_banking.json": 3,
                  "agentdojo_banking_weak.json": 3, "agentdojo_banking_wide.json": 3, "agentdojo_workspace.json": 2}
INTCODE_ROUNDS = 2
#: the timing protocol for what an engine keeps per model across calls (the table's header says it)
WARM = ("per-model caches warm in both engines: one untimed call of each engine per model before the rounds "
        "fills what each keeps across calls for a model object — the compiled policy (`compiled`, with its "
        "memo of flow verdicts per label), which both use, and the encoding's per-model compile "
        "(`intcode.Static`: the parsed tool results and argument lists, indices, literal ids, the kernel's "
        "per-tool arrays, the scope check, the monitor's steps before first-fit for every call of literals "
        "where they read no state, and the outcomes of every such call admitted in the initial state's slots, "
        "made for every call, reached or not); nothing a search reaches is kept across calls: every table a "
        "search fills (decisions, outcomes, records, states) starts empty in each call of either engine")
#: models whose whole state space is reached by their bound in ``INTCODE_BOUNDS`` (no bound makes them larger;
#: the table checks it one step further): their rows time the one-off table fills and set-up, over more rounds
INTCODE_SATURATED = {"delete_ab.json": 11, "payments.json": 88, "agentdojo_workspace.json": 604,
                     "report_permit.json": 17715}
INTCODE_SATURATED_ROUNDS = 6
#: CPU seconds a round of one engine lasts at least: a call shorter than that is made again (whole, its
#: tables empty) until the round reaches it, and the rate is the round's transitions over its CPU time
INTCODE_MIN_ROUND = 0.05
#: calls per engine of the set-up breakdown (``shared_work``) of a saturated row below the target
BREAKDOWN_CALLS = 300
#: the functions both engines' calls run — per call, or once per distinct proposal decided — by label:
#: (label, the (module, attribute path) of each engine's function timed). The encoded search builds its
#: context from its per-model compile (``Static.context``) and a goal's completions from its tables
#: (``Compiler.completions``: the cone and its orders, without deciding the call again; from the initial
#: state the cone read off the new record, ``intcode_model.goal_call``)
SHARED_WORK = (("context", (("model.search.fingerprint", "Context"),
                            ("model.search.native.intcode", "Static.context"))),
               ("decisions", (("model.search.expand", "decide"), ("model.search.native.intcode", "decide"),
                              ("model.search.native.intcode", "first_fit"),
                              ("model.search.native.intcode", "after_quota"))),
               ("outcomes", (("model.search.expand", "outcome_of"), ("model.search.native.intcode", "outcome_of"))),
               ("completions", (("model.search.layered", "collect_completions"),
                                ("model.search.native.intcode", "Compiler.completions"))),
               ("answers", (("model.search.layered", "answers"), ("model.search.native.intcode", "answers"))))


def shared_work(model: Any, k: int) -> dict[bool, tuple[float, dict[str, float]]]:
    """Per engine (True: the encoded search), the CPU seconds of its whole call and, per label of
    ``SHARED_WORK``, of the work in it that both engines' calls do: the search context, the monitor's
    decisions and an admitted call's outcomes (once per distinct proposal: the encoded search's tables start
    empty in each call), the goals' completions and the answers. Averaged over ``BREAKDOWN_CALLS`` calls with
    each of those functions timed (exclusive of the others it calls), so the timers' own cost is in both
    engines' calls alike."""
    import importlib

    from model.search.fingerprint import explore_fingerprint
    from model.search.native.intcode import explore_native

    spent: dict[str, float] = {}
    stack: list[float] = []

    def timed(label: str, f: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any, **kw: Any) -> Any:
            stack.append(0.0)
            t0 = time.process_time()
            try:
                return f(*a, **kw)
            finally:
                took = time.process_time() - t0
                inner = stack.pop()
                spent[label] = spent.get(label, 0.0) + took - inner
                if stack:
                    stack[-1] += took
        return run

    saved: list[tuple[Any, str, Any]] = []
    for label, places in SHARED_WORK:
        for name, path in places:
            owner: Any = importlib.import_module(name)
            *outer, attr = path.split(".")
            for part in outer:
                owner = getattr(owner, part)
            saved.append((owner, attr, getattr(owner, attr)))
            setattr(owner, attr, timed(label, getattr(owner, attr)))
    out: dict[bool, tuple[float, dict[str, float]]] = {}
    try:
        for native in (True, False):
            spent.clear()
            c0 = time.process_time()
            for _ in range(BREAKDOWN_CALLS):
                explore_native(model, k) if native else explore_fingerprint(model, k, reduction=False)
            whole = (time.process_time() - c0) / BREAKDOWN_CALLS
            out[native] = (whole, {lab: v / BREAKDOWN_CALLS for lab, v in spent.items()})
    finally:
        for mod, attr, f in saved:
            setattr(mod, attr, f)
    return out


#: the monitor's own work that the encoded search's call hands to the monitor, by the names ``intcode`` calls
#: it by: a decision per distinct key its tables ask (the whole decision, or, for a call its per-model
#: compile decided up to first-fit, the first-fit on the state's counters and the verdict's last steps),
#: an admitted call's commit and outcomes (but for a call of literals whose outcomes in the initial state's
#: slots the per-model compile holds, ``intcode_model.root_outcomes``), a goal's cone (but from the initial
#: state) and the replay of its orders. With every table empty in each call (``WARM``), no search of the model
#: skips it unless it decides fewer keys or replays fewer cones (``oracle_floor``)
ORACLE = ("decide", "first_fit", "after_quota", "commit", "outcome_of", "cone", "orders")


def oracle_floor(model: Any, k: int) -> tuple[float, float, dict[str, int]]:
    """CPU seconds per call of the monitor's work in one encoded search of ``model`` to ``k`` (``ORACLE``),
    replayed alone: every such call of one search recorded with its arguments (none of them nested in
    another: each reaches the monitor through its own module's imports), then the recorded calls made
    again ``BREAKDOWN_CALLS`` times, with no timer inside; the same for its admitted part alone — the
    decisions that admitted a call, and the commits and outcomes — which even a search that knew every
    refusal without asking and replayed no cone would make; and how many calls of each name there were."""
    import model.search.native.intcode as ic
    from model.monitor.decide.base import Decision

    calls: list[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any], bool]] = []
    saved = {name: getattr(ic, name) for name in ORACLE}

    def recorded(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any, **kw: Any) -> Any:
            got = f(*a, **kw)
            admitted = got.decision is Decision.ALLOW if name in ("decide", "after_quota") else \
                not isinstance(got, int) if name == "first_fit" else True
            calls.append((name, f, a, kw, admitted and name not in ("cone", "orders")))
            return got
        return run

    try:
        for name, f in saved.items():
            setattr(ic, name, recorded(name, f))
        ic.explore_native(model, k)
    finally:
        for name, f in saved.items():
            setattr(ic, name, f)
    out: list[float] = []
    for part in (calls, [c for c in calls if c[4]]):
        c0 = time.process_time()
        for _ in range(BREAKDOWN_CALLS):
            for _name, f, a, kw, _adm in part:
                f(*a, **kw)
        out.append((time.process_time() - c0) / BREAKDOWN_CALLS)
    counts: dict[str, int] = {}
    for name, *_ in calls:
        counts[name] = counts.get(name, 0) + 1
    return out[0], out[1], counts


def breakdown_note(model: Any, k: int, current_call: float) -> str:
    """The note of a saturated row below the target: how much of the encoded search's call is work the
    current engine's call does too (``shared_work``), and the speedup that caps even with the rest free;
    then the floor the monitor's own work sets (``oracle_floor``) against ``current_call``, the CPU seconds
    of the current engine's call in the row's own rounds (untimed inside, unlike ``shared_work``'s)."""
    got = shared_work(model, k)
    (nat_whole, nat), (cur_whole, cur) = got[True], got[False]
    shared = sum(nat.values())
    parts = ", ".join(f"{lab} {nat.get(lab, 0.0) * 1e6:.0f}/{cur.get(lab, 0.0) * 1e6:.0f}" for lab, _ in SHARED_WORK)
    floor, admitted, counts = oracle_floor(model, k)
    made = ", ".join(f"{counts[n]} {n}" for n in ORACLE if n in counts)
    return (f"set-up bound: per call (us, intcode/current, timed) {parts}; whole call {nat_whole * 1e6:.0f}/"
            f"{cur_whole * 1e6:.0f}: the work both calls do is {shared * 1e6:.0f} us of the intcode call, so with "
            f"those functions as they are no faster rest gives more than {cur_whole / shared:.1f}x; floor: the "
            f"monitor's own calls in one intcode call ({made}) replayed alone take {floor * 1e6:.0f} us against "
            f"the current call's {current_call * 1e6:.0f} us in the rounds, so with every other part of the call "
            f"free at most {current_call / floor:.1f}x, and their admitted part alone (the admitting decisions, "
            f"commits and outcomes) {admitted * 1e6:.0f} us, at most {current_call / admitted:.1f}x")


def intcode_selection(search: Path, asked: list[str]) -> list[str]:
    """The models ``--intcode`` runs: every monitor model of the corpus, or those named (each must be one)."""
    names = monitor_models(search)
    for name in asked:
        if name not in names:
            raise InvalidInput(Location("--intcode"), f"a monitor model of corpus/search ({', '.join(names)})",
                               name, InputKind.REFERENCE)
    return [n for n in names if n in asked] if asked else names


def _intcode_kept(out_dir: Path, names: list[str]) -> list[list[object]]:
    """The committed ``search_intcode`` rows of every model not in ``names``."""
    path = out_dir / "tables" / "search_intcode.csv"
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))[1:]
    return [list(r) for r in rows if r and r[0] not in names]


def intcode_table(out_dir: Path, asked: list[str] | None = None) -> list[Path]:
    """``search_intcode``: the integer-encoded search (``model/search/native/intcode.py``) against the
    current engine (the fingerprint mode without sleep sets, compiled modules when built), both in this
    process, alternating, ``INTCODE_ROUNDS`` rounds; models outside the encoding's scope get a row saying why.
    ``asked``: only these models (``intcode_selection``), their rows replacing theirs in the committed table,
    whose other rows are kept as they are (for one row measured again, e.g. on a quiet machine)."""
    from model.search.fingerprint import explore_fingerprint
    from model.search.native import status
    from model.search.native.intcode import explore_native, kernel_module, supported

    if kernel_module() is None:
        print("search_intcode: the kernel is not built; table not written", file=sys.stderr)
        return []
    search = repo_root() / "corpus" / "search"
    names = intcode_selection(search, asked or [])
    rows: list[list[object]] = []
    for name in names:
        model = load_model(search / name)
        k = INTCODE_BOUNDS.get(name) or model.bound
        why = supported(model, k)
        if why is not None:
            rows.append([name, k, "-", "-", "-", "-", "-", "-", "-", "-", f"outside the encoding: {why}", "-"])
            continue
        rate: dict[bool, list[float]] = {True: [], False: []}
        answers: set[str] = set()
        first: ExplicitRun | None = None
        # one untimed call of each engine fills the caches both keep per model across calls (``WARM``)
        explore_native(model, k)
        explore_fingerprint(model, k, reduction=False)
        for rnd in range(INTCODE_SATURATED_ROUNDS if name in INTCODE_SATURATED else INTCODE_ROUNDS):
            for native in ((True, False) if rnd % 2 == 0 else (False, True)):
                # the whole call's CPU time: each engine's set-up (context, tables) counts, not only its search;
                # calls of a fraction of a millisecond are repeated (each one whole, its tables empty) until
                # the round's CPU time reaches ``INTCODE_MIN_ROUND``, so that one call's jitter is not the rate
                calls = 0
                c0 = time.process_time()
                while True:
                    run = explore_native(model, k) if native else explore_fingerprint(model, k, reduction=False)
                    calls += 1
                    cpu = time.process_time() - c0
                    assert run is not None
                    answers.add(repr((run.states, run.transitions, run.depth, run.verdicts, run.completions,
                                      run.unknown)))
                    if cpu >= INTCODE_MIN_ROUND:
                        break
                first = first or run
                rate[native].append(run.transitions * calls / cpu)
        assert first is not None
        med = {c: statistics.median(v) for c, v in rate.items()}
        note = ""
        if name in INTCODE_SATURATED:  # the note is checked: one more step reaches no new state
            more = explore_native(model, k + 1)
            assert more is not None
            note = f"every state reached ({first.states} at this bound and any larger)" \
                if more.states == first.states == INTCODE_SATURATED[name] else \
                f"not saturated: {first.states} states, {more.states} at bound {k + 1}"
            if med[True] < 10 * med[False]:
                note += "; " + breakdown_note(model, k, first.transitions / med[False])
        rows.append([name, k, first.states, first.transitions, " ".join(f"{x:.0f}" for x in rate[True]),
                     " ".join(f"{x:.0f}" for x in rate[False]), f"{med[True]:.0f}", f"{med[False]:.0f}",
                     f"{med[True] / med[False]:.2f}", len(answers) == 1, note, f"{os.getloadavg()[0]:.1f}"])
        print(rows[-1], file=sys.stderr)
    if asked:
        rows = sorted(_intcode_kept(out_dir, names) + rows, key=lambda r: str(r[0]))
    return write_table(
        out_dir, "search_intcode",
        ["model", "bound", "states", "transitions", "intcode_rates", "current_rates", "intcode_median",
         "current_median", "speedup", "same", "note", "load"], rows,
        f"The integer-encoded search with its compiled successor loop (`model/search/native/intcode.py`, "
        f"`kernel.pyx`) against the current engine (fingerprint mode, compiled modules: "
        f"{status().active}), both without sleep sets (`python experiments/search_scale.py --intcode`): "
        f"{INTCODE_ROUNDS} rounds in one process, the engines alternating; transitions per CPU second of each "
        f"round over the CPU time of its whole calls (set-up, search, traces and completions; a round repeats "
        f"a call shorter than {INTCODE_MIN_ROUND} s until it reaches that, each call whole), and their medians; "
        f"speedup: intcode median over current median; same: every run of both gave the same states, "
        f"transitions, depth, verdicts with traces and completions; load: the 1-minute load "
        f"average after the row (2 cores shared with other jobs). Bounds: each interpreted run seconds to a "
        f"minute where the model grows; the rows noted 'every state reached' are models whose whole state space "
        f"lies below their bound, so no bound makes them larger: their time is set-up and the one-off table "
        f"fills (a Python decision per new key), {INTCODE_SATURATED_ROUNDS} rounds each; {WARM}. Target: 10x on "
        f"every model.")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--intcode"]:  # optionally followed by model file names: those rows alone
        try:
            for path in intcode_table(repo_root() / "paper_figures", sys.argv[2:]):
                print(path)
        except InvalidInput as exc:
            print(f"search_scale: {exc}", file=sys.stderr)
            sys.exit(2)
    elif sys.argv[1:2] == ["--native-sample"]:
        print(json.dumps(_native_sample(sys.argv[2], int(sys.argv[3]))))
    elif sys.argv[1:2] == ["--native"]:
        for path in native_table(repo_root() / "paper_figures"):
            print(path)
