"""The runtime DRT's check of the root tree (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section V-A and Table I: the branch tree ``T`` of the accepted root update), compared with
Lean's own verdicts on it.

The root tree is the one tree a session sends whole (``tree_json`` in model/oracle/drt_runtime.py);
Lean's reached-tree results take four properties of it, which this module checks on the tree actually
sent: parents before children, uncrossed parent links, distinct names and the group arities.

Choices: positions are 1-based with ``parent`` 0 at the root, as the flat tree has them; a node's
children are counted by parent link, the places among them (``pos``) are not compared; every group
kind (choice 1, parallel 2, join barrier 3, sequence 4) is to have two children and a leaf (0) none,
as every Table I row builds them."""
from __future__ import annotations

from typing import Any


def _arities(tree: list[dict[str, Any]]) -> list[str]:
    """Every node with a wrong number of children, by the count of parent links to it."""
    counts = [0] * (len(tree) + 1)
    for n in tree:
        if 0 < n["parent"] <= len(tree):
            counts[n["parent"]] += 1
    wants = [0 if n["kind"] == 0 else 2 for n in tree]
    return [f"root tree: node {k} (kind {n['kind']}) has {counts[k]} children by parent link, not {want}"
            for k, (n, want) in enumerate(zip(tree, wants, strict=True), 1) if counts[k] != want]


def root_order(root: dict[str, Any] | None, lean: dict[str, Any] | None = None) -> list[str]:
    """The four properties Lean's reached-tree results read of the root tree (``ParentsBefore`` in
    ``Thm/Edits/DeriveTreeCurrent.lean``, ``NoCross`` in ``Thm/Edits/DeriveTreeSeq.lean``,
    ``NamesDistinct`` in ``Thm/Edits/DeriveTreeNames.lean``, ``AritiesOk`` in
    ``Thm/Edits/DeriveTreeArity.lean``), checked on the root tree the session sends: every node's parent
    lies before it, for positions ``b < c`` the parent of ``c`` is not strictly between the parent of
    ``b`` and ``b``, no two named nodes (every kind but the unnamed sequence, 4) share a name, and every
    node has the children its kind gives it (``_arities``). Lean decides all four itself
    (``parentsBeforeB``, ``noCrossB``, ``namesDistinctB``, ``aritiesB``, each proved equivalent to its
    property) and installs a root only when all four hold (``startArity``); ``lean``, the
    oracle's answer, carries those verdicts as ``"rootOrder"``, and a verdict that differs from this
    check's (or is missing) is reported too. ``tree_json`` writes a preorder walk of a tree with distinct
    names, which meets the first three, and this check says so of each tree actually sent rather than
    of the walk's code; the arities hold of every tree the edits build, not of every hand-built one."""
    tree = root.get("tree") if isinstance(root, dict) else None
    if not isinstance(tree, list):
        return []
    parents = [n["parent"] for n in tree]
    before = [f"root tree: node {k} has parent {p}, not before it" for k, p in enumerate(parents, 1) if p >= k]
    crossed = [f"root tree: the parent links of nodes {b} and {c} cross"
               for b in range(1, len(parents) + 1) for c in range(b + 1, len(parents) + 1)
               if parents[b - 1] < parents[c - 1] < b]
    names = [n["name"] for n in tree if n["kind"] != 4]
    repeated = [f"root tree: the name {x} is used {names.count(x)} times"
                for x in sorted(set(names)) if names.count(x) > 1]
    arity = _arities(tree)
    bad = before + crossed + repeated + arity
    if lean is not None:
        verdict, mine = lean.get("rootOrder"), [not before, not crossed, not repeated, not arity]
        if verdict != mine:
            bad.append(f"root tree order: Python finds {mine}, Lean {verdict}")
    return bad
