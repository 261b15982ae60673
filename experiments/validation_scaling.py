"""How ``monitor check`` scales with the size of a policy (validation must be near-linear in its input).

Two families of generated inputs, both on the report policy of Agenra §3 (corpus/policies/report.policy):

- ``rules``: the user list replaced by N permission entries (N = 10^2 … 10^5) of five shapes in turn —
  a constant resource, the ``@target`` slot with ``keys``, a ``like`` glob, a ``where`` range and an
  explicit deny — in the text form and in the JSON form;
- ``string``: one entry whose constant resource is a string literal of S characters (S = 10^4 … 10^7).

Each input is written to a file and checked the way the CLI does it (``agentwarrant monitor check``
through click's test runner: read, parse, validate, print the summary), best of ``REPEATS`` runs.
The table gives seconds, the cost per unit (µs per rule, ns per character), the ratio to the
previous size and the local slope ``log(t2/t1) / log(n2/n1)`` (1 = linear, 2 = quadratic); the
figure plots time against size on log-log axes with the linear reference. All ratios are taken
within one process run, so the machine's speed cancels out. Not run by tests: ``make bench``.
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from model.base.tables import write_table
from model.monitor.language.policy_json import policy_json_text
from model.monitor.language.syntax import parse_policy
from model.shell.cli import main

REPEATS = 2
RULES = (100, 1_000, 10_000, 100_000)
STRINGS = (10_000, 100_000, 1_000_000, 10_000_000)
ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "corpus" / "policies" / "report.policy").read_text(encoding="utf-8")

_SHAPES = (
    'allow message.send("r{i}@example.org") quota {q}',
    "allow message.send(@target) keys {{body, recipient}} quota {q}",
    'allow record.release(like "sum-{i}-*") quota unlimited',
    "allow directory.lookup(*) where amount in {i}..{j} quota {q}",
    'deny inbox.read("box-{i}")',
)


def rules_policy(n: int) -> str:
    entries = "\n".join("  " + _SHAPES[i % len(_SHAPES)].format(i=i, j=i + 10, q=i % 7 + 1) for i in range(n))
    head, _, rest = BASE.partition("user {")
    return head + "user {\n" + entries + "\n}" + rest.partition("\n}")[2]


def string_policy(size: int) -> str:
    return BASE.replace("user {", 'user {\n  allow message.send("' + "x" * size + '") quota 1', 1)


def _check(path: Path) -> float:
    best = math.inf
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = CliRunner().invoke(main, ["monitor", "check", str(path)])
        elapsed = time.perf_counter() - start
        if result.exit_code != 0:
            raise RuntimeError(f"monitor check {path.name} failed: {result.output[-400:]}")
        best = min(best, elapsed)
    return best


def _input(series: str, size: int) -> tuple[str, str]:
    if series == "rules (text)":
        return "p.policy", rules_policy(size)
    if series == "rules (JSON)":
        return "p.json", policy_json_text(parse_policy(rules_policy(size)))
    return "p.policy", string_policy(size)


def measure(tick: Callable[[int, int], None]) -> list[tuple[str, int, float]]:
    """(series, size, seconds) for every input of every series."""
    jobs = [(series, n) for series in ("rules (text)", "rules (JSON)") for n in RULES]
    jobs += [("string (text)", s) for s in STRINGS]
    out: list[tuple[str, int, float]] = []
    with tempfile.TemporaryDirectory() as d:
        for k, (series, size) in enumerate(jobs):
            name, text = _input(series, size)
            path = Path(d) / name
            path.write_text(text, encoding="utf-8")
            out.append((series, size, _check(path)))
            path.unlink()
            tick(k + 1, len(jobs))
    return out


def table_rows(results: list[tuple[str, int, float]]) -> list[list[object]]:
    rows: list[list[object]] = []
    prev: dict[str, tuple[int, float]] = {}
    for series, size, t in results:
        unit = f"{t / size * 1e6:.1f} µs/rule" if series.startswith("rules") else f"{t / size * 1e9:.1f} ns/char"
        ratio = slope = "-"
        if series in prev:
            n0, t0 = prev[series]
            ratio = f"{t / t0:.1f}"
            slope = f"{math.log(t / t0) / math.log(size / n0):.2f}"
        prev[series] = (size, t)
        rows.append([series, f"{size:,}", f"{t:.3f}", unit, ratio, slope])
    return rows


def figure(results: list[tuple[str, int, float]], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for series in dict.fromkeys(r[0] for r in results):
        pts = [(n, t) for s, n, t in results if s == series]
        ax.loglog([n for n, _ in pts], [t for _, t in pts], marker="o", label=series)
        n0, t0 = pts[0]
        ax.loglog([n0, pts[-1][0]], [t0, t0 * pts[-1][0] / n0], linestyle=":", color="grey", linewidth=0.8)
    ax.set_xlabel("size (permission entries, or characters of one string)")
    ax.set_ylabel(f"monitor check, seconds (best of {REPEATS})")
    ax.set_title("Validation scaling (dotted: linear from the smallest size)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    results = measure(tick)
    caption = ("`monitor check` time against input size (generated from corpus/policies/report.policy); "
               "slope = log(t2/t1)/log(n2/n1) between consecutive sizes (1 linear, 2 quadratic). "
               f"Python {sys.version.split()[0]}; best of {REPEATS} runs.")
    paths = write_table(out_dir, "validation_scaling", ["series", "size", "seconds", "per unit", "ratio", "slope"],
                        table_rows(results), caption)
    return [*paths, figure(results, out_dir / "validation_scaling.png")]


if __name__ == "__main__":
    for p in reproduce(ROOT / "paper_figures", lambda done, total: print(f"{done}/{total}", file=sys.stderr)):
        print(p)
