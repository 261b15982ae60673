"""The heavier exploration variants: two held attempts to a fixed point, and three attempts to a
bound. Marked slow (excluded from ``make test``)."""

from __future__ import annotations

import pytest

from model.admission.deployments.explore import explore


@pytest.mark.slow
def test_hold_replay_protocol_two_attempts_full_state_space_keeps_p1_to_p4() -> None:
    r = explore(depth=20, attempts=2)
    print(f"two attempts: {r.states} states, {r.transitions} transitions, complete={r.complete}")
    assert r.violations == () and r.complete


@pytest.mark.slow
def test_hold_replay_protocol_three_attempts_bounded_keeps_p1_to_p4() -> None:
    r = explore(depth=7, attempts=3)
    print(f"three attempts, depth 7: {r.states} states, {r.transitions} transitions")
    assert r.violations == ()
