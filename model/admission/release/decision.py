"""Decision (the Parmana paper, Sections 4.2–4.3): the runtime that evaluates a transaction and signs
an authorization. Load the transaction, find the current policy for the action, check signal types
and bindings, verify each presented approval (not spending it, but refusing one the nonce store
records as spent), evaluate first-match; approve yields a signed authorization, anything else a
signed refusal record. Choices where the source is silent: an approval signal whose artifact is
absent reads false, an artifact that fails verification refuses with the verification's reason; a
nonce store that fails refuses (STORE_UNAVAILABLE), one whose rows its key did not write refuses
(STORE_TAMPERED), and any other exception is a bug and is raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from model.admission.decision.approvals import ApproverRegistry, load_approval, verify_approval
from model.admission.decision.evidence import APPROVAL_NAMESPACE
from model.admission.decision.governance import Governance
from model.admission.decision.nonces import NonceStore
from model.admission.decision.signed_policy import Approve, SignedPolicy, check_signals, evaluate
from model.admission.refusal import Refusal, RefusalReason
from model.admission.release.authorization import issue
from model.admission.release.transaction import Transaction, load_transaction, record_refusal
from model.admission.signatures.records import RecordStore
from model.admission.signatures.sealing import Tampered, store_errors
from model.base.canonical import JSON
from model.base.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Authorized:
    authorization: dict[str, JSON]




def _proven(p: SignedPolicy, tx: Transaction, now: datetime, registry: ApproverRegistry
            ) -> tuple[frozenset[str], tuple[str, ...]] | Refusal:
    """Approval signals backed by a verified approval, and their nonces (nothing spent here)."""
    proven, nonces = set(), []
    for s, spec in p.approval_signals.items():
        if tx.signals.get(s) is not True or s not in tx.approvals:
            continue
        try:
            a = load_approval(tx.approvals[s], f"<approval for {s}>")
        except InvalidInput as exc:
            return Refusal(RefusalReason.MALFORMED, str(exc))
        amount = tx.signals[spec.amount_signal] if spec.amount_signal else None
        v = verify_approval(a, action=str(tx.intent["action"]), resource=str(tx.signals[spec.resource_signal]),
                            amount=amount, now=now, registry=registry)
        if isinstance(v, Refusal):
            return v
        proven.add(s)
        nonces.append(f"{a.approver_id}/{a.nonce}")
    return frozenset(proven), tuple(nonces)


def judge(gov: Governance, tx: Transaction, now: datetime, nonces: NonceStore
           ) -> tuple[SignedPolicy, Approve, tuple[str, ...]] | Refusal:
    p = gov.policy_for(str(tx.intent["action"]))
    if p is None:
        return Refusal(RefusalReason.UNKNOWN_POLICY, f"no policy governs {tx.intent['action']}")
    bad = check_signals(p, tx.intent, tx.signals)
    if bad is not None:
        return bad
    pr = _proven(p, tx, now, gov.registry)
    if isinstance(pr, Refusal):
        return pr
    for n in pr[1]:
        if nonces.is_spent(APPROVAL_NAMESPACE, n):
            return Refusal(RefusalReason.NONCE_SPENT, n)
    verdict = evaluate(p, tx.intent, tx.signals, pr[0])
    return verdict if isinstance(verdict, Refusal) else (p, verdict, pr[1])


class Runtime:
    """Evaluates transactions and signs authorizations with the runtime key."""

    def __init__(self, gov: Governance, records: RecordStore, nonces: NonceStore) -> None:
        self.gov, self.records, self.nonces = gov, records, nonces

    def decide(self, tx_json: object, now: datetime) -> Authorized | Refusal:
        try:
            tx = load_transaction(tx_json)
        except InvalidInput as exc:
            return self._refuse(Refusal(RefusalReason.MALFORMED, str(exc)), None, now)
        try:
            j = judge(self.gov, tx, now, self.nonces)
        except Tampered as exc:
            return self._refuse(Refusal(RefusalReason.STORE_TAMPERED, str(exc)), tx, now)
        except Exception as exc:
            if not store_errors(exc):
                raise  # a bug is raised, not disguised as an outage
            return self._refuse(Refusal(RefusalReason.STORE_UNAVAILABLE, f"{type(exc).__name__}: {exc}"), tx, now)
        if isinstance(j, Refusal):
            return self._refuse(j, tx, now)
        p, ok, _ = j
        return Authorized(issue(self.records.key, p, ok.rule_id, tx.intent, tx.signals, tx.approvals, now))

    def _refuse(self, r: Refusal, tx: Transaction | None, now: datetime) -> Refusal:
        return record_refusal(self.records, "decision", r, tx, now)


