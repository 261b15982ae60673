"""Bounded weak-bisimulation check between the ideal atomic machine and the durable edit runtime
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendices A-H and A-L).

Registration: the laptop session's call model (corpus/edits/sessions/laptop.json) with a
``restore-replace`` rule added, so all six edit forms and a registered extension are available.
Sessions (``model.edits.ideal.bisim``): every session of at most ``--depth`` actions after each of
three prefixes (none; reserve then checkpoint; reserve, checkpoint, ForkChoice), exhaustively over
the menu of actions enabled at each ideal state, then ``--random`` sessions of ``--length``
actions drawn with seed ``--seed`` (at most three edits each). Each session runs on a fresh SQLite
store against the correct runtime and each deliberately broken variant; a row counts the sessions,
the observations compared, and the sessions whose observations differ.

Writes paper_figures/tables/edits_bisim.csv and .md. Run:
``nice -n 10 python experiments/edits_bisim.py`` (defaults: depth 2, 100 random sessions of length 8,
seed 2026) or ``agentwarrant reproduce edits-bisim`` (on demand, not in ``reproduce all``).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from model.edits.ideal.bisim import (  # noqa: E402
    PREFIXES,
    Broken,
    bisim_registration,
    key_of,
    random_session,
    run_session,
    sessions,
)

Tick = Callable[[int, int], None]


def measure(depth: int, n_random: int, length: int, seed_value: int, tick: Tick) -> list[dict[str, object]]:
    reg, seed = bisim_registration(json.loads((ROOT / "corpus/edits/sessions/laptop.json").read_text()))
    key = key_of(seed)
    exhaustive = list(sessions(reg, key, PREFIXES, depth))
    rng = random.Random(seed_value)
    drawn = [random_session(reg, key, length, rng) for _ in range(n_random)]
    rows: list[dict[str, object]] = []
    total = 4 * (len(exhaustive) + len(drawn))
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=base) as d:
        for variant in [None, *Broken]:
            start = time.perf_counter()
            counts = {"exhaustive": [0, 0], "random": [0, 0]}
            example = ""
            for part, batch in (("exhaustive", exhaustive), ("random", drawn)):
                for n, sess in enumerate(batch):
                    o = run_session(sess, reg, seed, Path(d), len(rows) * 10**6 + n + (part == "random") * 10**5,
                                    variant)
                    counts[part][0] += o.observations
                    if o.difference is not None:
                        counts[part][1] += 1
                        example = example or o.difference
                    tick(len(rows) * (len(exhaustive) + len(drawn)) + n + (part == "random") * len(exhaustive), total)
            rows.append({"runtime": "correct" if variant is None else variant.value,
                         "exhaustive_sessions": len(exhaustive), "depth_after_prefix": depth,
                         "random_sessions": len(drawn), "random_length": length, "seed": seed_value,
                         "observations_compared": counts["exhaustive"][0] + counts["random"][0],
                         "differing_exhaustive": counts["exhaustive"][1], "differing_random": counts["random"][1],
                         "seconds": round(time.perf_counter() - start, 1), "first_difference": example})
    return rows


def write(rows: list[dict[str, object]], out_dir: Path) -> list[Path]:
    tables = out_dir / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = tables / ("edits_bisim" + ".csv"), tables / ("edits_bisim" + ".md")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    cols = list(rows[0])
    md = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    md += ["| " + " | ".join(str(r[c]).replace("|", "/") for c in cols) + " |" for r in rows]
    md_path.write_text("\n".join(md) + "\n")
    return [csv_path, md_path]


def reproduce(out_dir: Path, tick: Tick) -> list[Path]:
    """The table "edits_bisim" at the defaults below (on demand: about a quarter of an hour on a busy machine)."""
    return write(measure(2, 100, 8, 2026, tick), out_dir)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--random", type=int, default=100)
    ap.add_argument("--length", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=ROOT / "paper_figures")
    args = ap.parse_args()
    rows = measure(args.depth, args.random, args.length, args.seed,
                   lambda done, total: print(f"\r{done}/{total}", end="", file=sys.stderr))
    for p in write(rows, args.out):
        print(f"\nwrote {p}")


if __name__ == "__main__":
    main()
