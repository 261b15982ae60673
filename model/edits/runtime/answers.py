"""The runtime's answers, as closed types (*Exact Checking for Execution Edits*, Sections V-C5, VI-B and
Appendices A-C, A-H, A-I, Table III).

- ``check(edit)``: ``EditInvalid | EditRejected | EditAccepted``, each with the digest γ of the
  checked record (the whole committed state plus the request);
- ``try_update(edit, answer)``: ``Updated | NoCommit(reason)``;
- ``preload(edit, answer)``: ``Preloaded(version) | NoCommit(reason)`` — an internal runtime answer
  (Appendix A-L: a τ-step hidden by ``obs_api``); it is returned to the operator and the tests, and
  carries no authorization data;
- ``use(call, token, request)``: ``New | Reuse | Deny(reason)``; ``retry``: ``Returned | Deny``;
- ``dispatch()``: ``Sent | QueueEmpty``; ``settle``: ``Settled | SettleRefused``;
- ``checkpoint(k, b)``: ``Saved | CheckpointRefused``.

Choice where the paper is silent: a checker-level ``Invalid`` of the derived instance (e.g. the
prefix condition of Section IV-A fails for the target) is reported as ``EditInvalid`` with reason
``not-well-formed`` and the checker's own reason in the detail.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from model.base.canonical import JSON
from model.edits.check.answer import Accepted, Rejected, proof_json
from model.edits.runtime.derive_failure import DeriveFailure
from model.edits.runtime.forms import Edit, edit_to_json


@dataclass(frozen=True, slots=True)
class EditInvalid:
    edit: Edit
    reason: DeriveFailure
    detail: str
    digest: str


@dataclass(frozen=True, slots=True)
class EditRejected:
    edit: Edit
    verdict: Rejected
    digest: str


@dataclass(frozen=True, slots=True)
class EditAccepted:
    edit: Edit
    verdict: Accepted
    digest: str
    eta_old: str | None
    eta_new: str


CheckAnswer = EditInvalid | EditRejected | EditAccepted


class Stale(enum.Enum):
    NOT_ACCEPTED = "not-an-accepted-answer"
    RECORD_CHANGED = "record-changed"
    VERSION_NOT_CURRENT = "old-version-not-current"
    VERSION_ALLOCATED = "new-version-allocated"
    RECHECK_DIFFERS = "recheck-differs"
    PRELOAD_DIFFERS = "preload-differs"  # content prepared for this very answer differs from the recomputation


@dataclass(frozen=True, slots=True)
class Updated:
    eta: str


@dataclass(frozen=True, slots=True)
class NoCommit:
    reason: Stale


UpdateAnswer = Updated | NoCommit


@dataclass(frozen=True, slots=True)
class Preloaded:
    """The checked automaton is prepared in the inactive rule version ``eta``, assigned to no call."""

    eta: str


PreloadAnswer = Preloaded | NoCommit


class DenyReason(enum.Enum):
    NO_RULES = "no-rules-in-force"
    UNKNOWN_CALL = "unknown-call"
    NOT_CURRENT = "not-a-current-call"
    ALREADY_PROCESSED = "already-processed"
    NOT_PROCESSED = "not-processed"
    VERSION = "entry-not-under-active-version"
    TOKEN = "bad-token"
    REQUEST = "request-differs"
    NOT_ENABLED = "no-enabled-transition"


@dataclass(frozen=True, slots=True)
class New:
    call: str
    action: str
    record: str


@dataclass(frozen=True, slots=True)
class Reuse:
    call: str
    action: str
    record: str


@dataclass(frozen=True, slots=True)
class Deny:
    call: str
    reason: DenyReason


UseAnswer = New | Reuse | Deny


@dataclass(frozen=True, slots=True)
class Returned:
    call: str
    record: str
    value: JSON  # None while the record is not settled


@dataclass(frozen=True, slots=True)
class Sent:
    record: str
    action: str
    request: str


@dataclass(frozen=True, slots=True)
class QueueEmpty:
    pass


@dataclass(frozen=True, slots=True)
class Settled:
    record: str


@dataclass(frozen=True, slots=True)
class SettleRefused:
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class Saved:
    checkpoint: str


@dataclass(frozen=True, slots=True)
class CheckpointRefused:
    checkpoint: str
    reason: str


Answer = (EditInvalid | EditRejected | EditAccepted | Updated | Preloaded | NoCommit | New | Reuse | Deny | Returned
          | Sent | QueueEmpty | Settled | SettleRefused | Saved | CheckpointRefused)


def answer_json(a: Answer) -> JSON:
    """Canonical JSON of an answer (what the CLI prints and the session tests compare)."""
    if isinstance(a, EditInvalid):
        return {"answer": "invalid", "edit": edit_to_json(a.edit), "reason": a.reason.value, "detail": a.detail,
                "digest": a.digest}
    if isinstance(a, EditRejected):
        return {"answer": "rejected", "edit": edit_to_json(a.edit), "digest": a.digest,
                "proof": proof_json(a.verdict.proof)}
    if isinstance(a, EditAccepted):
        return {"answer": "accepted", "edit": edit_to_json(a.edit), "digest": a.digest, "from": a.eta_old,
                "to": a.eta_new, "completions": a.verdict.counts.safe, "states": a.verdict.automaton.n_states}
    if isinstance(a, Updated):
        return {"answer": "updated", "version": a.eta}
    if isinstance(a, Preloaded):
        return {"answer": "preloaded", "version": a.eta}
    if isinstance(a, NoCommit):
        return {"answer": "no-commit", "reason": a.reason.value}
    if isinstance(a, New | Reuse):
        return {"answer": "new" if isinstance(a, New) else "reuse", "call": a.call, "action": a.action,
                "record": a.record}
    if isinstance(a, Deny):
        return {"answer": "deny", "call": a.call, "reason": a.reason.value}
    if isinstance(a, Returned):
        return {"answer": "returned", "call": a.call, "record": a.record, "value": a.value}
    if isinstance(a, Sent):
        return {"answer": "sent", "record": a.record, "action": a.action, "request": a.request}
    if isinstance(a, QueueEmpty):
        return {"answer": "queue-empty"}
    if isinstance(a, Settled):
        return {"answer": "settled", "record": a.record}
    if isinstance(a, SettleRefused):
        return {"answer": "settle-refused", "action": a.action, "reason": a.reason}
    if isinstance(a, Saved):
        return {"answer": "saved", "checkpoint": a.checkpoint}
    return {"answer": "checkpoint-refused", "checkpoint": a.checkpoint, "reason": a.reason}
