"""The durable edit runtime and the ideal machine against their Lean counterparts
(lean/AgentWarrant/Spec/Edits/Machine.lean through the ``edit_runtime`` and ``edit_ideal`` judgments):
generated sessions (with crash points for the runtime) agree event by event, a session replays from
its seed, and a Lean answer perturbed in one place is reported as a mismatch."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from model.oracle import drt_runtime as R
from model.oracle.drt import replay
from model.oracle.lean import LeanOracle
from model.oracle.results import Agree, Mismatch

pytestmark = pytest.mark.lean


class Recording:
    """The oracle, keeping the last request and answer."""

    def __init__(self, oracle: LeanOracle) -> None:
        self.oracle = oracle
        self.payload: Any = None
        self.out: Any = None

    def call(self, judgment: str, payload: Any) -> Any:
        self.payload = payload
        self.out = self.oracle.call(judgment, payload)
        return self.out


def test_sessions_agree(oracle: LeanOracle) -> None:
    rec = Recording(oracle)
    kinds: set[str] = set()
    crashes = 0
    for seed in range(8):
        res = R.run_session(rec, R.Session(R.REGISTRATIONS[seed % 2], seed, 14))  # type: ignore[arg-type]
        assert isinstance(res, Agree), res
        kinds |= {st["obs"][0] for st in rec.out["steps"]}
        crashes += res.tags.count("crash point")
    # the sessions reach tool calls, edits and the rule update's outcomes, restarts and crashes
    assert {"new", "edit", "restarted", "crashed"} <= kinds
    assert crashes > 0


def test_replay_from_vector(oracle: LeanOracle) -> None:
    doc = {"judgment": R.JUDGMENT, "python_input": {"registration": "laptop", "seed": 3, "length": 10}}
    assert all(isinstance(r, Agree) for r in replay(oracle, doc))  # type: ignore[arg-type]


class Perturbed(Recording):
    """The oracle with one committed state changed in its answer (``ver`` of the last event)."""

    def call(self, judgment: str, payload: Any) -> Any:
        out = copy.deepcopy(super().call(judgment, payload))
        out["steps"][-1]["state"]["ver"] += 1
        return out


def test_perturbed_answer_is_a_mismatch(oracle: LeanOracle) -> None:
    res = R.run_session(Perturbed(oracle), R.Session("playground", 5, 6))  # type: ignore[arg-type]
    assert isinstance(res, Mismatch)
    assert res.modes == ("step 5 state ver",)
    assert res.python_input["actions"] and res.oracle_input["events"]


def test_ideal_sessions_agree(oracle: LeanOracle) -> None:
    rec = Recording(oracle)
    kinds: set[str] = set()
    for seed in range(6):
        res = R.run_ideal_session(rec, R.Session(R.REGISTRATIONS[seed % 2], seed, 12))  # type: ignore[arg-type]
        assert isinstance(res, Agree), res
        kinds |= {st["obs"][0] for st in rec.out["steps"]}
    assert {"new", "edit", "saved"} <= kinds


def test_extension_events_agree(oracle: LeanOracle) -> None:
    """Registered extensions reach both judgments as ``extend`` events (Lean computes the extension
    instance from its own record) and agree with the Python runtime and ideal machine, committed ones
    included."""
    rec = Recording(oracle)
    extends = committed = 0
    for seed in range(40):
        res = R.run_session(rec, R.Session(R.REGISTRATIONS[seed % 2], seed, 14))  # type: ignore[arg-type]
        assert isinstance(res, Agree), res
        ev_kinds = [e["kind"] for e in rec.payload["events"]]
        extends += res.tags.count("extend")
        committed += sum(1 for k, st in zip(ev_kinds, rec.out["steps"], strict=True)
                         if k == "extend" and st["obs"][0] == "updated")
        ideal = R.run_ideal_session(rec, R.Session(R.REGISTRATIONS[seed % 2], seed, 12))  # type: ignore[arg-type]
        assert isinstance(ideal, Agree), ideal
        extends += ideal.tags.count("extend")
        if extends >= 6 and committed >= 2:
            break
    assert extends >= 6 and committed >= 2, (extends, committed)


def test_checkpoint_decisions_are_leans(oracle: LeanOracle) -> None:
    """Lean decides every Checkpoint from its own tree (the branch is sent, not whether it is current):
    sessions reach saved Checkpoints and ones refused for a branch that is not current, with Lean's
    tree (choices selected by its own ``HStep``) and stored copies equal to the Python runtime's."""
    rec = Recording(oracle)
    refusals: set[str] = set()
    saved = selected = 0
    for seed in range(60):
        res = R.run_session(rec, R.Session(R.REGISTRATIONS[seed % 2], seed, 16))  # type: ignore[arg-type]
        assert isinstance(res, Agree), res
        assert all("current" not in e for e in rec.payload["events"])
        for st in rec.out["steps"]:
            if st["obs"][0] == "saved":
                saved += 1
            elif st["obs"][0] == "checkpoint-refused":
                refusals.add(st["obs"][2])
        selected += sum(1 for st in rec.out["steps"] for n in st["state"]["tree"] if n[1] == 1 and n[4] > 0)
        if saved >= 3 and "not-a-current-branch" in refusals and selected:
            break
    assert saved >= 3 and "not-a-current-branch" in refusals and selected, (saved, refusals, selected)
