"""What a differential test of the compiled search compares: per model of ``corpus/search``, at a bound,
the fingerprint and the exact search without sleep sets and the fingerprint search with them, each as
states, transitions, depth, verdicts (with their shortest traces) and completions — everything a run
answers but its timings; for a system model (``kind`` set: the generic engine) its exact and fingerprint
runs' states, transitions, depth and verdicts with their traces.

``python -m model.search.native.differential BOUND [--no-exact]`` prints them as JSON lines, with the status of
the compiled modules first, so two processes (compiled and interpreted) can be compared; ``--no-exact``
leaves out the exact mode (its store is not among the compiled modules; the fingerprint runs cover the
compiled loop)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from model.base.jsonio import load_file
from model.search.explicit import explore
from model.search.fingerprint import explore_fingerprint
from model.search.layered import ExplicitRun
from model.search.load import load_model
from model.search.manifest import run_system
from model.search.native import status


def answers(run: ExplicitRun) -> str:
    return repr((run.states, run.transitions, run.depth, run.verdicts, run.completions, run.unknown))


def main(argv: list[str]) -> int:
    bound = int(argv[0])
    exact = "--no-exact" not in argv
    corpus = Path(__file__).resolve().parents[3] / "corpus" / "search"
    st = status()
    print(json.dumps({"active": st.active, "compiled": list(st.compiled), "reason": st.reason}))
    for path in sorted(corpus.glob("*.json")):
        if path.name == "manifest.json":
            continue
        doc = load_file(str(path))
        if isinstance(doc, dict) and "kind" in doc:
            k = min(bound, int(doc.get("bound", bound)))
            runs = {mode: run_system(path, k, mode) for mode in ("exact", "fingerprint") if exact or mode != "exact"}
            print(json.dumps({"model": path.name, "bound": k, **{
                mode: repr((r.states, r.transitions, r.depth, r.verdicts)) for mode, r in runs.items()}}), flush=True)
            continue
        m = load_model(str(path), None)
        k = min(bound, m.bound)
        print(json.dumps({"model": path.name, "bound": k,
                          "fingerprint": answers(explore_fingerprint(m, k, reduction=False)),
                          "reduced": answers(explore_fingerprint(m, k, reduction=True)),
                          **({"exact": answers(explore(m, k, reduction=False))} if exact else {})}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
