"""Resolve (execution-edit-checking.md Section V-B)."""

from __future__ import annotations

from itertools import product

from model.edits.resolve import Mode, auth, extended_log, raw, resolve

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
