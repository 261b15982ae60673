"""``agentwarrant search --backend lean``: the explicit engine over the Lean core's transitions finds the
same states, transitions, verdicts and completions as over the Python monitor (a few small models
here; experiments/lean_search_agreement.py runs the manifest's small tier)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from model.oracle.inproc import Library

pytestmark = pytest.mark.lean
ROOT = Path(__file__).resolve().parent.parent.parent


def _experiment() -> Any:
    spec = importlib.util.spec_from_file_location("lean_search_agreement",
                                                  ROOT / "experiments" / "lean_search_agreement.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("case", [("delete_ab.json", "../policies/delete_ab.policy", 3),
                                  ("delete_ab.json", "delete_widened.policy", 3),
                                  ("payments.json", "../policies/payments.policy", 3)])
def test_the_lean_semantics_searches_as_the_python_engine(library: Library, case: tuple[str, str, int]) -> None:
    exp = _experiment()
    assert case in exp.cases("small")
    py, lean, _, _ = exp.compare(*case)
    assert exp.differences(py, lean) == []
    assert py.states > 1 and py.transitions > 0


def test_search_cli_takes_the_lean_backend(library: Library) -> None:
    from click.testing import CliRunner

    from model.shell.cli import main

    args = ["search", str(ROOT / "corpus" / "search" / "delete_ab.json"), "--engine", "explicit", "--json"]
    py = CliRunner().invoke(main, args)
    lean = CliRunner().invoke(main, [*args, "--backend", "lean"])
    assert lean.exit_code == py.exit_code and py.exit_code in (0, 1), lean.output
    a, b = json.loads(py.output)["explicit"], json.loads(lean.output)["explicit"]
    for k in ("states", "transitions", "depth", "queries", "completions"):
        assert a[k] == b[k], k
    bad = CliRunner().invoke(main, [*args, "--backend", "lean", "--fingerprint"])
    assert bad.exit_code == 2, bad.output
