"""The fingerprint mode of the integer-encoded search (``explore_native(fingerprint=True)``): the same
states, transitions, depth, verdicts with their shortest traces and completions as its exact mode on every
corpus model it covers, a collision bound reported, a table too small for the run doubled on the way, and
a budget that stops it answering Unknown."""

from __future__ import annotations

import pytest

from model.base.budget import Budget
from model.search.fpset import collision_probability
from model.search.load import load_model
from model.search.native import intcode
from tests.unit.test_search_intcode import BOUNDS, MODELS, SEARCH, kernel


def answers(run: object) -> tuple[object, ...]:
    return tuple(getattr(run, f) for f in ("states", "transitions", "depth", "verdicts", "completions", "unknown"))


@pytest.mark.parametrize("name", [n for n in MODELS if n in BOUNDS])
def test_fingerprints_answer_as_the_exact_vectors(name: str) -> None:
    kernel()
    m = load_model(SEARCH / name)
    k = BOUNDS[name]
    exact = intcode.explore_native(m, k)
    fp = intcode.explore_native(m, k, fingerprint=True)
    assert exact is not None and fp is not None
    assert answers(fp) == answers(exact)
    assert fp.mode == "fingerprint" and exact.mode == "exact"
    assert fp.collision == collision_probability(fp.states) and exact.collision == 0.0


def test_a_table_sized_too_small_grows_and_one_sized_large_answers_alike() -> None:
    kernel()
    m = load_model(SEARCH / "report.json")
    small = intcode.explore_native(m, 5, fingerprint=True, capacity=1)  # 4096 slots, doubled
    large = intcode.explore_native(m, 5, fingerprint=True, capacity=1 << 20)
    exact = intcode.explore_native(m, 5)
    assert small is not None and large is not None and exact is not None
    assert exact.states > 4096  # the small table had to grow
    assert answers(small) == answers(large) == answers(exact)


def test_a_budget_stops_the_fingerprint_mode_with_unknown() -> None:
    kernel()
    m = load_model(SEARCH / "deploy.json")
    got = intcode.explore_native(m, 3, budget=Budget(states=2000), fingerprint=True)
    assert got is not None and got.unknown is not None
    assert got.transitions < 22684  # the whole search to bound 3
