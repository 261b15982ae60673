"""Theorem 4's necessity of I and E (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section VII and Appendix A-F), beyond the paper's fixed pairs: on generated check instances, a view
that omits **I** (which calls refer to the same action: the checker sees each call's label only) or
**E** (earlier authorizations: the checker does not see the log) cannot decide exactly — perturbing
the omitted part of generated instances yields pairs with identical reduced views and opposite
verdicts, and the full view's verdict is a function of the record (the checker is deterministic).
tests/unit/test_edits_table2.py checks the paper's five record pairs, built by runtime steps."""

from __future__ import annotations

from typing import Any

from hypothesis import Phase, given, settings

from model.edits.check.checker import decide
from model.edits.check.contract import call_ids
from model.edits.check.instance import Instance, make_instance
from model.edits.check.verdict import Accepted, Invalid
from tests.strategies import EDIT_ACTIONS, edit_instances

FRESH = "d-fresh"


def _without_i(inst: Instance) -> Any:
    q, lab = inst.action_map(), inst.label_map()
    return inst.contract, tuple(sorted((x, lab[q[x]]) for x in q)), tuple(lab[d] for d in inst.log), inst.policy


def _without_e(inst: Instance) -> Any:
    return inst.contract, inst.actions, inst.labels, inst.policy


def _verdict(inst: Instance) -> bool | None:
    v = decide(inst)
    return None if isinstance(v, Invalid) else isinstance(v, Accepted)


def test_omitting_i_or_e_is_inexact() -> None:
    found = {"I": 0, "E": 0}

    @settings(max_examples=400, database=None, phases=[Phase.generate], deadline=None)
    @given(edit_instances())
    def body(inst: Instance) -> None:
        v = _verdict(inst)
        if v is None:
            return
        assert _verdict(inst) == v  # the full view decides: same record, same answer
        q, lab = inst.action_map(), inst.label_map()
        calls = sorted(call_ids(inst.contract))
        for x in calls:  # I: give one call sharing an action a fresh action with the same label
            if any(q[y] == q[x] for y in calls if y != x):
                split = make_instance(inst.contract, {**q, x: FRESH}, {**lab, FRESH: lab[q[x]]}, inst.log, inst.policy)
                assert _without_i(split) == _without_i(inst)
                if _verdict(split) not in (None, v):
                    found["I"] += 1
                break
        for d in EDIT_ACTIONS:  # E: one more earlier authorization (its label kept out of the view)
            if d not in inst.log and inst.policy.accepts([lab[a] for a in (*inst.log, d)]):
                more = make_instance(inst.contract, q, lab, (*inst.log, d), inst.policy)
                assert _without_e(more) == _without_e(inst)
                if _verdict(more) not in (None, v):
                    found["E"] += 1
                break

    body()
    print(found)
    assert found["I"] > 0 and found["E"] > 0, found
