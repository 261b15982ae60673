"""The registered extension Extend (``Σ_ζ⁺``, ``ρ⁺``, authorities, signed records and ``𝒜⁺``) of *When Can
Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking for Execution Edits*, Appendix A-D2:
each table grows by union, an entry registered differently is a conflict, every requirement and removal
record must verify under the extended authorities, every template must name a registered action, and a
new policy must include the current one (``inclusion.py``, Appendix A-D3)."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from model.edits.check.inclusion import included
from model.edits.runtime.derive_failure import DeriveFailure, Fail
from model.edits.runtime.forms import Extend
from model.edits.runtime.record import State
from model.edits.runtime.requirements import verify_record

V = TypeVar("V")


def union(what: str, old: tuple[tuple[str, V], ...], new: tuple[tuple[str, V], ...]) -> dict[str, V]:
    table = dict(old)
    for k, v in new:
        if k in table and table[k] != v:
            raise Fail(DeriveFailure.CONFLICTING_ENTRY, f"{what} {k} is already registered differently")
        table[k] = v
    return table


def extend(s: State, edit: Extend) -> State:
    """Σ_ζ⁺, ρ⁺ (templates and actions), authorities, signed records and 𝒜⁺ (Appendix A-D2)."""
    rules = union("rule", s.rules, edit.rules)
    templates = union("template", s.templates, edit.templates)
    actions = union("action", s.actions, edit.actions)
    auths = union("authority", s.authorities, edit.authorities)
    reqs = dict(s.requirements)
    for region, rec in edit.requirements:
        if rec.kind != "requirement" or rec.subject != region or not verify_record(rec, auths, s.domain):
            raise Fail(DeriveFailure.UNSIGNED_RECORD, f"requirement record for {region} does not verify")
        if region in reqs and reqs[region] != rec:
            raise Fail(DeriveFailure.CONFLICTING_ENTRY, f"region {region} already has a requirement record")
        reqs[region] = rec
    for rec in edit.removals:
        if rec.kind != "removal" or not verify_record(rec, auths, s.domain):
            raise Fail(DeriveFailure.UNSIGNED_RECORD, f"removal record for {rec.subject} does not verify")
    for t, d in templates.items():
        if d not in actions:
            raise Fail(DeriveFailure.UNKNOWN_TEMPLATE, f"call template {t} names unregistered action {d}")
    policy, kappa = s.policy, s.policy_version
    if edit.policy is not None:
        missing = included(s.policy, edit.policy)
        if missing is not None:
            raise Fail(DeriveFailure.POLICY_NOT_SUPERSET,
                        f"the new policy drops '{' '.join(missing) or 'ε'}' which the current one allows")
        policy, kappa = edit.policy, kappa + 1
    return replace(
        s, rules=tuple(sorted(rules.items())), templates=tuple(sorted(templates.items())),
        actions=tuple(sorted(actions.items())), authorities=tuple(sorted(auths.items())),
        requirements=tuple(sorted(reqs.items())),
        removals=s.removals + tuple(r for r in edit.removals if r not in s.removals),
        rules_version=s.rules_version + (1 if edit.rules else 0), policy=policy, policy_version=kappa)
