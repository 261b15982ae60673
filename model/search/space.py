"""The transition system bounded analysis explores: search states, the actions of the agent, the
reviewer and the approver, and their successors — each agent call decided and committed by the real
monitor (``decide``, ``commit``, ``observe`` of ``model.monitor``, i.e. ``step`` for each outcome).

A search state is the monitor state ``S`` plus, per admitted record, what the monitor does not keep
but the model needs: the argument-to-handle map (``refs``, to evaluate producer patterns such as
Sanitize(Read)), the result value on success (the agent may pass it or a field of it later), and
which query events the record matched at the time of its call (a ``BoundTo`` pattern reads the
binding *before* the call, which later lookups may change).

Choices where the source is silent:
- Outcomes are chosen after Allow, one transition per listed outcome; a denied or paused proposal
  is no transition (it leaves ``S`` unchanged, Section 6.1), though the monitor is asked about each.
- A reviewer or approver action is a step of the trace like a call (it changes ``S``: ``Q`` or the
  permits), so bounds count all three kinds.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import replace

from model.base.canonical import JSON, canonical_str
from model.monitor.decide.base import Decision, Verdict, decide
from model.monitor.decide.commit import Outcome, commit, observe
from model.monitor.decide.matching import Missing, lookup_path
from model.monitor.decide.state import Call, initial_state, issue_permit, satisfy
from model.search.model import SearchModel
from model.search.patterns import args_match, event_matches, premise_matches
from model.search.states import (
    Action,
    AgentCall,
    Approve,
    ArgSource,
    Extra,
    Lit,
    Ref,
    Satisfy,
    SearchState,
    Transition,
)


def initial(model: SearchModel) -> SearchState:
    policy = model.policy
    return SearchState(initial_state(len(policy.user), len(policy.application)))


def to_call(model: SearchModel, state: SearchState, action: AgentCall) -> Call:
    """The proposed call ``c`` the precise adapter would build for these argument sources."""
    args: dict[str, JSON] = {}
    refs: list[tuple[str, int]] = []
    paths: list[tuple[str, str]] = []
    for name, src in action.args:
        if isinstance(src, Lit):
            args[name] = json.loads(src.value)
            continue
        value = state.value(src)
        # a source the agent cannot hold names no record, so the monitor denies it (as the Adapter does)
        args[name] = None if isinstance(value, Missing) else value
        refs.append((name, src.record if not isinstance(value, Missing) else -1))
        if src.path:
            paths.append((name, src.path))
    return Call(model.agent, action.tool, args, tuple(sorted(refs)), tuple(sorted(paths)))


def sources(model: SearchModel, state: SearchState) -> tuple[ArgSource, ...]:
    """Every value the agent holds: its literals, each successful result, and their declared fields."""
    out: list[ArgSource] = [Lit(v) for v in model.literals]
    copies: list[ArgSource] = []
    for rec, extra in zip(state.monitor.trace, state.extras, strict=True):
        if not rec.succeeded or extra.result is None:
            continue
        out.append(Ref(rec.id))
        copies.append(Lit(extra.result))
        value = json.loads(extra.result)
        for path in model.fields_of(rec.tool):
            sub = lookup_path(value, tuple(path.split(".")))
            if not isinstance(sub, Missing):
                out.append(Ref(rec.id, path))
                copies.append(Lit(canonical_str(sub)))
    if model.copies:
        out += [c for c in dict.fromkeys(copies) if c not in out]
    return tuple(out)


def agent_calls(model: SearchModel, state: SearchState) -> Iterator[AgentCall]:
    held = sources(model, state)
    for tool in model.policy.tools:
        cap = model.max_calls_of(tool.name)
        if cap is not None and sum(1 for r in state.monitor.trace if r.tool == tool.name) >= cap:
            continue
        optional = sorted(tool.args - tool.required - model.omitted(tool.name))
        for k in range(len(optional) + 1):
            for extra in itertools.combinations(optional, k):
                names = sorted(tool.required | set(extra))
                for choice in itertools.product(held, repeat=len(names)):
                    yield AgentCall(tool.name, tuple(zip(names, choice, strict=True)))


def _refs(action: AgentCall) -> tuple[tuple[str, int, str], ...]:
    return tuple((n, s.record, s.path) for n, s in action.args if isinstance(s, Ref))


def apply_call(model: SearchModel, state: SearchState, action: AgentCall, call: Call, verdict: Verdict,
               outcome: int) -> SearchState:
    """Commit an admitted call and observe one listed outcome (the monitor's Allow rule and Section 6.3)."""
    result = model.results_of(action.tool)[outcome]
    monitor, rec = commit(model.policy, state.monitor, call, verdict)
    monitor = observe(model.policy, monitor, rec.id, Outcome(result.ok, json.loads(result.value)))
    matched, premise = set(), set()
    for i, q in enumerate(model.queries):
        if not premise_matches(q.event, rec.tool, result.ok):
            continue
        premise.add(i)
        if event_matches(model, q.event, state, call, _refs(action), rec.label):
            matched.add(i)
    extra = Extra(_refs(action), canonical_str(json.loads(result.value)) if result.ok else None, outcome,
                  frozenset(matched), frozenset(premise))
    return SearchState(monitor, (*state.extras, extra))


def apply_action(model: SearchModel, state: SearchState, action: Action,
                 outcome: int | None) -> tuple[Verdict | None, SearchState | None]:
    """One step: ``(verdict, successor)``; the successor is ``None`` when the action is not enabled."""
    if isinstance(action, Satisfy):
        if action.requirement not in model.satisfy or action.requirement in state.monitor.satisfied:
            return None, None
        return None, replace(state, monitor=satisfy(state.monitor, action.requirement))
    if isinstance(action, Approve):
        if len(state.monitor.permits) >= model.max_permits or not _approvable(model, state, action.call):
            return None, None
        call = to_call(model, state, action.call)
        monitor, _ = issue_permit(state.monitor, call.tool, call.identity())
        return None, replace(state, monitor=monitor)
    cap = model.max_calls_of(action.tool)
    if cap is not None and sum(1 for r in state.monitor.trace if r.tool == action.tool) >= cap:
        return None, None
    call = to_call(model, state, action)
    verdict = decide(model.policy, state.monitor, call)
    if verdict.decision is not Decision.ALLOW or outcome is None or not possible(model, state, action, call, outcome):
        return verdict, None
    return verdict, apply_call(model, state, action, call, verdict, outcome)


def possible(model: SearchModel, state: SearchState, action: AgentCall, call: Call, outcome: int) -> bool:
    """Whether the listed outcome can follow this call (its ``when`` guard holds in the pre-state)."""
    result = model.results_of(action.tool)[outcome]
    return args_match(model, result.when, state, call, _refs(action))


def _approvable(model: SearchModel, state: SearchState, action: AgentCall) -> bool:
    call = to_call(model, state, action)
    return any(a.tool == action.tool and args_match(model, a.args, state, call, _refs(action))
               for a in model.approvals)


def successors(model: SearchModel, state: SearchState) -> Iterator[tuple[Transition, SearchState]]:
    """Every enabled transition: reviewer actions, approvals, then each admitted agent call × each possible outcome."""
    for req in model.satisfy:
        if req not in state.monitor.satisfied:
            yield Transition(Satisfy(req), None, None), replace(state, monitor=satisfy(state.monitor, req))
    calls = tuple(agent_calls(model, state))
    if model.approvals and len(state.monitor.permits) < model.max_permits:
        for action in calls:
            if _approvable(model, state, action):
                call = to_call(model, state, action)
                monitor, _ = issue_permit(state.monitor, call.tool, call.identity())
                yield Transition(Approve(action), None, None), replace(state, monitor=monitor)
    for action in calls:
        call = to_call(model, state, action)
        verdict = decide(model.policy, state.monitor, call)
        if verdict.decision is not Decision.ALLOW:
            continue
        for k, _ in enumerate(model.results_of(action.tool)):
            if possible(model, state, action, call, k):
                yield Transition(action, k, verdict), apply_call(model, state, action, call, verdict, k)


