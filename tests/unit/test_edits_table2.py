"""Table II (*Exact Checking for Execution Edits*, Appendices A-F, A-G): five record pairs, each built by real
runtime steps from the empty state, get opposite correct answers; after omitting the pair's part the
two reduced records are identical (and before the omission they differ)."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.edits.runtime.answers import CheckAnswer, EditAccepted, EditInvalid, EditRejected, NoCommit, Updated
from model.edits.runtime.invariant import agent_sec
from model.edits.runtime.pairs import Pair, pairs
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.sec import PARTS, drop_ca, drop_ra, keep, omit, sec
from model.edits.runtime.session_script import edit_from_json, run_step, session_from_json

PAIRS = pairs()


def reach(script: dict[str, object], path: Path) -> Runtime:
    sess = session_from_json(script)
    rt, _ = Runtime.create(str(path), sess.registration, sess.seed)
    answers: dict[str, CheckAnswer] = {}
    for step in sess.steps:
        rt, _ = run_step(rt, step, answers, str(path))
    assert agent_sec(rt.state()) == []
    return rt


def name(a: object) -> str:
    return {EditAccepted: "accepted", EditRejected: "rejected", EditInvalid: "invalid", Updated: "updated",
            NoCommit: "no-commit"}[type(a)]


def answers(pair: Pair, tmp_path: Path) -> tuple[str, str, Runtime, Runtime]:
    r0, r1 = reach(pair.v0, tmp_path / "v0.db"), reach(pair.v1, tmp_path / "v1.db")
    if "check" in pair.query:
        edit = edit_from_json(pair.query["check"])
        return name(r0.check(edit)), name(r1.check(edit)), r0, r1
    edit = edit_from_json(pair.query["update"])
    if pair.part == "E":
        # Y₀ is checked at V⁰; V¹ is V⁰ after Dispatch, so replay V⁰'s steps and check before dispatching
        y0 = r0.check(edit)
        r1.close()
        r1 = reach({**pair.v1, "steps": pair.v1["steps"][:-1]}, tmp_path / "v1b.db")  # type: ignore[index]
        assert r1.check(edit) == y0  # same record, same γ, same answer
        assert type(r1.dispatch()).__name__ == "Sent"
    else:
        y0 = r0.check(edit)
    assert isinstance(y0, EditAccepted)
    s1 = r1.state()
    a0, a1 = r0.try_update(edit, y0), r1.try_update(edit, y0)
    if isinstance(a1, NoCommit):
        assert r1.state() == s1  # NoCommit changes nothing
    return name(a0), name(a1), r0, r1


@pytest.mark.parametrize("part", sorted(PAIRS))
def test_pair_gets_opposite_answers_and_collapses_when_its_part_is_omitted(part: str, tmp_path: Path) -> None:
    pair = PAIRS[part]
    a0, a1, r0, r1 = answers(pair, tmp_path)
    assert (a0, a1) == pair.answers
    # compare the records the query was asked about (for the update pairs: before the update)
    v0 = reach(pair.v0, tmp_path / "w0.db").state()
    v1 = reach(pair.v1, tmp_path / "w1.db").state()
    assert keep(v0, PARTS) != keep(v1, PARTS)  # the full record distinguishes them
    if part == "ra":
        assert drop_ra(v0) == drop_ra(v1)
        for p in PARTS:  # every single part still tells them apart
            assert omit(v0, p) != omit(v1, p), p
    else:
        assert omit(v0, part) == omit(v1, part)
        if part == "I":  # the I pair differs exactly in the call → action correspondence
            assert drop_ca(v0) == drop_ca(v1)
        for p in PARTS:
            if p != part:
                assert omit(v0, p) != omit(v1, p), p
    r0.close()
    r1.close()


def test_the_pairs_differ_only_in_the_named_part(tmp_path: Path) -> None:
    """Sanity of the split: in each pair exactly the named part (and computed values) differ."""
    for part, pair in PAIRS.items():
        v0 = sec(reach(pair.v0, tmp_path / f"{part}0.db").state())
        v1 = sec(reach(pair.v1, tmp_path / f"{part}1.db").state())
        differ = {p for p in PARTS if v0[p] != v1[p]}
        expected = {"ra": {"I", "E", "P"}}.get(part, {part})
        assert differ == expected, (part, differ)
