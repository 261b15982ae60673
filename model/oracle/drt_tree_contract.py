"""Differential testing of the workflow contract of the record's branch tree, ``⟦T⟧`` (*When Can Agents
Safely Checkpoint, Fork, Restore, and Merge?*, Sections IV-A and IV-B1): Python's ``contract_of``
(model/edits/runtime/tree.py) against Lean's ``treeContract`` (the ``tree_contract`` judgment,
lean/AgentWarrant/Oracle/TreeContract.lean over Spec/Edits/TreeContract.lean).

The trees are the ones the ideal-machine sessions of ``model.oracle.drt_derive`` reach (every record's
tree, and the derived record's tree of every edit that is defined there), so they carry progress,
selected choices, join barriers and sequences as the runtime builds them. Each is sent flat, as the
runtime oracle receives its root (``drt_runtime.tree_json``: a leaf's ``Γ_b`` by its outcome pomsets, and
as a term when it lies in the binary term model), and Lean computes ``⟦T⟧`` from it.

Choices: the comparison is of the contracts' outcomes as a multiset of pomsets, each with its order
transitively closed (``drt_derive.canon``/``canon_lean``), since Lean's leaves store ``Γ_b`` by outcome
pomsets without Python's outcome IDs; so a contract that names an outcome differently but has the same
pomsets agrees. ``contract`` is a parameter so that a mutant ``contract_of`` can be run against Lean.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from model.base.canonical import canonical_str
from model.edits.check.contract import Term, outcomes
from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.tree import (
    ChoiceNode,
    JoinNode,
    Leaf,
    Node,
    ParNode,
    SeqNode,
    contract_of,
    node_from_json,
    node_to_json,
)
from model.oracle.drt_derive import Canon, Case, Oracle, canon, canon_lean
from model.oracle.drt_runtime import Numbering, tree_json
from model.oracle.results import Agree, CaseResult, Mismatch, jsonable

JUDGMENT = "tree_contract"
Contract = Callable[[Node], Term]


def trees(cases: list[Case]) -> list[tuple[str, Node]]:
    """Every distinct tree of the cases' records and of the records their defined edits derive."""
    seen: set[str] = set()
    out: list[tuple[str, Node]] = []

    def add(origin: str, t: Node | None) -> None:
        if t is None:
            return
        key = canonical_str(node_to_json(t))
        if key not in seen:
            seen.add(key)
            out.append((origin, t))

    for c in cases:
        add(c.origin, c.state.tree)
        d = derive(c.state, c.edit)
        if isinstance(d, Derived):
            add(f"{c.origin} derived by {type(c.edit).__name__}", d.record.tree)
    return out


def derived_instances(cases: list[Case]) -> list[tuple[str, Derived]]:
    """Every defined derivation of the cases whose record keeps a tree (one per distinct derived tree)."""
    seen: set[str] = set()
    out: list[tuple[str, Derived]] = []
    for c in cases:
        d = derive(c.state, c.edit)
        if isinstance(d, Derived) and d.record.tree is not None:
            key = canonical_str(node_to_json(d.record.tree))
            if key not in seen:
                seen.add(key)
                out.append((f"{c.origin} {type(c.edit).__name__}", d))
    return out


def instance_check(oracle: Oracle, origin: str, d: Derived) -> str | None:
    """``None`` when the outcomes of the check instance ``Derive`` gives are Lean's ``⟦T'⟧`` of the derived
    record's tree (as a multiset of pomsets), else a report: the instance the entry carries is
    ``Derive``'s, and this compares its outcomes with the contract Lean computes from the tree."""
    assert d.record.tree is not None
    nb = Numbering()
    payload = {"tree": tree_json(nb, d.record.tree)}
    inst = Counter(canon(p) for p in d.instance.outcomes().values())
    lean = lean_side(oracle, nb, payload)
    if inst == lean:
        return None
    return (f"{origin}: the instance's outcomes are not Lean's ⟦T'⟧\n"
            f"  tree: {canonical_str(node_to_json(d.record.tree))}\n  lean input: {canonical_str(payload)}\n"
            f"  instance: {sorted(inst.elements())}\n  lean: {sorted(lean.elements())}")


def python_side(tree: Node, contract: Contract = contract_of) -> Counter[Canon]:
    return Counter(canon(p) for p in outcomes(contract(tree)).values())


def lean_side(oracle: Oracle, nb: Numbering, payload: dict[str, Any]) -> Counter[Canon]:
    out = oracle.call(JUDGMENT, payload)
    names = nb.names("call")
    return Counter(canon_lean(o["events"], o["order"], lambda i: names[i]) for o in out["outcomes"])


def _nodes(t: Node) -> Iterator[Node]:
    yield t
    kids = [s for _, s in t.arms] if isinstance(t, ChoiceNode) else [] if isinstance(t, Leaf) else list(t.parts)
    for s in kids:
        yield from _nodes(s)


def tags(tree: Node) -> set[str]:
    """What a tree exercises, for the campaign's counts."""
    out: set[str] = set()
    for n in _nodes(tree):
        if isinstance(n, Leaf) and n.done:
            out.add("leaf with progress")
        elif isinstance(n, ChoiceNode):
            out.add("open choice" if n.status == "open" else "selected choice")
        elif isinstance(n, ParNode):
            out.add("parallel group")
        elif isinstance(n, JoinNode):
            out.add("join barrier")
        elif isinstance(n, SeqNode):
            out.add("sequence")
    return out or {"single leaf"}


def both_sides(oracle: Oracle, tree: Node, contract: Contract = contract_of,
               terms: bool = True) -> tuple[dict[str, Any], Counter[Canon], Counter[Canon]]:
    """The Lean input for ``tree`` and both contracts. Without ``terms`` every leaf's ``Γ_b`` goes by its
    outcome pomsets alone (Lean then does not read the term model's outcomes)."""
    nb = Numbering()
    nodes = tree_json(nb, tree)
    if not terms:
        nodes = [{k: v for k, v in n.items() if k != "term"} for n in nodes]
    payload = {"tree": nodes}
    return payload, python_side(tree, contract), lean_side(oracle, nb, payload)


def compare(oracle: Oracle, origin: str, tree: Node, contract: Contract = contract_of,
            terms: bool = True) -> str | None:
    """``None`` when both contracts agree, else a report with the tree, the Lean input and both outputs."""
    payload, py, lean = both_sides(oracle, tree, contract, terms)
    if py == lean:
        return None
    return (f"{origin}: ⟦T⟧ differs\n  tree: {canonical_str(node_to_json(tree))}\n"
            f"  lean input: {canonical_str(payload)}\n  python: {sorted(py.elements())}\n"
            f"  lean: {sorted(lean.elements())}")


MODES = ("leaf-terms", "leaf-pomsets")


def run_tree(oracle: Oracle, tree: Node, contract: Contract = contract_of) -> list[CaseResult]:
    """The campaign's case (``agentwarrant drt --judgment tree_contract``): one generated tree
    (``generators.contract_trees``) compared twice, its leaves' ``Γ_b`` sent as terms where they lie in the
    term model and by their outcome pomsets alone."""
    return [compare_case(oracle, tree, mode == MODES[0], contract) for mode in MODES]


def compare_case(oracle: Oracle, tree: Node, terms: bool, contract: Contract = contract_of) -> CaseResult:
    """One comparison as a campaign result: an agreement tagged with what the tree exercises (``tags``), a
    mismatch with the tree (``node_to_json``, rebuilt by ``replay_tree``), the Lean input and both
    contracts (multisets of pomsets, each as its calls with their sorted predecessors)."""
    mode = MODES[0] if terms else MODES[1]
    payload, py, lean = both_sides(oracle, tree, contract, terms)
    if py == lean:
        return Agree(mode, tuple(sorted(tags(tree))))
    return Mismatch(JUDGMENT, (f"⟦T⟧ ({mode})",), {"tree": node_to_json(tree), "terms": terms}, payload,
                    jsonable(sorted(py.elements())), jsonable(sorted(lean.elements())))


def replay_tree(oracle: Oracle, doc: Any) -> CaseResult:
    """A saved mismatch's tree, compared again in its mode."""
    return compare_case(oracle, node_from_json(doc["tree"]), bool(doc["terms"]))


def tally(oracle: Oracle, ts: list[tuple[str, Node]], contract: Contract = contract_of,
          terms: bool = True) -> tuple[Counter[str], list[str]]:
    """Per tag, how many trees agreed; and the mismatch reports."""
    agree: Counter[str] = Counter()
    bad: list[str] = []
    for origin, t in ts:
        report = compare(oracle, origin, t, contract, terms)
        if report is None:
            agree.update(tags(t))
            agree["tree"] += 1
        else:
            bad.append(report)
    return agree, bad
