"""The runtime DRT's check of the root tree (``root_order`` in model/oracle/drt_root.py): the four
properties Lean's reached-tree results take of the root, parents before children, parent links that do
not cross, distinct names and group arities, hold of a preorder tree built as the edits build it and
fail, naming the nodes, on a tree that breaks one."""
from __future__ import annotations

from typing import Any

from model.oracle.drt_root import root_order
from model.oracle.drt_runtime import root_order as runtime_root_order


def _root(parents: list[int], kinds: list[int] | None = None) -> dict[str, Any]:
    # by default a node with a child link is a choice group and one without a leaf
    ks = kinds if kinds is not None else [1 if k in parents else 0 for k in range(1, len(parents) + 1)]
    return {"tree": [{"parent": p, "name": k, "kind": ks[k - 1]} for k, p in enumerate(parents, 1)]}


def test_a_preorder_tree_passes() -> None:
    # 1 (root) with children 2 and 5; 2 with children 3 and 4; 5 with children 6 and 7
    assert root_order(_root([0, 1, 2, 2, 1, 5, 5])) == []
    assert root_order(_root([0])) == []
    assert root_order(None) == [] and root_order({"instance": {}}) == []
    assert runtime_root_order is root_order


def test_a_parent_after_its_child_is_named() -> None:
    assert root_order(_root([0, 4, 1, 1, 4])) == ["root tree: node 2 has parent 4, not before it"]


def test_crossed_links_are_named() -> None:
    # 1 with children 2 and 3, then 4 and 5 children of 2: their parent lies strictly between 3's parent and 3
    bad = root_order(_root([0, 1, 1, 2, 2]))
    assert bad == ["root tree: the parent links of nodes 3 and 4 cross",
                   "root tree: the parent links of nodes 3 and 5 cross"], bad


def test_a_repeated_name_is_named() -> None:
    root = _root([0, 1, 1])
    root["tree"][2]["name"] = 2
    assert root_order(root) == ["root tree: the name 2 is used 2 times"]
    # a sequence is unnamed: its name is never compared
    root["tree"][0]["kind"], root["tree"][0]["name"] = 4, 3
    assert root_order(root) == ["root tree: the name 2 is used 2 times"]


def test_wrong_arities_are_named() -> None:
    # a one-armed choice group, a three-part sequence, a leaf with a child
    assert root_order(_root([0, 1])) == ["root tree: node 1 (kind 1) has 1 children by parent link, not 2"]
    assert root_order(_root([0, 1, 1, 1], [4, 0, 0, 0])) == [
        "root tree: node 1 (kind 4) has 3 children by parent link, not 2"]
    assert root_order(_root([0, 1, 1, 2], [1, 0, 0, 0])) == [
        "root tree: the parent links of nodes 3 and 4 cross",
        "root tree: node 2 (kind 0) has 1 children by parent link, not 0"]


def test_leans_verdict_is_compared() -> None:
    # Lean's oracle answers with its own verdicts [parents before, no crossing, distinct names, arities]
    assert root_order(_root([0, 1, 2, 2, 1, 5, 5]), {"rootOrder": [True, True, True, True]}) == []
    assert root_order(_root([0, 1, 1, 2, 2]), {"rootOrder": [True, False, True, True]}) == [
        "root tree: the parent links of nodes 3 and 4 cross", "root tree: the parent links of nodes 3 and 5 cross"]
    assert root_order(_root([0, 1]), {"rootOrder": [True, True, True, False]}) == [
        "root tree: node 1 (kind 1) has 1 children by parent link, not 2"]
    # a Lean verdict that differs from the check's, or none at all, is reported
    assert root_order(_root([0, 1, 1]), {"rootOrder": [True, False, True, True]}) == [
        "root tree order: Python finds [True, True, True, True], Lean [True, False, True, True]"]
    assert root_order(_root([0, 1]), {"rootOrder": [True, True, True, True]}) == [
        "root tree: node 1 (kind 1) has 1 children by parent link, not 2",
        "root tree order: Python finds [True, True, True, False], Lean [True, True, True, True]"]
    assert root_order(_root([0]), {}) == ["root tree order: Python finds [True, True, True, True], Lean None"]
    # no root tree sent: nothing to compare
    assert root_order(None, {"rootOrder": None}) == []
