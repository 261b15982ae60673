"""The whole-monitor differential test: one generated run, every step compared (Agenra Sections 4–6).

A run is a policy with exact-call permits, the satisfied requirements, and steps
``(call, outcome, permits)``: the application issues the listed exact-call permits, then the call
is decided by both sides from the same state and, on Allow, committed and its outcome processed.
Every step compares the decision, the reason, the waiting set and the whole next state
(model/oracle/monitor_full_json.py); the first mismatch ends the run (later steps would start from
states the two sides no longer share).

Coverage: each agreeing step is tagged with what it exercised (:func:`coverage`): its decision and
reason, and the rule kinds the step actually reached, so a summary shows how many steps hit each.
"""

from __future__ import annotations

from typing import Any

from model.monitor.decide.base import Decision, Verdict
from model.monitor.decide.commit import Outcome, step
from model.monitor.decide.flow import FLOW_APPROVAL, audiences_of, extension_flow, uses_extensions
from model.monitor.decide.state import Call, State, initial_state, issue_permit
from model.monitor.language.policy import ConstPat, FlowEffect, GlobPat, ListArgRes, Policy, SlotPat
from model.monitor.language.policy_json import policy_from_json, policy_to_json
from model.oracle import monitor_full_json as W
from model.oracle.inproc import Oracle
from model.oracle.lean import shaped
from model.oracle.results import Agree, CaseResult, Mismatch, jsonable

PREP = frozenset({"unknown_tool", "undeclared_argument", "missing_argument", "unknown_handle", "malformed_resource"})


def _call_doc(c: Call) -> dict[str, Any]:
    return {"agent": c.agent, "tool": c.tool, "args": dict(c.args), "refs": [list(r) for r in c.refs],
            "ref_paths": [list(r) for r in c.ref_paths]}


def _call_from(doc: Any) -> Call:
    return Call(doc["agent"], doc["tool"], doc["args"], tuple((n, d) for n, d in doc["refs"]),
                tuple((n, p) for n, p in doc.get("ref_paths", [])))


def python_input(run: tuple[Any, ...], step_index: int) -> Any:
    policy, satisfied, steps = run
    return jsonable({"policy": policy_to_json(policy), "satisfied": sorted(satisfied), "step": step_index,
                      "steps": [{"call": _call_doc(c), "outcome": {"ok": o.ok, "value": o.value},
                                 "permits": [{**_call_doc(t), "review": bool(rest)} for _, t, *rest in permits]}
                                for c, o, permits in steps]})


def run_from(doc: Any) -> tuple[Any, ...]:
    policy = policy_from_json(doc["policy"], "vector")
    steps = [(_call_from(s["call"]), Outcome(s["outcome"]["ok"], s["outcome"]["value"]),
              tuple((t["tool"], _call_from(t), *(("review",) if t.get("review") else ())) for t in s["permits"]))
             for s in doc["steps"]]
    return policy, frozenset(doc["satisfied"]), steps


def issue_permits(state: State, permits: tuple[tuple[Any, ...], ...]) -> State:
    """The application issues a step's permits: ``(tool, call)`` an exact-call permit on the call's identity,
    ``(tool, call, "review")`` a reviewer's approval of the values shown (its review identity)."""
    for tool, target, *review in permits:
        state, _ = issue_permit(state, tool, target.review_identity() if review else target.identity())
    return state


def coverage(policy: Policy, before: State, call: Call, verdict: Verdict, after: State) -> list[str]:
    """The decision (with its reason) and each rule kind this step reached."""
    reason = verdict.reason.value if verdict.reason is not None else None
    tags = [f"{verdict.decision.value}:{reason}" if reason else verdict.decision.value]
    tool = policy.tool(call.tool)
    if tool is None or reason in PREP:
        return tags
    entries = (*policy.user, *policy.application)
    actions = {d.action for d in tool.effects}
    kinds = {type(e.resource) for e in entries if e.action in actions}
    tags += [f"pattern:{name}" for cls, name in ((ConstPat, "const"), (SlotPat, "slot"), (GlobPat, "glob"))
             if cls in kinds]
    if any(e.where for e in entries if e.action in actions):
        tags.append("predicates")
    if any(e.keys is not None for e in entries if e.action in actions):
        tags.append("keys")
    if any(isinstance(d.resource, ListArgRes) for d in tool.effects):
        tags.append("list-argument")
    if reason in (None, "origin", "flow", "history", "quota") or reason.startswith("permit"):
        if any(o.via in (tool.name, tool.operation) for o in policy.origins):
            tags.append("origin-rule")
        if any(o.via in (tool.name, tool.operation) and o.preserving for o in policy.origins):
            tags.append("origin-preserving")
        if any(h.before in (tool.name, tool.operation) for h in policy.histories):
            tags.append(f"history:{'+'.join(sorted({h.scope.value for h in policy.histories}))}")
    if verdict.decision is Decision.PAUSE:
        tags.append("pause")
    if reason in (None, "flow") or (reason or "").startswith("permit"):  # the extensions beyond Agenra
        if any(f.argument is not None and f.destination == tool.name for f in policy.flows):
            tags.append("request-sink")
        if verdict.effects and audiences_of(policy, before, verdict.effects):
            tags.append("audience")
        if FLOW_APPROVAL in verdict.waiting_for:
            tags.append("flow-pause")
        if verdict.decision is Decision.ALLOW and verdict.label is not None and uses_extensions(policy) and \
                extension_flow(policy, before, call, tool, verdict.effects, verdict.label)[0] is FlowEffect.PAUSE:
            tags.append("flow-approved")
    if verdict.permit is not None or (reason or "").startswith("permit"):
        tags.append("permit")
    if len(after.bindings) > len(before.bindings):
        tags.append("slot-bound")
    if after.invalid != before.invalid:
        tags.append("slot-invalidated")
    if verdict.decision is Decision.ALLOW and after.trace and after.trace[-1].succeeded:
        tags.append("result-ok")
    return tags


def run_whole(oracle: Oracle, run: tuple[Any, ...]) -> list[CaseResult]:
    policy, satisfied, steps = run
    state = initial_state(len(policy.user), len(policy.application), satisfied)
    out: list[CaseResult] = []
    # the policy's part of every step's request, encoded (and, in-process, read by Lean) once per run:
    # each request is the text W.encode(W.monitor_input(...)), which a mismatch records
    shared = oracle.bind_policy(W.encode(policy_to_json(policy)))
    for k, (call, outcome, permits) in enumerate(steps):
        state = issue_permits(state, permits)
        rest = W.rest_text(policy, state, call, outcome)
        verdict, after = step(policy, state, call, outcome)
        py = W.python_view(policy, verdict, after)
        raw = oracle.call_with_policy("monitor", shared, rest)
        lean = shaped("monitor", raw, W.lean_view)
        bad = W.compare(py, lean)
        if bad:
            # the recorded answer is the oracle's raw output, so a vector replays without Lean
            payload = W.monitor_input(policy, state, call, outcome)
            out.append(Mismatch("monitor", tuple(bad), python_input(run, k), payload, py, raw))
            break
        tags = coverage(policy, state, call, verdict, after)
        out.append(Agree(tags[0], tuple(tags[1:])))
        state = after
    return out
