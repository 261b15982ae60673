"""The direct sampler of the DRT's strategies (model/oracle/direct.py): values inside every primitive's
bounds, well-formed policies from the composite strategies, one case per (seed, judgment, index), and a
campaign whose case ``i`` is drawn again alone (the replay a mismatch prints)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from model.oracle import direct, generators
from model.oracle.drt import campaign, strategy_for
from model.oracle.lean import JUDGMENTS
from model.oracle.results import Agree


def _many(strategy: Any, n: int = 300, seed: int = 1) -> list[Any]:
    rng = random.Random(seed)
    return [direct.draw(strategy, rng) for _ in range(n)]


def test_primitives_stay_inside_their_bounds() -> None:
    ints = _many(st.integers(-(10**12), 10**12))
    assert all(-(10**12) <= x <= 10**12 for x in ints)
    assert any(abs(x) <= 16 for x in ints) and any(abs(x) > 10**6 for x in ints)  # small values and wide ones
    assert set(_many(st.integers(2, 3))) == {2, 3}
    floats = _many(st.floats(-1e6, 1e6, allow_nan=False))
    assert all(-1e6 <= x <= 1e6 and not math.isnan(x) for x in floats)
    lists = _many(st.lists(st.integers(0, 9), min_size=2, max_size=4, unique=True))
    assert all(2 <= len(x) <= 4 and len(set(x)) == len(x) for x in lists)
    assert {len(x) for x in lists} == {2, 3, 4}
    texts = _many(st.text(st.characters(exclude_categories=["Cs"]), max_size=8))
    assert all(len(t) <= 8 and not any(0xD800 <= ord(c) < 0xE000 for c in t) for t in texts)
    dicts = _many(st.dictionaries(st.sampled_from("abc"), st.integers(0, 1), max_size=2))
    assert all(isinstance(d, dict) and len(d) <= 2 and set(d) <= set("abc") for d in dicts)
    sets = _many(st.frozensets(st.sampled_from("abcd"), max_size=3))
    assert all(isinstance(s, frozenset) and len(s) <= 3 for s in sets)
    assert set(_many(st.none() | st.just(1).map(str))) == {None, "1"}
    assert all(sorted(p) == [1, 2, 3] for p in _many(st.permutations([1, 2, 3]), 20))
    assert all(x % 2 == 0 for x in _many(st.integers(0, 100).filter(lambda v: v % 2 == 0), 50))


def test_a_strategy_it_cannot_draw_is_refused() -> None:
    with pytest.raises(TypeError):
        direct.draw(st.recursive(st.none(), st.lists), random.Random(0))


def test_the_composite_policies_are_well_formed() -> None:
    from model.monitor.language.validate import validate

    for policy in _many(generators.policies(), 60):
        validate(policy)


@pytest.mark.parametrize("judgment", JUDGMENTS)
def test_a_case_is_a_function_of_seed_judgment_and_index(judgment: str) -> None:
    strategy = strategy_for(judgment, generators)
    first = [repr(direct.draw(strategy, direct.case_random(7, judgment, i))) for i in range(8)]
    again = [repr(direct.draw(strategy, direct.case_random(7, judgment, i))) for i in range(8)]
    assert first == again
    assert len(set(first)) > 4  # (different indices draw different cases)


def test_a_campaign_case_is_replayed_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import model.oracle.drt as drt

    seen: list[str] = []

    def record(judgment: str, oracle: Any, case: Any) -> list[Any]:
        seen.append(repr(case))
        return [Agree("seen")]

    monkeypatch.setattr(drt, "run_case", record)
    whole = campaign("resolve", 12, None, generators, seed=3, vectors=tmp_path)  # type: ignore[arg-type]
    assert whole.cases == 12 and whole.seed == 3
    all_cases = list(seen)
    seen.clear()
    one = campaign("resolve", 1, None, generators, seed=3, vectors=tmp_path, first=9)  # type: ignore[arg-type]
    assert one.cases == 1 and seen == [all_cases[9]]
