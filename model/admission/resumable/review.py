"""The approval service (*Policy-Mediated Autonomy with Resumable Action Attempts*, "Requester, approver, and executor
separation"): an eligible human resolves a held attempt; the service records the decision and the
approver reference and never executes anything.

It does not import the handler or the tools (checked by the architecture test). Choices where
the source is silent: an approver is eligible when listed for the attempt's tenant and is not the
requester principal (R cannot manufacture H's approval); a decision on an attempt that is not
HELD (already decided, or never held) is refused, so a decision is recorded at most once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from model.admission.refusal import Refusal, RefusalReason
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import AttemptState, Event
from model.admission.signatures.sealing import Tampered


@dataclass(frozen=True, slots=True)
class Recorded:
    attempt_id: str
    approver: str
    state: AttemptState


class ApprovalService:
    def __init__(self, store: AttemptStore, eligible: Mapping[str, frozenset[str]]) -> None:
        self.store = store
        self.eligible = eligible  # tenant -> approver references

    def decide(self, attempt_id: str, approver: str, approve: bool, now: datetime,
               context: str = "") -> Recorded | Refusal:
        try:
            return self._decide(attempt_id, approver, approve, now, context)
        except Tampered as exc:
            return Refusal(RefusalReason.STORE_TAMPERED, str(exc))

    def _decide(self, attempt_id: str, approver: str, approve: bool, now: datetime, context: str
                ) -> Recorded | Refusal:
        att = self.store.get(attempt_id)
        if att is None:
            return Refusal(RefusalReason.UNKNOWN_ATTEMPT, attempt_id)
        ident = att.request.identity
        if approver not in self.eligible.get(ident.tenant, frozenset()) or approver == ident.principal:
            return Refusal(RefusalReason.INELIGIBLE_APPROVER, approver)
        event = Event.APPROVE if approve else Event.REJECT
        if not self.store.advance(attempt_id, event, approver=approver, context=context, now=now):
            return Refusal(RefusalReason.NOT_HELD, f"attempt is {att.state.value}")
        return Recorded(attempt_id, approver, AttemptState.APPROVED if approve else AttemptState.REJECTED)
