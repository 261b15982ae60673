"""Replaying the golden vectors of corpus/vectors/ against the Python model alone.

Each vector records the Lean oracle's answer to one input (model/oracle/drt.py, ``save_vector``).
:func:`replay_recorded` compares the Python model as it is now with that recorded answer, so the
oracle's verdicts keep checking the model on a machine without Lean (the default test tier and
``agentwarrant drt --replay``). :func:`drt.replay` is the other direction: both sides afresh, with Lean.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from model.base.jsonio import read_text
from model.edits.check.instance import instance_to_json
from model.edits.check.load_instance import raw_instance_from_json
from model.edits.runtime.tree import node_from_json
from model.monitor.decide.commit import step
from model.monitor.decide.state import initial_state
from model.oracle import drt_monitor as W
from model.oracle import edits_json as E
from model.oracle import monitor_full_json as F
from model.oracle import monitor_json as M
from model.oracle.drt import (
    VECTORS,
    ledger_case_from,
    monitor_python_input,
    monitor_run_from,
)
from model.oracle.drt_tree_contract import python_side
from model.oracle.results import Agree, CaseResult, Mismatch, Skip, jsonable


def _recorded_edit_view(doc: Any) -> E.EditView:
    def cand(c: Any) -> Any:
        return c[0], tuple(tuple(letter) for letter in c[1])

    def word(w: Any) -> Any:
        return tuple(tuple(letter) for letter in w)

    return E.EditView(tuple(doc["verdicts"]), frozenset(map(cand, doc["candidates"])),
                      tuple(frozenset(map(cand, s)) for s in doc["safe"]),
                      tuple(frozenset(map(word, p)) for p in doc["prefixes"]), tuple(doc["prefix_counts"]),
                      tuple(doc["rounds"]))


def replay_recorded(doc: Any) -> CaseResult:
    """A saved vector's *recorded* oracle answer against the Python model as it is now; no Lean needed.

    The case is rebuilt from its Python input; a monitor run is replayed by the model up to the
    recorded step. Agreement means the model still gives the answer the Lean oracle gave."""
    judgment, pin, lean = doc["judgment"], doc["python_input"], doc["lean"]
    oracle_input = doc["oracle_input"]
    if judgment == "edit_check":
        py = E.python_edit_check(raw_instance_from_json(pin, "vector"))
        rec = _recorded_edit_view(lean)
        bad = E.compare_edit_check(py, rec)
        return Agree("edit_check") if not bad else Mismatch("edit_check", tuple(bad), pin, oracle_input,
                                                            py.to_json(), lean)
    if judgment == "resolve":
        got = jsonable(E.python_resolve(tuple(pin["word"]), pin["q_act"], tuple(pin["authorized"])))
        return Agree("resolve") if got == lean else Mismatch("resolve", ("word",), pin, oracle_input, got, lean)
    if judgment == "ledger_allocate":
        user, used_user, app, used_app, effects, args, state = ledger_case_from(pin)
        pyl = M.python_ledger(user, used_user, app, used_app, effects, args, state)
        bad = M.compare_ledger(pyl, lean)
        return Agree("ledger_allocate") if not bad else Mismatch("ledger_allocate", tuple(bad), pin, oracle_input,
                                                                  pyl, lean)
    if judgment == "monitor":
        return _replay_whole(doc)
    if judgment == "tree_contract":
        got = jsonable(sorted(python_side(node_from_json(pin["tree"])).elements()))
        return Agree("tree_contract") if got == lean else Mismatch("tree_contract", ("⟦T⟧",), pin, oracle_input, got,
                                                                    lean)
    policy, satisfied, calls = monitor_run_from(pin)
    state = initial_state(len(policy.user), len(policy.application), satisfied)
    for k, (call, outcome) in enumerate(calls[:pin["step"] + 1]):
        verdict, after = step(policy, state, call, outcome)
        if k == pin["step"]:
            pys = M.python_step_view(policy, verdict, after)
            bad = M.compare_step(pys, M.lean_step_view(lean))
            return Agree("monitor_step") if not bad else Mismatch("monitor_step", tuple(bad), pin, oracle_input,
                                                                   pys, lean)
        state = after
    return Skip("the vector's step is past its run")


def _replay_whole(doc: Any) -> CaseResult:
    pin = doc["python_input"]
    policy, _, steps = W.run_from(pin)
    state = initial_state(len(policy.user), len(policy.application), frozenset(pin["satisfied"]))
    for k, (call, outcome, permits) in enumerate(steps[:pin["step"] + 1]):
        state = W.issue_permits(state, permits)
        verdict, after = step(policy, state, call, outcome)
        if k == pin["step"]:
            py = F.python_view(policy, verdict, after)
            bad = F.compare(py, F.lean_view(doc["lean"]))
            return Agree("monitor") if not bad else Mismatch("monitor", tuple(bad), pin, doc["oracle_input"], py,
                                                              doc["lean"])
        state = after
    return Skip("the vector's step is past its run")


def replay_all(root: Path = VECTORS) -> list[tuple[Path, CaseResult]]:
    """Every vector under ``root`` replayed against the recorded answer, in file-name order."""
    return [(path, replay_recorded(json.loads(read_text(path, "a golden vector"))))
            for path in sorted(root.glob("*.json"))]


def record(oracle: Any, judgment: str, case: Any) -> list[dict[str, Any]]:
    """Vectors recording the oracle's answers on one generated case (a monitor run: one per step).

    Used to keep a few agreements of every judgment under replay, beside the disagreements
    ``save_vector`` keeps; ``modes`` is empty for them."""
    def doc(pin: Any, oin: Any, py: Any, lean: Any) -> dict[str, Any]:
        return {"judgment": judgment, "modes": [], "python_input": pin, "oracle_input": oin,
                "python": jsonable(py), "lean": jsonable(lean)}

    if judgment == "edit_check":
        view = E.python_edit_check(case)
        payload, names = E.edit_check_input(case)
        lean = E.lean_edit_view(names, oracle.call("edit_check", payload))
        return [doc(instance_to_json(case), payload, view.to_json(), lean.to_json())]
    if judgment == "monitor":
        return _record_whole(oracle, case, doc)
    policy, satisfied, calls = case
    state = initial_state(len(policy.user), len(policy.application), satisfied)
    out = []
    for k, (call, outcome) in enumerate(calls):
        payload = M.step_input(policy, state, call)
        verdict, after = step(policy, state, call, outcome)
        lean_out = M.lean_step_view(oracle.call("monitor_step", payload))
        out.append(doc(monitor_python_input(case, k), payload, M.python_step_view(policy, verdict, after), lean_out))
        state = after
    return out


def _record_whole(oracle: Any, run: Any, doc: Any) -> list[dict[str, Any]]:
    policy, satisfied, steps = run
    state = initial_state(len(policy.user), len(policy.application), satisfied)
    out = []
    for k, (call, outcome, permits) in enumerate(steps):
        state = W.issue_permits(state, permits)
        payload = F.monitor_input(policy, state, call, outcome)
        text = F.encode(payload)
        verdict, after = step(policy, state, call, outcome)
        out.append(doc(W.python_input(run, k), payload, F.python_view(policy, verdict, after),
                       oracle.call_text("monitor", text)))
        state = after
    return out
