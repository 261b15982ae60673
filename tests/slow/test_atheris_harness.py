"""The atheris harness (tests/fuzz/atheris_boundary.py) runs libFuzzer's coverage-guided mutations of the
corpus seeds through the text and JSON policy parsers and the edit-instance loader without a crash.
Skipped, with the reason, where atheris does not install (it is the optional ``fuzz`` extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
atheris = pytest.importorskip("atheris", reason="atheris is not installed (pip install -e '.[fuzz]')")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("target", ["policy_text", "policy_json", "edit_instance", "records"])
def test_libfuzzer_finds_no_crash(target: str, tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "tests.fuzz.atheris_boundary", target, "-runs=3000", "-seed=7",
                          f"-artifact_prefix={tmp_path}/"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    crashes = list(tmp_path.glob("crash-*"))
    assert run.returncode == 0 and not crashes, (run.stderr[-3000:], [c.read_bytes()[:200] for c in crashes])
    assert "Done 3000 runs" in run.stderr
