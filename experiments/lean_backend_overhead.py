"""Mediated-call cost of the two enforcement backends (Agenra Sections 2.1 and 3: "on both backends").

The report task's four calls (Read, Sanitize, Lookup, Send) through one Adapter per backend, its state
reset to the initial one before each workflow: ``python`` (the session path), ``python (reference)``
(frozen states, the path the Lean backend replaces decide/commit/observe on), ``lean (in-process)``
(every decision and next state from the Lean core linked into this process, the state kept in Lean)
and ``lean (subprocess)`` (the same Lean functions over one long-lived oracle process, the policy and
the whole state sent with every call); and ``cedar``: cedarpy's ``is_authorized`` on the equivalent
stateless requests plus the same tools (experiments/monitor_overhead.py's workflow, Cedar at its best).

CPU time per call, median of REPEATS x ROUNDS workflows, all rows interleaved in one process. For
``lean (subprocess)`` the CPU is this process's plus the oracle process's (read from /proc, in clock
ticks, so that row is coarser); wall time is reported beside it for every row. Ratios are against
``python`` measured in the same run. Target: ``lean (in-process)`` at most 50 µs CPU per call, below
``cedar``.

Needs a built oracle and library (``make lean``); without the library the in-process row is left out
and says so. Writes tables/lean_backend_overhead.{csv,md}.
Run: ``python experiments/lean_backend_overhead.py [OUT_DIR]``. Not registered with ``make reproduce``,
which must run without a Lean toolchain.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from model.monitor.adapter.handles import Handle
from model.monitor.adapter.shell import Adapter, CoreFactory
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.counters import zeros
from model.monitor.decide.state import State
from model.monitor.language.syntax import load_policy
from model.oracle.backend import open_core

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


def _cedar() -> Callable[[], None]:
    spec = importlib.util.spec_from_file_location("experiments_monitor_overhead", ROOT / "experiments" /
                                                  "monitor_overhead.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    run: Callable[[], None] = mod.make_cedar()
    return run


def _child_cpu(ad: Adapter) -> float:
    """CPU seconds the Adapter's oracle process has used (0 for a core in this process)."""
    proc = getattr(getattr(ad._core, "_oracle", None), "_proc", None)
    if proc is None:
        return 0.0
    with open(f"/proc/{proc.pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(out_dir: Path) -> list[Path]:
    from model.base.tables import write_table
    from model.oracle.inproc import available

    runs: dict[str, tuple[Callable[[], None], Adapter | None]] = {
        "python": workflow("python"), "python (reference)": workflow("python", reference=True)}
    note = ""
    if available():
        runs["lean (in-process)"] = workflow(partial(open_core, route="inproc"))
    else:
        note = " No in-process library was built, so that row is missing."
    runs["lean (subprocess)"] = workflow(partial(open_core, route="subprocess"))
    runs["cedar"] = (_cedar(), None)
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    wall: dict[str, list[float]] = {k: [] for k in runs}
    for fn, _ in runs.values():
        fn()  # warm up (the Lean process starts on the first call)
    for _ in range(REPEATS):
        for name, (fn, ad) in runs.items():
            c0, k0, t0 = time.process_time(), _child_cpu(ad) if ad else 0.0, time.perf_counter()
            for _ in range(ROUNDS):
                fn()
            t1, c1, k1 = time.perf_counter(), time.process_time(), _child_cpu(ad) if ad else 0.0
            cpu[name].append((c1 - c0 + k1 - k0) / (ROUNDS * CALLS) * 1e6)
            wall[name].append((t1 - t0) / (ROUNDS * CALLS) * 1e6)
    for _, ad in runs.values():
        if ad is not None:
            ad.close()
    us = {k: statistics.median(v) for k, v in cpu.items()}
    base = us["python"]
    rows = [[k, f"{v:.1f}", f"{statistics.median(wall[k]):.1f}", f"{v / base:.1f}"] for k, v in us.items()]
    caption = (f"Mediated-call CPU time of the report task's four calls per backend (median of {REPEATS} x "
               f"{ROUNDS} workflows, interleaved, one process; the subprocess row adds the oracle process's CPU, "
               f"read in clock ticks; wall time beside).{note} "
               "Regenerate: python experiments/lean_backend_overhead.py")
    header = ["backend", "us_per_call_cpu", "us_per_call_wall", "ratio_vs_python"]
    return write_table(out_dir, "lean_backend_overhead", header, rows, caption)


if __name__ == "__main__":
    for p in main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "paper_figures"):
        print(f"wrote {p}")
        if p.suffix == ".md":
            print(p.read_text(encoding="utf-8"))
