"""Golden vectors: every input saved under corpus/vectors/ is replayed against both sides, and the
saved Python inputs rebuild the very cases they came from (so a vector always replays)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, assume, given, settings

from model.base.errors import InvalidInput
from model.edits.check.instance import instance_to_json
from model.edits.check.load_instance import raw_instance_from_json
from model.oracle.drt import (
    VECTORS,
    Agree,
    Mismatch,
    ledger_python_input,
    monitor_python_input,
    replay,
    report,
    run_case,
)
from model.oracle.generators import drt_edit_instances, ledger_cases, monitor_runs
from model.oracle.lean import LeanOracle

pytestmark = pytest.mark.lean
FEW = settings(max_examples=30, database=None, phases=[Phase.generate])


@pytest.mark.parametrize("path", sorted(VECTORS.glob("*.json")), ids=lambda p: p.name)
def test_saved_vector_agrees(oracle: LeanOracle, path: Path) -> None:
    for res in replay(oracle, json.loads(path.read_text(encoding="utf-8"))):
        assert not isinstance(res, Mismatch), report(res)


def _spellable(inst: Any) -> bool:
    try:
        return bool(raw_instance_from_json(instance_to_json(inst)) == inst)
    except InvalidInput:
        return False


def _kinds(results: list[Any]) -> list[str]:
    return [r.kind if isinstance(r, Agree) else type(r).__name__ for r in results]


def test_edit_vectors_rebuild_their_case(oracle: LeanOracle) -> None:
    @FEW
    @given(drt_edit_instances())
    def body(inst: Any) -> None:
        # a repeated arm or outcome name (empty-choice) has no JSON spelling: such a case is not rebuilt
        assume(_spellable(inst))
        doc = {"judgment": "edit_check", "python_input": instance_to_json(inst)}
        assert _kinds(replay(oracle, doc)) == _kinds(run_case("edit_check", oracle, inst))

    body()


def test_ledger_vectors_rebuild_their_case(oracle: LeanOracle) -> None:
    @FEW
    @given(ledger_cases())
    def body(case: Any) -> None:
        doc = {"judgment": "ledger_allocate", "python_input": ledger_python_input(case)}
        assert _kinds(replay(oracle, doc)) == _kinds(run_case("ledger_allocate", oracle, case))

    body()


def test_monitor_vectors_rebuild_their_run(oracle: LeanOracle) -> None:
    @FEW
    @given(monitor_runs())
    def body(run: Any) -> None:
        doc = {"judgment": "monitor_step", "python_input": monitor_python_input(run, 0)}
        assert _kinds(replay(oracle, doc)) == _kinds(run_case("monitor_step", oracle, run))

    body()
