"""The policy automaton (*Exact Checking for Execution Edits* Section IV-B3)."""

from __future__ import annotations

import pytest

from model.base.errors import InputKind, InvalidInput
from model.edits.check.edit_policy import NotPrefixClosed, PolicyAutomaton, from_automaton, from_maximal_words
from model.edits.check.regex import from_regex


def test_maximal_words_give_their_prefix_closure() -> None:
    p = from_maximal_words([["x", "z"], ["y", "x"]])
    for w in [(), ("x",), ("y",), ("x", "z"), ("y", "x")]:
        assert p.accepts(w)
    for w in [("z",), ("x", "y"), ("y", "x", "z"), ("x", "x")]:
        assert not p.accepts(w)


def test_regex_policies_and_equal_languages_give_equal_automata() -> None:
    p = from_regex("(a | b)*")
    assert isinstance(p, PolicyAutomaton) and p.accepts(("a", "b", "b", "a"))
    closed = from_regex("r a (pL | pR) s", prefix_closure=True)
    assert closed == from_maximal_words([["r", "a", "pL", "s"], ["r", "a", "pR", "s"]])
    assert from_regex("ε | x | x z | y | y x") == from_maximal_words([["x", "z"], ["y", "x"]])


def test_non_prefix_closed_languages_are_refused_with_a_witness() -> None:
    got = from_regex("a b")
    assert got == NotPrefixClosed(())  # ε is a prefix of ab but not in the language
    got2 = from_regex("ε | a b")
    assert got2 == NotPrefixClosed(("a",))
    got3 = from_automaton(3, 0, [0, 2], {(0, "a"): 1, (1, "b"): 2})
    assert got3 == NotPrefixClosed(("a",))
    ok = from_automaton(3, 0, [0, 1, 2], {(0, "a"): 1, (1, "b"): 2, (2, "c"): 2})
    assert isinstance(ok, PolicyAutomaton) and ok.accepts(("a", "b", "c", "c"))


def test_regex_syntax_errors_name_the_column() -> None:
    with pytest.raises(InvalidInput) as exc:
        from_regex("(a | b", source="pol")
    assert exc.value.kind is InputKind.SYNTAX and "pol:1:7" in str(exc.value)
