"""DRT cases per CPU second per judgment: before (hypothesis's generate phase, the oracle process) and
after (the direct sampler, model/oracle/direct.py, and the oracle in this process).

``agentwarrant drt`` draws cases with the direct sampler and asks every judgment of the in-process
library where ``make lean`` built it (model/oracle/inproc.py), else of the oracle executable. This runs
the seeded campaign of each judgment (model/oracle/drt.py ``campaign``: case generation, the Python
model, the oracle, the comparison) three ways, back to back in one process: hypothesis engine with
the oracle process, hypothesis engine in-process, direct engine in-process; and reports cases per CPU
second: this process's CPU plus, for the executable, the oracle process's (read from /proc in clock
ticks). CPU, not wall time, so the figure holds on a loaded machine. The two engines draw different
cases from the same strategies (``compared`` counts the comparisons: monitor_step and monitor compare
every step of a run, and the direct sampler's runs are longer on average); the last column is the CPU
time 10^5 cases of the judgment take at the direct rate (what sizes CI's campaign, Makefile DRT_CASES).

Needs ``make lean``. Writes tables/drt_rate.{csv,md}.
Run: ``python experiments/drt_rate.py [OUT_DIR] [CASES]`` (default 200 cases per judgment and way).
Not registered with ``make reproduce``, which must run without a Lean toolchain.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from model.oracle import generators
from model.oracle.drt import campaign
from model.oracle.inproc import InProcOracle, Oracle
from model.oracle.lean import JUDGMENTS, LeanOracle

ROOT = Path(__file__).resolve().parent.parent


def _child_cpu(oracle: Oracle) -> float:
    proc = getattr(oracle, "_proc", None)
    if proc is None:
        return 0.0
    with open(f"/proc/{proc.pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rate(judgment: str, oracle: Oracle, cases: int, strategies: object, scratch: Path,
         engine: str) -> tuple[float, int]:
    c0, k0 = time.process_time(), _child_cpu(oracle)
    s = campaign(judgment, cases, oracle, strategies, seed=0, vectors=scratch, engine=engine)
    cpu = time.process_time() - c0 + _child_cpu(oracle) - k0
    assert not s.mismatches, f"{judgment}: {len(s.mismatches)} mismatches"
    return s.cases / cpu, s.compared


def main(out_dir: Path, cases: int = 200) -> list[Path]:
    import tempfile

    from model.base.tables import write_table

    strategies = generators
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as tmp, LeanOracle() as proc:
        inproc = InProcOracle()
        for j in JUDGMENTS:
            before, n = rate(j, proc, cases, strategies, Path(tmp), "hypothesis")
            mid, m = rate(j, inproc, cases, strategies, Path(tmp), "hypothesis")
            assert n == m  # (the same seeded cases on both routes)
            after, k = rate(j, inproc, cases, strategies, Path(tmp), "direct")
            rows.append([j, cases, n, k, f"{before:.1f}", f"{mid:.1f}", f"{after:.1f}", f"{after / before:.1f}",
                         f"{1e5 / after:.0f}"])
            print(*rows[-1], sep="\t", flush=True)
    header = ["judgment", "cases", "compared_hypothesis", "compared_direct", "cases_per_cpu_s_hypothesis_subprocess",
              "cases_per_cpu_s_hypothesis_inproc", "cases_per_cpu_s_direct_inproc", "speedup",
              "cpu_s_per_1e5_cases_direct"]
    caption = (f"DRT cases per CPU second per judgment ({cases} seeded cases, seed 0, each way; CPU of this process "
               "plus the oracle process's): before (hypothesis engine, oracle process), hypothesis engine in-process, "
               "after (direct sampler, in-process); speedup is after over before. Regenerate: python "
               "experiments/drt_rate.py")
    return write_table(out_dir, "drt_rate", header, rows, caption)


if __name__ == "__main__":
    for p in main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "paper_figures",
                  int(sys.argv[2]) if len(sys.argv) > 2 else 200):
        print(f"wrote {p}")
