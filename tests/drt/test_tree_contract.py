"""Python's ``⟦T⟧`` (``contract_of``) against Lean's (``tree_contract``: ``treeContract`` of
lean/AgentWarrant/Spec/Edits/TreeContract.lean) on every tree the ideal-machine sessions of
``model/oracle/drt_derive.py`` reach or derive; a mismatch prints the tree, the Lean input and both
outputs; each tree is sent with the leaves' ``Γ_b`` as terms where they lie in the term model, and
again by their outcome pomsets alone. A mutant ``contract_of`` that drops a sequence's later parts
must disagree."""

from __future__ import annotations

import pytest

from model.edits.check.contract import Seq, Term
from model.edits.runtime.tree import Node, SeqNode, contract_of
from model.oracle import drt_derive as D
from model.oracle import drt_tree_contract as T
from model.oracle.lean import LeanOracle

pytestmark = pytest.mark.lean


@pytest.fixture(scope="module")
def trees() -> list[tuple[str, Node]]:
    return T.trees(D.cases(sessions=2, steps=5, seed=0))


@pytest.mark.parametrize("terms", [True, False], ids=["leaf-terms", "leaf-pomsets"])
def test_python_tree_contract_agrees_with_lean(oracle: LeanOracle, trees: list[tuple[str, Node]], terms: bool) -> None:
    agree, bad = T.tally(oracle, trees, terms=terms)
    print(f"\n{len(trees)} trees; agree {agree['tree']}")
    for what, n in sorted(agree.items()):
        print(f"  {n:4d} {what}")
    assert not bad, "\n\n".join(bad)
    # every node kind the runtime builds was compared, not only single leaves
    for what in ("leaf with progress", "open choice", "selected choice", "parallel group", "join barrier",
                 "sequence"):
        assert agree[what] >= 1, (what, agree)


def _drop_later_parts(node: Node) -> Term:
    """A wrong ``⟦T⟧``: a sequence keeps only its first part."""
    if isinstance(node, SeqNode):
        return Seq((contract_of(node.parts[0]),))
    return contract_of(node)


def test_a_contract_that_drops_a_sequence_part_is_caught(oracle: LeanOracle, trees: list[tuple[str, Node]]) -> None:
    seqs = [(o, t) for o, t in trees if isinstance(t, SeqNode)]
    assert seqs, "no tree with a sequence at its root"
    _, bad = T.tally(oracle, seqs, _drop_later_parts)
    assert bad, "the mutant agreed with Lean on every sequence"
    print(f"\nmutant caught on {len(bad)} of {len(seqs)} trees; first:\n{bad[0]}")
