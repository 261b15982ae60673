"""The admission walk-through behind ``agentwarrant admit demo`` and the admission notebook: one held
attempt through approval and replay (*Policy-Mediated Autonomy with Resumable Action Attempts*, the report-publishing
trace) and one signed approval through verification, tampering, decision and release (the Parmana paper §§4.3–4.5).

Each step is a ``DemoStep``: what was asked, the outcome's short name, one sentence a reader follows,
and the technical detail (identifiers, digests, refusal codes) kept apart so the CLI shows the sentence
and ``--json`` the detail. Choices: the tampered approval raises the approved amount after signing
(the most telling forgery: same signer, same nonce, bigger refund); all stores live in a temporary
folder given by the caller, so a run leaves nothing behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.admission.decision.approvals import ApprovalVerified, load_approval, load_registry, verify_approval
from model.admission.refusal import Refusal
from model.admission.release.gateway import Authorized, Released
from model.admission.resumable.admission_service import Held
from model.admission.resumable.replay import Replayed
from model.admission.resumable.review import Recorded
from model.base.canonical import JSON


@dataclass(frozen=True, slots=True)
class DemoStep:
    protocol: str  # "held attempt" | "signed approval"
    step: str
    outcome: str  # short name of the result: held, approved, replayed, refused, verified, ...
    sentence: str
    detail: dict[str, JSON]

    def to_json(self) -> dict[str, JSON]:
        return {"protocol": self.protocol, "step": self.step, "outcome": self.outcome, "sentence": self.sentence,
                "detail": self.detail}


def _refused(protocol: str, step: str, r: Refusal, why: str) -> DemoStep:
    return DemoStep(protocol, step, "refused", f"refused: {why}",
                    {"reason": r.reason.value, "detail": r.detail})


def _attempt_steps(tmp: Path) -> list[DemoStep]:
    from model.admission.deployments.deployment import APPROVER, EPOCH, World, publish_request
    from model.admission.resumable.attempt_store import AttemptStore

    p = "held attempt"
    w = World(AttemptStore(str(tmp / "attempts.db")))
    out: list[DemoStep] = []
    held = w.admission.submit(publish_request(), EPOCH)
    assert isinstance(held, Held), held  # the tenant policy holds publish_report for review
    out.append(DemoStep(p, "submit", "held",
                        "the agent's request to publish report-7 is held for review; nothing ran",
                        {"attempt_id": held.attempt_id, "body_digest": held.body_digest}))
    rec = w.approvals.decide(held.attempt_id, APPROVER, True, EPOCH)
    if isinstance(rec, Recorded):
        out.append(DemoStep(p, "approve", rec.state.value, f"{rec.approver} approves the held attempt",
                            {"attempt_id": rec.attempt_id, "approver": rec.approver, "state": rec.state.value}))
    else:
        out.append(_refused(p, "approve", rec, "the approval was not recorded"))
    for step, why in (("replay", ""), ("replay again", "the attempt already ran, and an attempt runs at most once")):
        r = w.replays.replay(held.attempt_id, publish_request().identity, EPOCH)
        if isinstance(r, Replayed):
            out.append(DemoStep(p, step, r.result.kind.value,
                                "the saved request runs once, under the agent's identity: "
                                f"{r.result.kind.value}, output {_brief(r.result.output)}",
                                {"attempt_id": r.attempt_id, "result": r.result.kind.value, "output": r.result.output}))
        else:
            out.append(_refused(p, step, r, why or r.detail))
    return out


def _approval_steps(tmp: Path) -> list[DemoStep]:
    from model.admission.deployments.deployment import EPOCH
    from model.admission.deployments.release_deployment import Pipeline

    p = "signed approval"
    pipe = Pipeline(tmp, EPOCH)
    wire = pipe.approval(max_amount=500)
    registry = load_registry([{"approverId": "alice", "keyId": pipe.approver_key.key_id,
                               "publicKey": pipe.approver_key.public_pem()}])
    out: list[DemoStep] = []
    tampered: dict[str, Any] = {"payload": dict(wire["payload"]), "signature": wire["signature"]}
    tampered["payload"]["scope"] = {**tampered["payload"]["scope"], "value": 5000}
    forged = "the signature does not cover this approval: its amount was raised from 500 to 5000 after alice signed"
    for step, doc, why in (("verify", wire, ""), ("verify tampered", tampered, forged)):
        v = verify_approval(load_approval(doc), action="paytm:refund", resource="order-1", amount=120, now=EPOCH,
                            registry=registry)
        if isinstance(v, ApprovalVerified):
            out.append(DemoStep(p, step, "verified", "alice's approval of a refund up to 500 on order-1 checks: "
                                "key, signature, lifetime, action, resource and amount",
                                {"approval_id": v.approval.approval_id, "nonce": v.approval.nonce}))
        else:
            out.append(_refused(p, step, v, why or v.detail))
    tx = pipe.transaction(approval=wire)
    auth = pipe.runtime.decide(tx, EPOCH)
    if isinstance(auth, Authorized):
        out.append(DemoStep(p, "decide", "authorized", "the runtime signs an authorization for the 120 refund",
                            {"authorization": auth.authorization}))
    else:
        out.append(_refused(p, "decide", auth, auth.detail))
    for step, why in (("release", ""), ("release again", "the approval's nonce was spent by the first release")):
        token = auth.authorization if isinstance(auth, Authorized) else None
        rel = pipe.gate.release(token, tx, EPOCH)
        if isinstance(rel, Released):
            out.append(DemoStep(p, step, "released", f"the gate re-verifies everything and the refund runs: "
                                f"{_brief(rel.result)}", {"result": rel.result}))
        else:
            out.append(_refused(p, step, rel, why or rel.detail))
    return out


def _brief(value: JSON) -> str:
    from model.base.canonical import canonical_str

    return canonical_str(value)


def run_demo(tmp: Path) -> tuple[DemoStep, ...]:
    """Both protocols, stores under ``tmp`` (which must exist and be empty)."""
    (tmp / "attempts").mkdir()
    (tmp / "release").mkdir()
    return (*_attempt_steps(tmp / "attempts"), *_approval_steps(tmp / "release"))
