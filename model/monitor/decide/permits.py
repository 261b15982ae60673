"""Evidence for exact-call permits (Agenra Table 1 and Section 9, which our copy lacks), and the
bridge that lets a permit require a signed single-use approval (the Parmana paper §4.3,
verified by ``model.admission.decision.evidence``).

A permit is issued by the application, never the agent, for one exact call: the tool and the value
identity of every argument (``State.issue_permit``). An adapter may be configured with a
``PermitEvidence`` check; then ``Adapter.issue_permit`` issues nothing unless the evidence is
accepted, and the permit records the digest of the evidence it rests on.

Choices where the sources are silent:
- A signed approval binds one action and one resource, so it can justify a permit only for a call
  with exactly one effect unit; the approval's capability is the effect's action and its
  ``resourceId`` the effect's resource. ``resourceId`` is a string, so it names a *string* resource
  only: a number or boolean resource is refused (read as its canonical text, an approval signed for the
  string ``"1"`` would back a call whose resource is the number ``1``, a different JSON value).
- The amount, when the deployment names an amount argument, is that argument's number; a missing
  or non-numeric amount refuses.
- The approval's nonce is spent when the permit is issued: the permit is itself single use, so the
  approval cannot back two permits. The monitor then consumes the permit before the tool runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from model.admission.decision.approvals import ApproverRegistry
from model.admission.decision.evidence import verify_approval_evidence
from model.admission.decision.nonces import NonceStore
from model.admission.refusal import Refusal
from model.base.canonical import JSON, canonical_str, digest
from model.monitor.decide.matching import Effect


@dataclass(frozen=True, slots=True)
class EvidenceAccepted:
    digest: str  # what the permit records as its justification


@dataclass(frozen=True, slots=True)
class EvidenceRefused:
    reason: str


PermitEvidence = Callable[[str, tuple[Effect, ...], Mapping[str, JSON], JSON], EvidenceAccepted | EvidenceRefused]


def signed_approval_evidence(registry: ApproverRegistry, nonce_store: NonceStore, clock: Callable[[], datetime],
                             amount_argument: str | None = None) -> PermitEvidence:
    """A ``PermitEvidence`` that accepts exactly the signed approvals ``model.admission`` accepts."""

    def check(tool: str, effects: tuple[Effect, ...], args: Mapping[str, JSON], approval: JSON
              ) -> EvidenceAccepted | EvidenceRefused:
        if len(effects) != 1:
            return EvidenceRefused(f"{tool} has {len(effects)} effect units; an approval binds exactly one")
        eff = effects[0]
        resource = eff.resource
        if not isinstance(resource, str):
            return EvidenceRefused(f"the resource {canonical_str(resource)} is not a string: an approval's "
                                   "resourceId names a string resource")
        amount: int | float | None = None
        if amount_argument is not None:
            raw = args.get(amount_argument)
            if not isinstance(raw, int | float) or isinstance(raw, bool):
                return EvidenceRefused(f"argument {amount_argument!r} is not an amount")
            amount = raw
        verdict = verify_approval_evidence(approval, action=eff.action, resource=resource, amount=amount,
                                           now=clock(), registry=registry, nonce_store=nonce_store, spend=True)
        if isinstance(verdict, Refusal):
            return EvidenceRefused(f"{verdict.reason.value}: {verdict.detail}" if verdict.detail
                                   else verdict.reason.value)
        return EvidenceAccepted(digest(approval))

    return check
