"""Revoking approvals with a tenant-policy revision — beyond *Policy-Mediated Autonomy with Resumable
Action Attempts*, which keeps tenant policy out of the replay path (replay re-checks live authority,
not the policy that held the attempt), so a tenant cannot stop an approval it already granted.

``revise(store, routes, new_policy, tenant, revision, revoke_approved=...)`` applies a revision's
consequence to the tenant's held work: with ``revoke_approved``, every approved attempt of the
tenant that has not been replayed and whose route the revised policy now *denies* moves APPROVED →
REVOKED, by the store's conditional update, and its ledger entry names the revision (the store's
signed chain records who was revoked by what). Replay then refuses it (it is no longer approved).
Choices where nothing is said: only a revised *deny* revokes (an approval is what require-review
asked for, so a revision to require-review leaves it standing); an attempt replayed concurrently
wins or loses by the same conditional update as two replays, never both; a revision whose policy
lookup fails revokes nothing and says so; without the option nothing changes (the paper's rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.attempts import AttemptState, Event
from model.admission.resumable.handler import Route
from model.admission.resumable.tenant_policy import LookupFailed, PolicyEffect, PolicySource, evaluate


@dataclass(frozen=True, slots=True)
class Revised:
    revision: str
    revoked: tuple[str, ...]  # attempt ids moved APPROVED → REVOKED
    kept: tuple[str, ...]  # approved attempts the revision leaves standing
    failed: tuple[str, ...] = ()  # attempts whose policy lookup failed: not revoked, to be revised again


def revise(store: AttemptStore, routes: Mapping[tuple[str, str], Route], policy: PolicySource, tenant: str,
           revision: str, now: datetime, *, revoke_approved: bool = False) -> Revised:
    if not revoke_approved:
        return Revised(revision, (), tuple(a.id for a in store.approved(tenant)))
    revoked, kept, failed = [], [], []
    for att in store.approved(tenant):
        ident = att.request.identity
        route = routes.get((ident.method, ident.path))
        verdict = evaluate(policy, tenant, route.operations) if route is not None else PolicyEffect.DENY
        if isinstance(verdict, LookupFailed):
            failed.append(att.id)
        elif verdict is PolicyEffect.DENY and store.advance(att.id, Event.REVOKE, context=revision, now=now,
                                                            only=AttemptState.APPROVED):
            revoked.append(att.id)
        else:
            kept.append(att.id)
    return Revised(revision, tuple(revoked), tuple(kept), tuple(failed))
