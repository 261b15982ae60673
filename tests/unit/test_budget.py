"""The shared budget: parsing, limits, and the Unknown it turns into."""

from __future__ import annotations

import time

import pytest

from model.base.budget import Budget, BudgetExhausted, Unknown
from model.base.errors import InvalidInput


@pytest.mark.parametrize("text", ["30s", "5m", "2h", "200000states", "30s,200000states", "none", "1.5s"])
def test_parse_spec_round_trip(text: str) -> None:
    b = Budget.parse(text)
    assert Budget.parse(b.spec()) == b


@pytest.mark.parametrize("text", ["", "30", "s", "-1s", "0s", "1.5states", "30s,40s", "3x", "1e9s", "nan s"])
def test_bad_budgets_are_invalid_input(text: str) -> None:
    with pytest.raises(InvalidInput):
        Budget.parse(text)


def test_state_limit_raises_after_the_limit() -> None:
    meter = Budget(states=10).start()
    for _ in range(10):
        meter.tick()
    with pytest.raises(BudgetExhausted) as info:
        meter.tick()
    u = Unknown.of(info.value, "ran out")
    assert u.limit == "states" and u.spent.states == 11 and "ran out" in u.describe()


def test_time_limit_raises() -> None:
    meter = Budget(seconds=0.05).start()
    time.sleep(0.06)
    with pytest.raises(BudgetExhausted) as info:
        meter.check_time()
    assert info.value.limit == "time"


def test_unlimited_never_raises_and_reports_progress() -> None:
    seen: list[int] = []
    meter = Budget().start(lambda s: seen.append(s.states))
    for _ in range(5000):
        meter.tick()
    assert meter.spent.states == 5000 and meter.remaining_seconds() is None


@pytest.mark.parametrize("limit", [None, 1, 7, 255, 300])
def test_room_counts_only_ticks_that_would_only_count(limit: int | None) -> None:
    """``room`` ticks handed over as one ``tick(n)`` have the effect of n ticks: no raise and no clock
    reading among them, and the next tick is the first that may do either (the state limit, or the
    clock check that comes every 256 ticks)."""
    meter = Budget(states=limit).start()
    meter.tick(0)
    room = meter.room()
    assert room == min(255, 10**9 if limit is None else limit)
    meter.tick(room)
    assert meter.spent.states == room and meter.room() == 0
    if limit is not None and limit == room:
        with pytest.raises(BudgetExhausted):
            meter.tick()
    else:
        meter.tick()  # the 256th tick reads the clock: its countdown starts again
        assert meter.room() == min(255, 10**9 if limit is None else limit - 256)
