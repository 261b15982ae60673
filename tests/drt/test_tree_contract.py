"""Python's ``⟦T⟧`` (``contract_of``) against Lean's (``tree_contract``: ``treeContract`` of
lean/AgentWarrant/Spec/Edits/TreeContract.lean) on every tree the ideal-machine sessions of
``model/oracle/drt_derive.py`` reach or derive; a mismatch prints the tree, the Lean input and both
outputs; each tree is sent with the leaves' ``Γ_b`` as terms where they lie in the term model, and
again by their outcome pomsets alone. A mutant ``contract_of`` that drops a sequence's later parts
must disagree. The campaign's cases (``agentwarrant drt --judgment tree_contract``: generated trees,
``generators.contract_trees``) run through the campaign code itself."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from model.edits.check.contract import Seq, Term
from model.edits.runtime.tree import Node, SeqNode, contract_of
from model.oracle import drt_derive as D
from model.oracle import drt_tree_contract as T
from model.oracle import generators
from model.oracle.direct import case_random, sampler
from model.oracle.drt import campaign, replay
from model.oracle.lean import LeanOracle
from model.oracle.results import Agree, Mismatch

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


def test_derived_instance_outcomes_are_leans_tree_contract(oracle: LeanOracle) -> None:
    """The check instance ``Derive`` gives for an edit (``make_instance(contract_of(T'), ...)``) has as its
    outcomes Lean's ``⟦T'⟧`` of the derived record's tree; an instance over the record's tree before the
    edit is caught."""
    ds = T.derived_instances(D.cases(sessions=2, steps=5, seed=0))
    bad = [r for o, d in ds if (r := T.instance_check(oracle, o, d)) is not None]
    print(f"\n{len(ds)} derived instances; agree {len(ds) - len(bad)}")
    assert len(ds) >= 50 and not bad, "\n\n".join(bad)
    # the mutant: an instance over another derived record's tree (one with a different contract)
    (o1, d1), (_, d2) = next((a, b) for a in ds for b in ds
                              if T.python_side(a[1].record.tree) != T.python_side(b[1].record.tree))
    wrong = replace(d1, record=replace(d1.record, tree=d2.record.tree))
    assert T.instance_check(oracle, o1, wrong) is not None


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


KINDS = ("leaf with progress", "open choice", "selected choice", "parallel group", "join barrier", "sequence")


def test_campaign_trees_agree(oracle: LeanOracle, tmp_path: Path) -> None:
    """The campaign on generated trees: every case compared in both modes, no mismatch, every node kind
    reached."""
    s = campaign(T.JUDGMENT, 60, oracle, generators, seed=0, vectors=tmp_path)
    print(f"\n{s.cases} trees, {s.compared} comparisons, {s.seconds:.1f} s; {dict(s.coverage)}")
    assert not s.fault and not s.mismatches, [m.python_input for m in s.mismatches]
    assert s.cases == 60 and s.compared == 120 and set(s.kinds) == set(T.MODES)
    for what in KINDS:
        assert s.coverage[what] >= 1, (what, s.coverage)


def test_campaign_mismatch_is_reported_and_replays(oracle: LeanOracle) -> None:
    """The sequence mutant on generated trees gives campaign mismatches carrying the tree, the Lean input
    and both contracts; the saved tree replays (with the real ``contract_of``) as an agreement."""
    draw = sampler(generators.contract_trees())
    seqs = [t for i in range(200) if isinstance(t := draw(case_random(0, T.JUDGMENT, i)), SeqNode)]
    assert seqs
    bad = [r for t in seqs for r in T.run_tree(oracle, t, _drop_later_parts) if isinstance(r, Mismatch)]
    assert bad, "the mutant agreed with Lean on every generated sequence"
    m = bad[0]
    assert m.judgment == T.JUDGMENT and m.python != m.lean and m.oracle_input["tree"]
    assert all(isinstance(r, Agree) for r in replay(oracle, {"judgment": T.JUDGMENT, "python_input": m.python_input}))
