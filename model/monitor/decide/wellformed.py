"""Well-formed monitor states (Agenra Section 6.1), checked rather than assumed.

A state is well formed for a policy when: record IDs are their trace positions; parents
precede their children; labels use declared levels and categories; both counter vectors have
one entry per list position and stay within finite quotas; invalid slots are unbound; every
live binding names a successful record of its resolver's tool with the resolver's exact
arguments; consumed permits exist. Returns the list of violated clauses (empty = well formed)
so a failing property test prints which clause broke.
"""

from __future__ import annotations

from model.base.canonical import json_equal
from model.monitor.decide.ledger import within_limits
from model.monitor.decide.state import State
from model.monitor.language.policy import Policy


def violations(policy: Policy, state: State) -> tuple[str, ...]:
    bad: list[str] = []
    for pos, rec in enumerate(state.trace):
        if rec.id != pos:
            bad.append(f"record at position {pos} has id {rec.id}")
        if any(p >= rec.id or p < 0 for p in rec.parents):
            bad.append(f"record {rec.id} has a parent that does not precede it")
        if len(set(rec.parents)) != len(rec.parents):
            bad.append(f"record {rec.id} repeats a parent")
        if rec.label.sensitivity not in policy.levels.order or not rec.label.categories <= policy.categories:
            bad.append(f"record {rec.id} has an undeclared label component")
    if not within_limits(policy.user, state.used_user):
        bad.append("user counters exceed a quota or have the wrong length")
    if not within_limits(policy.application, state.used_app):
        bad.append("application counters exceed a quota or have the wrong length")
    for slot, _value, d in state.bindings:
        if slot in state.invalid:
            bad.append(f"invalid slot {slot} is bound")
        bound = state.record(d)
        resolvers = [r for r in policy.resolvers if r.slot == slot]
        if bound is None or not bound.succeeded or not any(
            r.tool == bound.tool and json_equal(dict(r.args), bound.args()) for r in resolvers
        ):
            bad.append(f"binding of {slot} does not come from an applicable successful lookup")
    slots = [s for s, _, _ in state.bindings]
    if len(set(slots)) != len(slots):
        bad.append("a slot is bound twice")
    return tuple(bad)
