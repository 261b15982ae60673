"""A small wired deployment of the signed-approval pipeline (the Parmana paper,
Sections 4.2–4.6): runtime key, two governance humans, one approver, the ``refunds`` policy
installed through maker-checker, the decision runtime, the release gate and one tool that records
its calls. Used by the CLI demo and the tests; nothing here is a default of the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from model.admission.decision.governance import Applied, Governance, HumanCredential, Proposal
from model.admission.decision.nonces import SqliteNonceStore
from model.admission.release.gateway import ReleaseGate, Runtime
from model.admission.signatures.hybrid import public_keys
from model.admission.signatures.records import RecordStore
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON, digest
from model.base.signing import KeyPair, format_instant

REFUNDS_POLICY: dict[str, JSON] = {
    "name": "refunds", "version": 1, "action": "paytm:refund",
    "signalsSchema": {"orderId": "string", "amount": "number", "riskScore": "number", "managerApproved": "boolean"},
    "bindings": {"orderId": "target", "amount": "params.amount"},
    "approvalSignals": {"managerApproved": {"resourceId": "orderId", "value": "amount"}},
    "rules": [
        {"id": "high-risk", "when": {"signal": "riskScore", "op": "gt", "value": 80}, "decision": "refuse"},
        {"id": "approved", "when": {"all": [{"signal": "managerApproved", "op": "eq", "value": True},
                                            {"signal": "amount", "op": "le", "value": 10000}]},
         "decision": "approve"},
    ],
}


def step_up(key: KeyPair, proposal_id: str, change: JSON, now: datetime) -> dict[str, JSON]:
    payload = {"proposalId": proposal_id, "changeDigest": digest(change), "action": "approve",
               "expiresAt": format_instant(now + timedelta(minutes=2))}
    return {"payload": payload, "signature": key.sign(payload)}


@dataclass
class Pipeline:
    root: Path
    now: datetime
    runtime_key: KeyPair = field(default_factory=lambda: KeyPair.generate("runtime-1"))
    approver_key: KeyPair = field(default_factory=lambda: KeyPair.generate("alice-key-1"))
    maker_key: KeyPair = field(default_factory=lambda: KeyPair.generate("maker"))
    checker_key: KeyPair = field(default_factory=lambda: KeyPair.generate("checker"))
    store_key: KeyPair = field(default_factory=lambda: KeyPair.generate("store-1"))  # seals the nonce store
    calls: list[JSON] = field(default_factory=list)
    nonces_at: str = ""  # the nonce store: an SQLite file or a postgresql:// database; default root/nonces.db
    nonces_schema: str | None = None

    def __post_init__(self) -> None:
        self.records = RecordStore(self.runtime_key, str(self.root / "records.db"))
        self.nonces = SqliteNonceStore(self.nonces_at or str(self.root / "nonces.db"), self.nonces_schema,
                                       key=self.store_key)
        humans = {"maker-cred": HumanCredential("maker-cred", "mallory", self.maker_key.public),
                  "checker-cred": HumanCredential("checker-cred", "carol", self.checker_key.public),
                  "maker-cred-2": HumanCredential("maker-cred-2", "mallory", self.checker_key.public)}
        self.gov = Governance(self.root / "policies", humans, self.records)
        self.govern({"kind": "approver", "approver": {"approverId": "alice", "keyId": "alice-key-1",
                                                      "publicKey": self.approver_key.public_pem()}})
        self.govern({"kind": "policy", "policy": REFUNDS_POLICY})
        self.runtime = Runtime(self.gov, self.records, self.nonces)
        self.gate = ReleaseGate(self.gov, ToolRegistry({"paytm:refund": self._refund}), public_keys(self.runtime_key),
                                self.records, self.nonces)

    def _refund(self, intent: JSON) -> JSON:
        self.calls.append(intent)
        return {"refunded": intent["params"]["amount"]}

    def govern(self, change: JSON) -> None:
        prop = self.gov.propose(change, "maker-cred")
        assert isinstance(prop, Proposal), prop
        out = self.gov.approve(prop.id, "checker-cred", step_up(self.checker_key, prop.id, change, self.now),
                               self.now)
        assert isinstance(out, Applied), out

    def approval(self, order: str = "order-1", max_amount: float = 500, capability: str = "paytm:refund",
                 ttl: timedelta = timedelta(minutes=15), issued: datetime | None = None,
                 key: KeyPair | None = None, nonce: str = "n-1") -> dict[str, JSON]:
        """An approval in exactly the SDK's wire format (the interop tests use the SDK itself)."""
        k = key or self.approver_key
        at = issued or self.now
        payload = {"version": 1, "approvalId": f"ap-{nonce}", "issuer": {"approverId": "alice", "keyId": k.key_id},
                   "issuedAt": format_instant(at), "expiresAt": format_instant(at + ttl), "capability": capability,
                   "resourceId": order, "scope": {"field": "value", "comparator": "lte", "value": max_amount},
                   "nonce": nonce}
        return {"payload": payload, "signature": {"algorithm": "ed25519", "keyId": k.key_id, "value": k.sign(payload),
                                                  "signedAt": format_instant(at)}}

    def transaction(self, order: str = "order-1", amount: float = 120, risk: float = 10, approved: bool = True,
                    approval: JSON = None) -> dict[str, JSON]:
        tx: dict[str, JSON] = {"intent": {"action": "paytm:refund", "target": order, "params": {"amount": amount}},
                               "signals": {"orderId": order, "amount": amount, "riskScore": risk,
                                           "managerApproved": approved}}
        if approval is not None:
            tx["approvals"] = {"managerApproved": approval}
        return tx
