"""The Lean boundary under faults: every entry point that asks the Lean oracle, against every fake oracle.

Writes paper_figures/tables/lean_faults.csv and lean_faults.md: one row per fault (model/oracle/fake_oracles.py:
an oracle that never answers, exits, writes what is not JSON, echoes its request, answers an output of
no judgment's shape, floods stderr with 1 MiB, writes an endless line, is not executable, is missing) and entry point:

- ``monitor run --backend lean --json`` on corpus/traces/report_delivery.json (a process of its own),
- ``drt --no-build --cases 3`` (a process of its own; every judgment, the first exchange fails),
- ``Adapter(backend=partial(LeanCore, ...))`` in this process: the trace's first call,

with the answer (the exit code, or the exception the library raised), the seconds from start to answer
(for a command, the whole process: interpreter start included), the lines it wrote to stderr, the Allow
decisions it reported, and the start of its message. Every entry point gets the per-answer timeout
``TIMEOUT`` (``--oracle-timeout``, ``LeanCore(timeout=...)``), so a hang answers after it.
The bounded search (``agentwarrant search``) does not ask the oracle, so it has no row.
tests/slow/test_lean_faults_table.py runs this with a shorter timeout and asserts every cell is unknown.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from model.base.tables import write_table
from model.oracle.fake_oracles import FAKES, write_fake

ROOT = Path(__file__).resolve().parent.parent
POLICY = ROOT / "corpus" / "policies" / "report.policy"
TRACE = ROOT / "corpus" / "traces" / "report_delivery.json"
TIMEOUT = 2.0
ENTRIES = ("monitor run", "drt", "Adapter")
HEADER = ["fault", "entry point", "answer", "seconds", "oracle timeout (s)", "stderr lines", "allows", "message"]


def _command(args: list[str], oracle: Path, timeout: float) -> dict[str, Any]:
    env = dict(os.environ, AGENTWARRANT_ORACLE=str(oracle), AGENTWARRANT_PLAIN="1")
    start = time.perf_counter()
    # the outer limit only keeps a regression from hanging the experiment; a row past it says so
    try:
        proc = subprocess.run([sys.executable, "-m", "model.shell.cli", *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=timeout + 120, check=False)
    except subprocess.TimeoutExpired:
        return {"answer": "hang", "seconds": time.perf_counter() - start, "stderr": 0, "allows": 0,
                "message": "no answer within the oracle timeout + 120 s"}
    seconds = time.perf_counter() - start
    lines = proc.stderr.splitlines()
    return {"answer": f"exit {proc.returncode}", "seconds": seconds, "stderr": len(lines),
            "allows": proc.stdout.count('"decision":"allow"'), "message": lines[0] if lines else ""}


def _monitor_run(oracle: Path, timeout: float) -> dict[str, Any]:
    return _command(["monitor", "run", str(POLICY), str(TRACE), "--backend", "lean", "--json",
                     "--oracle-timeout", f"{timeout:g}"], oracle, timeout)


def _drt(oracle: Path, timeout: float) -> dict[str, Any]:
    return _command(["drt", "--no-build", "--cases", "3", "--seed", "0", "--oracle-timeout", f"{timeout:g}"],
                    oracle, timeout)


def _adapter(oracle: Path, timeout: float) -> dict[str, Any]:
    from functools import partial

    from model.monitor.adapter.shell import Adapter
    from model.monitor.adapter.toolkit import ReportWorld
    from model.monitor.decide.base import Decision
    from model.monitor.language.syntax import load_policy
    from model.oracle.backend import LeanBackendError, LeanCore

    policy = load_policy(str(POLICY))
    saved = os.environ.get("AGENTWARRANT_ORACLE")
    os.environ["AGENTWARRANT_ORACLE"] = str(oracle)
    start = time.perf_counter()
    allows = 0
    adapter: Adapter | None = None
    try:
        adapter = Adapter(policy, ReportWorld().tools(), "assistant", backend=partial(LeanCore, timeout=timeout))
        result = adapter.call("Read")
        answer, message = "a decision", repr(result)
    except LeanBackendError as exc:
        answer, message = type(exc).__name__, str(exc)
    finally:
        seconds = time.perf_counter() - start
        if adapter is not None:
            allows = sum(e.verdict.decision is Decision.ALLOW for e in adapter.log)
            adapter.close()
        if saved is None:
            del os.environ["AGENTWARRANT_ORACLE"]
        else:
            os.environ["AGENTWARRANT_ORACLE"] = saved
    return {"answer": answer, "seconds": seconds, "stderr": 0, "allows": allows, "message": message}


RUNNERS: dict[str, Callable[[Path, float], dict[str, Any]]] = {
    "monitor run": _monitor_run, "drt": _drt, "Adapter": _adapter}


def fault_rows(timeout: float = TIMEOUT, tick: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """One measured row per fault and entry point."""
    rows: list[dict[str, Any]] = []
    total = len(FAKES) * len(ENTRIES)
    with tempfile.TemporaryDirectory() as tmp:
        for fault in FAKES:
            oracle = write_fake(fault, Path(tmp))
            for entry in ENTRIES:
                row = RUNNERS[entry](oracle, timeout)
                row["message"] = row["message"].replace(tmp, "TMP")  # (a fresh folder each run)
                rows.append({"fault": fault, "entry point": entry, "timeout": timeout, **row})
                if tick is not None:
                    tick(len(rows), total)
    return rows


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    rows = fault_rows(TIMEOUT, tick)
    body = [[r["fault"], r["entry point"], r["answer"], f"{r['seconds']:.2f}", f"{r['timeout']:g}", r["stderr"],
             r["allows"], json.dumps(r["message"][:160])[1:-1]] for r in rows]
    return write_table(out_dir, "lean_faults", HEADER, body,
                       "The Lean boundary under faults: each fake oracle (model/oracle/fake_oracles.py) at each entry "
                       f"point that asks it, with a {TIMEOUT:g} s per-answer timeout; seconds from start to answer "
                       "(a command's include its interpreter's start). Every answer must be unknown (exit 3 with one "
                       "stderr line, or LeanBackendError from the library) with no Allow. Regenerate: agentwarrant "
                       "reproduce lean-faults")


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "paper_figures"
    for p in reproduce(out, lambda done, total: None):
        print(f"wrote {p}")
