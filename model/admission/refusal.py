"""The closed type of every refusal the admission services return.

Both sources insist that refusing is an outcome, not an error: a policy-lookup failure, a
non-persistable hold, a replay under a changed identity, an expired approval are all answers. So
they are values of one enum with a free-text detail for humans; tests assert on the enum.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class RefusalReason(enum.Enum):
    # *Policy-Mediated Autonomy with Resumable Action Attempts*: admission and replay
    UNAUTHENTICATED = "unauthenticated"
    TENANT_SCOPE = "tenant-scope"
    UNKNOWN_ROUTE = "unknown-route"
    POLICY_UNAVAILABLE = "policy-unavailable"
    NOT_REPLAYABLE = "not-replayable"
    NOT_PERSISTABLE = "not-persistable"
    UNKNOWN_ATTEMPT = "unknown-attempt"
    NOT_HELD = "not-held"
    INELIGIBLE_APPROVER = "ineligible-approver"
    NOT_APPROVED_OR_ALREADY_RESULTED = "not-approved-or-already-resulted"
    IDENTITY_MISMATCH = "identity-mismatch"
    PERMIT_MISSING = "permit-missing"  # the route's contract requires a permit holder's permit
    PERMIT_INVALID = "permit-invalid"
    PERMIT_MISMATCH = "permit-mismatch"  # a permit for another attempt, body, tenant or kind
    PERMIT_EXPIRED = "permit-expired"
    PERMIT_ROLE_CONFLICT = "permit-role-conflict"  # the holder is the requester or the approver
    # the Parmana paper: approvals, authorizations, release, governance
    MALFORMED = "malformed"
    BAD_SIGNATURE = "bad-signature"
    SIGNATURE_DOWNGRADE = "signature-downgrade"  # a weaker suite or form than the key and length require
    UNKNOWN_APPROVER = "unknown-approver"
    REVOKED_KEY = "revoked-key"
    EXPIRED = "expired"
    NOT_YET_VALID = "not-yet-valid"
    TTL_TOO_LONG = "ttl-too-long"
    WRONG_ACTION = "wrong-action"
    WRONG_RESOURCE = "wrong-resource"
    AMOUNT_EXCEEDED = "amount-exceeded"
    AMOUNT_OUT_OF_DOMAIN = "amount-out-of-domain"
    SCOPE_MISMATCH = "scope-mismatch"
    NONCE_SPENT = "nonce-spent"
    APPROVAL_MISSING = "approval-missing"
    NO_RULE_MATCHED = "no-rule-matched"
    RULE_REFUSED = "rule-refused"
    SIGNAL_TYPE = "signal-type"
    SIGNAL_BINDING = "signal-binding"
    UNKNOWN_POLICY = "unknown-policy"
    POLICY_VERSION = "policy-version"
    CONTENT_HASH = "content-hash"
    SIGNALS_CHANGED = "signals-changed"
    UNKNOWN_TOOL = "unknown-tool"
    INTENT_NOT_STORED = "intent-not-stored"
    STORE_UNAVAILABLE = "store-unavailable"
    STORE_TAMPERED = "store-tampered"  # a stored row its key did not write (``sealing``)
    SAME_PERSON = "same-person"
    UNKNOWN_PROPOSAL = "unknown-proposal"
    BAD_NAME = "bad-name"
    # the Parmana paper: scoped API keys (E1) and execution control
    CAPABILITY_SCOPE = "capability-scope"
    PRINCIPAL_SCOPE = "principal-scope"
    SESSION_USED = "session-used"
    CREDENTIAL_UNAVAILABLE = "credential-unavailable"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A typed refusal: ``reason`` is what tests and callers branch on; ``detail`` is for people."""

    reason: RefusalReason
    detail: str = ""
