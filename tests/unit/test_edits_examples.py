"""The paper's worked examples (*Exact Checking for Execution Edits* Sections II, III, V-C2), for every engine,
and every corpus/edits instance against its recorded expectation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.edits.check.answer import Accepted, Engine, Invalid, Rejected
from model.edits.check.checker import check
from model.edits.check.contract import Call, Choice, Par
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.instance import Instance, make_instance
from model.edits.check.load_instance import load_instance
from model.edits.check.resolve import Mode, raw
from model.edits.check.verify import verify

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "edits"
ENGINES = list(Engine)


def release(words: list[list[str]]) -> Instance:
    term = Par((Call("x"), Choice("g", (("Y", Call("y")), ("Z", Call("z"))))))
    return make_instance(term, {"x": "dx", "y": "dy", "z": "dz"}, {"dx": "x", "dy": "y", "dz": "z"}, (),
                         from_maximal_words(words))


@pytest.mark.parametrize("engine", ENGINES)
def test_release_rejected_in_two_rounds(engine: Engine) -> None:
    v = check(release([["x", "z"], ["y", "x"]]), engine)
    assert isinstance(v, Rejected)
    assert v.proof.sizes() == (2, 1, 0)
    (first,), (second,) = v.proof.rounds
    # First x·z is removed at prefix x (the Y outcome cannot finish), then y·x at the empty prefix.
    assert raw(first.word) == ("x", "z") and raw(first.prefix) == ("x",) and first.missing == (("g", "Y"),)
    assert raw(second.word) == ("y", "x") and raw(second.prefix) == () and second.missing == (("g", "Z"),)
    assert verify(release([["x", "z"], ["y", "x"]]), v.proof).valid


@pytest.mark.parametrize("engine", ENGINES)
def test_release_accepted_with_two_completions(engine: Engine) -> None:
    v = check(release([["x", "y"], ["x", "z"]]), engine)
    assert isinstance(v, Accepted)
    done = sorted((o, raw(y)) for o, y in v.automaton.completions())
    assert done == [((("g", "Y"),), ("x", "y")), ((("g", "Z"),), ("x", "z"))]
    assert v.counts.safe == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_laptop_fork_keeps_both_suppliers_and_never_pays_both(engine: Engine) -> None:
    inst = load_instance(CORPUS / "laptop_fork.json")
    v = check(inst, engine)
    assert isinstance(v, Accepted)
    outcomes = {o for o, _ in v.automaton.completions()}
    assert outcomes == {(("g", "L"),), (("g", "R"),)}
    for word in v.automaton.generated():
        actions = {a.action for a in word if a.mode is Mode.NEW}
        assert not {"dLp", "dRp"} <= actions
        assert "da" not in actions  # approval is never authorized again


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.json")), ids=lambda p: p.name)
@pytest.mark.parametrize("engine", ENGINES)
def test_corpus_expectations(path: Path, engine: Engine) -> None:
    expect = json.loads(path.read_text())["expect"]
    v = check(load_instance(path), engine)
    assert {Accepted: "accepted", Rejected: "rejected", Invalid: "invalid"}[type(v)] == expect["verdict"]
    if isinstance(v, Invalid):
        assert v.reason.value == expect["reason"]
        return
    if "completions" in expect:
        assert isinstance(v, Accepted) and v.counts.safe == expect["completions"]
    assert list(v.counts.rounds or ()) == expect["rounds"]  # every engine reports the rounds
    if isinstance(v, Rejected):
        assert list(v.proof.sizes()) == expect["rounds"]
        assert verify(load_instance(path), v.proof).valid
