"""The canonical automaton Can(W, B) (*Exact Checking for Execution Edits* Section VI-A)."""

from __future__ import annotations

from itertools import islice
from math import factorial

import pytest

from model.edits.check.answer import Accepted, Engine
from model.edits.check.can import can_of_family
from model.edits.check.checker import check
from model.edits.check.contract import Call, Par
from model.edits.check.edit_policy import PolicyAutomaton
from model.edits.check.instance import Instance, make_instance
from model.edits.check.regex import from_regex
from model.edits.check.resolve import Letter, Mode


def unordered(w: int) -> Instance:
    pol = from_regex("(" + " | ".join(f"l{i}" for i in range(w)) + ")*")
    assert isinstance(pol, PolicyAutomaton)
    return make_instance(Par(tuple(Call(f"c{i}") for i in range(w))), {f"c{i}": f"d{i}" for i in range(w)},
                         {f"d{i}": f"l{i}" for i in range(w)}, (), pol)


@pytest.mark.parametrize("engine", list(Engine))
def test_states_are_residuals_not_words(engine: Engine) -> None:
    # Three unordered calls: W has 1 + 3 + 6 + 6 = 16 words but only 2^3 = 8 distinct residuals
    # (a residual depends on the set of calls done, not their order).
    v = check(unordered(3), engine)
    assert isinstance(v, Accepted)
    assert v.counts.prefixes == 16 and v.automaton.count_prefixes() == 16
    assert v.automaton.n_states == 8
    assert sum(1 for _, _ in v.automaton.completions()) == 6


def test_completions_are_enumerated_lazily() -> None:
    v = check(unordered(10), Engine.SYMBOLIC)
    assert isinstance(v, Accepted)
    assert v.counts.safe == factorial(10) and v.automaton.n_states == 2 ** 10
    first = list(islice(v.automaton.completions(), 3))  # 3.6M completions exist; we take three
    assert len(first) == 3 and all(len(y) == 10 for _, y in first)


def test_equal_languages_give_equal_automata_and_run_follows_words() -> None:
    a, b, c = (Letter(x, f"d{x}", Mode.NEW) for x in "abc")
    fam = [((), (a, b)), ((), (b, a)), ((), (c,))]
    can1 = can_of_family(fam)
    can2 = can_of_family(list(reversed(fam)))
    assert can1 == can2
    assert can1.run((a,)) is not None and can1.run((a, c)) is None
    assert set(can1.generated()) == {(), (a,), (b,), (c,), (a, b), (b, a)}


def test_projection_is_the_papers_unlabelled_can() -> None:
    # x ▷ (y0 ⊕ y1 ⊕ y2) with the same label on every y: the three completions differ only in
    # their result label, so the labelled Can keeps three final states and the projection one.
    from model.edits.check.contract import Choice, Seq
    from model.edits.check.edit_policy import from_maximal_words

    term = Seq((Call("x"), Choice("g", tuple((f"o{i}", Call(f"y{i}")) for i in range(3)))))
    inst = make_instance(term, {"x": "dx", **{f"y{i}": f"d{i}" for i in range(3)}},
                         {"dx": "x", **{f"d{i}": "y" for i in range(3)}}, (), from_maximal_words([["x", "y"]]))
    v = check(inst, Engine.SYMBOLIC)
    assert isinstance(v, Accepted)
    assert v.automaton.n_states == 5
    p = v.automaton.project()
    assert p.n_states == 3
    assert set(p.generated()) == set(v.automaton.generated())
    assert {y for _, y in p.completions()} == {y for _, y in v.automaton.completions()}
