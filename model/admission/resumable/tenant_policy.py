"""Tenant policy and its restrictive join (*Policy-Mediated Autonomy with Resumable Action Attempts*, "Policy
evaluation and precedence").

Policies are keyed by operation (tool name) per tenant. Every key a route derives is evaluated
and the outcomes are joined with deny ≻ require-review ≻ allow; when no key has an explicit
policy the platform default is allow. A lookup that fails (the policy service is down, the table
is unreadable) is *not* an outcome: ``evaluate`` reports ``LookupFailed`` and the admission
service refuses. Choices where the source is silent:
- A lookup source is any object with ``lookup(tenant, key) -> PolicyEffect | None`` that may
  raise; any exception from it is a lookup failure (there is no partial join over the keys
  that did answer, since the missing one could have been a deny).
- The JSON form is ``{"tenant": T, "policies": {"op": "allow" | "deny" | "require-review"}}``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from model.base.errors import InputKind, InvalidInput, json_path


class PolicyEffect(enum.IntEnum):
    """Ordered so that the restrictive join is ``max``."""

    ALLOW = 0
    REQUIRE_REVIEW = 1
    DENY = 2


_NAMES = {"allow": PolicyEffect.ALLOW, "require-review": PolicyEffect.REQUIRE_REVIEW, "deny": PolicyEffect.DENY}

PLATFORM_DEFAULT = PolicyEffect.ALLOW


def join(effects: Iterable[PolicyEffect]) -> PolicyEffect:
    """deny ≻ require-review ≻ allow; the empty join is the platform default (allow)."""
    return max(effects, default=PLATFORM_DEFAULT)


class PolicySource(Protocol):
    def lookup(self, tenant: str, key: str) -> PolicyEffect | None: ...


@dataclass(frozen=True, slots=True)
class LookupFailed:
    key: str
    detail: str


@dataclass(frozen=True, slots=True)
class TenantPolicies:
    """An in-memory policy table: ``(tenant, operation) -> effect``."""

    table: Mapping[tuple[str, str], PolicyEffect]

    def lookup(self, tenant: str, key: str) -> PolicyEffect | None:
        return self.table.get((tenant, key))


def evaluate(source: PolicySource, tenant: str, keys: Iterable[str]) -> PolicyEffect | LookupFailed:
    """Evaluate every applicable key in the tenant's context and join the explicit outcomes."""
    found: list[PolicyEffect] = []
    for key in keys:
        try:
            effect = source.lookup(tenant, key)
        except Exception as exc:  # any failure means "no decision", never "allow"
            return LookupFailed(key, f"{type(exc).__name__}: {exc}")
        if effect is not None:
            found.append(effect)
    return join(found)


def load_tenant_policies(docs: object, source: str = "<policies>") -> TenantPolicies:
    """Load a list of tenant policy documents into one table (a key declared twice is invalid)."""
    if not isinstance(docs, list):
        raise InvalidInput(f"{source} at $", "a list of tenant policy documents", type(docs).__name__,
                           InputKind.SCHEMA)
    table: dict[tuple[str, str], PolicyEffect] = {}
    for i, doc in enumerate(docs):
        here = f"{source} at {json_path((i,))}"
        if not isinstance(doc, dict) or set(doc) != {"tenant", "policies"}:
            raise InvalidInput(here, "an object with keys tenant, policies", repr(doc)[:80], InputKind.SCHEMA)
        tenant, pols = doc["tenant"], doc["policies"]
        if not isinstance(tenant, str) or not tenant:
            raise InvalidInput(f"{source} at {json_path((i, 'tenant'))}", "a non-empty string", repr(tenant)[:80],
                               InputKind.SCHEMA)
        if not isinstance(pols, dict):
            raise InvalidInput(f"{source} at {json_path((i, 'policies'))}", "an object", type(pols).__name__,
                               InputKind.SCHEMA)
        for key, name in pols.items():
            if not isinstance(name, str) or name not in _NAMES:
                raise InvalidInput(f"{source} at {json_path((i, 'policies', key))}", "one of " + ", ".join(_NAMES),
                                   repr(name)[:80], InputKind.VALUE)
            if (tenant, key) in table:
                raise InvalidInput(f"{source} at {json_path((i, 'policies', key))}", "each key once per tenant",
                                   key, InputKind.REFERENCE)
            table[(tenant, key)] = _NAMES[name]
    return TenantPolicies(table)
