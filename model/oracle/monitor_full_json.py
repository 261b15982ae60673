"""Translation between the Python monitor and the oracle's whole-monitor judgment (``monitor``).

The oracle (lean/AgentWarrant/Spec/Monitor/Transition.lean) takes the policy in its JSON form
(``policy_to_json``), the state, the call and the declared outcome, and computes everything else:
preparation, matching, slots, readiness, origins, histories, the cascade, first-fit, permits, the
commit and the result processing. Only representation is translated here: the state's labels go
in numbered form (sensitivity rank, category vector over the policy's sorted categories), a
permit's literal identities as JSON values (the Python model keeps their canonical text).

Comparison modes (:func:`compare`): ``decision``; ``reason`` exactly (slot refinements included);
``waiting`` as a set; ``label``; ``allocation`` (positions on both lists); ``permit`` (the one
consumed); and the whole next state: ``trace`` (every record: agent, tool, operation, endpoints,
parents, arguments as JSON values, label, succeeded), ``bindings`` (slot, value as a JSON value,
lookup ID), ``invalid`` and ``satisfied`` as sets, ``counters``, ``permits`` (id, tool, consumed).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.monitor.decide.base import Decision, Verdict
from model.monitor.decide.commit import Outcome
from model.monitor.decide.state import Call, Permit, State
from model.monitor.language.policy import Policy
from model.monitor.language.policy_json import policy_to_json
from model.oracle.monitor_json import label_json


def _identity(p: Permit) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, (kind, val) in p.identity:
        if kind == "h":
            out.append({"name": name, "kind": "h", "id": val})
        elif kind == "p":
            d, path = str(val).split(":", 1)
            out.append({"name": name, "kind": "p", "id": int(d), "path": path})
        else:
            out.append({"name": name, "kind": "v", "value": json.loads(str(val))})
    return out


def state_json(policy: Policy, state: State) -> dict[str, Any]:
    lv, cats = policy.levels, sorted(policy.categories)
    return {
        "trace": [{"agent": r.agent, "tool": r.tool, "operation": r.operation, "source": r.source,
                   "destination": r.destination, "parents": list(r.parents), "args": r.args(),
                   "label": label_json(lv, cats, r.label), "succeeded": r.succeeded} for r in state.trace],
        "bindings": [{"slot": s, "value": v, "id": d} for s, v, d in state.bindings],
        "invalid": sorted(state.invalid), "used_user": list(state.used_user), "used_app": list(state.used_app),
        "satisfied": sorted(state.satisfied),
        "permits": [{"id": p.id, "tool": p.tool, "identity": _identity(p), "consumed": p.consumed}
                    for p in state.permits],
    }


def call_json(call: Call) -> dict[str, Any]:
    return {"agent": call.agent, "tool": call.tool, "args": dict(call.args), "refs": [list(r) for r in call.refs],
            "ref_paths": [list(r) for r in call.ref_paths]}


def monitor_input(policy: Policy, state: State, call: Call, outcome: Outcome) -> dict[str, Any]:
    return {"policy": policy_to_json(policy), "state": state_json(policy, state), "call": call_json(call),
            "outcome": {"ok": outcome.ok, "value": outcome.value}}


def encode(payload: Any) -> str:
    """The request's JSON text (ASCII, escapes decoded by lean/AgentWarrant/Oracle/Parse.lean)."""
    return json.dumps(payload, separators=(",", ":"), allow_nan=False)


def rest_text(policy: Policy, state: State, call: Call, outcome: Outcome) -> str:
    """``encode(monitor_input(policy, state, call, outcome))`` without its first member, the policy: the
    text the oracle's ``call_with_policy`` completes with the policy's text (``encode`` of its JSON form),
    which a run of the DRT encodes once."""
    return encode({"state": state_json(policy, state), "call": call_json(call),
                   "outcome": {"ok": outcome.ok, "value": outcome.value}})


def _canon(v: JSON) -> str:
    return canonical_str(v)


def _state_view(doc: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "trace": [{**r, "args": _canon(r["args"])} for r in doc["trace"]],
        "bindings": [[b["slot"], _canon(b["value"]), b["id"]] for b in doc["bindings"]],
        "invalid": sorted(set(doc["invalid"])), "satisfied": sorted(set(doc["satisfied"])),
        "counters": [list(doc["used_user"]), list(doc["used_app"])],
        "permits": [[p["id"], p["tool"], p["consumed"]] for p in doc["permits"]],
    }


def python_view(policy: Policy, verdict: Verdict, after: State) -> dict[str, Any]:
    lv, cats = policy.levels, sorted(policy.categories)
    allow = verdict.decision is Decision.ALLOW
    return {
        "decision": verdict.decision.value,
        "reason": verdict.reason.value if verdict.reason is not None else None,
        "waiting": sorted(verdict.waiting_for),
        "label": label_json(lv, cats, verdict.label) if allow and verdict.label is not None else None,
        "allocation": [list(verdict.user.positions) if allow and verdict.user is not None else None,
                       list(verdict.app.positions) if allow and verdict.app is not None else None],
        "permit": verdict.permit if allow else None,
        **_state_view(state_json(policy, after)),
    }


def lean_view(out: Mapping[str, Any]) -> dict[str, Any]:
    return {"decision": out["decision"], "reason": out["reason"], "waiting": sorted(set(out["waiting"])),
            "label": out["label"], "allocation": [out["user"], out["app"]], "permit": out["permit"],
            **_state_view(out["state"])}


MODES = ("decision", "reason", "waiting", "label", "allocation", "permit", "trace", "bindings", "invalid",
         "satisfied", "counters", "permits")


def compare(py: Mapping[str, Any], lean: Mapping[str, Any]) -> list[str]:
    return [m for m in MODES if py[m] != lean[m]]
