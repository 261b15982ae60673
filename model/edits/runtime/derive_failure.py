"""Why an edit does not derive (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact
Checking for Execution Edits*, Section V-A and Appendices A-D1, A-D2): each failure of the judgment
``Σ_ζ; H ⊢_edit u ⇒ (T', 𝒫_u)`` is an ``Invalid`` reason with a detail naming what was looked up. The
paper lists the conditions; the names of the reasons are ours."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class DeriveFailure(enum.Enum):
    NO_RULES_IN_FORCE = "no-rules-in-force"
    UNKNOWN_BRANCH = "unknown-branch"
    UNKNOWN_GROUP = "unknown-group"
    UNKNOWN_ARM = "unknown-arm"
    UNKNOWN_RULE = "unknown-rule"
    UNKNOWN_CHECKPOINT = "unknown-checkpoint"
    UNKNOWN_TEMPLATE = "unknown-template"
    RULE_KIND = "rule-for-another-form"
    WRONG_MODE = "wrong-mode"
    UNSELECTED_ARM_PROGRESSED = "unselected-arm-progressed"
    ALREADY_JOINED = "already-joined"
    CHECKPOINT_FORGED = "checkpoint-forged"
    REQUIRED_RESULT_DROPPED = "required-result-dropped"
    UNSIGNED_RECORD = "unsigned-record"
    CONFLICTING_ENTRY = "conflicting-entry"
    POLICY_NOT_SUPERSET = "policy-not-superset"
    NOT_WELL_FORMED = "not-well-formed"


@dataclass(frozen=True, slots=True)
class DeriveInvalid:
    reason: DeriveFailure
    detail: str


class Fail(Exception):
    def __init__(self, reason: DeriveFailure, detail: str) -> None:
        super().__init__(detail)
        self.failure = DeriveInvalid(reason, detail)
