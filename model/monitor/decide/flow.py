"""Flow rules ``V(S, σ)`` and history rules ``H(S, σ)`` (Agenra Section 4.3).

Flow: a rule matches when its operation and destination patterns match the proposed record and
its guard holds on ``ℓ_out``. A matching deny wins; otherwise some allow must match (default
deny for every destination — our choice, the fail-closed reading of "no matching allow means
denial").

History: for a rule ``{scope, after: A, require: R, before: S}`` and a proposed ``S`` call, every
``A`` in scope must be followed (strictly later in the trace) by an ``R`` in scope. ``lineage`` is
the proposed call's transitive parents; ``session`` is every admitted attempt. Both include the
proposed call (Section 4.3): it may close an interval (when ``S`` is also an ``R``) but does not
open one. Operations are matched
by tool or operation name, as for origins. Failed attempts are admitted attempts and count in
``session``; they never appear in a lineage because only successful results have handles.
"""

from __future__ import annotations

from model.monitor.decide.state import Record, State
from model.monitor.language.labels import Label
from model.monitor.language.policy import FlowEffect, HistoryRule, HistoryScope, Policy


def flow_allows(policy: Policy, operation: str, destination: str, label: Label) -> bool:
    allowed = False
    for rule in policy.flows:
        if rule.operation not in ("*", operation) or rule.destination not in ("*", destination):
            continue
        if not rule.guard.holds(policy.levels, label):
            continue
        if rule.effect is FlowEffect.DENY:
            return False
        allowed = True
    return allowed


def lineage(state: State, parents: tuple[int, ...]) -> tuple[Record, ...]:
    seen: set[int] = set()
    stack = list(parents)
    while stack:
        d = stack.pop()
        if d in seen:
            continue
        seen.add(d)
        rec = state.record(d)
        if rec is not None:
            stack.extend(rec.parents)
    return tuple(state.trace[d] for d in sorted(seen) if state.record(d) is not None)


def _is(rec: Record, name: str) -> bool:
    return rec.tool == name or rec.operation == name


def history_violations(policy: Policy, state: State, proposed: Record) -> tuple[str, ...]:
    bad: list[str] = []
    for rule in policy.histories:
        if not _is(proposed, rule.before):
            continue
        scope = lineage(state, proposed.parents) if rule.scope is HistoryScope.LINEAGE else state.trace
        if not _satisfied(rule, scope, proposed):
            bad.append(rule.name)
    return tuple(bad)


def _satisfied(rule: HistoryRule, scope: tuple[Record, ...], proposed: Record) -> bool:
    pending = False  # an `after` not yet followed by a `require`
    for rec in scope:
        if _is(rec, rule.require):
            pending = False
        elif _is(rec, rule.after):
            pending = True
    # The proposed call is in scope but can only close an interval, never open one that it must
    # then close itself (otherwise `after: Send, before: Send` would forbid every send).
    return not pending or _is(proposed, rule.require)
