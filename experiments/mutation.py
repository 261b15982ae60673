"""Mutation testing of the eight judgment modules: killed/total per module.

``make mutation`` runs mutmut 3 (configured in ``[tool.mutmut]`` of pyproject.toml: the eight
modules and the unit and property tests that exercise them) and then this script, which reads
mutmut's results from ``mutants/<path>.meta`` and writes ``paper_figures/tables/mutation.{csv,md}``.

Each mutant is one of: killed (a test failed), timeout (the tests ran past mutmut's CPU limit:
the mutant changed behaviour, counted with the kills as mutmut's own score does), survived,
equivalent (a survivor listed in ``experiments/mutation_equivalent.json`` with an argument why no
test can tell it from the original), or no tests (no selected test reaches the mutated function;
counted against the score like a survivor), or not run (an interrupted run: counted in ``not_run`` and
left out of the score, which then covers only the mutants run; ``--min-score`` fails on any).

Equivalent mutants are matched by content, not by mutmut's numbering (which shifts whenever a
function gains or loses a mutation point): an entry names the module, the function and the exact
removed and added lines of the mutant's diff. An entry that matches no survivor is stale and is
reported, so the list cannot silently excuse a mutant that a later edit turned into a real one.
Score = (killed + timeout) / (mutants - equivalent - not_run).

A partial run (``mutmut run`` naming some modules' mutants) leaves the other modules wholly not run.
``--earlier CSV`` then keeps those modules' rows from an earlier table of this script (by module path),
only when that row counts the same number of mutants as mutmut generates now (else the mutation points
moved and the row no longer describes the code); the caption names the rows kept, and their equivalent
entries are not reported stale, since their survivors were not re-run.

Not registered with ``make reproduce``: a full run takes tens of minutes of CPU, so it runs only
through ``make mutation`` (or ``python experiments/mutation.py [OUT_DIR]`` after ``mutmut run``).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = ROOT / "experiments" / "mutation_equivalent.json"
# The modules mutated, read from mutmut's own configuration so that a module moved or added is named in
# one place only.
MODULES: tuple[str, ...] = tuple(
    tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]["only_mutate"])
HEADER = ["module", "mutants", "killed", "timeout", "survived", "no_tests", "equivalent", "not_run", "score"]

# mutmut's exit-code classification (mutmut/stats.py), folded into the table's columns.
_KILLED = {1, 3}
_TIMEOUT = {36, 24, -24, 152, 255}
_SURVIVED = {0}
_NO_TESTS = {5, 33}


@dataclass(frozen=True, slots=True)
class Equivalent:
    module: str
    function: str
    removed: tuple[str, ...]
    added: tuple[str, ...]
    why: str


@dataclass(frozen=True, slots=True)
class Row:
    module: str
    mutants: int
    killed: int
    timeout: int
    survived: int
    no_tests: int
    equivalent: int
    not_run: int = 0

    @property
    def score(self) -> float:
        """Over the mutants mutmut has run; a row with ``not_run > 0`` is an interrupted run."""
        denominator = self.mutants - self.equivalent - self.not_run
        return 1.0 if denominator == 0 else (self.killed + self.timeout) / denominator

    def cells(self) -> list[object]:
        return [self.module, self.mutants, self.killed, self.timeout, self.survived, self.no_tests,
                self.equivalent, self.not_run,
                "not run" if self.not_run == self.mutants - self.equivalent else f"{100 * self.score:.1f}%"]


def function_of(mutant: str) -> str:
    """``model.monitor.decide.ledger.x_allocate__mutmut_6`` -> ``allocate``; methods keep ``Class.method``."""
    mangled = mutant.rpartition(".")[2].rpartition("__mutmut_")[0]
    if mangled.startswith("x_"):
        return mangled[2:]
    parts = mangled.split("ǁ")  # mutmut's class separator: xǁClassǁmethod
    return f"{parts[1]}.{parts[2]}" if len(parts) == 3 else mangled


def changed_lines(diff: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The stripped removed and added lines of a unified diff (headers excluded)."""
    lines = [ln for ln in diff.splitlines() if not ln.startswith(("---", "+++", "@@"))]
    return (tuple(ln[1:].strip() for ln in lines if ln.startswith("-")),
            tuple(ln[1:].strip() for ln in lines if ln.startswith("+")))


def load_equivalents(path: Path = EQUIVALENT_FILE) -> list[Equivalent]:
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
    out = []
    for i, e in enumerate(data):
        missing = {"module", "function", "removed", "added", "why"} - set(e)
        if missing:
            raise SystemExit(f"{path}: entry {i}: missing {', '.join(sorted(missing))}")
        out.append(Equivalent(e["module"], e["function"], tuple(e["removed"]), tuple(e["added"]), e["why"]))
    return out


def load_results(root: Path, modules: Iterable[str]) -> dict[str, dict[str, int | None]]:
    """mutmut's verdicts per module: mutant name -> exit code (None: not run yet)."""
    out: dict[str, dict[str, int | None]] = {}
    for module in modules:
        meta = root / "mutants" / f"{module}.meta"
        if not meta.is_file():
            raise SystemExit(f"{meta}: no mutmut results (run `make mutation` or `mutmut run` first)")
        out[module] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    return out


def tabulate(results: dict[str, dict[str, int | None]], equivalents: list[Equivalent],
             diff_of: Callable[[str, str], str]) -> tuple[list[Row], list[str], list[Equivalent]]:
    """Rows per module, the unexplained survivors (and mutants without tests), and stale equivalents."""
    rows: list[Row] = []
    unexplained: list[str] = []
    used: set[int] = set()
    for module, verdicts in results.items():
        counts: Counter[str] = Counter()
        for mutant, code in sorted(verdicts.items()):
            if code is None:
                counts["not_run"] += 1
            elif code in _KILLED:
                counts["killed"] += 1
            elif code in _TIMEOUT:
                counts["timeout"] += 1
            elif code in _SURVIVED:
                removed, added = changed_lines(diff_of(mutant, module))
                match = next((i for i, e in enumerate(equivalents) if e.module == module
                              and e.function == function_of(mutant) and e.removed == removed
                              and e.added == added), None)
                if match is None:
                    counts["survived"] += 1
                    unexplained.append(mutant)
                else:
                    counts["equivalent"] += 1
                    used.add(match)
            elif code in _NO_TESTS:
                counts["no_tests"] += 1
                unexplained.append(mutant)
            else:
                raise SystemExit(f"{module}: mutant {mutant} ended with exit code {code} (suspicious or crashed);"
                                 " re-run it with `mutmut run NAME`")
        rows.append(Row(module, len(verdicts), counts["killed"], counts["timeout"], counts["survived"],
                        counts["no_tests"], counts["equivalent"], counts["not_run"]))
    stale = [e for i, e in enumerate(equivalents) if i not in used]
    return rows, unexplained, stale


def keep_earlier(rows: list[Row], earlier: Path) -> tuple[list[Row], list[str]]:
    """Rows this run left wholly unrun replaced by the earlier table's row for the same module and mutant
    count; returns the rows and the modules kept. A wholly unrun module without such a row stays not run."""
    with earlier.open(encoding="utf-8", newline="") as fh:
        old = {r["module"]: r for r in csv.DictReader(fh)}
    out, kept = [], []
    for r in rows:
        e = old.get(r.module)
        if r.not_run == r.mutants and e is not None and int(e["mutants"]) == r.mutants and int(e["not_run"]) == 0:
            out.append(Row(r.module, r.mutants, *(int(e[f]) for f in ("killed", "timeout", "survived", "no_tests",
                                                                       "equivalent"))))
            kept.append(r.module)
        else:
            out.append(r)
    return out, kept


def total(rows: list[Row]) -> Row:
    return Row("total", *(sum(getattr(r, f) for r in rows)
                          for f in ("mutants", "killed", "timeout", "survived", "no_tests", "equivalent", "not_run")))


def mutmut_diff(mutant: str, module: str) -> str:
    from mutmut.mutation.diff_apply import get_diff_for_mutant  # the `mutation` extra

    return get_diff_for_mutant(mutant, path=module)


def name_module(mutant: str) -> str:
    """``model.monitor.decide.ledger.x_allocate__mutmut_6`` -> ``model/monitor/decide/ledger.py``."""
    return mutant.rpartition(".")[0].replace(".", "/") + ".py"


def run(out_dir: Path, note: str = "", earlier: Path | None = None) -> tuple[list[Path], list[Row], list[Equivalent]]:
    """Tabulate mutmut's results into ``out_dir/tables``; print what is not killed to stderr."""
    from model.base.tables import write_table

    os.chdir(ROOT)  # mutmut reads mutants/ relative to the working directory
    rows, unexplained, stale = tabulate(load_results(ROOT, MODULES), load_equivalents(), mutmut_diff)
    if earlier is not None:
        rows, kept = keep_earlier(rows, earlier)
        stale = [e for e in stale if e.module not in kept]
        if kept:
            note = (f"Not re-run in this run, kept from the earlier table (same mutant counts): "
                    f"{', '.join(kept)}. {note}").strip()
    for name in unexplained:
        print(f"not killed: {name}\n{mutmut_diff(name, name_module(name))}\n", file=sys.stderr)
    for e in stale:
        print(f"stale equivalent entry (matches no survivor): {e.module} {e.function} {e.removed} -> {e.added}",
              file=sys.stderr)
    paths = write_table(out_dir, "mutation", HEADER, [r.cells() for r in [*rows, total(rows)]],
                        "Mutation testing (mutmut 3) of the eight judgment modules: killed/total per module;"
                        " equivalent mutants are argued in experiments/mutation_equivalent.json;"
                        " score = (killed + timeout) / (mutants - equivalent - not_run)."
                        + (f" {note}" if note else ""))
    return paths, rows, stale


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    paths, _, _ = run(out_dir)
    tick(1, 1)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Tabulate mutmut's results per module.")
    ap.add_argument("out_dir", nargs="?", type=Path, default=ROOT / "paper_figures")
    ap.add_argument("--min-score", type=float, default=None,
                    help="exit 1 if a module scores below this fraction (e.g. 0.95) or an equivalent entry is stale")
    ap.add_argument("--note", default="", help="appended to the caption (e.g. which modules a partial run left out)")
    ap.add_argument("--earlier", type=Path, default=None,
                    help="an earlier mutation.csv whose rows stand for the modules this (partial) run did not run")
    args = ap.parse_args(argv)
    earlier = None if args.earlier is None else args.earlier.resolve()
    paths, rows, stale = run(args.out_dir.resolve(), args.note, earlier)
    for p in paths:
        print(f"wrote {p}")
    if args.min_score is None:
        return 0
    low = [r for r in rows if r.score < args.min_score or r.not_run]
    for r in low:
        print(f"{r.module}: score {r.score:.3f} (floor {args.min_score}), {r.not_run} mutants not run", file=sys.stderr)
    return 1 if low or stale else 0


if __name__ == "__main__":
    sys.exit(main())
