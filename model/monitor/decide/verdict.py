"""The monitor's verdict: ``Decision.ALLOW | PAUSE | DENY`` with a ``DenyReason`` and the evidence a
reader needs (Agenra Section 6.2). Shared by the literal decision (``decide.py``) and the compiled one
(``compiled_decide.py``); ``decide`` re-exports every name.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from model.base.fastinit import fast_init
from model.monitor.decide.flow import FLOW_APPROVAL
from model.monitor.decide.ledger import Allocation
from model.monitor.decide.matching import Effect
from model.monitor.decide.state import Call, Permit
from model.monitor.language.labels import Label


class Decision(enum.Enum):
    ALLOW = "allow"
    PAUSE = "pause"
    DENY = "deny"


class DenyReason(enum.Enum):
    # preparation
    UNKNOWN_TOOL = "unknown_tool"
    UNDECLARED_ARGUMENT = "undeclared_argument"
    MISSING_ARGUMENT = "missing_argument"
    UNKNOWN_HANDLE = "unknown_handle"
    MALFORMED_RESOURCE = "malformed_resource"
    # Struct
    UNKNOWN_AGENT = "unknown_agent"
    OPERATION_NOT_PERMITTED = "operation_not_permitted"
    ENDPOINT = "endpoint"
    CEILING = "ceiling"
    # permissions
    EXPLICIT_DENY = "explicit_deny"
    NO_MATCHING_ALLOW = "no_matching_allow"
    SLOT_UNBOUND = "slot_unbound"
    SLOT_INVALID = "slot_invalid"
    # rules
    ORIGIN = "origin"
    FLOW = "flow"
    HISTORY = "history"
    # contract
    QUOTA = "quota"
    PERMIT_MISSING = "permit_missing"
    PERMIT_MISMATCH = "permit_mismatch"
    PERMIT_CONSUMED = "permit_consumed"


@fast_init
@dataclass(frozen=True, slots=True)
class Verdict:
    """A decision with the evidence a reader needs; Allow carries what ``commit`` will charge."""

    decision: Decision
    reason: DenyReason | None = None
    detail: str = ""
    effects: tuple[Effect, ...] = ()
    label: Label | None = None
    user: Allocation | None = None
    app: Allocation | None = None
    waiting_for: frozenset[str] = frozenset()
    permit: int | None = None


def deny_verdict(reason: DenyReason, detail: str) -> Verdict:
    return Verdict(Decision.DENY, reason, detail)


def flow_pause(detail: str) -> Verdict:
    """A flow rule's Pause (an extension beyond Agenra): waiting for a reviewer's exact-call approval."""
    return Verdict(Decision.PAUSE, None, detail, waiting_for=frozenset({FLOW_APPROVAL}))


def find_permit(permits: tuple[Permit, ...], call: Call, review: bool = False) -> Permit | DenyReason:
    """The first unused permit binding ``call`` exactly (``review``: the identity a flow approval binds)."""
    if not permits:  # (the common case: no identity to compute, nothing can bind it)
        return DenyReason.PERMIT_MISSING
    ident = call.review_identity() if review else call.identity()
    same_tool = [p for p in permits if p.tool == call.tool]
    exact = [p for p in same_tool if p.identity == ident]
    unused = [p for p in exact if not p.consumed]
    if unused:
        return unused[0]
    if exact:
        return DenyReason.PERMIT_CONSUMED
    if any(not p.consumed for p in same_tool):
        return DenyReason.PERMIT_MISMATCH
    return DenyReason.PERMIT_MISSING
