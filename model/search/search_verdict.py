"""Search verdicts: ``Found(trace) | Exhausted(bound, states) | Vacuous`` (DESIGN.md; the paper's Section 8,
missing from our copy, names forbidden executions and useful completions; the three values are ours).

- ``Found(trace)``: a trace of at most the bound whose events satisfy the query; for a forbidden
  query an attack, for a goal a useful completion. Engines return a shortest one.
- ``Exhausted(bound, states)``: every execution up to the bound was covered and none satisfies the
  query, while some reachable execution satisfies its premise. ``states`` is the number of canonical
  states the explicit engine visited; the SMT engine covers them symbolically and reports ``None``.
- ``Vacuous(bound)``: not even the premise (enough admitted or delivered calls of the sink tool) is
  reachable up to the bound, so "no forbidden execution" would say nothing.
- ``Unsupported(reason)`` is not a verdict: an engine answers it for a model or query outside its
  fragment, and nothing may count it as passing.

A trace step is an action with its outcome; record IDs in a trace are the positions of admitted
calls in *that* execution (the numbering the Adapter's handles follow on replay).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from model.base.budget import Unknown
from model.base.canonical import JSON
from model.search.model import SearchModel
from model.search.states import Action, AgentCall, Approve, Lit, Ref, Satisfy


@dataclass(frozen=True, slots=True)
class Step:
    action: Action
    outcome: int | None = None  # index into the tool's listed results; None for reviewer/approver actions


Trace = tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Found:
    trace: Trace

    @property
    def length(self) -> int:
        return len(self.trace)


@dataclass(frozen=True, slots=True)
class Exhausted:
    bound: int
    states: int | None


@dataclass(frozen=True, slots=True)
class Vacuous:
    bound: int


SearchVerdict = Found | Exhausted | Vacuous


@dataclass(frozen=True, slots=True)
class Unsupported:
    reason: str


#: what an engine answers: a verdict, ``Unknown`` when its budget ran out (model.base.budget), or Unsupported
Answer = SearchVerdict | Unknown | Unsupported


def verdict_name(answer: Answer) -> str:
    return {Found: "found", Exhausted: "exhausted", Vacuous: "vacuous", Unsupported: "unsupported",
            Unknown: "unknown"}[type(answer)]


def _source(src: Lit | Ref) -> str:
    if isinstance(src, Lit):
        return src.value
    return f"#{src.record}" + (f".{src.path}" if src.path else "")


def _call_text(call: AgentCall) -> str:
    return f"{call.tool}({', '.join(f'{n}={_source(s)}' for n, s in call.args)})"


def describe_step(model: SearchModel, step: Step, record: int | None) -> str:
    """One line: ``#2 Sanitize(record=#0) -> ok {...}``; reviewer/approver actions are marked as such."""
    act = step.action
    if isinstance(act, Satisfy):
        return f"reviewer: {act.requirement} satisfied"
    if isinstance(act, Approve):
        return f"approver: permit for {_call_text(act.call)}"
    assert step.outcome is not None
    res = model.results_of(act.tool)[step.outcome]
    value = res.value if len(res.value) <= 48 else res.value[:45] + "..."
    out = f"ok {value}" if res.ok else "fails"
    return f"#{record} {_call_text(act)} -> {out}"


def describe(model: SearchModel, trace: Trace) -> tuple[str, ...]:
    lines, n = [], 0
    for step in trace:
        lines.append(describe_step(model, step, n))
        if isinstance(step.action, AgentCall):
            n += 1
    return tuple(lines)


def _source_json(src: Lit | Ref) -> JSON:
    if isinstance(src, Lit):
        return {"literal": json.loads(src.value)}
    return {"handle": src.record, "path": src.path} if src.path else {"handle": src.record}


def _action_json(act: Action) -> JSON:
    if isinstance(act, Satisfy):
        return {"satisfy": act.requirement}
    if isinstance(act, Approve):
        return {"permit": _action_json(act.call)}
    return {"call": act.tool, "args": {n: _source_json(s) for n, s in act.args}}


def trace_json(model: SearchModel, trace: Trace) -> list[JSON]:
    out: list[JSON] = []
    for step in trace:
        item = _action_json(step.action)
        assert isinstance(item, dict)
        if step.outcome is not None and isinstance(step.action, AgentCall):
            res = model.results_of(step.action.tool)[step.outcome]
            item["outcome"] = {"ok": True, "value": json.loads(res.value)} if res.ok else {"ok": False}
        out.append(item)
    return out


def answer_json(model: SearchModel, answer: Answer) -> dict[str, JSON]:
    out: dict[str, JSON] = {"verdict": verdict_name(answer)}
    if isinstance(answer, Found):
        out["length"] = answer.length
        out["trace"] = trace_json(model, answer.trace)
    elif isinstance(answer, Exhausted):
        out["bound"], out["states"] = answer.bound, answer.states
    elif isinstance(answer, Vacuous):
        out["bound"] = answer.bound
    elif isinstance(answer, Unknown):
        out.update(answer.to_json())
    else:
        out["reason"] = answer.reason
    return out
