"""The runtime DRT's check of the root tree's order (``root_order`` in model/oracle/drt_runtime.py): the two
hypotheses Lean's currency results take of the root, parents before children and parent links that do not
cross, hold of a preorder tree and fail, naming the nodes, on a tree that breaks either."""
from __future__ import annotations

from typing import Any

from model.oracle.drt_runtime import root_order


def _root(parents: list[int]) -> dict[str, Any]:
    return {"tree": [{"parent": p} for p in parents]}


def test_a_preorder_tree_passes() -> None:
    # 1 (root) with children 2 and 5; 2 with children 3 and 4; 5 with child 6
    assert root_order(_root([0, 1, 2, 2, 1, 5])) == []
    assert root_order(_root([0])) == []
    assert root_order(None) == [] and root_order({"instance": {}}) == []


def test_a_parent_after_its_child_is_named() -> None:
    assert root_order(_root([0, 3, 1])) == ["root tree: node 2 has parent 3, not before it"]


def test_crossed_links_are_named() -> None:
    # 1 with children 2 and 3, then 4 a child of 2: 4's parent lies strictly between 3's parent and 3
    bad = root_order(_root([0, 1, 1, 2]))
    assert bad == ["root tree: the parent links of nodes 3 and 4 cross"], bad


def test_leans_verdict_is_compared() -> None:
    # Lean's oracle answers with its own verdicts [parents before children, no crossing links]
    assert root_order(_root([0, 1, 2, 2, 1, 5]), {"rootOrder": [True, True]}) == []
    assert root_order(_root([0, 1, 1, 2]), {"rootOrder": [True, False]}) == [
        "root tree: the parent links of nodes 3 and 4 cross"]
    # a Lean verdict that differs from the check's, or none at all, is reported
    assert root_order(_root([0, 1, 2]), {"rootOrder": [True, False]}) == [
        "root tree order: Python finds [True, True], Lean [True, False]"]
    assert root_order(_root([0, 3, 1]), {"rootOrder": [True, True]}) == [
        "root tree: node 2 has parent 3, not before it",
        "root tree order: Python finds [False, True], Lean [True, True]"]
    assert root_order(_root([0]), {}) == ["root tree order: Python finds [True, True], Lean None"]
    # no root tree sent: nothing to compare
    assert root_order(None, {"rootOrder": None}) == []
