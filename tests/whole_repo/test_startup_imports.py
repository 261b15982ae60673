"""``agentwarrant``'s start-up loads none of the heavy libraries: importing ``model.shell.cli`` (what every command,
``--help`` included, does first) must not import the solver, Dask or the plotting library. They are imported
by the code that uses them, when it runs. Checked on ``sys.modules`` in a fresh interpreter, not by timing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("z3", "dask", "distributed", "matplotlib")


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _heavy(mods: set[str]) -> set[str]:
    return {m for m in mods if m.split(".")[0] in HEAVY}


def test_importing_the_cli_imports_no_heavy_library() -> None:
    mods = _loaded_after("import model.shell.cli")
    assert "model.shell.cli" in mods  # the probe did import it
    assert not _heavy(mods), sorted(_heavy(mods))


def test_a_probe_that_imports_one_is_caught() -> None:
    # the check can fail: the same probe sees z3 once something imports it
    assert "z3" in _heavy(_loaded_after("import model.shell.cli\nimport z3"))
