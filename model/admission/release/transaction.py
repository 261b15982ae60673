"""A release's request as the gate reads it (the Parmana paper, Sections 4.2–4.5): the transaction
(intent, signals, approvals), and the signed refusal record every refusal leaves.

Choices where the source is silent: a transaction holds exactly ``intent``, ``signals`` and
optionally ``approvals``; an intent exactly ``action`` and optionally ``target`` and ``params``; any
number outside exact JSON is refused. A refusal whose record cannot be stored is still a refusal,
and only a store's failure (``sealing.store_errors``) is taken for "cannot be stored": a program's
error is raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from model.admission.refusal import Refusal
from model.admission.signatures.records import RecordStore
from model.admission.signatures.sealing import store_errors
from model.base.canonical import JSON, check_exact_json, digest
from model.base.errors import InputKind, InvalidInput


@dataclass(frozen=True, slots=True)
class Transaction:
    intent: dict[str, JSON]
    signals: dict[str, JSON]
    approvals: dict[str, JSON]


def load_transaction(obj: object, source: str = "<transaction>") -> Transaction:
    if not isinstance(obj, dict) or not {"intent", "signals"} <= set(obj) <= {"intent", "signals", "approvals"}:
        raise InvalidInput(f"{source} at $", "an object with intent, signals[, approvals]", _shape(obj),
                           InputKind.SCHEMA)
    intent, signals, approvals = obj["intent"], obj["signals"], obj.get("approvals", {})
    if not isinstance(intent, dict) or not isinstance(intent.get("action"), str) \
            or not set(intent) <= {"action", "target", "params"} or not isinstance(intent.get("params", {}), dict):
        raise InvalidInput(f"{source} at $.intent", "an object with action[, target, params]", _shape(intent),
                           InputKind.SCHEMA)
    for k, v in (("signals", signals), ("approvals", approvals)):
        if not isinstance(v, dict):
            raise InvalidInput(f"{source} at $.{k}", "an object", type(v).__name__, InputKind.SCHEMA)
    check_exact_json(obj, source)
    return Transaction(intent, signals, approvals)


def _shape(value: object) -> str:
    """What was found, without its values: a request may carry a secret the agent pasted, and a value
    cut short in a message could no longer be recognized and redacted."""
    if isinstance(value, dict):
        return "an object with keys " + ", ".join(sorted(map(str, value)))
    return type(value).__name__


def record_refusal(records: RecordStore, stage: str, r: Refusal, tx: Transaction | None, now: datetime) -> Refusal:
    """Sign and store a refusal record; the refusal stands even if its record cannot be stored. Its
    detail is redacted (the record store's redactor) before it is stored or returned."""
    if records.redactor is not None:
        r = Refusal(r.reason, str(records.redactor(r.detail)))
    try:
        records.append("refusal", {"stage": stage, "reason": r.reason.value, "detail": r.detail,
                                   "requestHash": digest(tx.intent) if tx else None}, now)
    except Exception as exc:  # fail closed: a refusal is never turned into anything else
        if not store_errors(exc):
            raise
        return Refusal(r.reason, f"{r.detail} (refusal record not stored: {type(exc).__name__})")
    return r
