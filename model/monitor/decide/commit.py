"""Committing an Allow and processing the result (Agenra Sections 6.2 and 6.3, 5.1).

``commit`` is the Allow rule: a fresh ID (the next trace position), ``M``/``L``/``τ`` extended,
both charge vectors added, and the chosen permit consumed — all before the tool runs, so a
failed tool keeps its charge. ``observe`` processes the declared outcome ``(ok, y)``:

- failure: nothing changes (no handle, no binding change, no refund);
- success: the record becomes usable as a handle (a fresh identity even if the bytes repeat);
  for each resolver whose tool and *exact* arguments equal this call's, the authoritative
  result path is read: absent or not a non-empty scalar → the slot is invalidated for the
  rest of the task; equal to the binding → kept; different → invalidated; unbound → bound.
  An invalid slot stays invalid (Section 5.1: "permanently").

``step`` composes them and is the transition ``S --c/d--> S'`` for a fixed outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from model.base.canonical import JSON, json_equal
from model.base.fastinit import fast_init
from model.monitor.decide.base import Decision, Verdict, decide
from model.monitor.decide.compiled import Compiled
from model.monitor.decide.compiled import compiled as _compiled
from model.monitor.decide.counters import charge, charge_positions
from model.monitor.decide.matching import lookup_path
from model.monitor.decide.state import Call, Record, State, call_args_json
from model.monitor.language.policy import Policy, Resolver


@fast_init
@dataclass(frozen=True, slots=True)
class Outcome:
    """The declared result of an admitted attempt; authorization never depends on it."""

    ok: bool
    value: JSON = None


def commit(policy: Policy, state: State, call: Call, verdict: Verdict,
           args_json: str | None = None) -> tuple[State, Record]:
    """The Allow rule; raises ``ValueError`` if handed anything but this call's Allow verdict.
    ``args_json`` as for ``proposed_record``."""
    return commit_in(_compiled(policy), state, call, verdict, args_json)


def commit_in(c: Compiled, state: State, call: Call, verdict: Verdict,
              args_json: str | None = None) -> tuple[State, Record]:
    """``commit`` over the policy's compiled form (an Adapter looks it up once, not per step)."""
    tool = c.tools.get(call.tool)
    if verdict.decision is not Decision.ALLOW or tool is None or verdict.label is None:
        raise ValueError("commit needs the Allow verdict of this call")
    assert verdict.user is not None and verdict.app is not None
    decl = tool.decl  # proposed_record, inlined (one call fewer per admitted call)
    rec = Record(len(state.trace), call.agent, decl.name, decl.operation, decl.source, decl.destination,
                 call.parents(), call_args_json(call) if args_json is None else args_json, verdict.label)
    permits = state.permits
    if verdict.permit is not None:
        permits = tuple(replace(p, consumed=True) if p.id == verdict.permit else p for p in permits)
    uu, ua, pu, pa = state.used_user, state.used_app, verdict.user.positions, verdict.app.positions
    new = State((*state.trace, rec), state.bindings, state.invalid,
                charge_positions(uu, pu) if type(uu) is tuple else charge(uu, pu),
                charge_positions(ua, pa) if type(ua) is tuple else charge(ua, pa), state.satisfied, permits)
    return new, rec


def _well_formed_address(v: object) -> bool:
    if isinstance(v, str):
        return v != ""
    return isinstance(v, int | float | bool)


def observe(policy: Policy, state: State, d: int, outcome: Outcome) -> State:
    """Process the outcome of admitted attempt ``d``."""
    return observe_in(_compiled(policy), state, d, outcome)


def observe_in(c: Compiled, state: State, d: int, outcome: Outcome) -> State:
    """``observe`` over the policy's compiled form."""
    trace = state.trace
    if not outcome.ok or not 0 <= d < len(trace):
        return state
    rec = trace[d]
    done = Record(rec.id, rec.agent, rec.tool, rec.operation, rec.source, rec.destination, rec.parents,
                  rec.args_json, rec.label, True)
    # the adapter observes the record it just appended: replace the last one without slicing twice
    trace = (*trace[:-1], done) if d == len(trace) - 1 else (*trace[:d], done, *trace[d + 1:])
    # The resolvers of this tool whose exact arguments are this call's: equal canonical texts are
    # equal JSON values (RFC 8785), so no argument is parsed or canonicalized here.
    resolvers = c.resolvers.get(rec.tool)
    applicable = [r for r, text in resolvers if text == rec.args_json] if resolvers else None
    if not applicable:
        return State(trace, state.bindings, state.invalid, state.used_user, state.used_app, state.satisfied,
                     state.permits)
    bindings, invalid = bind(state.bindings, state.invalid, applicable, outcome.value, d)
    return State(trace, bindings, invalid, state.used_user, state.used_app, state.satisfied, state.permits)


def bind(bindings_in: tuple[tuple[str, JSON, int], ...], invalid_in: frozenset[str], applicable: list[Resolver],
         value_in: JSON, d: int) -> tuple[tuple[tuple[str, JSON, int], ...], frozenset[str]]:
    """The slots after the applicable resolvers read the successful result ``value_in`` of record ``d``
    (shared with the Adapter's live session, ``session.py``)."""
    if len(applicable) == 1 and len(bindings_in) < 2:  # (the common case, without building a dict and a set)
        res = applicable[0]
        slot = res.slot
        if slot in invalid_in:
            return bindings_in, invalid_in
        value = lookup_path(value_in, tuple(res.path.split(".")))
        held = bindings_in[0] if bindings_in and bindings_in[0][0] == slot else None
        if not _well_formed_address(value) or (held is not None and not json_equal(held[1], value)):
            return (() if held is not None else bindings_in), invalid_in | {slot}
        if held is not None:
            return bindings_in, invalid_in
        return tuple(sorted((*bindings_in, (slot, value, d)))), invalid_in
    bindings = dict((s, (v, i)) for s, v, i in bindings_in)
    invalid = set(invalid_in)
    for res in applicable:
        if res.slot in invalid:
            continue
        value = lookup_path(value_in, tuple(res.path.split(".")))
        if not _well_formed_address(value):
            bindings.pop(res.slot, None)
            invalid.add(res.slot)
        elif res.slot in bindings:
            if not json_equal(bindings[res.slot][0], value):
                bindings.pop(res.slot)
                invalid.add(res.slot)
        else:
            bindings[res.slot] = (value, d)
    # sorted by slot (slots are distinct keys, so the whole items never compare their values)
    return tuple([(s, v, i) for s, (v, i) in sorted(bindings.items())]), frozenset(invalid)


def step(policy: Policy, state: State, call: Call, outcome: Outcome) -> tuple[Verdict, State]:
    """One transition: decide; on Allow commit and observe the fixed outcome; otherwise no change."""
    verdict = decide(policy, state, call)
    if verdict.decision is not Decision.ALLOW:
        return verdict, state
    new, rec = commit(policy, state, call, verdict)
    return verdict, observe(policy, new, rec.id, outcome)
