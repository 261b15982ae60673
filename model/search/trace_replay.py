"""Replaying a found trace through the precise Adapter on the reference tools (Agenra Section 3, last
paragraph: bounded analysis searches the supplied finite model, "which we then replay on the tools").

A trace is evidence only if the deployed path reproduces it: every call goes through
``monitor.Adapter`` (opaque handles, the real decision, charge before the tool runs) to the Python
tools of ``monitor.toolkit``. The model's nondeterminism is resolved the way the trace chose it:

- the directory of ``ReportWorld`` is scripted with the lookup answers the trace chose, in order
  (``{"name": n, "destination": d}`` becomes the answer ``d``; any other object is returned whole);
- an outcome the trace chose as a failure is injected: the wrapped tool raises ``ToolFailure`` without
  running, which the Adapter treats as the tool's declared failure (charge kept);
- every other call runs the reference tool itself, so values such as a Sanitize projection are the
  tool's, not the model's.

The trace is ``Reproduced`` when every step gets the same answer as in the search (admitted, then
succeeded or failed as chosen), the query holds when re-evaluated on the Adapter's own states and the
tools' real results, and the world's sink (the mailbox, the deleted files) received exactly the
effects of the delivered sink calls. Otherwise it is ``Spurious``, with the first step that diverged
and why: the model over-approximated the tools (a value the tool never returns, an argument the tool
rejects) or an engine produced a trace the monitor does not admit.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from model.base.canonical import JSON, canonical_str, json_equal
from model.monitor.adapter.shell import Adapter, Failure, Handle, Refusal
from model.monitor.adapter.toolkit import DeleteWorld, ReportWorld, ToolFailure
from model.monitor.decide.state import Permit
from model.search.model import Query, SearchModel
from model.search.patterns import event_matches, premise_matches
from model.search.search_verdict import Trace
from model.search.space import to_call
from model.search.states import AgentCall, Approve, Extra, Lit, Ref, SearchState


@dataclass(frozen=True, slots=True)
class Reproduced:
    effects: tuple[str, ...]  # what reached the sinks, e.g. 'mail to mallory@evil.example: {...}'


@dataclass(frozen=True, slots=True)
class Spurious:
    step: int | None
    reason: str


ReplayResult = Reproduced | Spurious


def _inject(fn: Callable[..., JSON], plan: list[bool]) -> Callable[..., JSON]:
    def tool(**args: JSON) -> JSON:
        ok = plan.pop(0) if plan else True
        if not ok:
            raise ToolFailure("failure chosen by the trace")
        return fn(**args)
    return tool


def _world(model: SearchModel, trace: Trace) -> tuple[ReportWorld | DeleteWorld, dict[str, Callable[..., JSON]]]:
    plans: dict[str, list[bool]] = {}
    world: ReportWorld | DeleteWorld
    if model.toolkit == "report":
        world = ReportWorld()
        world.directory = {}
        for step in trace:
            act = step.action
            if not isinstance(act, AgentCall) or step.outcome is None:
                continue
            res = model.results_of(act.tool)[step.outcome]
            if act.tool == "Lookup" and res.ok:
                name = next((json.loads(s.value) for n, s in act.args if n == "name" and isinstance(s, Lit)), None)
                value = json.loads(res.value)
                answer = value["destination"] if isinstance(value, dict) and set(value) == {"name", "destination"} \
                    and value["name"] == name else value
                world.directory.setdefault(str(name), []).append(answer)
    else:
        world = DeleteWorld()
    for step in trace:
        if isinstance(step.action, AgentCall) and step.outcome is not None:
            plans.setdefault(step.action.tool, []).append(model.results_of(step.action.tool)[step.outcome].ok)
    tools = {name: _inject(fn, plans.get(name, [])) for name, fn in world.tools().items()}
    return world, tools


def replay(model: SearchModel, trace: Trace, query: Query) -> ReplayResult:
    if model.toolkit == "none":
        return Spurious(None, "the model names no reference toolkit to replay on")
    world, tools = _world(model, trace)
    adapter = Adapter(model.policy, tools, model.agent)
    handles: dict[int, Handle] = {}
    extras: list[Extra] = []
    qi = model.queries.index(query)
    expected: list[tuple[str, str]] = []
    for i, step in enumerate(trace):
        act = step.action
        if isinstance(act, Approve):
            permit = adapter.issue_permit(act.call.tool, None, **_args(act.call, handles))
            if not isinstance(permit, Permit):
                return Spurious(i, f"the approver could not issue the permit: {permit}")
            continue
        if not isinstance(act, AgentCall):
            adapter.satisfy(act.requirement)
            continue
        pre = SearchState(adapter.state, tuple(extras))
        call = to_call(model, pre, act)
        result = adapter.call(act.tool, **_args(act, handles))
        assert step.outcome is not None
        chosen = model.results_of(act.tool)[step.outcome]
        if isinstance(result, Refusal):
            return Spurious(i, f"the monitor refused {act.tool}: {result.verdict.reason} {result.verdict.detail}")
        if isinstance(result, Failure) == chosen.ok:
            return Spurious(i, f"{act.tool} {'failed' if chosen.ok else 'succeeded'} on the reference tools")
        rec = adapter.state.trace[-1]
        value = adapter.value(result) if isinstance(result, Handle) else None
        if isinstance(result, Handle):
            handles[result.id] = result
        matched = premise = frozenset[int]()
        if premise_matches(query.event, rec.tool, chosen.ok):
            premise = frozenset({qi})
            if event_matches(model, query.event, pre, call, _refs(act), rec.label):
                matched = frozenset({qi})
        extras.append(Extra(_refs(act), canonical_str(value) if chosen.ok else None, step.outcome, matched, premise))
        if chosen.ok:
            expected.append((act.tool, canonical_str(dict(call.args))))
    final = SearchState(adapter.state, tuple(extras))
    if final.count(qi) <= query.more_than:
        return Spurious(None, f"query {query.name} does not hold on the replayed run")
    return _sink_effects(world, expected)


def _refs(act: AgentCall) -> tuple[tuple[str, int, str], ...]:
    return tuple((n, s.record, s.path) for n, s in act.args if isinstance(s, Ref))


def _args(act: AgentCall, handles: dict[int, Handle]) -> dict[str, Handle | JSON]:
    out: dict[str, Handle | JSON] = {}
    for n, s in act.args:
        if isinstance(s, Lit):
            out[n] = json.loads(s.value)
        else:
            h = handles.get(s.record)
            if h is None:
                out[n] = None  # a handle the replay never obtained: the monitor will refuse the call
                continue
            out[n] = h.at(*s.path.split(".")) if s.path else h
    return out


def _sink_effects(world: ReportWorld | DeleteWorld, expected: list[tuple[str, str]]) -> ReplayResult:
    """The sinks must hold exactly what the delivered sink calls sent."""
    if isinstance(world, ReportWorld):
        got = sorted((to, canonical_str(body)) for to, bodies in world.mailbox.items() for body in bodies)
        want = sorted((str(a["recipient"]), canonical_str(a["body"]))
                      for t, text in expected if t == "Send" for a in [json.loads(text)])
        if got != want:
            return Spurious(None, f"the mailbox holds {got}, the trace delivered {want}")
        return Reproduced(tuple(f"mail to {to}: {body}" for to, body in got))
    want_deleted: list[str] = []
    for t, text in expected:
        args = json.loads(text)
        if t == "Delete":
            want_deleted.append(str(args["target"]))
        elif t == "DeleteBatch":
            want_deleted.extend(str(x) for x in args["targets"])
    if not json_equal(world.deleted, want_deleted):
        return Spurious(None, f"deleted {world.deleted}, the trace deleted {want_deleted}")
    return Reproduced(tuple(f"deleted {d}" for d in world.deleted))
