"""The abstract attempt state machine of *Policy-Mediated Autonomy with Resumable Action Attempts* ("State transitions,
TOCTOU, and limits"):

    submitted → denied
    submitted → admitted → executing → completed | failed
    submitted → held → approved | rejected,   approved → executing (replay)

Choices where the source is silent:
- "failed" is split by its typed result: FAILED (live authorization refused the effect),
  DEPENDENCY_FAILED (a dependency was unavailable; no effect) and UNCERTAIN (a timeout around the
  external commit, or a crash while executing: the effect may or may not have happened). None
  is re-dispatched: the architecture makes no exactly-once claim, so uncertainty is recorded.
- The durable store enforces this table with conditional updates; ``step`` is the pure version
  the exploration and the unit tests use.
- Beyond the source, ``approved → revoked``: a tenant-policy revision made with the option to
  revoke approvals (``revocation``) ends an approved attempt that has not been replayed, so a
  tenant can stop an approval already granted (the source keeps tenant policy out of replay).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class AttemptState(enum.Enum):
    SUBMITTED = "submitted"
    DENIED = "denied"
    ADMITTED = "admitted"
    HELD = "held"
    APPROVED = "approved"
    REJECTED = "rejected"
    EXECUTING = "executing"
    COMPLETED = "completed"
    FAILED = "failed"
    DEPENDENCY_FAILED = "dependency-failed"
    UNCERTAIN = "uncertain"
    REVOKED = "revoked"


class Event(enum.Enum):
    DENY = "deny"
    ADMIT = "admit"
    HOLD = "hold"
    APPROVE = "approve"
    REJECT = "reject"
    DISPATCH = "dispatch"
    COMPLETE = "complete"
    FAIL = "fail"
    DEPENDENCY_FAIL = "dependency-fail"
    TIME_OUT = "time-out"
    CRASH_RECOVER = "crash-recover"
    REVOKE = "revoke"


S, E = AttemptState, Event

TRANSITIONS: dict[tuple[AttemptState, Event], AttemptState] = {
    (S.SUBMITTED, E.DENY): S.DENIED,
    (S.SUBMITTED, E.ADMIT): S.ADMITTED,
    (S.SUBMITTED, E.HOLD): S.HELD,
    (S.HELD, E.APPROVE): S.APPROVED,
    (S.HELD, E.REJECT): S.REJECTED,
    (S.ADMITTED, E.DISPATCH): S.EXECUTING,
    (S.APPROVED, E.DISPATCH): S.EXECUTING,
    (S.APPROVED, E.REVOKE): S.REVOKED,
    (S.EXECUTING, E.COMPLETE): S.COMPLETED,
    (S.EXECUTING, E.FAIL): S.FAILED,
    (S.EXECUTING, E.DEPENDENCY_FAIL): S.DEPENDENCY_FAILED,
    (S.EXECUTING, E.TIME_OUT): S.UNCERTAIN,
    (S.EXECUTING, E.CRASH_RECOVER): S.UNCERTAIN,
}

TERMINAL = frozenset({S.DENIED, S.REJECTED, S.COMPLETED, S.FAILED, S.DEPENDENCY_FAILED, S.UNCERTAIN, S.REVOKED})
RESULTED = frozenset({S.COMPLETED, S.FAILED, S.DEPENDENCY_FAILED, S.UNCERTAIN})


@dataclass(frozen=True, slots=True)
class IllegalTransition:
    state: AttemptState
    event: Event


def step(state: AttemptState, event: Event) -> AttemptState | IllegalTransition:
    nxt = TRANSITIONS.get((state, event))
    return IllegalTransition(state, event) if nxt is None else nxt


def sources_of(event: Event) -> frozenset[AttemptState]:
    """The states from which ``event`` is legal: the WHERE clause of the store's conditional update."""
    return frozenset(s for (s, e) in TRANSITIONS if e is event)
