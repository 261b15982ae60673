"""Properties of Resolve (Section V-B) and of the policy constructors (Section IV-B3)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.edits.check.edit_policy import PolicyAutomaton, from_automaton, from_maximal_words
from model.edits.check.regex import from_regex
from model.edits.check.resolve import Mode, auth, extended_log, raw, resolve

CALLS = ("x", "y", "z", "w")
Q_ACT = {"x": "d1", "y": "d1", "z": "d2", "w": "d3"}
words = st.lists(st.lists(st.sampled_from("abc"), max_size=4), min_size=1, max_size=5)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(CALLS), max_size=6), st.lists(st.sampled_from(["d1", "d2", "d3"]), unique=True),
       st.integers(0, 6))
def test_resolve_laws(word: list[str], log: list[str], cut: int) -> None:
    z = resolve(word, Q_ACT, log)
    assert raw(z) == tuple(word)  # length-preserving, annotations drop to the input
    seen = set(log)
    for a in z:  # a call on an already-authorized action is reuse, otherwise new
        assert (a.mode is Mode.REUSE) == (a.action in seen)
        seen.add(a.action)
    assert len(set(auth(z))) == len(auth(z))
    head = resolve(word[:cut], Q_ACT, log)
    assert z == head + resolve(word[cut:], Q_ACT, extended_log(tuple(log), head))
    assert resolve(word, Q_ACT, log) == z  # deterministic


@settings(max_examples=200, deadline=None, derandomize=True)
@given(words)
def test_regex_union_closure_equals_maximal_words(ws: list[list[str]]) -> None:
    expr = " | ".join("(" + (" ".join(w) or "ε") + ")" for w in ws)
    got = from_regex(expr, prefix_closure=True)
    assert got == from_maximal_words(ws)  # minimal canonical DFAs are equal values iff languages are


@settings(max_examples=200, deadline=None, derandomize=True)
@given(words)
def test_given_automaton_round_trips_and_closure_is_prefix_closed(ws: list[list[str]]) -> None:
    p = from_maximal_words(ws)
    again = from_automaton(p.n_states, 0, range(p.n_states), p.table())
    assert again == p
    assert isinstance(p, PolicyAutomaton)
    for w in ws:
        for i in range(len(w) + 1):
            assert p.accepts(w[:i])
