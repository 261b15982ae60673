"""Maker-checker governance of policies and approver keys (the Parmana paper, Sections
4.6 and 6.4).

A change (a new policy version, or an approver key added or revoked) takes effect only after a
proposal by one human credential and an approval by a *second* credential of a *different* person,
carrying a step-up signature by the checker's key bound to that exact change (its digest). Each
applied change is appended to the signed, hash-chained ``governance`` record chain. Policy names
are checked at proposal time (no ``..``, ``/`` or anything outside ``[A-Za-z0-9_-]``), and the
file written is resolved and required to lie inside the store's directory, so a traversal is
refused twice (G-88). Choices where the source is silent:
- The step-up payload is ``{"proposalId", "changeDigest", "action": "approve", "expiresAt"}``;
  it is valid until ``expiresAt`` (exclusive) and at most once (the proposal is consumed).
- A new policy version must exceed the current one for its name (no downgrade to an older, weaker
  version); one action is governed by exactly one policy name.
- Proposals live in memory for the life of the service (a proposal lost in a crash is proposed
  again: nothing was applied). Applied changes are durable in the signed governance chain in
  SQLite; ``Governance.restore`` rebuilds the current policies and approver registry from that
  chain after verifying every signature and link, and refuses (``InvalidInput``) a broken chain.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from model.admission.decision.approvals import ApproverKey, ApproverRegistry, load_registry
from model.admission.decision.signed_policy import SAFE_NAME, SignedPolicy, load_policy
from model.admission.refusal import Refusal, RefusalReason
from model.admission.signatures.records import RecordInvalid, RecordStore, verify_chain
from model.base.canonical import JSON, canonical_str, digest, is_exact_json
from model.base.errors import InputKind, InvalidInput
from model.base.signing import parse_instant, verify_payload


@dataclass(frozen=True, slots=True)
class HumanCredential:
    credential: str
    person: str
    step_up_key: bytes  # Ed25519 public key the person signs step-up approvals with


@dataclass(frozen=True, slots=True)
class Proposal:
    id: str
    maker: str
    change: JSON
    change_digest: str


@dataclass(frozen=True, slots=True)
class Applied:
    proposal_id: str
    record_hash: str


@dataclass
class Governance:
    root: Path
    humans: Mapping[str, HumanCredential]
    records: RecordStore
    registry: ApproverRegistry = field(default_factory=lambda: ApproverRegistry({}))
    policies: dict[str, SignedPolicy] = field(default_factory=dict)
    proposals: dict[str, Proposal] = field(default_factory=dict)

    def policy_for(self, action: str) -> SignedPolicy | None:
        return next((p for p in self.policies.values() if p.action == action), None)

    def propose(self, change: JSON, maker: str) -> Proposal | Refusal:
        if maker not in self.humans:
            return Refusal(RefusalReason.UNAUTHENTICATED, maker)
        if not is_exact_json(change):
            return Refusal(RefusalReason.MALFORMED, "a change must be canonical JSON")
        bad = self._check(change)
        if bad is not None:
            return bad
        prop = Proposal(str(uuid.uuid4()), maker, change, digest(change))
        self.proposals[prop.id] = prop
        return prop

    def _check(self, change: JSON) -> Refusal | None:
        if not isinstance(change, dict) or set(change) not in ({"kind", "policy"}, {"kind", "approver"}):
            return Refusal(RefusalReason.MALFORMED, "a change is {kind: policy, policy} or {kind: approver, approver}")
        if change.get("kind") == "policy" and "policy" in change:
            doc = change["policy"]
            name = doc.get("name") if isinstance(doc, dict) else None
            if not isinstance(name, str) or not SAFE_NAME.match(name):
                return Refusal(RefusalReason.BAD_NAME, repr(name)[:80])
            try:
                pol = load_policy(doc, f"<proposed {name}>")
            except InvalidInput as exc:
                return Refusal(RefusalReason.MALFORMED, str(exc))
            cur = self.policies.get(pol.name)
            if cur is not None and pol.version <= cur.version:
                return Refusal(RefusalReason.POLICY_VERSION, f"{pol.name} is at version {cur.version}")
            other = self.policy_for(pol.action)
            if other is not None and other.name != pol.name:
                return Refusal(RefusalReason.MALFORMED, f"{pol.action} is governed by {other.name}")
            return None
        if change.get("kind") == "approver" and "approver" in change:
            try:
                load_registry([change["approver"]], "<proposed approver>")
            except InvalidInput as exc:
                return Refusal(RefusalReason.MALFORMED, str(exc))
            return None
        return Refusal(RefusalReason.MALFORMED, "unknown change kind")

    def approve(self, proposal_id: str, checker: str, step_up: JSON, now: datetime) -> Applied | Refusal:
        prop = self.proposals.get(proposal_id)
        if prop is None:
            return Refusal(RefusalReason.UNKNOWN_PROPOSAL, proposal_id)
        human = self.humans.get(checker)
        if human is None:
            return Refusal(RefusalReason.UNAUTHENTICATED, checker)
        if checker == prop.maker or human.person == self.humans[prop.maker].person:
            return Refusal(RefusalReason.SAME_PERSON, "the checker must be a second person")
        if not isinstance(step_up, dict) or set(step_up) != {"payload", "signature"}:
            return Refusal(RefusalReason.MALFORMED, "step-up is {payload, signature}")
        p = step_up["payload"]
        want = {"proposalId": proposal_id, "changeDigest": prop.change_digest, "action": "approve"}
        if not isinstance(p, dict) or set(p) != {*want, "expiresAt"} or any(p[k] != v for k, v in want.items()):
            return Refusal(RefusalReason.MALFORMED, "step-up must be bound to this proposal and change")
        exp = parse_instant(p["expiresAt"])
        if exp is None or now >= exp:
            return Refusal(RefusalReason.EXPIRED, "step-up expired")
        if not verify_payload(human.step_up_key, p, step_up["signature"]):
            return Refusal(RefusalReason.BAD_SIGNATURE, "step-up signature")
        bad = self._check(prop.change)  # the world may have moved since the proposal
        if bad is not None:
            return bad
        del self.proposals[proposal_id]
        self._apply(prop.change)
        rec = self.records.append("governance", {"proposalId": prop.id, "maker": prop.maker, "checker": checker,
                                                 "change": prop.change}, now)
        return Applied(prop.id, str(rec["recordHash"]))

    @staticmethod
    def restore(root: Path, humans: Mapping[str, HumanCredential], records: RecordStore) -> Governance:
        """Rebuild the governed state from the signed governance chain (after a restart)."""
        chain: list[object] = list(records.all("governance"))
        checked = verify_chain(chain, records.key.public)
        if isinstance(checked, RecordInvalid):
            raise InvalidInput("<governance chain>", "an intact signed governance chain",
                               f"{checked.defect.value}: {checked.detail}", InputKind.VALUE)
        gov = Governance(root, humans, records)
        for rec in chain:
            assert isinstance(rec, dict)
            gov._apply(rec["payload"]["body"]["change"])
        return gov

    def _apply(self, change: JSON) -> None:
        assert isinstance(change, dict)
        if change["kind"] == "policy":
            pol = load_policy(change["policy"])
            root = self.root.resolve()
            target = (root / f"{pol.name}.v{pol.version}.json").resolve()
            if target.parent != root:  # second line of defence against traversal
                raise InvalidInput(str(target), f"a path inside {root}")
            root.mkdir(parents=True, exist_ok=True)
            target.write_text(canonical_str(change["policy"]), encoding="utf-8")
            self.policies[pol.name] = pol
        else:
            new = load_registry([change["approver"]]).keys
            keys: dict[tuple[str, str], ApproverKey] = {**self.registry.keys, **new}
            self.registry = ApproverRegistry(keys)
