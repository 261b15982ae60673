"""Replay of an approved held attempt (*Policy-Mediated Autonomy with Resumable Action Attempts*, "Requester, approver,
and executor separation" and "State transitions, TOCTOU, and limits").

    approved pending request → replay-time identity check → live authorization → effect handler

Order: the saved attempt must exist; the replay request's identity must equal the saved tenant,
principal, credential, method, path and query (checked *before* claiming, so a mismatched
request cannot burn the attempt); then one conditional update claims it APPROVED → EXECUTING —
only an approved attempt with no recorded result moves, so a second or concurrent replay is
refused; then the handler re-checks live authority, dispatches and records the typed result.
A route whose contract requires a permit (``Route.permit``) also needs a permit holder's signed
permit for this attempt, checked with the identity before claiming (``permits``).
Choices where the source is silent: the replayed body is always the *saved* body (a changed
request is a new attempt); the replay request carries only its identity (and the permit). The
saved attempt is read verified (``attempt_store``: its envelope, the body's digest recomputed, its
state, approver and reviews as the store's signed ledger has them), and the claim verifies it again
in its transaction; a row written without the store's key is refused (STORE_TAMPERED) before any
effect, so an edited body, an attempt reset to approved, or one whose review was deleted is not run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from model.admission.refusal import Refusal, RefusalReason
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import AttemptState, Event
from model.admission.resumable.envelope import Identity
from model.admission.resumable.handler import ExecutionResult, Handler, Route
from model.admission.resumable.permit_holder import Holder, check_permit
from model.admission.signatures.sealing import Tampered


@dataclass(frozen=True, slots=True)
class Replayed:
    attempt_id: str
    result: ExecutionResult


class ReplayService:
    def __init__(self, routes: Mapping[tuple[str, str], Route], store: AttemptStore, handler: Handler,
                 holders: Mapping[str, Holder] | None = None) -> None:
        self.routes = routes
        self.store = store
        self.handler = handler
        self.holders: Mapping[str, Holder] = holders or {}

    def replay(self, attempt_id: str, identity: Identity, now: datetime, permit: object = None
               ) -> Replayed | Refusal:
        try:
            return self._replay(attempt_id, identity, now, permit)
        except Tampered as exc:  # a stored row the store's key did not write: nothing is dispatched from it
            return Refusal(RefusalReason.STORE_TAMPERED, str(exc))

    def _replay(self, attempt_id: str, identity: Identity, now: datetime, permit: object) -> Replayed | Refusal:
        att = self.store.get(attempt_id)  # verified: envelope, body digest, state, reviews (``attempt_store``)
        if att is None:
            return Refusal(RefusalReason.UNKNOWN_ATTEMPT, attempt_id)
        if identity != att.request.identity:
            return Refusal(RefusalReason.IDENTITY_MISMATCH, "replay identity differs from the saved attempt")
        route = self.routes.get((identity.method, identity.path))
        if route is None or not route.replayable:
            return Refusal(RefusalReason.NOT_REPLAYABLE, f"{identity.method} {identity.path}")
        if route.permit is not None:
            checked = check_permit(permit, route.permit, att, self.holders, now)
            if isinstance(checked, Refusal):
                return checked
        if att.result is not None or not self.store.advance(attempt_id, Event.DISPATCH, only=AttemptState.APPROVED):
            return Refusal(RefusalReason.NOT_APPROVED_OR_ALREADY_RESULTED, f"attempt is {att.state.value}")
        return Replayed(attempt_id, self.handler.execute(attempt_id, route, att.request, now))
