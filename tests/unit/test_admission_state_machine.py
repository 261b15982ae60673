"""The attempt state machine: the pure table and its enforcement by the durable store."""

from __future__ import annotations

import itertools

import pytest

from model.admission.deployments.deployment import EPOCH, publish_request
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import (
    RESULTED,
    TERMINAL,
    TRANSITIONS,
    AttemptState,
    Event,
    IllegalTransition,
    step,
)

S = AttemptState


def test_illegal_transitions_are_values_not_exceptions() -> None:
    for state, event in itertools.product(AttemptState, Event):
        out = step(state, event)
        assert (out == IllegalTransition(state, event)) == ((state, event) not in TRANSITIONS)


def test_terminal_states_have_no_exit() -> None:
    assert all(s not in TERMINAL for (s, _e) in TRANSITIONS)
    assert RESULTED <= TERMINAL


def test_no_effect_path_skips_approval_from_held() -> None:
    # without the APPROVE edge, EXECUTING is unreachable from HELD; with it, it is reachable
    def reachable(edges: dict[tuple[AttemptState, Event], AttemptState]) -> set[AttemptState]:
        seen, frontier = {S.HELD}, [S.HELD]
        while frontier:
            s = frontier.pop()
            for (src, _ev), dst in edges.items():
                if src is s and dst not in seen:
                    seen.add(dst)
                    frontier.append(dst)
        return seen

    assert S.EXECUTING in reachable(TRANSITIONS)
    assert S.EXECUTING not in reachable({k: v for k, v in TRANSITIONS.items() if k[1] is not Event.APPROVE})


@pytest.mark.parametrize(("state", "event"), sorted(
    ((s, e) for s in AttemptState for e in Event if (s, e) not in TRANSITIONS), key=lambda p: (p[0].value, p[1].value)))
def test_store_refuses_illegal_transition(state: AttemptState, event: Event) -> None:
    store = AttemptStore()
    store.create("a", publish_request(), state, EPOCH)
    assert store.advance("a", event) is False
    att = store.get("a")
    assert att is not None and att.state is state
