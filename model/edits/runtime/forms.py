"""Agent requests for execution edits: Checkpoint, the six constructors of ``Edit_6`` (Table I) and
``Extend(ξ)`` (*Exact Checking for Execution Edits*, Sections IV-B1, V-A1 and Appendix A-D2).

A request carries only names — branch, group, arm, checkpoint and edit-rule IDs. Everything else
(the region copied, its progress, the rule's added steps, the actions of the calls) is derived from
the execution record by ``model.edits.runtime.derive``; nothing else in a request is trusted.

``Extend`` is the operator's registered extension, not an Agent request: it carries signed entries
(edit rules, call templates, actions, authorities, requirement and removal records, and optionally a
new policy) that must verify before the derived record is checked.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.canonical import JSON
from model.edits.check.edit_policy import PolicyAutomaton
from model.edits.check.instance import term_to_json
from model.edits.runtime.record import ActionSpec, EditRule
from model.edits.runtime.record_json import policy_to_json
from model.edits.runtime.requirements import SignedRecord


@dataclass(frozen=True, slots=True)
class ForkChoice:
    branch: str
    rule: str


@dataclass(frozen=True, slots=True)
class ForkParallel:
    branch: str
    rule: str


@dataclass(frozen=True, slots=True)
class RestoreReplace:
    branch: str
    checkpoint: str
    rule: str


@dataclass(frozen=True, slots=True)
class RestoreLive:
    branch: str
    checkpoint: str
    rule: str


@dataclass(frozen=True, slots=True)
class MergeSelect:
    group: str
    arm: str
    rule: str


@dataclass(frozen=True, slots=True)
class MergeJoin:
    group: str
    rule: str


@dataclass(frozen=True, slots=True)
class Extend:
    rules: tuple[tuple[str, EditRule], ...] = ()
    templates: tuple[tuple[str, str], ...] = ()
    actions: tuple[tuple[str, ActionSpec], ...] = ()
    authorities: tuple[tuple[str, str], ...] = ()
    requirements: tuple[tuple[str, SignedRecord], ...] = ()
    removals: tuple[SignedRecord, ...] = ()
    policy: PolicyAutomaton | None = None


Edit = ForkChoice | ForkParallel | RestoreReplace | RestoreLive | MergeSelect | MergeJoin | Extend

KIND = {ForkChoice: "fork-choice", ForkParallel: "fork-parallel", RestoreReplace: "restore-replace",
        RestoreLive: "restore-live", MergeSelect: "merge-select", MergeJoin: "merge-join", Extend: "extend"}


def kind_of(edit: Edit) -> str:
    return KIND[type(edit)]


def edit_to_json(edit: Edit) -> JSON:
    """The canonical JSON of a request (it enters γ, so equal requests have equal digests)."""
    if isinstance(edit, ForkChoice | ForkParallel):
        return {"edit": kind_of(edit), "branch": edit.branch, "rule": edit.rule}
    if isinstance(edit, RestoreReplace | RestoreLive):
        return {"edit": kind_of(edit), "branch": edit.branch, "checkpoint": edit.checkpoint, "rule": edit.rule}
    if isinstance(edit, MergeSelect):
        return {"edit": kind_of(edit), "group": edit.group, "arm": edit.arm, "rule": edit.rule}
    if isinstance(edit, MergeJoin):
        return {"edit": kind_of(edit), "group": edit.group, "rule": edit.rule}
    return {
        "edit": "extend",
        "rules": [[r, {"kind": e.kind, "left": None if e.left is None else term_to_json(e.left),
                       "right": None if e.right is None else term_to_json(e.right),
                       "join": None if e.join is None else term_to_json(e.join), "region": e.region}]
                  for r, e in edit.rules],
        "templates": [list(t) for t in edit.templates],
        "actions": [[d, {"label": a.label, "request": a.request, "scope": a.scope}] for d, a in edit.actions],
        "authorities": [list(a) for a in edit.authorities],
        "requirements": [[r, rec.to_json()] for r, rec in edit.requirements],
        "removals": [rec.to_json() for rec in edit.removals],
        "policy": None if edit.policy is None else policy_to_json(edit.policy),
    }
