"""The greatest fixed point B̂† and W† (*Exact Checking for Execution Edits* Sections V-C1, V-C2)."""

from __future__ import annotations

import pytest

from model.base.budget import Budget, Unknown
from model.edits.check.answer import Accepted, Engine, Rejected
from model.edits.check.checker import check
from model.edits.check.contract import Call, Choice, Nil, Par, Seq
from model.edits.check.digest import instance_digest
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.instance import make_instance
from model.edits.check.regex import from_regex
from model.edits.check.resolve import raw

ENGINES = list(Engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_outcome_empties_the_fixed_point(engine: Engine) -> None:
    # Outcome R needs label b, which the policy never allows: nothing survives, already in round 0.
    term = Choice("g", (("L", Call("x")), ("R", Call("y"))))
    inst = make_instance(term, {"x": "dx", "y": "dy"}, {"dx": "a", "dy": "b"}, (), from_maximal_words([["a"]]))
    v = check(inst, engine)
    assert isinstance(v, Rejected)
    assert v.proof.sizes() == (1, 0)
    (removal,) = v.proof.rounds[0]
    assert removal.prefix == () and removal.missing == (("g", "R"),)
    # With b allowed, both outcomes survive.
    ok = make_instance(term, {"x": "dx", "y": "dy"}, {"dx": "a", "dy": "b"}, (), from_maximal_words([["a"], ["b"]]))
    assert isinstance(check(ok, engine), Accepted)
    # every verdict names the engine that reached it and the digest of the instance it checked
    for verdict, checked in ((v, inst), (check(ok, engine), ok)):
        assert verdict.engine is engine and verdict.digest == instance_digest(checked)


@pytest.mark.parametrize("engine", ENGINES)
def test_outcomes_with_the_same_resolved_word_stay_distinct(engine: Engine) -> None:
    term = Par((Call("x"), Choice("g", (("A", Nil()), ("B", Nil())))))
    inst = make_instance(term, {"x": "dx"}, {"dx": "a"}, (), from_maximal_words([["a"]]))
    v = check(inst, engine)
    assert isinstance(v, Accepted)
    done = sorted(v.automaton.completions())
    assert [o for o, _ in done] == [(("g", "A"),), (("g", "B"),)]
    assert done[0][1] == done[1][1]
    assert v.counts.safe == 2 and v.counts.candidates == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_w_dagger_is_exactly_the_prefixes_of_b_dagger(engine: Engine) -> None:
    # x ⊗ (y ▷ z) under a policy that forbids x last: some orders are pruned, the rest stay.
    term = Par((Call("x"), Seq((Call("y"), Call("z")))))
    pol = from_maximal_words([["x", "y", "z"], ["y", "x", "z"]])
    inst = make_instance(term, {"x": "dx", "y": "dy", "z": "dz"}, {"dx": "x", "dy": "y", "dz": "z"}, (), pol)
    v = check(inst, engine)
    assert isinstance(v, Accepted)
    b = {raw(y) for _, y in v.automaton.completions()}
    assert b == {("x", "y", "z"), ("y", "x", "z")}
    w = {raw(z) for z in v.automaton.generated()}
    assert w == {y[:i] for y in b for i in range(4)}


def test_engines_answer_unknown_when_the_states_budget_runs_out() -> None:
    term = Par(tuple(Call(f"c{i}") for i in range(5)))  # 120 linearizations
    pol = from_regex("(a)*")
    assert not isinstance(pol, type(None))
    inst = make_instance(term, {f"c{i}": f"d{i}" for i in range(5)}, {f"d{i}": "a" for i in range(5)}, (),
                         pol)  # type: ignore[arg-type]
    # explicit refuses before enumerating; declarative and symbolic (32 product states) run out while working
    for engine, states in ((Engine.EXPLICIT, 100), (Engine.DECLARATIVE, 100), (Engine.SYMBOLIC, 20)):
        v = check(inst, engine, budget=Budget(states=states))
        assert isinstance(v, Unknown), engine
        assert v.limit == "states"
    assert isinstance(check(inst, Engine.EXPLICIT, budget=Budget(states=200)), Accepted)
    assert isinstance(check(inst, Engine.SYMBOLIC, budget=Budget(states=200)), Accepted)


def test_the_explicit_engine_refuses_exactly_when_the_linearizations_exceed_the_budget() -> None:
    """The explicit engine skips the exact linearization count when the bound sum |X_p|! fits the
    budget; where the bound does not fit it counts, so the refusal point is the exact count either way."""
    pol = from_regex("(a)*")
    assert pol is not None
    par = Par(tuple(Call(f"c{i}") for i in range(4)))  # 24 linearizations, bound 4! = 24
    two = Par((Seq((Call("c0"), Call("c1"))), Seq((Call("c2"), Call("c3")))))  # 6 linearizations, bound 24
    for term, n in ((par, 24), (two, 6)):
        inst = make_instance(term, {f"c{i}": f"d{i}" for i in range(4)}, {f"d{i}": "a" for i in range(4)}, (),
                             pol)  # type: ignore[arg-type]
        assert isinstance(check(inst, Engine.EXPLICIT, budget=Budget(states=n)), Accepted), term
        v = check(inst, Engine.EXPLICIT, budget=Budget(states=n - 1))
        assert isinstance(v, Unknown) and v.limit == "states", term
        assert v.spent.states == 0, term  # refused before enumerating


@pytest.mark.parametrize("engine", ENGINES)
def test_a_rejection_lists_several_words_of_one_outcome_in_canonical_order(engine: Engine) -> None:
    # L = x ⊗ y has two candidate words; R needs label b, which the policy never allows.
    term = Choice("g", (("L", Par((Call("x"), Call("y")))), ("R", Call("z"))))
    inst = make_instance(term, {"x": "dx", "y": "dy", "z": "dz"}, {"dx": "a", "dy": "a", "dz": "b"}, (),
                         from_maximal_words([["a", "a"]]))
    v = check(inst, engine)
    assert isinstance(v, Rejected)
    assert [raw(y) for _, y in v.proof.candidates] == [("x", "y"), ("y", "x")]
    assert v.proof.sizes() == (2, 0)
