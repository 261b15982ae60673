"""Mediated-call cost of the two enforcement backends (Agenra Sections 2.1 and 3: "on both backends").

The report task's four calls (Read, Sanitize, Lookup, Send) through one Adapter per backend, its state
reset to the initial one before each workflow: ``python`` (the session path), ``python (reference)``
(frozen states, the path the Lean backend replaces decide/commit/observe on) and ``lean`` (every
decision and next state from the Lean core over one long-lived oracle process). Wall-clock time per
call (the Lean backend's work happens in another process, which CPU time of this one would miss),
median of REPEATS x ROUNDS workflows, backends interleaved in one process; the ratios are against
``python (reference)`` measured in the same run.

Needs a built oracle (``make lean``). Writes tables/lean_backend_overhead.{csv,md}.
Run: ``python experiments/lean_backend_overhead.py [OUT_DIR]``. Not registered with ``make reproduce``,
which must run without a Lean toolchain.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from model.monitor.adapter.handles import Handle
from model.monitor.adapter.shell import Adapter, CoreFactory
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.counters import zeros
from model.monitor.decide.state import State
from model.monitor.language.syntax import load_policy
from model.oracle.backend import LeanCore

ROOT = Path(__file__).resolve().parent.parent
ROUNDS, REPEATS, CALLS = 20, 7, 4


def _policy():  # type: ignore[no-untyped-def]
    p = load_policy(str(ROOT / "corpus" / "policies" / "report.policy"))
    return replace(p, user=tuple(replace(e, quota=None) for e in p.user),
                   application=tuple(replace(e, quota=None) for e in p.application))


def workflow(backend: str | CoreFactory, reference: bool = False) -> tuple[Callable[[], None], Adapter]:
    policy = _policy()
    ad = Adapter(policy, ReportWorld().tools(), "assistant", backend=backend, reference=reference)
    fresh = State(used_user=zeros(len(policy.user)), used_app=zeros(len(policy.application)))

    def run() -> None:
        ad.state = fresh
        r = ad.call("Read")
        s = ad.call("Sanitize", record=r)
        a = ad.call("Lookup", name="Alice")
        assert isinstance(s, Handle) and isinstance(a, Handle)
        assert isinstance(ad.call("Send", body=s, recipient=a.at("destination")), Handle)
    return run, ad


def main(out_dir: Path) -> list[Path]:
    from model.base.tables import write_table

    runs = {"python": workflow("python"), "python (reference)": workflow("python", reference=True),
            "lean": workflow(LeanCore)}
    samples: dict[str, list[float]] = {k: [] for k in runs}
    for fn, _ in runs.values():
        fn()  # warm up (the Lean process starts on the first call)
    for _ in range(REPEATS):
        for name, (fn, _) in runs.items():
            t0 = time.perf_counter()
            for _ in range(ROUNDS):
                fn()
            samples[name].append((time.perf_counter() - t0) / (ROUNDS * CALLS) * 1e6)
    for _, ad in runs.values():
        ad.close()
    us = {k: statistics.median(v) for k, v in samples.items()}
    base = us["python (reference)"]
    rows = [[k, f"{v:.1f}", f"{v / base:.1f}"] for k, v in us.items()]
    caption = (f"Mediated-call wall time of the report task's four calls per backend (median of {REPEATS} x "
               f"{ROUNDS} workflows, interleaved, one process). "
               "Regenerate: python experiments/lean_backend_overhead.py")
    header = ["backend", "us_per_call_wall", "ratio_vs_python_reference"]
    return write_table(out_dir, "lean_backend_overhead", header, rows, caption)


if __name__ == "__main__":
    for p in main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "paper_figures"):
        print(f"wrote {p}")
        if p.suffix == ".md":
            print(p.read_text(encoding="utf-8"))
