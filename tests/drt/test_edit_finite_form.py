"""The oracle computes the edit checker's finite form itself: each outcome's linearizations from its
pomset and the finite policy from the policy automaton (lean/AgentWarrant/Spec/Edits/Input.lean).

Generated instances compare both with the Python model (the ``lins`` and ``policy-words`` modes of
model/oracle/edits_json.py), cyclic policy automata included; hand-written pomsets that Python's
``Pomset`` cannot even represent (a cyclic order, an order pair naming a non-event, a repeated event)
are answered as the definition of ``Lin`` says; and a finite form perturbed on the Python side is
caught by the comparison.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from model.edits.check.instance import Instance
from model.edits.check.verify import verify
from model.oracle import edits_json as E
from model.oracle.generators import edit_instances, family_instances
from model.oracle.lean import LeanOracle

pytestmark = pytest.mark.lean
CASES = settings(max_examples=80, database=None, phases=[Phase.generate], deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _par2(order: list[list[int]], events: list[int] | None = None) -> dict[str, Any]:
    """Two calls on two actions labelled 0 and 1, one outcome with the given pomset, policy: any word."""
    return {"term": ["par", [["call", 0], ["call", 1]]], "calls": [[0, 0], [1, 1]], "labels": [[0, 0], [1, 1]],
            "outcomes": [{"id": 0, "events": [0, 1] if events is None else events, "order": order}],
            "act": [0, 1], "lab": [0, 1], "log": [], "policy": {"delta": [[0, 0, 0], [0, 1, 0]]}}


def _lins(out: Any) -> set[tuple[int, ...]]:
    return {tuple(w) for w in out["lins"][0]}


def test_linearizations_follow_the_definition(oracle: LeanOracle) -> None:
    assert _lins(oracle.call("edit_check", _par2([]))) == {(0, 1), (1, 0)}
    assert _lins(oracle.call("edit_check", _par2([[1, 0]]))) == {(1, 0)}
    # no word puts 0 before 1 and 1 before 0: no linearization, so no candidate and a rejection
    cyclic = oracle.call("edit_check", _par2([[0, 1], [1, 0]]))
    assert _lins(cyclic) == set() and cyclic["verdict"] == "rejected"
    # an order pair naming a non-event (2) cannot be respected by a word over the events
    assert _lins(oracle.call("edit_check", _par2([[0, 2]]))) == set()
    # a repeated event is one event
    assert _lins(oracle.call("edit_check", _par2([[0, 1]], events=[0, 1, 0]))) == {(0, 1)}


def test_cyclic_policy_words_are_its_language(oracle: LeanOracle) -> None:
    """Policy (01)* prefixes, as an automaton with a cycle: the asked words 0·1 and 1·0 give policy
    words ε, 0, 01 (1 and 10 are outside), and only the order 0 1 is a candidate."""
    doc = dict(_par2([]), policy={"delta": [[0, 0, 1], [1, 1, 0]]})
    out = oracle.call("edit_check", doc)
    assert {tuple(w) for w in out["policy"]} == {(), (0,), (0, 1)}
    assert [c[1] for c in out["candidates"]] == [[[0, 0, True], [1, 1, True]]]


def test_finite_form_agrees_with_python(oracle: LeanOracle) -> None:
    """Generated instances (a quarter with cyclic policy automata) and explicit families: the finite
    form the oracle computed is compared, and a perturbed Python side is caught."""
    tally = {"compared": 0, "cyclic": 0}

    @CASES
    @given(edit_instances() | family_instances())
    def body(inst: Instance) -> None:
        py = E.python_edit_check(inst)
        payload, names = E.edit_check_input(inst)
        lean = E.lean_edit_view(names, oracle.call("edit_check", payload))
        assert E.compare_edit_check(py, lean) == []
        if lean.finite is None or py.finite is None:
            return
        tally["compared"] += 1
        if any(q >= r for q, _, r in payload["policy"]["delta"]):
            tally["cyclic"] += 1
        # a Python side missing one linearization, or with one more policy word, disagrees
        lins = py.finite.lins
        k = next((j for j, ls in enumerate(lins) if ls), None)
        if k is not None:
            fewer = (*lins[:k], frozenset(sorted(lins[k])[1:]), *lins[k + 1:])
            assert "lins" in E.compare_edit_check(replace(py, finite=E.FiniteForm(fewer, py.finite.policy)), lean)
        extra = py.finite.policy | {(99,)}
        assert "policy-words" in E.compare_edit_check(replace(py, finite=E.FiniteForm(py.finite.lins, extra)), lean)

    body()
    assert tally["compared"] > 20 and tally["cyclic"] > 0, tally


def test_lean_rejection_proofs_pass_the_python_verifier(oracle: LeanOracle) -> None:
    """On every rejection the oracle returns the proof its rounds yield (``proofOf``, which Lean proves
    the Lean verifier accepts); the Python verifier, written independently, accepts it too, and a
    proof with its last round dropped is refused."""
    tally = {"rejected": 0, "with-rounds": 0}

    # rejections with removal rounds are a minority of the draw: a fixed seed reaches some
    @seed(20261206)
    @settings(CASES, max_examples=200)
    @given(edit_instances() | family_instances())
    def body(inst: Instance) -> None:
        payload, names = E.edit_check_input(inst)
        out = oracle.call("edit_check", payload)
        if out["verdict"] != "rejected":
            assert out.get("proof") is None
            return
        proof = E.lean_proof(names, out)
        assert proof is not None and verify(inst, proof).valid
        tally["rejected"] += 1
        if proof.rounds:
            tally["with-rounds"] += 1
            assert not verify(inst, replace(proof, rounds=proof.rounds[:-1])).valid

    body()
    print(tally)
    assert tally["rejected"] > 5 and tally["with-rounds"] > 0, tally
