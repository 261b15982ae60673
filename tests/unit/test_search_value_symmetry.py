"""Value symmetry of the monitor engine (``model/search/value_symmetry.py``) against the unreduced exact
search on the corpus model with two interchangeable attackers: the same verdicts and shortest lengths,
``states`` equal to the number of orbits of the unreduced run's states, every witness a real execution
(replayed through the Adapter on the reference tools, the query re-evaluated), completions among the
unreduced ones; declarations that are plainly not symmetries refused."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from model.base.errors import InvalidInput
from model.search.compact import empty
from model.search.expand import Context
from model.search.explicit import ExactStore
from model.search.layered import layered
from model.search.load import load_model
from model.search.search_verdict import Found
from model.search.trace_replay import Reproduced, replay
from model.search.value_symmetry import ValueSymmetry, explore_symmetric

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "corpus" / "search" / "symmetric" / "report_two_attackers.json"
ATTACKERS = (("mallory@evil.example", "eve@evil.example"),)


def shape(v: object) -> tuple[str, int]:
    return type(v).__name__, len(v.trace) if isinstance(v, Found) else -1


@pytest.mark.parametrize("k", [4])
def test_reduced_search_answers_as_the_unreduced_one_modulo_symmetry(k: int) -> None:
    m = load_model(MODEL)
    ctx = Context(m, renaming=True)
    store = ExactStore(empty(m.policy), ctx.independence)
    full = layered(ctx, store, k, reduction=False)
    red = explore_symmetric(m, ATTACKERS, k)
    assert [(q, shape(v)) for q, v in red.verdicts] == [(q, shape(v)) for q, v in full.verdicts]
    orbits = {ValueSymmetry(m, ATTACKERS).orbit_key(s) for s in store.parent}
    assert red.states == len(orbits) < full.states
    assert red.transitions < full.transitions
    assert red.depth == full.depth
    for (name, comps), (name2, all_comps) in zip(red.completions, full.completions, strict=True):
        assert name == name2 and set(comps) <= set(all_comps) and bool(comps) == bool(all_comps)


def test_every_reduced_witness_is_an_execution_of_the_model() -> None:
    m = load_model(MODEL)
    red = explore_symmetric(m, ATTACKERS, 4)
    found = [(m.query(q), v.trace) for q, v in red.verdicts if isinstance(v, Found)]
    assert found, "the model has attacks and a goal within 4 steps"
    for q, trace in found:
        assert q is not None
        assert isinstance(replay(m, trace, q), Reproduced), q.name


def test_declarations_that_are_not_symmetries_are_refused() -> None:
    m = load_model(MODEL)
    with pytest.raises(InvalidInput, match="policy does not name"):
        explore_symmetric(m, [["Alice", "mallory@evil.example"]], 2)  # the policy resolves Alice's address
    with pytest.raises(InvalidInput, match="literals"):
        explore_symmetric(m, [["mallory@evil.example", "trudy@evil.example"]], 2)
    lookup = dict(m.results)["Lookup"]
    lopsided = dataclasses.replace(m, results=tuple((t, r if t != "Lookup" else lookup[:2] + lookup[3:])
                                                    for t, r in m.results))
    with pytest.raises(InvalidInput, match="outcomes of Lookup"):
        explore_symmetric(lopsided, ATTACKERS, 2)  # the directory may answer mallory's address, never eve's
    with pytest.raises(InvalidInput, match="disjoint classes"):
        explore_symmetric(m, [["mallory@evil.example"]], 2)
