"""The runtime's journal: each committed step with its input, replayable (*Exact Checking for Execution
Edits* Section VI-B, Table III, Appendix A-K).

A journal row is ``(seq, step, input, digest)``: the Table III step that committed, its input as
canonical JSON, and the digest of the state it produced. Row 0 (``register``) holds the whole
initial state (the registration's checked root update). ``apply`` is the one function that turns
``(state, step, input)`` into ``(answer, state)``: the live runtime calls it, and ``replay`` calls it
again over the journal, so a state re-derived from the journal is the state the runtime committed
iff every step reproduces its digest and the last state equals the stored one.

Choices where the paper is silent:
- an ``update``/``preload`` row stores only the edit: the answer the caller held is not needed,
  because a committed update passed the final check ``Ready``, which re-checks the edit against the
  same record and requires the recomputed answer to equal the caller's (``steps.ready``), so
  replaying with a fresh ``check`` gives the same state;
- replay needs the signing key (tokens and checkpoints are signed; Ed25519 signatures are
  deterministic), which is why ``show`` asks for the store's key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from model.base.canonical import JSON, loads
from model.base.errors import InvalidInput
from model.base.signing import KeyPair
from model.edits.check.load_instance import term_from_doc
from model.edits.runtime import steps
from model.edits.runtime.answers import Answer, CheckAnswer
from model.edits.runtime.forms import (
    Edit,
    Extend,
    ForkChoice,
    ForkParallel,
    MergeJoin,
    MergeSelect,
    RestoreLive,
    RestoreReplace,
    edit_to_json,
)
from model.edits.runtime.record import ActionSpec, EditRule, State
from model.edits.runtime.record_json import policy_from_json, state_digest, state_from_text
from model.edits.runtime.requirements import record_from_json


def _term(doc: Any) -> Any:
    return None if doc is None else term_from_doc(doc)


def edit_from_canonical(doc: Any) -> Edit:
    """The inverse of ``forms.edit_to_json`` (checked on every edit of the tests' sessions)."""
    k = doc["edit"]
    if k in ("fork-choice", "fork-parallel"):
        return (ForkChoice if k == "fork-choice" else ForkParallel)(doc["branch"], doc["rule"])
    if k in ("restore-replace", "restore-live"):
        return (RestoreReplace if k == "restore-replace" else RestoreLive)(doc["branch"], doc["checkpoint"],
                                                                           doc["rule"])
    if k == "merge-select":
        return MergeSelect(doc["group"], doc["arm"], doc["rule"])
    if k == "merge-join":
        return MergeJoin(doc["group"], doc["rule"])
    return Extend(
        rules=tuple((r, EditRule(e["kind"], _term(e["left"]), _term(e["right"]), _term(e["join"]), e["region"]))
                    for r, e in doc["rules"]),
        templates=tuple((t, d) for t, d in doc["templates"]),
        actions=tuple((d, ActionSpec(a["label"], a["request"], a["scope"])) for d, a in doc["actions"]),
        authorities=tuple((a, k) for a, k in doc["authorities"]),
        requirements=tuple((r, record_from_json(s)) for r, s in doc["requirements"]),
        removals=tuple(record_from_json(s) for s in doc["removals"]),
        policy=None if doc["policy"] is None else policy_from_json(doc["policy"]))


def update_input(edit: Edit) -> JSON:
    return {"edit": edit_to_json(edit)}


def apply(s: State, step: str, inp: Any, key: KeyPair, answer: CheckAnswer | None = None) -> tuple[Answer, State]:
    """One journalled step; the live runtime (with the caller's answer) and the replay (which
    re-checks) both go through here."""
    if step in ("update", "preload"):
        edit = edit_from_canonical(inp["edit"])
        answer = answer if answer is not None else steps.check(s, edit)
        if step == "update":
            return steps.try_update(s, edit, answer, key)
        return steps.preload(s, edit, answer)
    if step == "use":
        return steps.use(s, inp["call"], inp["token"], inp["request"])
    if step == "dispatch":
        return steps.dispatch(s)
    if step == "settle":
        return steps.settle(s, inp["action"], inp["value"])
    if step == "checkpoint":
        return steps.checkpoint(s, inp["checkpoint"], inp["branch"], key)
    raise ValueError(f"unknown journal step {step!r}")


class Tampered(Exception):
    """The journal does not derive the stored state: ``where`` names the row, ``what`` the mismatch."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")
        self.where, self.what = where, what


def replay(rows: Iterable[tuple[int, str, str, str]], key: KeyPair, upto: int | None = None) -> tuple[int, State]:
    """Re-derive the state from the journal, checking every row's digest; stops after row ``upto``."""
    seq, s = -1, None
    for row_seq, step, text, digest in rows:
        where = f"journal row {row_seq} ({step})"
        if row_seq != seq + 1:
            raise Tampered(where, f"expected row {seq + 1}")
        try:
            if s is None:
                if step != "register":
                    raise Tampered(where, "expected the registration row first")
                new = state_from_text(text)
            else:
                _, new = apply(s, step, loads(text, "<journal>"), key)
        except (InvalidInput, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise Tampered(where, f"does not replay ({type(exc).__name__}: {str(exc)[:80]})") from None
        if (s is not None and new is s) or state_digest(new) != digest:
            raise Tampered(where, "does not reproduce its digest")
        seq, s = row_seq, new
        if upto is not None and seq == upto:
            break
    if s is None:
        raise Tampered("journal", "no registration row")
    return seq, s
