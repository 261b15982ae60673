"""Bounded explicit-state exploration of the hold/replay protocol: over every
interleaving of submit, approve, reject, revoke, grant change, replay (repeatedly), replay under
another identity, timeout, crash and restart, the real services keep P1–P4; and each property is
not vacuous: a known fault injected into the services is found, with its trace."""

from __future__ import annotations

import pytest

from model.admission.deployments.explore import MUTANTS, PROPERTIES, explore


def test_hold_replay_protocol_one_attempt_full_state_space_keeps_p1_to_p4() -> None:
    r = explore(depth=12, attempts=1)
    print(f"one attempt: {r.states} states, {r.transitions} transitions, complete={r.complete}")
    assert r.violations == ()
    assert r.complete  # the bound exceeds the diameter: every reachable state was explored
    assert r.states > 20


def test_hold_replay_protocol_two_attempts_bounded_keeps_p1_to_p4() -> None:
    r = explore(depth=6, attempts=2)
    print(f"two attempts, depth 6: {r.states} states, {r.transitions} transitions")
    assert r.violations == ()
    assert r.states > 100


@pytest.mark.parametrize(("mutant", "prop"), [("skip-identity-check", "P4"), ("skip-live-check", "P3"),
                                              ("replay-unapproved", "P1"), ("redispatch-after-crash", "P2")])
def test_exploration_finds_each_injected_fault(mutant: str, prop: str) -> None:
    assert mutant in MUTANTS and prop in PROPERTIES
    r = explore(depth=6, attempts=1, mutant=mutant)
    assert prop in {v.property for v in r.violations}, r
    trace = next(v.trace for v in r.violations if v.property == prop)
    assert trace[0] == "submit:a1" and len(trace) <= 6
