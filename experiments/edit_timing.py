"""Timing of the exact edit checker against the published artifact's checker, in one run
("When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking for Execution
Edits", Sections V-C5, VIII and A-M).

The baseline is the paper's own executable checker, ``check_admission`` in
``artifact/exact_history_realization.py`` of https://github.com/eunomia-bpf/agent-check-restore-safety
(stdlib Python). It is *not* part of this repository: point ``AGENTWARRANT_ARTIFACT`` at the
``artifact/`` directory of a checkout (``git clone`` it anywhere) and this script imports it in
the artifact's own sample processes. Two tables: ``edit_timing`` (our engines at every size, always
re-measured) and ``edit_timing_artifact`` (the same-run comparison on the artifact's sizes, with the
ratios, the date it was measured and the artifact's commit). Without ``AGENTWARRANT_ARTIFACT`` the
comparison is not re-measured and its committed table is kept as it is: a ratio is only ever taken
between samples of one run, never between this run's times and an earlier run's.

Families — the artifact's own (``bench_exact_history_realization.py``), built by the artifact's
own builders for its rows and as the *same* explicit outcome families for ours:

- ``shared_accept(n)``: n outcomes ``{x, y_i}`` with ``x < y_i``, one call ``x`` shared by all;
  the policy's maximal words are ``x·y_i``. Accepted with n completions.
- ``shared_reject(n)``: the same calls with no order; maximal words ``y_0·x`` and ``x·y_i`` (i ≥ 1).
  Rejected in two rounds.
- ``unordered(w)``: one outcome of w unordered calls on distinct actions; the policy's maximal words
  are all w! orders (ours: the same words, minimized; for w > 8, beyond the artifact's 8-occurrence
  cap, the equivalent ``(l_1|…|l_w)*`` because listing w! words would dominate the set-up).

Sizes: the artifact's (n ∈ {2, 8, 32, 64, 128}, w ∈ {3, …, 6}) and ours beyond them (n ∈ {512,
1024}: over its 128-outcome cap; w ∈ {7, …, 10}). The artifact runs only its own sizes. The explicit
engine runs under a budget of 100,000 linearizations (its former cap); beyond it the row is Unknown
and times the refusal, which is decided before enumeration.

Protocol (A-M, as the artifact's script, extended): every check is timed alone, after building its
instance — ours ``check_edit(instance, engine)`` (the modules it imports on first use are imported
before timing), which *includes* well-formedness (the prefix condition); the artifact's
``check_admission(state, contract)``, whose contract validation (its prefix condition) runs in the
``Contract`` constructor outside the timed interval. To keep the comparison symmetric without
dropping our checks, ``artifact_validated`` rows time that validation too (``Contract(outcomes)``
and a copy of the state re-run the constructors' checks on the built values, then
``check_admission``); the ratios stay against the artifact's own protocol, the stricter baseline
for us. Each sample is a fresh Python process checking freshly built equal instances (our one
contract cache cleared before each build): ``WARM_CHECKS`` of them, or 3 when the first takes over
``WARM_LIMIT_MS``. ``cold_median_ms`` is the first check — A-M's protocol, which also times
one-time work of a fresh interpreter (first execution of each function); ``second_median_ms`` the
second (this table's former "per-check" figure, still partly cold: CPython 3.11 specializes a
function's bytecode only after it ran several times); ``median_ms`` the median of the checks after
the first ``WARM_UP`` (of checks 2–3 when a process makes only 3), the per-check cost a long-running
runtime pays; each is the median over 5 samples, ``best_ms`` the
least per-process warm median (the figure least disturbed by other processes on a shared machine).
The checkers' samples alternate, so background load hits all alike. ``over_artifact``
(``best_``, ``second_``, ``cold_``) is our figure over the artifact's for the same row (< 1: we are
faster). The caption lists every small row (n ≤ 8, w ≤ 4) and the least lead on the large accepted
ones (shared_accept n ≥ 32, unordered w ≥ 5), computed from the rows. Peak RSS includes the
set-up (listing w! policy words for ``unordered``). Writes paper_figures/tables/edit_timing.{csv,md}, with the
artifact paper_figures/tables/edit_timing_artifact.{csv,md}, and paper_figures/edit_timing.png. Run standalone
(``python experiments/edit_timing.py``) or as ``agentwarrant reproduce edit-timing``.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import importlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import permutations
from pathlib import Path
from typing import Any

from model.base.budget import Budget, Unknown
from model.base.tables import write_table
from model.edits.check.answer import Accepted, Invalid
from model.edits.check.contract import Call, Family, Par, outcomes
from model.edits.check.edit_policy import PolicyAutomaton, from_maximal_words
from model.edits.check.family import pomset_of
from model.edits.check.instance import Instance, make_instance
from model.edits.check.regex import from_regex
from model.shell.api import check_edit

SAMPLES = 5
ARTIFACT_SHARED = (2, 8, 32, 64, 128)
ARTIFACT_UNORDERED = (3, 4, 5, 6)
SHARED_SIZES = (*ARTIFACT_SHARED, 512, 1024)
UNORDERED_SIZES = tuple(range(3, 11))
ENGINES = ("explicit", "symbolic", "artifact", "artifact_validated")
ARTIFACTS = ("artifact", "artifact_validated")
WARM_CHECKS = 30  # checks per sample process when the first takes under WARM_LIMIT_MS (else 3) ...
WARM_LIMIT_MS = 20.0
WARM_UP = 10  # ... of which the first 10 warm up (CPython 3.11 specializes a function after ~8 runs)
PAPER = "0.11–53.47 ms accepted (n = 2–128), 0.11–5.51 ms rejected, 0.33–50.35 ms unordered (w = 3–6)"
ARTIFACT_TIMEOUT = 300
# The explicit engine's former size cap, now a budget: beyond it the row says Unknown and times the refusal.
EXPLICIT_BUDGET = Budget(states=100_000)
# The symbolic engine's (no limit), built once like the explicit one: building a Budget is no part of a check.
NO_BUDGET = Budget()


def _shared(n: int, ordered: bool) -> Instance:
    members = tuple((f"o{i}", pomset_of(("x", f"y{i}"), (("x", f"y{i}"),) if ordered else ()))
                    for i in range(n))
    calls = {"x": "dx", **{f"y{i}": f"dy{i}" for i in range(n)}}
    labels = {"dx": "x", **{f"dy{i}": f"y{i}" for i in range(n)}}
    if ordered:
        words = [["x", f"y{i}"] for i in range(n)]
    else:
        words = [["y0", "x"]] + [["x", f"y{i}"] for i in range(1, n)]
    return make_instance(Family("F", members), calls, labels, (), from_maximal_words(words))


def _unordered(w: int) -> Instance:
    term = Par(tuple(Call(f"c{i}") for i in range(w)))
    if w <= 8:
        policy: PolicyAutomaton = from_maximal_words([[f"l{i}" for i in order] for order in permutations(range(w))])
    else:
        got = from_regex("(" + " | ".join(f"l{i}" for i in range(w)) + ")*")
        assert isinstance(got, PolicyAutomaton)
        policy = got
    return make_instance(term, {f"c{i}": f"d{i}" for i in range(w)}, {f"d{i}": f"l{i}" for i in range(w)}, (),
                         policy)


FAMILIES: dict[str, tuple[Callable[[int], Instance], tuple[int, ...], tuple[int, ...]]] = {
    "shared_accept": (lambda n: _shared(n, True), SHARED_SIZES, ARTIFACT_SHARED),
    "shared_reject": (lambda n: _shared(n, False), SHARED_SIZES, ARTIFACT_SHARED),
    "unordered": (_unordered, UNORDERED_SIZES, ARTIFACT_UNORDERED),
}


def artifact_dir() -> Path | None:
    """The artifact's ``artifact/`` directory from ``AGENTWARRANT_ARTIFACT``, if it holds the checker."""
    d = os.environ.get("AGENTWARRANT_ARTIFACT")
    if not d:
        return None
    p = Path(d)
    return p if (p / "exact_history_realization.py").is_file() else None


def _artifact_sample(family: str, size: int, validated: bool) -> dict[str, object]:
    """One artifact process, built as its own bench script does; timed as it times (``check_admission``
    alone) or, ``validated``, with the contract's and the state's validation too (re-run on the built
    values: ``Contract(outcomes)``, whose constructor checks prefix-freeness, and a copy of the state)."""
    d = artifact_dir()
    assert d is not None
    sys.path.insert(0, str(d))
    bench = importlib.import_module("bench_exact_history_realization")
    checker = importlib.import_module("exact_history_realization")

    def build() -> tuple[object, object]:
        if family == "unordered":
            return bench._unordered(size)  # type: ignore[no-any-return]
        return bench._shared_prefix(size, admitted=family == "shared_accept")  # type: ignore[no-any-return]

    def run(built: tuple[object, object]) -> object:
        state, contract = built
        if validated:
            contract = checker.Contract(contract.outcomes)  # type: ignore[attr-defined]
            state = dataclasses.replace(state)  # type: ignore[type-var]
        return checker.check_admission(state, contract)

    times, result = _checks(build, run)
    return {**_times(times), "verdict": "accepted" if result.admitted else "rejected",
            "candidates": len(result.candidate_completions),
            "rounds": [len(step) for step in result.descending_chain],
            "rss_kb": _peak_rss_kb()}


def _checks(build: Callable[[], Any], run: Callable[[Any], Any]) -> tuple[list[float], Any]:
    """Check freshly built equal instances in this process: ``WARM_CHECKS`` of them when the first
    takes under ``WARM_LIMIT_MS``, else 3. Returns the times (ms) and the last answer."""
    times: list[float] = []
    want = 2
    result = None
    while len(times) < want:
        built = build()
        t0 = time.perf_counter()
        result = run(built)
        times.append((time.perf_counter() - t0) * 1000)
        if len(times) == 1:
            want = WARM_CHECKS if times[0] < WARM_LIMIT_MS else 3
    return times, result


def _times(times: list[float]) -> dict[str, float]:
    """First check, second check, and the median after the warm-up (checks 2.. when there are only 3)."""
    warm = times[WARM_UP:] if len(times) > WARM_UP else times[1:]
    return {"cold_ms": times[0], "second_ms": times[1], "ms": statistics.median(warm)}


def sample(engine: str, family: str, size: int) -> dict[str, object]:
    """One process's measurement: build the instance, then time the check alone, on freshly built
    equal instances (``_checks``); our contract cache is cleared before each build, so nothing
    computed for one check is reused by the next."""
    if engine in ("artifact", "artifact_validated"):
        return _artifact_sample(family, size, engine == "artifact_validated")
    import model.edits.check.checker
    import model.edits.check.load_instance  # noqa: F401 - check_edit imports these on first use: not part of a check

    def build() -> Instance:
        outcomes.cache_clear()
        return FAMILIES[family][0](size)

    times, v = _checks(build, lambda inst: check_edit(
        inst, engine, budget=EXPLICIT_BUDGET if engine == "explicit" else NO_BUDGET))
    assert not isinstance(v, Invalid), v
    if isinstance(v, Unknown):
        return {**_times(times), "verdict": f"unknown ({v.budget})", "candidates": None, "rounds": [],
                "rss_kb": _peak_rss_kb()}
    return {**_times(times), "verdict": "accepted" if isinstance(v, Accepted) else "rejected",
            "candidates": v.counts.candidates, "rounds": list(v.counts.rounds or ()), "rss_kb": _peak_rss_kb()}


def _peak_rss_kb() -> int:
    """This process's peak resident set (VmHWM). ``ru_maxrss`` is not used: on Linux it survives
    fork and exec, so every child would report at least its parent's peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _fresh(engine: str, family: str, size: int) -> dict[str, object]:
    try:
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--sample", engine, family, str(size)],
                             capture_output=True, text=True, check=True,
                             timeout=ARTIFACT_TIMEOUT if engine in ARTIFACTS else None)
    except subprocess.TimeoutExpired:
        return {"ms": None, "cold_ms": None, "second_ms": None, "verdict": f"timeout {ARTIFACT_TIMEOUT}s",
                "candidates": None,
                "rounds": [], "rss_kb": None}
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _engines_for(family: str, size: int) -> list[str]:
    own = FAMILIES[family][2]
    return [e for e in ENGINES if e not in ARTIFACTS or (size in own and artifact_dir() is not None)]


#: the 1-minute load average before each measured point: other work on the machine slows every checker's
#: samples alike (they alternate), but the caption says how busy the machine was
LOADS: list[float] = []


def measure(tick: Callable[[int, int], None], samples: int = SAMPLES) -> list[dict[str, object]]:
    """Samples of the checkers alternate, so background load hits all alike (fairer ratios)."""
    points = [(f, n) for f, (_, sizes, _) in FAMILIES.items() for n in sizes]
    rows: list[dict[str, object]] = []
    for k, (family, size) in enumerate(points):
        LOADS.append(os.getloadavg()[0])
        engines = _engines_for(family, size)
        runs: dict[str, list[dict[str, object]]] = {e: [] for e in engines}
        for _ in range(samples):
            for engine in engines:
                if runs[engine] and runs[engine][-1]["ms"] is None:
                    continue  # a timed-out artifact sample is not repeated
                runs[engine].append(_fresh(engine, family, size))
        for engine in ENGINES:
            rs = runs.get(engine)
            if not rs:
                why = "beyond its caps" if size not in FAMILIES[family][2] else "not available"
                rows.append({"engine": engine, "family": family, "size": size, "verdict": why, "candidates": None,
                             "rounds": "", **{c: None for c in TIMES}, "peak_rss_kb": None})
                continue

            def med(key: str, rs: list[dict[str, object]] = rs) -> float | None:
                got = [float(str(r[key])) for r in rs if r[key] is not None]
                return round(statistics.median(got), 3) if got else None

            warm = [float(str(r["ms"])) for r in rs if r["ms"] is not None]
            rows.append({
                "engine": engine, "family": family, "size": size,
                "verdict": rs[0]["verdict"], "candidates": rs[0]["candidates"],
                "rounds": " ".join(str(x) for x in rs[0]["rounds"]),  # type: ignore[attr-defined]
                "median_ms": med("ms"), "best_ms": round(min(warm), 3) if warm else None,
                "second_median_ms": med("second_ms"), "cold_median_ms": med("cold_ms"),
                "peak_rss_kb": max((int(str(r["rss_kb"])) for r in rs if r["rss_kb"] is not None), default=None),
            })
        tick(k + 1, len(points))
    return rows


def _ratio(rows: list[dict[str, object]], row: dict[str, object], col: str = "median_ms",
           base: str = "artifact") -> str:
    """Our figure over the artifact's (by default its own protocol) for the same family and size."""
    if row["engine"] in ARTIFACTS or row[col] is None:
        return ""
    (art,) = [r for r in rows if r["engine"] == base and r["family"] == row["family"]
              and r["size"] == row["size"]]
    if art[col] is None:
        return ""
    return f"{float(str(row[col])) / float(str(art[col])):.3f}"


def is_small(family: str, size: int) -> bool:
    """The small rows: n ≤ 8 outcomes (shared families), w ≤ 4 calls (unordered)."""
    return size <= (4 if family == "unordered" else 8)


def is_large_accepted(family: str, size: int) -> bool:
    """Accepted rows beyond the small ones: shared_accept n ≥ 32, unordered w ≥ 5."""
    return family != "shared_reject" and not is_small(family, size)


def summary(rows: list[dict[str, object]], engine: str = "symbolic") -> str:
    """The comparison with the published artifact, read off the rows for each timing column: the ratio on
    every small row (listed) and the least lead on the large accepted rows."""
    parts = []
    for col, what, base in (("median_ms", "warm median", "artifact"), ("best_ms", "least warm", "artifact"),
                            ("second_median_ms", "second check", "artifact"),
                            ("median_ms", "warm median against artifact_validated (symmetric)",
                             "artifact_validated")):
        small = [(r, _ratio(rows, r, col, base)) for r in rows if r["engine"] == engine
                 and is_small(str(r["family"]), int(str(r["size"])))]
        listed = ", ".join(f"{r['family']} {r['size']}: {x or 'n/a'}" for r, x in small)
        large = [float(x) for r in rows if r["engine"] == engine
                 and is_large_accepted(str(r["family"]), int(str(r["size"]))) and (x := _ratio(rows, r, col, base))]
        lead = f"; least lead on large accepted rows {1 / max(large):.1f}x" if large else ""
        parts.append(f"{what}: {listed}{lead}")
    return f"The {engine} engine over the artifact — " + " | ".join(parts) + "."


TIMES = ("median_ms", "best_ms", "second_median_ms", "cold_median_ms")


OURS = ("explicit", "symbolic")
COLS = ["engine", "family", "size", "verdict", "candidates", "rounds", *TIMES, "peak_rss_kb"]
RATIOS = ["over_artifact", "best_over_artifact", "second_over_artifact", "cold_over_artifact"]
PROVENANCE = ["measured_utc", "artifact_commit"]
SAMPLING = " ".join([
    f"Each sample is a fresh process checking freshly built equal instances ({WARM_CHECKS} checks, or 3 when the",
    f"first takes over {WARM_LIMIT_MS:g} ms); {SAMPLES} samples per row. median_ms: median over samples of each",
    f"process's median of checks {WARM_UP + 1}.. (2.. with 3 checks; warm: the per-check cost of a long-running",
    "runtime); best_ms: the least of those; second_median_ms: the second check (still partly cold: Python 3.11",
    "specializes code only after several runs); cold_median_ms: the first check (A-M's protocol); peak RSS =",
    "largest VmHWM, set-up included. Unknown: the explicit engine's budget of 100,000 linearizations ran out",
    "(the time is that of the refusal, not of a check)."])


def artifact_commit() -> str:
    """The artifact checkout's commit (``git rev-parse HEAD``), else ``AGENTWARRANT_ARTIFACT_COMMIT``."""
    d = artifact_dir()
    if d is not None:
        try:
            out = subprocess.run(["git", "-C", str(d), "rev-parse", "HEAD"], capture_output=True, text=True,
                                 check=True, timeout=30)
            return out.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return os.environ.get("AGENTWARRANT_ARTIFACT_COMMIT", "unrecorded")


def write(rows: list[dict[str, object]], out_dir: Path) -> list[Path]:
    ours = [r for r in rows if r["engine"] in OURS]
    body = [[("" if r[c] is None else r[c]) for c in COLS] for r in ours]
    caption = " ".join([
        "Exact edit checking by engine on the published artifact's families (shared_accept, shared_reject:",
        "n outcomes; unordered: w calls), our two engines at every size.", SAMPLING,
        "The comparison with the artifact's own checker is edit_timing_artifact.md."])
    paths = write_table(out_dir, "edit_timing", COLS, body, caption)
    measured = any(r["engine"] in ARTIFACTS and r["median_ms"] is not None for r in rows)
    if measured:
        paths += write_comparison(rows, out_dir)
    else:
        kept = read_comparison(out_dir)
        when = f"measured {kept[0]['measured_utc']}" if kept else "never measured here"
        print(f"edit-timing: the artifact comparison (tables/edit_timing_artifact.md, {when}) is kept as it is;"
              " set AGENTWARRANT_ARTIFACT to re-measure it", file=sys.stderr)
    return [*paths, _figure(ours, read_comparison(out_dir), out_dir)]


def write_comparison(rows: list[dict[str, object]], out_dir: Path) -> list[Path]:
    """The same-run comparison on the artifact's sizes: all four engines, ratios, date and commit."""
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    commit = artifact_commit()
    mine = [r for r in rows if int(str(r["size"])) in FAMILIES[str(r["family"])][2]]
    body = [[("" if r[c] is None else r[c]) for c in COLS]
            + [_ratio(rows, r), _ratio(rows, r, "best_ms"), _ratio(rows, r, "second_median_ms"),
               _ratio(rows, r, "cold_median_ms"), when, commit] for r in mine]
    caption = " ".join([
        "Exact edit checking against the published artifact's checker (check_admission in",
        "artifact/exact_history_realization.py of eunomia-bpf/agent-check-restore-safety, commit",
        f"{commit}), in one run ({when} UTC, Python {sys.version.split()[0]}, {os.cpu_count()} cores, 1-minute",
        f"load average {min(LOADS, default=0):.1f}–{max(LOADS, default=0):.1f}) on the artifact's own families,",
        "the checkers' samples alternating.", SAMPLING,
        "*_over_artifact = ours / the artifact's own protocol (check_admission alone). Ours includes",
        "well-formedness (the prefix condition among it); the artifact validates its contract (prefix-freeness)",
        "and state in their constructors, outside check_admission: the artifact_validated rows time that",
        "validation too (Contract(outcomes), a copy of the state, then check_admission), the symmetric",
        "comparison; ratios stay against the unvalidated artifact. Small rows: n ≤ 8, w ≤ 4.",
        summary(rows), f"Paper's published medians (A-M, 16-vCPU EPYC): {PAPER}."])
    return write_table(out_dir, "edit_timing_artifact", [*COLS, *RATIOS, *PROVENANCE], body, caption)


def read_comparison(out_dir: Path) -> list[dict[str, str]]:
    """The committed comparison's rows (empty when there is none)."""
    path = out_dir / "tables" / "edit_timing_artifact.csv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _figure(ours: list[dict[str, object]], comparison: list[dict[str, str]], out_dir: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 4.3))
    when = comparison[0]["measured_utc"][:10] if comparison else ""
    for ax, family in zip(axes, FAMILIES, strict=True):
        for engine, style in (("explicit", "o-"), ("symbolic", "s-")):
            timed = [r for r in ours if r["engine"] == engine and r["family"] == family and r["median_ms"] is not None
                     and not str(r["verdict"]).startswith("unknown")]
            ax.plot([int(str(r["size"])) for r in timed], [float(str(r["median_ms"])) for r in timed], style,
                    label=engine)
            # an Unknown is not a check time: marked on the top edge, off the time axis
            unknown = [int(str(r["size"])) for r in ours
                       if r["engine"] == engine and r["family"] == family and str(r["verdict"]).startswith("unknown")]
            if unknown:
                ax.plot(unknown, [1.0] * len(unknown), "X", color="tab:red", markersize=9, clip_on=False,
                        transform=ax.get_xaxis_transform(), label=f"{engine}: Unknown (budget)")
        art = [r for r in comparison if r["engine"] == "artifact" and r["family"] == family and r["median_ms"]]
        if art:
            ax.plot([int(r["size"]) for r in art], [float(r["median_ms"]) for r in art], "^--",
                    label=f"artifact (measured {when})")
        ax.set_yscale("log")
        if family != "unordered":
            ax.set_xscale("log", base=2)
        ax.set_title(family)
        ax.set_xlabel("w (unordered calls)" if family == "unordered" else "n (outcomes)")
        ax.set_ylabel("median ms per check (log)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "edit_timing.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    return write(measure(tick), out_dir)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sample", nargs=3, metavar=("ENGINE", "FAMILY", "SIZE"), help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "paper_figures")
    args = ap.parse_args()
    if args.sample:
        engine, family, size = args.sample
        print(json.dumps(sample(engine, family, int(size))))
        return
    for p in reproduce(args.out, lambda done, total: print(f"\r{done}/{total}", end="", file=sys.stderr)):
        print(f"\nwrote {p}")


if __name__ == "__main__":
    main()
