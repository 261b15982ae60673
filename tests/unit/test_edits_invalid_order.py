"""The Invalid reason is the first class, in ``InvalidReason``'s order, whose condition holds — whatever
order the term lists its calls in (model/edits/check/instance_wellformed.py; the Lean oracle follows the same
order, lean/AgentWarrant/Spec/Edits/WellFormed.lean)."""

from __future__ import annotations

from model.edits.check.answer import Invalid, InvalidReason
from model.edits.check.checker import decide
from model.edits.check.contract import Call, Choice, Nil, Par, Seq
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.instance import make_instance

POLICY = from_maximal_words([["a", "a", "a"]])


def _reason(term: object, acts: dict[str, str], labels: dict[str, str], log: tuple[str, ...] = ()) -> InvalidReason:
    v = decide(make_instance(term, acts, labels, log, POLICY))  # type: ignore[arg-type]
    assert isinstance(v, Invalid), v
    return v.reason


def test_an_unmapped_call_wins_over_an_unlabelled_one_listed_before_it() -> None:
    # c0's action has no label, c1 has no action: both orders of the calls give unmapped-call
    for term in (Seq((Call("c0"), Call("c1"))), Seq((Call("c1"), Call("c0")))):
        assert _reason(term, {"c0": "d0"}, {}) is InvalidReason.UNMAPPED_CALL


def test_duplicate_call_wins_over_every_later_class() -> None:
    term = Par((Call("c0"), Call("c0"), Choice("g", ()), Choice("g", (("a", Nil()),))))
    assert _reason(term, {}, {}, ("d0", "d0")) is InvalidReason.DUPLICATE_CALL


def test_an_unlabelled_logged_action_wins_over_a_repeated_one() -> None:
    assert _reason(Call("c0"), {"c0": "d0"}, {"d0": "a"}, ("d1", "d0", "d0")) is InvalidReason.UNLABELLED_ACTION
    assert _reason(Call("c0"), {"c0": "d0"}, {"d0": "a", "d1": "a"}, ("d1", "d0", "d0")) \
        is InvalidReason.LOG_REPEATS_ACTION
