"""The one entry point other systems use to accept a signed approval as evidence
(the Parmana paper, Section 4.3), so that an exact-call permit of the monitor can require one of these
signed approvals as its evidence.

``verify_approval_evidence`` takes raw JSON (whatever the caller was handed), never raises, and
answers ``ApprovalVerified`` or a typed ``Refusal``: malformed JSON is ``Refusal(MALFORMED)``
carrying the ``InvalidInput`` message. With ``spend=True`` (the default: use at the release of the
call) the approval's nonce is spent atomically and a second use is ``NONCE_SPENT`` even when
the two uses race; with ``spend=False`` (a decision-time check) the nonce is only read, so the
check can be repeated at release, as the source requires.
"""

from __future__ import annotations

from datetime import datetime

from model.admission.decision.approvals import ApprovalVerified, ApproverRegistry, load_approval, verify_approval
from model.admission.decision.nonces import NonceStore
from model.admission.refusal import Refusal, RefusalReason
from model.base.errors import InvalidInput

APPROVAL_NAMESPACE = "approval"


def verify_approval_evidence(approval_json: object, *, action: str, resource: str, amount: int | float | None,
                             now: datetime, registry: ApproverRegistry, nonce_store: NonceStore,
                             spend: bool = True) -> ApprovalVerified | Refusal:
    """Check a signed approval for one exact call; spend its nonce when ``spend``."""
    try:
        approval = load_approval(approval_json)
    except InvalidInput as exc:
        return Refusal(RefusalReason.MALFORMED, str(exc))
    verdict = verify_approval(approval, action=action, resource=resource, amount=amount, now=now, registry=registry)
    if isinstance(verdict, Refusal):
        return verdict
    nonce = f"{approval.approver_id}/{approval.nonce}"
    if spend:
        if not nonce_store.spend(APPROVAL_NAMESPACE, nonce, now):
            return Refusal(RefusalReason.NONCE_SPENT, approval.approval_id)
    elif nonce_store.is_spent(APPROVAL_NAMESPACE, nonce):
        return Refusal(RefusalReason.NONCE_SPENT, approval.approval_id)
    return verdict
