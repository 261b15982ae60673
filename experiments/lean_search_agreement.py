"""The explicit search over the Lean semantics against the Python engine (Agenra Section 3, "on both
backends"; ``agentwarrant search --backend lean``).

For every monitor model of corpus/search/manifest.json's ``small`` tier (each distinct model, policy and
bound; the generic system models have their own engine and no Lean semantics), the explicit engine runs
twice in this process: with the Python monitor's transitions, and with the Lean core's (decision and
step, model/oracle/lean_step.py, in-process where ``make lean`` built the library).
Compared: states, transitions, depth, every query's verdict (with its trace) and every goal's
completions. Timed in CPU seconds of this process (the in-process route does all its work here);
the ratio is Lean over Python, run back to back.

Needs ``make lean``. Writes tables/lean_search_agreement.{csv,md}.
Run: ``python experiments/lean_search_agreement.py [OUT_DIR] [--tier small|large]``. Not registered with
``make reproduce``, which must run without a Lean toolchain.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from model.oracle.lean_step import LeanSemantics
from model.search.explicit import explore
from model.search.layered import ExplicitRun
from model.search.load import load_model

ROOT = Path(__file__).resolve().parent.parent
SEARCH = ROOT / "corpus" / "search"


def cases(tier: str = "small") -> list[tuple[str, str, int]]:
    """(model, policy, bound) of the manifest's monitor models in ``tier``, each once, in manifest order."""
    rows = json.loads((SEARCH / "manifest.json").read_text(encoding="utf-8"))["rows"]
    out: list[tuple[str, str, int]] = []
    for r in rows:
        key = (r["model"], r.get("policy"), r["bound"])
        if r["tier"] == tier and key[1] is not None and key not in out:
            out.append(key)
    return out


def differences(py: ExplicitRun, lean: ExplicitRun) -> list[str]:
    pairs = (("states", py.states, lean.states), ("transitions", py.transitions, lean.transitions),
             ("depth", py.depth, lean.depth), ("verdicts", py.verdicts, lean.verdicts),
             ("completions", py.completions, lean.completions))
    return [name for name, a, b in pairs if a != b]


def compare(model_file: str, policy: str, bound: int) -> tuple[ExplicitRun, ExplicitRun, float, float]:
    model = load_model(SEARCH / model_file, str(SEARCH / policy))
    c0 = time.process_time()
    py = explore(model, bound)
    c1 = time.process_time()
    semantics = LeanSemantics(model.policy)
    try:
        lean = explore(model, bound, semantics=semantics)
    finally:
        semantics.close()
    c2 = time.process_time()
    return py, lean, c1 - c0, c2 - c1


def main(out_dir: Path, tier: str = "small") -> list[Path]:
    from model.base.tables import write_table

    rows: list[list[object]] = []
    for model_file, policy, bound in cases(tier):
        py, lean, t_py, t_lean = compare(model_file, policy, bound)
        diff = differences(py, lean)
        rows.append([model_file, Path(policy).name, bound, py.states, lean.states, py.transitions, lean.transitions,
                     "same" if not diff else "differ: " + ", ".join(diff), f"{t_py:.2f}", f"{t_lean:.2f}",
                     f"{t_lean / t_py:.1f}" if t_py > 0 else "-"])
        print(*rows[-1], sep="\t", flush=True)
    header = ["model", "policy", "bound", "states_python", "states_lean", "transitions_python", "transitions_lean",
              "verdicts_and_completions", "cpu_s_python", "cpu_s_lean", "ratio"]
    caption = (f"The explicit search with the Lean core's transitions against the Python engine, corpus/search "
               f"manifest tier {tier} (monitor models), CPU seconds of one process. "
               f"Regenerate: python experiments/lean_search_agreement.py --tier {tier}")
    return write_table(out_dir, "lean_search_agreement", header, rows, caption)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--tier")]
    tier = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--tier=")), "small")
    for p in main(Path(args[0]) if args else ROOT / "paper_figures", tier):
        print(f"wrote {p}")
