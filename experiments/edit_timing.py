"""Timing of the exact edit checker (execution-edit-checking.md, Sections V-C5, VIII and A-M).

Three families, as in the paper's artifact evaluation, and past its sizes:

- ``shared_accept(n)``: ``x ▷ (y_0 ⊕ … ⊕ y_{n-1})`` — n outcomes, outcome i is x before y_i; the
  policy allows ``x·y_i``. Accepted with n completions. n ∈ {2, 8, 32, 64, 128, 512, 1024}.
- ``shared_reject(n)``: ``x ⊗ (y_0 ⊕ … ⊕ y_{n-1})`` — the same calls with no order between x and
  y_i; the policy allows ``y_0·x`` and ``x·y_i`` (i ≥ 1). Rejected in two rounds. Same n.
- ``unordered(w)``: one outcome of w unordered calls on distinct actions, policy ``(l_1|…|l_w)*``
  (every order). Accepted with w! completions. w ∈ {3, …, 10}.

Protocol (A-M): every sample runs ``check(instance, engine)`` (well-formedness, the engine, the
canonical automaton or the proof, the digest) in a *fresh* Python process, the two engines'
samples alternating; the figure is the median of 5 samples; the peak RSS is the largest
``VmHWM`` of those processes (it includes the interpreter and imports, ~20 MB). The explicit
engine stops at its documented cap of 100,000 linearizations
(``model.edits.explicit.MAX_LINEARIZATIONS``), counted before enumeration, and fails closed with
``InvalidInput``; such rows say ``size cap`` and time the refusal.

The paper's medians (CPython 3.12, 16-vCPU EPYC) are the baseline: 0.11–53.47 ms accepted at
n = 2–128, 0.11–5.51 ms rejected, 0.33–50.35 ms for w = 3–6. Writes
paper_figures/tables/edit_timing.{csv,md} and paper_figures/edit_timing.png. Run standalone
(``python experiments/edit_timing.py``) or as ``agentwarrant reproduce edit-timing``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from model.api import check_edit
from model.edits.contract import Call, Choice, Par, Seq, Term
from model.edits.instance import Instance, make_instance
from model.edits.policy import PolicyAutomaton, from_maximal_words
from model.edits.regex import from_regex
from model.edits.verdict import Accepted, Invalid, Rejected
from model.errors import InvalidInput
from model.tables import write_table

SAMPLES = 5
SHARED_SIZES = (2, 8, 32, 64, 128, 512, 1024)
UNORDERED_SIZES = tuple(range(3, 11))
ENGINES = ("explicit", "symbolic")
PAPER = "0.11–53.47 ms accepted (n = 2–128), 0.11–5.51 ms rejected, 0.33–50.35 ms unordered (w = 3–6)"


def _shared(n: int, ordered: bool) -> Instance:
    arms = tuple((f"o{i}", Call(f"y{i}")) for i in range(n))
    term: Term = Seq((Call("x"), Choice("g", arms))) if ordered else Par((Call("x"), Choice("g", arms)))
    calls = {"x": "dx", **{f"y{i}": f"dy{i}" for i in range(n)}}
    labels = {"dx": "x", **{f"dy{i}": f"y{i}" for i in range(n)}}
    if ordered:
        words = [["x", f"y{i}"] for i in range(n)]
    else:
        words = [["y0", "x"]] + [["x", f"y{i}"] for i in range(1, n)]
    return make_instance(term, calls, labels, (), from_maximal_words(words))


def _unordered(w: int) -> Instance:
    term = Par(tuple(Call(f"c{i}") for i in range(w)))
    policy = from_regex("(" + " | ".join(f"l{i}" for i in range(w)) + ")*")
    assert isinstance(policy, PolicyAutomaton)
    return make_instance(term, {f"c{i}": f"d{i}" for i in range(w)}, {f"d{i}": f"l{i}" for i in range(w)}, (),
                         policy)


FAMILIES: dict[str, tuple[Callable[[int], Instance], tuple[int, ...]]] = {
    "shared_accept": (lambda n: _shared(n, True), SHARED_SIZES),
    "shared_reject": (lambda n: _shared(n, False), SHARED_SIZES),
    "unordered": (_unordered, UNORDERED_SIZES),
}


def sample(engine: str, family: str, size: int) -> dict[str, object]:
    """One measurement in this process: build the instance, then time ``check`` alone."""
    inst = FAMILIES[family][0](size)
    t0 = time.perf_counter()
    try:
        v = check_edit(inst, engine)
        verdict = {Accepted: "accepted", Rejected: "rejected", Invalid: "invalid"}[type(v)]
        candidates: int | None = None if isinstance(v, Invalid) else v.counts.candidates
    except InvalidInput:
        verdict, candidates = "size cap", None
    ms = (time.perf_counter() - t0) * 1000
    return {"ms": ms, "verdict": verdict, "candidates": candidates, "rss_kb": _peak_rss_kb()}


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
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--sample", engine, family, str(size)],
                         capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def measure(tick: Callable[[int, int], None], samples: int = SAMPLES) -> list[dict[str, object]]:
    """Samples of the two engines alternate, so background load hits both alike (fairer ratios)."""
    points = [(f, n) for f, (_, sizes) in FAMILIES.items() for n in sizes]
    rows = []
    for k, (family, size) in enumerate(points):
        runs: dict[str, list[dict[str, object]]] = {e: [] for e in ENGINES}
        for _ in range(samples):
            for engine in ENGINES:
                runs[engine].append(_fresh(engine, family, size))
        for engine in ENGINES:
            rs = runs[engine]
            rows.append({
                "engine": engine, "family": family, "size": size,
                "verdict": rs[0]["verdict"], "candidates": rs[0]["candidates"],
                "median_ms": round(statistics.median(float(str(r["ms"])) for r in rs), 3),
                "peak_rss_kb": max(int(str(r["rss_kb"])) for r in rs),
            })
        tick(k + 1, len(points))
    return rows


def _ratio(rows: list[dict[str, object]], row: dict[str, object]) -> str:
    """symbolic median / explicit median for the same family and size, on the symbolic row."""
    if row["engine"] != "symbolic":
        return ""
    (ex,) = [r for r in rows if r["engine"] == "explicit" and r["family"] == row["family"]
             and r["size"] == row["size"]]
    if ex["verdict"] == "size cap":
        return "explicit: size cap"
    return f"{float(str(row['median_ms'])) / float(str(ex['median_ms'])):.3f}"


def write(rows: list[dict[str, object]], out_dir: Path) -> list[Path]:
    cols = ["engine", "family", "size", "verdict", "candidates", "median_ms", "peak_rss_kb"]
    body = [[("" if r[c] is None else r[c]) for c in cols] + [_ratio(rows, r)] for r in rows]
    caption = ("Exact edit checking: median ms per check (fresh process per sample, median of 5; peak RSS = "
               f"largest VmHWM). Paper baseline (A-M, CPython 3.12, 16-vCPU EPYC): {PAPER}.")
    paths = write_table(out_dir, "edit_timing", [*cols, "symbolic_over_explicit"], body, caption)
    return [*paths, _figure(rows, out_dir)]


def _figure(rows: list[dict[str, object]], out_dir: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for ax, family in zip(axes, FAMILIES, strict=True):
        for engine, style in (("explicit", "o-"), ("symbolic", "s-")):
            pts = [(int(str(r["size"])), float(str(r["median_ms"]))) for r in rows
                   if r["engine"] == engine and r["family"] == family and r["verdict"] != "size cap"]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=engine)
        ax.set_yscale("log")
        if family != "unordered":
            ax.set_xscale("log", base=2)
        ax.set_title(family)
        ax.set_xlabel("w (unordered calls)" if family == "unordered" else "n (outcomes)")
        ax.set_ylabel("median ms per check (log)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
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
