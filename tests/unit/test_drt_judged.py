"""``judged_check`` of the edit-runtime DRT (``model.oracle.drt_judged``) on hand-written events and Lean
steps: agreeing contracts pass and count as judged, a Fork without a judged request counts as outside,
and a false source check, an undefined judgment, different contracts, a naming that sends two allocated
calls to one, Lean's refusal of the naming, or Lean's and Python's freshness verdicts differing are
mismatches."""

from __future__ import annotations

import copy
from typing import Any

from model.oracle.drt_judged import judged_check


def _pom(events: list[int], order: list[list[int]]) -> dict[str, Any]:
    return {"events": events, "order": order}


# a Fork whose arms are b ; c (left copies 10, 11) and b ∥ c (right copies 12, 13), Python's new leaves
LEFT = [_pom([10, 11], [[10, 11]])]
RIGHT = [_pom([12], []), _pom([13], [])]


def _event(judged: bool) -> dict[str, Any]:
    edit = {"form": "fork", "par": False, "branch": 1, "group": 7, "leaves": [[8, LEFT], [9, RIGHT]]}
    derived: dict[str, Any] = {"edit": edit}
    if judged:
        derived["judged"] = {"region": ["nil"], "store": [], "request": ["fork_parallel"],
                             "out": [[4, 10], [6, 11], [5, 12], [7, 13]], "fresh": True}
    return {"kind": "check", "edit": 0, "derived": derived}


def _step(agrees: bool, leaves: Any, out_inj: bool = True, out_fresh: bool = True) -> dict[str, Any]:
    return {"obs": ["edit", "accepted"],
            "judged": {"agrees": agrees, "outInj": out_inj, "outFresh": out_fresh, "leaves": leaves}}


def test_agreeing_contracts_count_as_judged() -> None:
    # Lean lists events and order pairs in its own order; the comparison is on sets, order closed
    lean = [[_pom([11, 10], [[10, 11]])], [_pom([13], []), _pom([12], [])]]
    assert judged_check([_event(True)], [_step(True, lean)]) == ([], 1, 0)
    assert judged_check([_event(False)], [{"obs": ["edit", "accepted"]}]) == ([], 0, 1)


def test_each_failure_is_a_mismatch() -> None:
    lean = [LEFT, RIGHT]
    swapped = [RIGHT, LEFT]
    assert "contracts differ" in judged_check([_event(True)], [_step(True, swapped)])[0][0]
    assert "srcAgreesB" in judged_check([_event(True)], [_step(False, lean)])[0][0]
    assert "derives nothing" in judged_check([_event(True)], [_step(True, None)])[0][0]
    ev = _event(True)
    ev2 = copy.deepcopy(ev)
    ev2["derived"]["judged"]["out"][1] = [6, 10]
    assert judged_check([ev], [_step(True, lean)])[0] == []
    assert any("alike" in m for m in judged_check([ev2], [_step(True, lean)])[0])


def test_leans_out_verdict_is_compared() -> None:
    # Lean's runJOutInjB covers every call of the judged contracts, so it can refuse an `out` whose sent
    # names are distinct; that disagreement with Python's check is reported
    lean = [LEFT, RIGHT]
    bad = judged_check([_event(True)], [_step(True, lean, out_inj=False)])[0]
    assert len(bad) == 1 and "runJOutInjB" in bad[0] and "Python's own check passed it" in bad[0]
    ev2 = _event(True)
    ev2["derived"]["judged"]["out"][1] = [6, 10]
    both = judged_check([ev2], [_step(True, lean, out_inj=False)])[0]
    assert len(both) == 2 and "passed it" not in both[1]


def test_freshness_verdicts_are_compared() -> None:
    # Lean's runJOutFreshB and Python's own check that no sent name is a kept leaf's call must agree:
    # either one refusing alone is a mismatch, both refusing or both passing is not
    lean = [LEFT, RIGHT]
    stale = _event(True)
    stale["derived"]["judged"]["fresh"] = False
    assert judged_check([_event(True)], [_step(True, lean, out_fresh=True)])[0] == []
    assert judged_check([stale], [_step(True, lean, out_fresh=False)])[0] == []
    for ev, fresh in ((_event(True), False), (stale, True)):
        bad = judged_check([ev], [_step(True, lean, out_fresh=fresh)])[0]
        assert len(bad) == 1 and "runJOutFreshB" in bad[0]
