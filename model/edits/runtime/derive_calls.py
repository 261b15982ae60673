"""ρ extended by the calls an edit copies or introduces (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge? Exact Checking for Execution Edits*, Sections V-A1–V-A3, Table I): a copy keeps its
original's entry (action, region, scope and request digest), so Resolve sees it as the same action; a
step instantiated from a call template gets the template's registered action.

Choice where the paper is silent: copies are named ``base@branch`` and introduced steps ``base+branch``,
so the two never clash.
"""

from __future__ import annotations

from model.edits.check.contract import Call, Choice, Family, Nil, Par, Seq, Term, call_ids
from model.edits.check.family import rename_family
from model.edits.runtime.derive_failure import DeriveFailure, Fail
from model.edits.runtime.record import CallEntry, State
from model.edits.runtime.record_json import request_digest
from model.edits.runtime.tree import clone_term


class Calls:
    """ρ extended by the calls an edit copies (same entry as the original) or introduces (from templates)."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.rho = dict(s.calls)

    def copy(self, mapping: dict[str, str]) -> None:
        for old, new in mapping.items():
            self.rho[new] = self.rho[old]

    def instantiate(self, term: Term | None, branch: str, region: str) -> Term:
        if term is None:
            return Nil()
        templates = dict(self.s.templates)
        actions = dict(self.s.actions)

        def name(x: str) -> str:
            return f"{x}+{branch}"

        for x in call_ids(term):
            d = templates.get(x)
            if d is None or d not in actions:
                raise Fail(DeriveFailure.UNKNOWN_TEMPLATE, f"call template {x} has no registered action")
            self.rho[name(x)] = CallEntry(d, region, actions[d].scope, request_digest(actions[d].request))
        renamed, _, _ = clone_term(term, branch)
        # clone_term names copies base@branch; introduced steps are base+branch so they never clash with copies
        mapping = {f"{x}@{branch}": name(x) for x in call_ids(term)}
        return rename(renamed, mapping)


def rename(term: Term, mapping: dict[str, str]) -> Term:
    if isinstance(term, Call):
        return Call(mapping.get(term.call, term.call))
    if isinstance(term, Nil):
        return term
    if isinstance(term, Family):
        return rename_family(term, mapping, term.group)
    if isinstance(term, Choice):
        return Choice(term.group, tuple((a, rename(t, mapping)) for a, t in term.arms))
    parts = tuple(rename(t, mapping) for t in term.parts)
    return Par(parts) if isinstance(term, Par) else Seq(parts)
