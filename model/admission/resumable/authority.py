"""The requester's *current* authority, checked by the effect handler at dispatch time
(*Policy-Mediated Autonomy with Resumable Action Attempts*, "Requester, approver, and executor separation" and "State
transitions, TOCTOU, and limits").

Approval is a decision, not authority: when a held attempt is replayed the handler re-resolves
the requester's credential and re-checks role, scope, grant and resource *now*. This module is
that check as a pure function over a snapshot. Choices where the source is silent:
- A credential belongs to one principal in one tenant, may expire (``expires_at``, exclusive:
  at the instant it is no longer valid) and may be revoked.
- ``scopes`` on the credential name the operations it may be used for; ``roles`` of the
  principal must include the operation's required role; a grant names principal, operation
  and resource (``*`` = any resource of the tenant); the resource must exist in the tenant.
- The first failing check is reported, in the order credential, role, scope, grant, resource.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Credential:
    id: str
    principal: str
    tenant: str
    scopes: frozenset[str]
    expires_at: datetime | None = None
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class Grant:
    principal: str
    operation: str
    resource: str  # "*" for every resource of the tenant


class LiveDenial(enum.Enum):
    CREDENTIAL_UNKNOWN = "credential-unknown"
    CREDENTIAL_REVOKED = "credential-revoked"
    CREDENTIAL_EXPIRED = "credential-expired"
    CREDENTIAL_NOT_REQUESTERS = "credential-not-requesters"
    ROLE = "role"
    SCOPE = "scope"
    GRANT = "grant"
    RESOURCE = "resource"


@dataclass(frozen=True, slots=True)
class Authority:
    """A snapshot of who may do what in each tenant."""

    credentials: Mapping[str, Credential] = field(default_factory=dict)
    roles: Mapping[tuple[str, str], frozenset[str]] = field(default_factory=dict)  # (tenant, principal) -> roles
    required_role: Mapping[str, str] = field(default_factory=dict)  # operation -> role (absent: none needed)
    grants: frozenset[tuple[str, Grant]] = frozenset()  # (tenant, grant)
    resources: frozenset[tuple[str, str]] = frozenset()  # (tenant, resource)

    def revoke_credential(self, cred: str) -> Authority:
        c = self.credentials[cred]
        return replace(self, credentials={**self.credentials, cred: replace(c, revoked=True)})

    def without_grant(self, tenant: str, grant: Grant) -> Authority:
        return replace(self, grants=self.grants - {(tenant, grant)})

    def with_grant(self, tenant: str, grant: Grant) -> Authority:
        return replace(self, grants=self.grants | {(tenant, grant)})


def authenticate(auth: Authority, tenant: str, principal: str, credential: str, now: datetime) -> LiveDenial | None:
    """The credential part of the check; also what admission runs before any policy."""
    c = auth.credentials.get(credential)
    if c is None:
        return LiveDenial.CREDENTIAL_UNKNOWN
    if c.revoked:
        return LiveDenial.CREDENTIAL_REVOKED
    if c.expires_at is not None and now >= c.expires_at:
        return LiveDenial.CREDENTIAL_EXPIRED
    if c.principal != principal or c.tenant != tenant:
        return LiveDenial.CREDENTIAL_NOT_REQUESTERS
    return None


def authorize(auth: Authority, tenant: str, principal: str, credential: str, operations: tuple[str, ...],
              resource: str, now: datetime) -> LiveDenial | None:
    """``None`` when the requester may perform every operation on ``resource`` now; else why not."""
    bad = authenticate(auth, tenant, principal, credential, now)
    if bad is not None:
        return bad
    cred = auth.credentials[credential]
    roles = auth.roles.get((tenant, principal), frozenset())
    for op in operations:
        need = auth.required_role.get(op)
        if need is not None and need not in roles:
            return LiveDenial.ROLE
    for op in operations:
        if op not in cred.scopes:
            return LiveDenial.SCOPE
    for op in operations:
        if (tenant, Grant(principal, op, resource)) not in auth.grants and \
                (tenant, Grant(principal, op, "*")) not in auth.grants:
            return LiveDenial.GRANT
    if (tenant, resource) not in auth.resources:
        return LiveDenial.RESOURCE
    return None
