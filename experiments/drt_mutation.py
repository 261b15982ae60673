"""Mutation check of the DRT harness: break one Python judgment in a copy of the
checkout and show that a campaign against the Lean oracle finds a mismatch within 1,000 cases.

For each mutant: copy the checkout to a temporary folder (without .git, .venv and lean/build),
run the campaign there on the unmutated copy (the control: 0 mismatches expected), apply the
mutation (a literal source replacement that must apply exactly once), and run the same seeded
campaign again. Both runs happen in a fresh Python process whose ``model`` package is the copy's
(checked), against the oracle built from the *unmodified* lean/ (``AGENTWARRANT_ORACLE``).

Mutants (each on the code path the judgment's Python side runs):
- ``ledger-scan-reversed``: first-fit scans the grant list from the end (model/monitor/decide/ledger.py);
- ``resolve-never-reuse``: Resolve annotates every call ``new`` (model/edits/check/resolve.py);
and, against the whole-monitor judgment ``monitor``:
- ``matching-keys-ignored``: an entry's argument-key allowlist is not checked;
- ``matching-eq-negated``: an equality predicate holds exactly when the values differ;
- ``slot-never-binds``: a successful lookup leaves an unbound slot unbound;
- ``origin-preserving-ignored``: any single-parent step preserves an origin, listed or not;
- ``history-session-as-lineage``: a session-scoped history rule looks at the lineage only;
- ``permit-check-skipped``: a grant that requires an exact-call permit is used without one;
- ``permit-reused``: a consumed permit is accepted again;
- ``result-failed-is-handle``: a failed result becomes a usable handle and is read by resolvers;
- ``request-sink-label-all-inputs``: a request-sink argument is labelled from all of the call's handles
  instead of its own (model/monitor/decide/flow.py);
and, against ``edit_check`` (whose cases include ill-formed instances of every Invalid reason class):
- ``wellformed-empty-choice-missed``: a choice or family without arms (or repeating an arm name) is
  not refused, so the check goes on to a later class or a verdict (model/edits/check/instance_wellformed.py);
- ``wellformed-policy-before-repeats``: ``lab(Δ) ∈ 𝒜`` is asked before the log is checked for a
  repeated action, so a log with both faults answers the later class;
- ``symbolic-prefix-count-marked-only``: the symbolic engine's ``|W†|``, when no candidate is removed,
  counts only the paths ending in a complete execution (model/edits/check/symbolic_engine.py), which the
  DRT's ``prefixes`` mode (W† and its count, against Lean's) finds.

The control (the unmutated copy) runs once per judgment. A campaign stops at its first mismatch.

Needs a built oracle (``make lean``). Writes tables/drt_mutation.csv and .md: per mutant and run,
cases run, mismatches, the case number of the first mismatch and the disagreeing modes.
Run: ``python experiments/drt_mutation.py [OUT_DIR]``. Not registered with ``make reproduce``,
which must run without a Lean toolchain.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = 1000
SEED = 8


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    old: str
    new: str
    judgment: str


_REPEATS = """        rep = _repeated(list(inst.log))
        if rep:
            return InvalidReason.LOG_REPEATS_ACTION, f"action {rep[0]} has two authorization records"
"""
_OUTSIDE = """        if inst.policy.run(labels[d] for d in inst.log) is None:
            return InvalidReason.LOG_OUTSIDE_POLICY, (f"lab(Δ) = {' '.join(inst.log_labels()) or 'ε'} "
                                                      "is not in the policy")
"""

MUTANTS = (
    Mutant("ledger-scan-reversed", "model/monitor/decide/ledger.py", "for k, entry in enumerate(entries):",
           "for k, entry in reversed(list(enumerate(entries))):", "ledger_allocate"),
    Mutant("resolve-never-reuse", "model/edits/check/resolve.py", "        if d in done:\n",
           "        if d in done and False:\n", "resolve"),
    Mutant("matching-keys-ignored", "model/monitor/decide/compiled.py",
           "        if self.keys is not None and not self.keys.issuperset(args):\n            return False",
           "        if False:\n            return False", "monitor"),
    Mutant("matching-eq-negated", "model/monitor/decide/compiled.py",
           "        if self.kind == 0:\n            return json_equal(v, self.value)",
           "        if self.kind == 0:\n            return not json_equal(v, self.value)", "monitor"),
    Mutant("slot-never-binds", "model/monitor/decide/commit.py",
           "        return tuple(sorted((*bindings_in, (slot, value, d)))), invalid_in",
           "        return bindings_in, invalid_in", "monitor"),
    Mutant("origin-preserving-ignored", "model/monitor/decide/origins.py",
           "        if not any(_named(rec, op) for op in rule.preserving) or len(rec.parents) != 1:",
           "        if len(rec.parents) != 1:", "monitor"),
    Mutant("history-session-as-lineage", "model/monitor/decide/flow.py",
           "scope = lineage(state, proposed.parents) if rule.scope is HistoryScope.LINEAGE else state.trace",
           "scope = lineage(state, proposed.parents)", "monitor"),
    Mutant("permit-check-skipped", "model/monitor/decide/compiled_decide.py", "    if paused or (c.permits and (any(",
           "    if paused or (False and (any(", "monitor"),
    Mutant("permit-reused", "model/monitor/decide/verdict.py", "    unused = [p for p in exact if not p.consumed]",
           "    unused = exact", "monitor"),
    Mutant("result-failed-is-handle", "model/monitor/decide/commit.py",
           "    if not outcome.ok or not 0 <= d < len(trace):", "    if not 0 <= d < len(trace):", "monitor"),
    Mutant("request-sink-label-all-inputs", "model/monitor/decide/flow.py",
           "state.trace[d].label for n, d in call.refs if n == name)", "state.trace[d].label for n, d in call.refs)",
           "monitor"),
    Mutant("wellformed-empty-choice-missed", "model/edits/check/instance_wellformed.py",
           "        if empty:\n            return _EMPTY", "        if empty and False:\n            return _EMPTY",
           "edit_check"),
    Mutant("wellformed-policy-before-repeats", "model/edits/check/instance_wellformed.py",
           _REPEATS + _OUTSIDE, _OUTSIDE + _REPEATS, "edit_check"),
    Mutant("symbolic-prefix-count-marked-only", "model/edits/check/symbolic_engine.py",
           "            n_w0 += p\n            d = done[i]\n",
           "            d = done[i]\n            n_w0 += p if d else 0\n", "edit_check"),
)

_RUN = """
import json, sys, time
from pathlib import Path
import model
from model.oracle import generators
from model.oracle.drt import campaign, report
from model.oracle.lean import LeanOracle
judgment, cases, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
state = {"done": 0, "first": None, "modes": [], "report": "", "vectors": []}
class Found(Exception):
    pass
def tick(done, total):
    state["done"] = done
def hit(m):
    if state["first"] is None:
        state["first"] = state["done"] + 1
        state["modes"] = list(m.modes)
        state["report"] = report(m)
        raise Found()  # the first mismatch settles the question; the rest of the campaign is not needed
start = time.perf_counter()
with LeanOracle() as o:
    try:
        s = campaign(judgment, cases, o, generators, seed, tick, hit)
        done, found = s.cases, len(s.mismatches)
    except BaseException:  # Found, possibly wrapped by hypothesis (it replays the failing case)
        if state["first"] is None:
            raise
        done, found = state["first"], 1
print(json.dumps({"model": model.__file__, "cases": done, "mismatches": found,
                  "first": state["first"], "modes": state["modes"], "seconds": time.perf_counter() - start,
                  "vectors": [], "report": state["report"]}))
"""


def _copy(dst: Path) -> None:
    ignore = shutil.ignore_patterns(".git", ".venv", ".lean", "build", ".hypothesis", "__pycache__", ".mypy_cache",
                                    ".pytest_cache", ".ruff_cache", "paper_figures", "*.sqlite*")
    shutil.copytree(ROOT, dst, ignore=ignore)


def _campaign(copy: Path, judgment: str, oracle: Path) -> dict[str, object]:
    env = {**os.environ, "AGENTWARRANT_ORACLE": str(oracle), "PYTHONPATH": str(copy)}
    proc = subprocess.run([sys.executable, "-c", _RUN, judgment, str(CASES), str(SEED)], cwd=copy, env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"campaign failed in {copy}:\n{proc.stderr[-3000:]}")
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    if not str(result["model"]).startswith(str(copy)):
        raise RuntimeError(f"the campaign imported {result['model']}, not the copy in {copy}")
    return result


def run_mutant(m: Mutant, oracle: Path, keep: Path | None = None,
               control: dict[str, object] | None = None) -> tuple[dict[str, object], dict[str, object]]:
    """Control and mutated campaign results (``control``, when given, is reused: it does not depend on
    the mutant); ``keep`` receives the mutated run's saved vectors."""
    with tempfile.TemporaryDirectory(prefix="drt-mutant-") as tmp:
        copy = Path(tmp) / "repo"
        _copy(copy)
        if control is None:
            control = _campaign(copy, m.judgment, oracle)
        src = copy / m.path
        text = src.read_text(encoding="utf-8")
        if text.count(m.old) != 1:
            raise RuntimeError(f"mutant {m.name}: the source to replace occurs {text.count(m.old)} times in {m.path}")
        src.write_text(text.replace(m.old, m.new), encoding="utf-8")
        mutated = _campaign(copy, m.judgment, oracle)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for v in sorted({str(v) for v in mutated["vectors"]}):  # type: ignore[attr-defined]
                shutil.copy(v, keep / Path(v).name)
    return control, mutated


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    from model.base.tables import write_table
    from model.oracle.toolchain import oracle_path

    oracle = oracle_path()
    if not oracle.is_file():
        raise RuntimeError(f"no oracle executable at {oracle}: run `make lean` first")
    rows = []
    controls: dict[str, dict[str, object]] = {}
    for i, m in enumerate(MUTANTS):
        tick(i, len(MUTANTS))
        fresh = m.judgment not in controls
        control, mutated = run_mutant(m, oracle, control=controls.get(m.judgment))
        controls[m.judgment] = control
        for run, r in ((("control", control),) if fresh else ()) + (("mutated", mutated),):
            name = m.name if run == "mutated" else "(none)"
            rows.append([name, m.judgment, run, r["cases"], r["mismatches"], r["first"] or "",
                         " ".join(map(str, r["modes"])), f"{r['seconds']:.1f}"])  # type: ignore[index]
        if mutated["report"]:
            print(f"first mismatch of {m.name} (case {mutated['first']}):\n{mutated['report']}\n")
    tick(len(MUTANTS), len(MUTANTS))
    header = ["mutant", "judgment", "run", "cases", "mismatches", "first_mismatch_case", "modes", "seconds"]
    return write_table(out_dir, "drt_mutation", header, rows,
                       f"DRT mutation check: seeded campaign (seed {SEED}) of {CASES} cases, before and after "
                       "breaking one Python judgment in a copy of the checkout.")


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "paper_figures"
    for p in reproduce(out, lambda done, total: None):
        print(f"wrote {p}")
        if p.suffix == ".md":
            print(p.read_text())
