"""Admission of one authenticated invocation (*Policy-Mediated Autonomy with Resumable Action Attempts*, "Policy
evaluation and precedence" and the trace "publish a customer report").

    authenticated request → tenant policy → deny | allow | require-review
    require-review → persist request envelope → pending human decision

Order of checks: authentication, then tenant scope, then the route's policy keys (every one is
evaluated; restrictive join; default allow), then the branch. Deny stores a DENIED attempt;
allow stores ADMITTED, moves it to EXECUTING and hands it to the effect handler (live checks
still apply); require-review persists the envelope and its identity binding and answers
``Held`` naming the saved attempt, or refuses when the route is not replayable or the store cannot
persist — there is never a "pending" without a recoverable subject. Choices where the source is
silent: a refused request (authentication, scope, unknown route, policy failure, no hold) stores
nothing; attempt ids are uuid4 unless the caller passes one.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from model.admission.refusal import Refusal, RefusalReason
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import AttemptState, Event
from model.admission.resumable.authority import Authority, LiveDenial, authenticate
from model.admission.resumable.envelope import Request
from model.admission.resumable.handler import ExecutionResult, Handler, Route
from model.admission.resumable.tenant_policy import LookupFailed, PolicyEffect, PolicySource, evaluate


@dataclass(frozen=True, slots=True)
class Denied:
    attempt_id: str


@dataclass(frozen=True, slots=True)
class Executed:
    attempt_id: str
    result: ExecutionResult


@dataclass(frozen=True, slots=True)
class Held:
    """The typed held response: the saved attempt and the digest of the body it will replay."""

    attempt_id: str
    body_digest: str


Admission = Denied | Executed | Held | Refusal


class AdmissionService:
    def __init__(self, routes: Mapping[tuple[str, str], Route], policies: PolicySource, store: AttemptStore,
                 handler: Handler, authority: Callable[[], Authority]) -> None:
        self.routes = routes
        self.policies = policies
        self.store = store
        self.handler = handler
        self.authority = authority

    def submit(self, request: Request, now: datetime, attempt_id: str | None = None) -> Admission:
        i = request.identity
        aid = attempt_id or str(uuid.uuid4())
        bad = authenticate(self.authority(), i.tenant, i.principal, i.credential, now)
        if bad is LiveDenial.CREDENTIAL_NOT_REQUESTERS:
            cred = self.authority().credentials[i.credential]
            if cred.principal == i.principal:
                return Refusal(RefusalReason.TENANT_SCOPE, f"credential is scoped to tenant {cred.tenant}")
        if bad is not None:
            return Refusal(RefusalReason.UNAUTHENTICATED, bad.value)
        route = self.routes.get((i.method, i.path))
        if route is None:
            return Refusal(RefusalReason.UNKNOWN_ROUTE, f"{i.method} {i.path}")
        verdict = evaluate(self.policies, i.tenant, route.operations)
        if isinstance(verdict, LookupFailed):
            return Refusal(RefusalReason.POLICY_UNAVAILABLE, f"lookup of {verdict.key} failed: {verdict.detail}")
        if verdict is PolicyEffect.DENY:
            self.store.create(aid, request, AttemptState.SUBMITTED, now)
            self.store.advance(aid, Event.DENY)
            return Denied(aid)
        if verdict is PolicyEffect.ALLOW:
            self.store.create(aid, request, AttemptState.SUBMITTED, now)
            self.store.advance(aid, Event.ADMIT)
            self.store.advance(aid, Event.DISPATCH)
            return Executed(aid, self.handler.execute(aid, route, request, now))
        if not route.replayable:
            return Refusal(RefusalReason.NOT_REPLAYABLE, f"{i.method} {i.path} cannot be replayed")
        try:
            self.store.create(aid, request, AttemptState.SUBMITTED, now)
            if not self.store.advance(aid, Event.HOLD):
                return Refusal(RefusalReason.NOT_PERSISTABLE, "the hold could not be recorded")
        except Exception as exc:  # a store that cannot persist: no recoverable subject, so no hold
            return Refusal(RefusalReason.NOT_PERSISTABLE, f"{type(exc).__name__}: {exc}")
        return Held(aid, request.body_digest)
