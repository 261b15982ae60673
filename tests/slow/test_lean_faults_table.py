"""The fault table's experiment (experiments/lean_faults.py) run afresh with a 1 s per-answer timeout:
every fault at every entry point answers unknown — exit 3 with one stderr line from a command,
``LeanBackendError`` from the Adapter — with no Allow. Marked slow: it starts two commands per fault."""

from __future__ import annotations

import pytest

from model.oracle.fake_oracles import FAKES
from model.shell.reproduce import load_experiment


@pytest.mark.slow
def test_every_cell_of_the_fault_table_is_unknown() -> None:
    exp = load_experiment("lean-faults")
    rows = exp.fault_rows(timeout=1.0)
    assert len(rows) == len(FAKES) * len(exp.ENTRIES)
    for r in rows:
        want = "LeanBackendError" if r["entry point"] == "Adapter" else "exit 3"
        assert r["answer"] == want, r
        assert r["allows"] == 0, r
        assert r["stderr"] == (0 if r["entry point"] == "Adapter" else 1), r
        if r["entry point"] == "Adapter":  # in-process: the answer comes by the timeout (plus the kill)
            assert r["seconds"] < r["timeout"] + 5, r
