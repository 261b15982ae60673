"""``HStep`` on the execution tree (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section IV-B1): a tool call selects the arm of every open choice above it, and only that arm, also
when the other arm is a parallel node (as after a RestoreLive next to a fork): a node with no call
below it is returned unchanged, the same object, which is how the choice tells the arms apart."""

from __future__ import annotations

from model.edits.check.contract import Call, Seq, call_ids
from model.edits.runtime.tree import OPEN, ChoiceNode, Leaf, ParNode, contract_of, hstep


def _leaf(branch: str, *calls: str) -> Leaf:
    return Leaf(branch, "r", Seq(tuple(Call(c) for c in calls)))


def test_call_in_right_arm_selects_right_arm_past_a_parallel_left_arm() -> None:
    left = ParNode("g1", (_leaf("b1", "x1", "y1"), _leaf("b2", "x2")))
    tree = ChoiceNode("g0", OPEN, (("L", left), ("R", _leaf("b3", "x3", "y3"))))
    after = hstep(tree, "x3")
    assert isinstance(after, ChoiceNode) and after.status == "R"
    assert sorted(call_ids(contract_of(after))) == ["y3"]


def test_call_in_left_parallel_arm_selects_left_arm() -> None:
    left = ParNode("g1", (_leaf("b1", "x1", "y1"), _leaf("b2", "x2")))
    tree = ChoiceNode("g0", OPEN, (("L", left), ("R", _leaf("b3", "x3"))))
    after = hstep(tree, "x2")
    assert isinstance(after, ChoiceNode) and after.status == "L"
    assert sorted(call_ids(contract_of(after))) == ["x1", "y1"]


def test_a_call_below_no_node_changes_nothing() -> None:
    tree = ParNode("g1", (_leaf("b1", "x1"), _leaf("b2", "x2")))
    assert hstep(tree, "zz") is tree
