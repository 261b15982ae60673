"""Resolve (*Exact Checking for Execution Edits* Section V-B)."""

from __future__ import annotations

import dataclasses
from itertools import product

from model.edits.check.answer import (
    Accepted,
    Counts,
    Engine,
    Rejected,
    RejectionProof,
    Removal,
    make_accepted,
    make_counts,
    make_rejected,
    make_removal,
)
from model.edits.check.can import empty_can
from model.edits.check.contract import Call
from model.edits.check.digest import InstanceDigest
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.instance import Instance, make_instance
from model.edits.check.resolve import Letter, Mode, auth, extended_log, make_letter, raw, resolve

Q_ACT = {"x": "d1", "x2": "d1", "y": "d2", "z": "d3"}


def test_length_preserving_and_raw_inverse() -> None:
    for n in range(5):
        for word in product(sorted(Q_ACT), repeat=n):
            z = resolve(word, Q_ACT, ())
            assert len(z) == len(word) and raw(z) == word


def test_already_authorized_action_is_reuse() -> None:
    z = resolve(("x2", "y"), Q_ACT, ("d1",))
    assert [a.mode for a in z] == [Mode.REUSE, Mode.NEW]
    # A copied call on an action authorized earlier in the same word reuses it too.
    z2 = resolve(("x", "y", "x2"), Q_ACT, ())
    assert [a.mode for a in z2] == [Mode.NEW, Mode.NEW, Mode.REUSE]
    assert auth(z2) == ("d1", "d2")


def test_at_most_one_new_per_action_and_prefix_composition() -> None:
    for word in product(sorted(Q_ACT), repeat=4):
        for log in ((), ("d2",)):
            z = resolve(word, Q_ACT, log)
            news = auth(z)
            assert len(news) == len(set(news)) and not set(news) & set(log)
            for k in range(5):
                head, tail = word[:k], word[k:]
                zh = resolve(head, Q_ACT, log)
                assert z == zh + resolve(tail, Q_ACT, extended_log(log, zh))


def test_the_make_functions_equal_the_dataclass_constructors() -> None:
    """The descriptor-setting constructors (a speed-up over the dataclass
    ``__init__``) give the dataclasses' values: equal, same hash
    and repr, every field set — and they name every field, so a field added later fails here."""
    assert [f.name for f in dataclasses.fields(Letter)] == ["call", "action", "mode"]
    assert [f.name for f in dataclasses.fields(Removal)] == ["outcome", "word", "prefix", "missing"]
    for mode in Mode:
        fast, slow = make_letter("c1", "d1", mode), Letter("c1", "d1", mode)
        assert type(fast) is Letter and fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    word = (make_letter("c1", "d1", Mode.NEW),)
    o, m = (("g", "L"),), (("g", "R"),)
    fast_r, slow_r = make_removal(o, word, (), m), Removal(o, word, (), m)
    assert type(fast_r) is Removal and fast_r == slow_r
    assert hash(fast_r) == hash(slow_r) and repr(fast_r) == repr(slow_r)
    assert [f.name for f in dataclasses.fields(Counts)] == ["candidates", "safe", "prefixes", "states", "rounds"]
    assert [f.name for f in dataclasses.fields(Accepted)] == ["engine", "automaton", "counts", "named"]
    assert [f.name for f in dataclasses.fields(Rejected)] == ["engine", "proof", "counts", "named"]
    counts = make_counts(2, 1, 3, 4, (2, 1))
    assert type(counts) is Counts and counts == Counts(2, 1, 3, 4, (2, 1))
    assert repr(counts) == repr(Counts(2, 1, 3, 4, (2, 1)))
    can, proof, named = empty_can(), RejectionProof(((o, word),), ((fast_r,),)), InstanceDigest(_instance())
    pairs = ((make_accepted(Engine.SYMBOLIC, can, counts, named), Accepted(Engine.SYMBOLIC, can, counts, named)),
             (make_rejected(Engine.EXPLICIT, proof, counts, named), Rejected(Engine.EXPLICIT, proof, counts, named)))
    for fast, slow in pairs:
        assert type(fast) is type(slow) and fast == slow and repr(fast) == repr(slow)
        assert fast.digest == slow.digest


def _instance() -> Instance:
    return make_instance(Call("c1"), {"c1": "d1"}, {"d1": "l"}, (), from_maximal_words([["l"]]))
