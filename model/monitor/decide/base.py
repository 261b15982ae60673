"""The base decision ``D(S, c)`` and the Allow commit (Agenra Section 6.2), plus exact-call permits.

Cases, in the order the source fixes (the first that applies decides):

1. preparation fails (unknown tool, undeclared or missing argument, a handle that is not a
   successful result, a malformed resource) or ``¬Struct`` (unknown agent, operation not the
   agent's, endpoints not the edge's, output above the agent's ceiling)          → Deny
2. an explicit deny matches some effect on either list, or some effect has no matching allow
   on some list                                                                  → Deny
3. some (effect, list) has matching allows but none ready                        → Pause
4. ``¬O`` argument origin · 5. ``¬V`` flow · 6. ``¬H`` history                    → Deny
7. first-fit finds no account with capacity on either list (the "contract": quota) → Deny
7'. (extensions beyond Agenra, ``flow.extension_flow``) an audience or request sink denies → Deny;
   a flow rule asks for review and no unused exact-call permit binds this exact call → Pause
8. a chosen grant requires an exact-call permit and no unused permit binds this exact call → Deny
9. otherwise                                                                     → Allow

Choices where the source is silent (Section 9, permits, is missing from our copy):
- Permits are checked after allocation (they belong to the grant first-fit chooses); one
  permit is consumed per call however many chosen grants require one. A permit binds the tool
  and the exact value identity of every argument (handle ID, or the canonical literal); it
  changes no label, so approving a raw report cannot override a flow rule.
- A Deny's reason is refined for diagnosis only: "no matching allow" becomes SLOT_UNBOUND or
  SLOT_INVALID when an allow would have matched but for its unbound or invalidated slot (a slot
  bound to another value stays NO_MATCHING_ALLOW).
- ``explain`` evaluates every check independently and lists each failing obligation; it never
  changes a decision (used for Table 1, where the raw report fails both origin and flow).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from model.monitor.decide import compiled as _compiled
from model.monitor.decide import compiled_decide as _compiled_decide
from model.monitor.decide.flow import extension_flow, flow_allows, history_violations, uses_extensions
from model.monitor.decide.ledger import allocate
from model.monitor.decide.matching import Effect, call_effects, entry_matches, predicate_holds, ready
from model.monitor.decide.origins import violated_origins
from model.monitor.decide.state import Call, State, proposed_record
from model.monitor.decide.verdict import Decision, DenyReason, Verdict, deny_verdict, find_permit, flow_pause
from model.monitor.language.labels import Label, propagate
from model.monitor.language.policy import Entry, EntryKind, FlowEffect, Policy, SlotPat, Tool

__all__ = ["Decision", "DenyReason", "Verdict", "decide", "decide_source", "explain"]


@dataclass(frozen=True, slots=True)
class _Prepared:
    tool: Tool
    effects: tuple[Effect, ...]
    label_out: Label


def prepare(policy: Policy, state: State, call: Call) -> _Prepared | Verdict:
    tool = policy.tool(call.tool)
    if tool is None:
        return deny_verdict(DenyReason.UNKNOWN_TOOL, f"no tool {call.tool!r}")
    extra = sorted(set(call.args) - tool.args)
    if extra:
        return deny_verdict(DenyReason.UNDECLARED_ARGUMENT, f"{tool.name} declares no argument {extra[0]!r}")
    missing = sorted(tool.required - set(call.args))
    if missing:
        return deny_verdict(DenyReason.MISSING_ARGUMENT, f"{tool.name} requires argument {missing[0]!r}")
    for name, d in call.refs:
        rec = state.record(d)
        if name not in call.args or rec is None or not rec.succeeded:
            return deny_verdict(DenyReason.UNKNOWN_HANDLE, f"argument {name!r} names no successful result")
    effects = call_effects(tool, call.args)
    if isinstance(effects, str):
        return deny_verdict(DenyReason.MALFORMED_RESOURCE, effects)
    parents = call.parents()
    if parents:
        label_in = policy.levels.join_all(state.trace[d].label for d in parents)
    else:
        node = policy.node(tool.source)
        label_in = node.label if node is not None else policy.levels.bottom()
    edge = policy.edge(tool.operation)
    label_out = propagate(policy.levels, edge.propagation, label_in) if edge is not None else label_in
    return _Prepared(tool, effects, label_out)


def _sides(policy: Policy, state: State) -> tuple[tuple[str, tuple[Entry, ...], Sequence[int]], ...]:
    return (("user", policy.user, state.used_user), ("application", policy.application, state.used_app))


def _slot_reason(entries: tuple[Entry, ...], eff: Effect, call: Call, state: State) -> DenyReason:
    for e in entries:
        if e.kind is EntryKind.ALLOW and e.action == eff.action and isinstance(e.resource, SlotPat):
            keys_ok = e.keys is None or set(call.args) <= e.keys
            if keys_ok and all(predicate_holds(p, call.args) for p in e.where):
                if e.resource.slot in state.invalid:
                    return DenyReason.SLOT_INVALID
                if not state.is_bound(e.resource.slot):
                    return DenyReason.SLOT_UNBOUND
    # a bound slot holding another value is an ordinary non-match
    return DenyReason.NO_MATCHING_ALLOW


def _failures(policy: Policy, state: State, call: Call) -> Iterator[Verdict]:
    """Every failing case in the order of Section 6.2, then Allow if none failed; ``decide`` takes the first."""
    failed = False
    for verdict in _checks(policy, state, call):
        if verdict.decision is not Decision.ALLOW:
            failed = True
            yield verdict
        elif not failed:
            yield verdict


def _checks(policy: Policy, state: State, call: Call) -> Iterator[Verdict]:
    """Each failing check in order; ends with the Allow candidate when every check could be evaluated."""
    prep = prepare(policy, state, call)
    if isinstance(prep, Verdict):
        yield prep
        return
    tool, effects, label = prep.tool, prep.effects, prep.label_out
    agent = policy.agent(call.agent)
    edge = policy.edge(tool.operation)
    if agent is None:
        yield deny_verdict(DenyReason.UNKNOWN_AGENT, f"no agent {call.agent!r}")
    elif tool.operation not in agent.operations:
        yield deny_verdict(DenyReason.OPERATION_NOT_PERMITTED, f"{agent.name} may not perform {tool.operation}")
    if edge is None or (tool.source, tool.destination) not in edge.endpoints:
        yield deny_verdict(DenyReason.ENDPOINT,
                           f"{tool.source} -> {tool.destination} is not an endpoint of {tool.operation}")
    if agent is not None and not policy.levels.le(label.sensitivity, agent.ceiling):
        yield deny_verdict(DenyReason.CEILING, f"output {label.sensitivity} exceeds ceiling {agent.ceiling}")
    for side, entries, _ in _sides(policy, state):
        for eff in effects:
            if any(e.kind is EntryKind.DENY and entry_matches(e, eff, call.args, state) for e in entries):
                yield deny_verdict(DenyReason.EXPLICIT_DENY, f"{side} denies {eff.show()}")
    waiting: set[str] = set()
    for side, entries, _ in _sides(policy, state):
        for eff in effects:
            allows = [e for e in entries if e.kind is EntryKind.ALLOW and entry_matches(e, eff, call.args, state)]
            if not allows:
                reason = _slot_reason(entries, eff, call, state)
                yield deny_verdict(reason, f"no {side} allow matches {eff.show()}")
            elif not any(ready(e, state) for e in allows):
                waiting.update(e.requires for e in allows if e.requires is not None)
    if waiting:
        yield Verdict(Decision.PAUSE, None, f"waiting for {', '.join(sorted(waiting))}", waiting_for=frozenset(waiting))
    bad = violated_origins(policy, state, call, tool.operation)
    if bad:
        yield deny_verdict(DenyReason.ORIGIN, f"origin rule {bad[0]} not met")
    if not flow_allows(policy, tool.operation, tool.destination, label):
        yield deny_verdict(DenyReason.FLOW, f"no flow rule lets {label.sensitivity} data reach {tool.destination}")
    if policy.histories:
        hist = history_violations(policy, state, proposed_record(state, call, tool, label))
        if hist:
            yield deny_verdict(DenyReason.HISTORY, f"history rule {hist[0]} not met")
    user = allocate(policy.user, state.used_user, effects, call.args, state)
    app = allocate(policy.application, state.used_app, effects, call.args, state)
    if user is None or app is None:
        side = "user" if user is None else "application"
        yield deny_verdict(DenyReason.QUOTA, f"no {side} grant with capacity left (first-fit)")
        return
    ext, why = extension_flow(policy, state, call, tool, effects, label) if uses_extensions(policy) \
        else (FlowEffect.ALLOW, "")
    if ext is FlowEffect.DENY:
        yield deny_verdict(DenyReason.FLOW, why)
        return
    needs_permit = any(policy.user[k].permit for k in user.positions) or any(
        policy.application[k].permit for k in app.positions)
    permit: int | None = None
    if needs_permit or ext is FlowEffect.PAUSE:
        found = find_permit(state.permits, call, ext is FlowEffect.PAUSE)
        if isinstance(found, DenyReason):
            yield flow_pause(why) if ext is FlowEffect.PAUSE else \
                deny_verdict(found, "no unused exact-call permit binds this call")
            return
        permit = found.id
    yield Verdict(Decision.ALLOW, None, "", effects, label, user, app, permit=permit)


def decide(policy: Policy, state: State, call: Call) -> Verdict:
    """``D(S, c)``: the first applicable case. Pure; never raises for any call.

    Evaluated over the policy's compiled form (``compiled.py``), which equals ``decide_source``."""
    return _compiled_decide.decide_compiled(_compiled.compiled(policy), state, call)


def decide_source(policy: Policy, state: State, call: Call) -> Verdict:
    """``D(S, c)`` transcribed literally from Section 6.2 over the source policy (the reference the
    compiled form is tested against, and the baseline its speed is measured against)."""
    return next(_failures(policy, state, call))


def explain(policy: Policy, state: State, call: Call) -> tuple[Verdict, ...]:
    """Every failing check (not only the first); just the Allow verdict when nothing fails."""
    return tuple(_failures(policy, state, call))

