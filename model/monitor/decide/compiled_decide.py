"""``D(S, c)`` over the compiled policy: the cases of Agenra Section 6.2 in the order
``decide.decide_source`` checks them, returning at the first that applies, with the same reasons and
details. See ``compiled.py`` for what the index changes (only which entries are looked at, never the
answer); this file is the decision alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from model.base.canonical import JSON
from model.monitor.decide.compiled import NOKEY, Compiled, CompiledEntry, CompiledTool, scalar_key
from model.monitor.decide.flow import extension_flow, history_violations
from model.monitor.decide.ledger import Allocation
from model.monitor.decide.matching import Effect, call_effects
from model.monitor.decide.origins import produced_by
from model.monitor.decide.state import Call, State, proposed_record
from model.monitor.decide.verdict import Decision, DenyReason, Verdict, deny_verdict, find_permit, flow_pause
from model.monitor.language.labels import Label
from model.monitor.language.policy import FlowEffect


def _slot_reason(entries: tuple[CompiledEntry, ...], args: Mapping[str, JSON], state: State) -> DenyReason:
    for e in entries:  # the slot allows of the effect's action, in list order (decide._slot_reason)
        if (e.keys is None or e.keys.issuperset(args)) and all(p.holds(args) for p in e.preds):
            if e.slot in state.invalid:
                return DenyReason.SLOT_INVALID
            if not state.is_bound(e.slot):
                return DenyReason.SLOT_UNBOUND
    return DenyReason.NO_MATCHING_ALLOW


def _candidates(by: dict[object, tuple[CompiledEntry, ...]], other: tuple[CompiledEntry, ...],
                everything: tuple[CompiledEntry, ...], resource: JSON) -> tuple[tuple[CompiledEntry, ...], bool]:
    k = scalar_key(resource)
    if k is NOKEY:
        return everything, False
    return by.get(k, other), True


def _label(c: Compiled, ct: CompiledTool, state: State, call: Call) -> Label:
    refs = call.refs
    if not refs:
        label_in = ct.source_label
    elif len(refs) == 1:
        label_in = state.trace[refs[0][1]].label  # join(bottom, l) = l
    else:
        label_in = c.join([state.trace[d].label for d in call.parents()])
    return c.propagate(ct, label_in)


def first_fit(matched: list[list[CompiledEntry]], n: int, used: tuple[Sequence[int] | Mapping[int, int], ...],
              satisfied: AbstractSet[str]) -> tuple[tuple[int, ...], tuple[int, ...]] | int:
    """Step 7: the positions first-fit reserves on the user and the application list, from the allows that
    matched each of the ``n`` effects (``matched``: the user list's ``n`` lists, then the application's),
    or the index of the first list with no ready grant left with capacity for some effect. ``used``:
    both lists' counters (a ``State``'s, or the Adapter session's ``Counts``)."""
    chosen: list[tuple[int, ...]] = []
    for i in (0, 1):
        counts = used[i]
        reserved: dict[int, int] = {}
        positions: list[int] = []
        for allows in matched[i * n:(i + 1) * n]:
            for e in allows:
                if e.requires is not None and e.requires not in satisfied:
                    continue
                k = e.pos
                r = reserved.get(k, 0)
                quota = e.quota
                if quota is None or counts[k] + r < quota:
                    reserved[k] = r + 1
                    positions.append(k)
                    break
            else:
                return i
        chosen.append(tuple(positions))
    return chosen[0], chosen[1]


def decide_compiled(c: Compiled, state: State, call: Call) -> Verdict:
    """The decision of ``decide.decide_source`` for the same (policy, state, call)."""
    got = before_quota(c, state, call)
    if isinstance(got, Verdict):
        return got
    return after_quota(c, state, call, *got)


def before_quota(c: Compiled, state: State, call: Call
                 ) -> Verdict | tuple[tuple[Effect, ...], Label, list[list[CompiledEntry]]]:
    """Steps 1 to 6 of the decision: the refusal or Pause they give, else the call's effects, its output
    label and the allows that matched each effect (user list first). Split from the counters' step so a
    caller that knows these read no part of the state (the encoded search's ``Static.prequota``) can run
    first-fit alone on each state's counters."""
    # 1. preparation
    ct = c.tools.get(call.tool)
    if ct is None:
        return deny_verdict(DenyReason.UNKNOWN_TOOL, f"no tool {call.tool!r}")
    args = call.args
    tool = ct.decl
    if not ct.args.issuperset(args):
        extra = sorted(set(args) - tool.args)
        return deny_verdict(DenyReason.UNDECLARED_ARGUMENT, f"{tool.name} declares no argument {extra[0]!r}")
    if not ct.required.issubset(args):
        missing = sorted(tool.required - set(args))
        return deny_verdict(DenyReason.MISSING_ARGUMENT, f"{tool.name} requires argument {missing[0]!r}")
    trace = state.trace
    for name, d in call.refs:
        if name not in args or not 0 <= d < len(trace) or not trace[d].succeeded:
            return deny_verdict(DenyReason.UNKNOWN_HANDLE, f"argument {name!r} names no successful result")
    effects = ct.const_effects
    if effects is None:
        found = call_effects(tool, args)
        if isinstance(found, str):
            return deny_verdict(DenyReason.MALFORMED_RESOURCE, found)
        effects = found
    label = _label(c, ct, state, call)
    # 1'. Struct
    hit = ct.struct.get(call.agent)
    fail, ceiling = hit if hit is not None else c.struct(ct, call.agent)
    if fail is not None:
        return fail
    if ceiling is not None and c.rank[label.sensitivity] > ceiling:
        agent = c.agents[call.agent]
        return deny_verdict(DenyReason.CEILING, f"output {label.sensitivity} exceeds ceiling {agent.ceiling}")
    # 2. explicit denies, on both lists
    for side in c.deny_sides:
        for eff in effects:
            act = side.actions.get(eff.action)
            if act is None or not act.deny_all:
                continue
            cands, indexed = _candidates(act.deny_by, act.deny_other, act.deny_all, eff.resource)
            for e in cands:
                if e.matches(eff.resource, indexed, args, state):
                    return deny_verdict(DenyReason.EXPLICIT_DENY, f"{side.name} denies {eff.show()}")
    # 2'. a matching allow per (effect, list); 3. Pause when none of them is ready
    matched: list[list[CompiledEntry]] = []
    waiting: set[str] | None = None
    satisfied = state.satisfied
    for side in c.sides:
        for eff in effects:
            act = side.actions.get(eff.action)
            allows: list[CompiledEntry] = []
            if act is not None:
                resource = eff.resource
                k = scalar_key(resource)
                if k is NOKEY:
                    cands, indexed = act.allow_all, False
                else:
                    cands, indexed = act.allow_by.get(k, act.allow_other), True
                allows = [e for e in cands if e.matches(resource, indexed, args, state)]
            if not allows:
                reason = _slot_reason(act.slot_allows, args, state) if act is not None \
                    else DenyReason.NO_MATCHING_ALLOW
                return deny_verdict(reason, f"no {side.name} allow matches {eff.show()}")
            for e in allows:
                if e.requires is None or e.requires in satisfied:
                    break
            else:
                if waiting is None:
                    waiting = set()
                waiting.update(e.requires for e in allows if e.requires is not None)
            matched.append(allows)
    if waiting:
        return Verdict(Decision.PAUSE, None, f"waiting for {', '.join(sorted(waiting))}",
                       waiting_for=frozenset(waiting))
    # 4. origins
    if ct.origins:
        refs = dict(call.refs)
        for rule in ct.origins:
            ref = refs.get(rule.argument)
            if ref is None or not produced_by(state, ref, rule):
                return deny_verdict(DenyReason.ORIGIN, f"origin rule {rule.name} not met")
    # 5. flow
    if not c.flow_allows(tool.operation, tool.destination, label):
        return deny_verdict(DenyReason.FLOW, f"no flow rule lets {label.sensitivity} data reach {tool.destination}")
    # 6. history
    if c.policy.histories:
        hist = history_violations(c.policy, state, proposed_record(state, call, tool, label))
        if hist:
            return deny_verdict(DenyReason.HISTORY, f"history rule {hist[0]} not met")
    return effects, label, matched


def after_quota(c: Compiled, state: State, call: Call, effects: tuple[Effect, ...], label: Label,
                matched: list[list[CompiledEntry]]) -> Verdict:
    """Steps 7 and 8 of the decision on what ``before_quota`` passed."""
    tool = c.tools[call.tool].decl
    satisfied = state.satisfied
    # 7. first-fit on both lists, over the allows that matched each effect (same state, same order)
    chosen = first_fit(matched, len(effects), (state.used_user, state.used_app), satisfied)
    if isinstance(chosen, int):
        who = "user" if chosen == 0 else "application"
        return deny_verdict(DenyReason.QUOTA, f"no {who} grant with capacity left (first-fit)")
    user, app = Allocation(chosen[0], c.sides[0].size), Allocation(chosen[1], c.sides[1].size)
    # 7'. the extensions beyond Agenra (flow.extension_flow): audience and request sinks, flow pauses
    paused, why = False, ""
    if c.extended:
        if c.label_only_extensions:
            key = (tool.name, label.sensitivity, label.categories, label.trusted)
            kept = c.extension_memo.get(key)
            if kept is None:
                kept = extension_flow(c.policy, state, call, tool, effects, label)
                if len(c.extension_memo) < 4096:  # labels are few; the bound only guards memory
                    c.extension_memo[key] = kept
            ext, why = kept
        else:
            ext, why = extension_flow(c.policy, state, call, tool, effects, label)
        if ext is FlowEffect.DENY:
            return deny_verdict(DenyReason.FLOW, why)
        paused = ext is FlowEffect.PAUSE
    # 8. exact-call permits
    permit: int | None = None
    if paused or (c.permits and (any(c.sides[0].permit[k] for k in user.positions) or
                                 any(c.sides[1].permit[k] for k in app.positions))):
        found_permit = find_permit(state.permits, call, paused)
        if isinstance(found_permit, DenyReason):
            return flow_pause(why) if paused else \
                deny_verdict(found_permit, "no unused exact-call permit binds this call")
        permit = found_permit.id
    return Verdict(Decision.ALLOW, None, "", effects, label, user, app, permit=permit)


__all__ = ["after_quota", "before_quota", "decide_compiled", "first_fit"]
