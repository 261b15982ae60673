"""Python's ``Derive`` against the Lean edit judgment (``edit_derive``: ``judge`` of
lean/AgentWarrant/Spec/Edits/DeriveCover.lean, the covering lists of Spec/Edits/DeriveRT.lean).

Every edit of the six forms and ``Extend()`` that can be named at every state of random ideal-machine
sessions (the DRT's laptop and playground registrations, the playground with fork rules that add no
steps, and every corpus session script's registration), with and without the signed removal a
RestoreReplace or MergeSelect needs, is translated to the Lean judgment's request when it lies in the
fragment the Lean model covers (``model/oracle/drt_derive.py`` lists the reasons it may not) and both
answers are compared: defined or not, the target region's results, the required source results with
their removals, and the target results covering each still-required one. Cases outside the fragment
are counted by reason and printed; a mismatch prints the record, the edit, the Lean input and both
outputs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from model.edits.check.contract import call_ids
from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.derive_calls import rename
from model.edits.runtime.forms import ForkChoice, ForkParallel
from model.edits.runtime.tree import Leaf, leaves, replace_at
from model.oracle import drt_derive as D
from model.oracle.lean import LeanOracle

pytestmark = pytest.mark.lean

FORMS = ("ForkChoice", "ForkParallel", "RestoreReplace", "RestoreLive", "MergeSelect", "MergeJoin", "Extend")


@pytest.fixture(scope="module")
def cases() -> list[D.Case]:
    return D.cases(sessions=2, steps=5, seed=0)


def test_python_derive_agrees_with_the_lean_judgment(oracle: LeanOracle, cases: list[D.Case]) -> None:
    checked: Counter[str] = Counter()
    agree, outside, bad = D.tally(oracle, cases, checked)
    print(f"\n{len(cases)} cases; agree {sum(agree.values())}; outside {sum(outside.values())}; "
          f"regions checked against the tree {dict(checked)}")
    for what, n in sorted(agree.items()):
        print(f"  agree {n:4d} {what}")
    for why, n in sorted(outside.items()):
        print(f"  outside {n:4d} {why}")
    assert not bad, "\n\n".join(bad)
    # every form the Lean judgment models is compared on derived records, not only on refusals
    for form in FORMS:
        k = _kind(form)
        assert agree[f"{form}: derived ({k})"] + agree[f"{form}: derived ({k}, in context)"] >= 3, (form, agree)
    # and inside a context (the edited node below the tree's root), where only the region is compared
    assert sum(n for what, n in agree.items() if what.endswith("in context)")) >= 10
    # both refuse: a MergeSelect on a parallel group, a MergeJoin on a choice group
    assert agree["MergeSelect: invalid (wrong-mode)"] >= 1 and agree["MergeJoin: invalid (wrong-mode)"] >= 1
    # Lean's srcAgreesB ran on the edited leaf (and, for a Restore, the stored copy) of every form that has one
    for form in ("ForkChoice", "ForkParallel", "RestoreReplace", "RestoreLive"):
        assert checked[form] >= 3, (form, checked)


def test_a_region_off_the_tree_is_caught(oracle: LeanOracle, cases: list[D.Case]) -> None:
    """``srcAgreesB`` reads the leaf, not Python's residual: the region Python sends agrees with the leaf it
    came from, and fails against the leaf with its progress forgotten or with an extra call in ``Γ``,
    and against a stored copy with an extra call (the judged request unchanged)."""
    seen: set[str] = set()
    for c in cases:
        try:
            t = D.translate(c.state, c.edit, derive(c.state, c.edit))
        except D.Outside:
            continue
        p = t.payload
        if "leaf" not in p or oracle.call("edit_derive", p).get("srcAgrees") is not True:
            continue
        extra = ["call", 10 ** 6]
        if p["leaf"][1] and "done" not in seen:
            out = oracle.call("edit_derive", {**p, "leaf": [p["leaf"][0], []]})
            assert out["srcAgrees"] is False, (c.origin, p)
            seen.add("done")
        if "gamma" not in seen:
            out = oracle.call("edit_derive", {**p, "leaf": [["seq", p["leaf"][0], extra], p["leaf"][1]]})
            assert out["srcAgrees"] is False, (c.origin, p)
            seen.add("gamma")
        if p["saved"] and "saved" not in seen:
            (k, g, d), = p["saved"]
            out = oracle.call("edit_derive", {**p, "saved": [[k, ["par", g, extra], d]]})
            assert out["srcAgrees"] is False, (c.origin, p)
            seen.add("saved")
        if seen == {"done", "gamma", "saved"}:
            return
    pytest.fail(f"not every tampering was tried: {seen}")


def _kind(form: str) -> str:
    return {"ForkChoice": "fork-choice", "ForkParallel": "fork-parallel", "RestoreReplace": "restore-replace",
            "RestoreLive": "restore-live", "MergeSelect": "merge-select", "MergeJoin": "merge-join",
            "Extend": "extend"}[form]


def test_a_dropped_covering_outcome_is_a_mismatch(oracle: LeanOracle, cases: list[D.Case]) -> None:
    """The comparison sees the coverage: Python's record with one covering outcome removed differs."""
    for c in cases:
        d = derive(c.state, c.edit)
        if not isinstance(d, Derived) or D.compare(oracle, c.state, c.edit).kind != "agree":
            continue
        pres = d.preservation
        i = next((i for i, (_, ts) in enumerate(pres.covering) if ts), None)
        if i is None:
            continue
        res, ts = pres.covering[i]
        covering = (*pres.covering[:i], (res, ts[1:]), *pres.covering[i + 1:])
        tampered = replace(d, preservation=replace(pres, covering=covering))
        r = D.compare(oracle, c.state, c.edit, py=tampered)
        assert r.kind == "mismatch" and "coverage" in r.detail, r
        return
    pytest.fail("no derived case with a covering outcome")


def test_a_wrong_target_is_a_mismatch(oracle: LeanOracle, cases: list[D.Case]) -> None:
    """A derivation with the wrong composition is caught: Python's ForkParallel record of the branch
    (the two copies in parallel) offered as the answer to its ForkChoice (the copies as alternatives)."""
    for c in cases:
        if not isinstance(c.edit, ForkChoice) or D.compare(oracle, c.state, c.edit).kind != "agree":
            continue
        fp = next((name for name, r in c.state.rules if r.kind == "fork-parallel"), None)
        d2 = derive(c.state, ForkParallel(c.edit.branch, fp)) if fp is not None else None
        if not isinstance(d2, Derived):
            continue
        r = D.compare(oracle, c.state, c.edit, py=d2)
        assert r.kind == "mismatch" and "target" in r.detail, r
        return
    pytest.fail("no ForkChoice case with a ForkParallel record to offer")


def _agreed_forks(oracle: LeanOracle, cases: list[D.Case]) -> Iterator[tuple[D.Case, Derived]]:
    """The Fork cases whose Python derivation has a tree and agrees with Lean's: the ones a tampered
    record is then built from."""
    for c in cases:
        if not isinstance(c.edit, ForkChoice | ForkParallel):
            continue
        d = derive(c.state, c.edit)
        if isinstance(d, Derived) and d.record.tree is not None \
                and D.compare(oracle, c.state, c.edit, py=d).kind == "agree":
            yield c, d


def test_a_wrong_step_instantiation_is_a_mismatch(oracle: LeanOracle, cases: list[D.Case]) -> None:
    """Lean instantiates a fork rule's continuation templates itself (the request carries the templates,
    not Python's steps): Python's record with one instantiated step renamed to the other new branch's
    name for it, a wrong instantiation, is caught as a target mismatch."""
    for c, d in _agreed_forks(oracle, cases):
        fresh = [lf for lf in leaves(d.record.tree) if any(x.endswith(f"+{lf.branch}") for x in call_ids(lf.gamma))]
        if len(fresh) != 2 or fresh[0].branch == fresh[1].branch:
            continue
        lf, other = fresh
        x = next(x for x in call_ids(lf.gamma) if x.endswith(f"+{lf.branch}"))
        wrong = x[: -len(lf.branch)] + other.branch
        bad_leaf = Leaf(lf.branch, lf.region, rename(lf.gamma, {x: wrong}), lf.done)
        tampered = replace(d, record=replace(d.record, tree=replace_at(d.record.tree, lf.branch, bad_leaf)))
        r = D.compare(oracle, c.state, c.edit, py=tampered)
        assert r.kind == "mismatch" and "target" in r.detail, r
        return
    pytest.fail("no fork case with instantiated continuation steps")


def test_swapped_new_leaf_contracts_are_a_mismatch(oracle: LeanOracle, cases: list[D.Case]) -> None:
    """Lean reads each new leaf's contract from its judged record: Python's Fork record with the two arms'
    contracts swapped (the target region's results, and so the checked instance, unchanged) is caught
    on the new leaves alone."""
    for c, d in _agreed_forks(oracle, cases):
        before = {lf.branch for lf in leaves(c.state.tree)} if c.state.tree is not None else set()
        fresh = [lf for lf in leaves(d.record.tree) if lf.branch not in before]
        if len(fresh) != 2 or fresh[0].gamma == fresh[1].gamma:
            continue
        a, b = fresh
        tree = replace_at(d.record.tree, a.branch, Leaf(a.branch, a.region, b.gamma, a.done))
        tree = replace_at(tree, b.branch, Leaf(b.branch, b.region, a.gamma, b.done))
        tampered = replace(d, record=replace(d.record, tree=tree))
        r = D.compare(oracle, c.state, c.edit, py=tampered)
        assert r.kind == "mismatch" and "new leaves" in r.detail, r
        return
    pytest.fail("no fork case with two new leaves of different contracts")
