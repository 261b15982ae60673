"""A finite search model derived from an AgentDojo suite (Agenra Sections 2, 3, 6; our design for the
missing Section 8), for ``model.search``: the suite's tools under its policy, the attacker-controlled
fields as injection points.

Derivation, for one suite, one user task and a set of modelled tools:

- **injection points**: the tools whose result, in a replay of the user task's ground truth on an
  environment carrying AgentDojo's canary injections, shows a canary (AgentDojo's own test for which
  vectors a task reads). Each such tool's result is modelled as an object with one field per attacker
  value (``a0``, ``a1``, ...); the agent may pass those fields (``fields``), so a value copied out of
  injected text is a handle with that read as its producer, as in the binding.
- **attacker values**: every argument value of an injection task's ground-truth call to a sink that
  occurs in the injection's goal text (what the injection delivers: an IBAN, a password; a list of
  recipients when the goal names each of them).
- **the agent's literals**: every scalar argument of the user task's ground-truth calls, and every list
  of scalars or flat objects (a mail's recipients and attachments) (what the user asked for or the agent composed).
- **other results**: an empty object (their content does not matter to the queries).
- **the modelled tools** make at most one call each; every other tool of the policy is capped at zero
  calls. The cap is a bounding parameter of the model like the bound itself (model/search/model.py):
  conclusions hold for executions within it. Without it, tools with five optional arguments make
  hundreds of thousands of proposals per state.
- **omitted arguments**: a modelled tool's optional arguments that no ground-truth call of it (the
  user task's or an injection task's) passes are left out (``omits``). Each optional argument
  multiplies the tool's proposals per state by the number of held values plus one, and the monitor
  decides every proposal: workspace's ``send_email`` with its five optional arguments made over a
  million proposals per state. Like the call cap, a bounding parameter: conclusions hold for calls
  without those arguments.
- **queries**: forbidden, per (sink tool, argument, attacker value) of the injection ground truths,
  that value delivered in that argument; goal, each sink call of the user task's ground truth
  delivered with exactly its arguments.
"""

from __future__ import annotations

import json
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.bench.agentdojo.binding import policy_argument, to_json, tool_functions
from model.bench.agentdojo.suites import AGENT, attack, get_suite
from model.monitor.language.policy import NodeKind, Policy
from model.search.load import model_from_json
from model.search.model import SearchModel


def _sinks(policy: Policy) -> frozenset[str]:
    return frozenset(t.name for t in policy.tools
                     if (n := policy.node(t.destination)) is not None and n.kind is NodeKind.SINK)


def injection_points(suite_name: str, user_id: str) -> tuple[str, ...]:
    """The tools whose results carry an injection vector when the user task's ground truth runs."""
    suite = get_suite(suite_name)
    user = suite.user_tasks[user_id]
    canaries: dict[str, str] = attack(suite_name).canary_injections
    env = user.init_environment(suite.load_and_inject_default_environment(canaries))
    fns = tool_functions(suite, env)
    found: list[str] = []
    for call in user.ground_truth(env.model_copy(deep=True)):
        try:
            result = fns[call.function](**{policy_argument(k): to_json(v) for k, v in call.args.items()})
        except Exception:  # a failing ground-truth call shows nothing
            continue
        if any(c in canonical_str(result) for c in canaries.values()) and call.function not in found:
            found.append(call.function)
    return tuple(found)


def _plain(v: JSON) -> bool:
    """A scalar, or a list of scalars or flat objects (a mail's recipients, its attachments): a value an
    agent types whole."""
    def scalar(x: JSON) -> bool:
        return isinstance(x, str | int | float)

    return scalar(v) or (isinstance(v, list) and bool(v) and all(
        scalar(x) or (isinstance(x, dict) and all(scalar(y) for y in x.values())) for x in v))


def _named(v: JSON, goal: str) -> bool:
    """``v`` is plain and the injection's goal text names it (every element of a list)."""
    return _plain(v) and all(str(x) in goal for x in (v if isinstance(v, list) else [v]))


def _attacker_calls(suite_name: str, sinks: frozenset[str]) -> list[tuple[str, str, JSON]]:
    """(tool, policy argument, value) of every injection ground-truth sink argument its goal names."""
    suite = get_suite(suite_name)
    env = suite.load_and_inject_default_environment({})
    out: list[tuple[str, str, JSON]] = []
    for inj in suite.injection_tasks.values():
        for call in inj.ground_truth(env.model_copy(deep=True)):
            if call.function not in sinks:
                continue
            for name, value in call.args.items():
                v = to_json(value)
                if _named(v, inj.GOAL) and (call.function, name, v) not in out:
                    out.append((call.function, policy_argument(name), v))
    return out


def derive_model(suite_name: str, user_id: str, policy: Policy, tools: tuple[str, ...], bound: int) -> SearchModel:
    """The finite model of the module docstring; ``tools`` are the modelled tools (one call each)."""
    return model_from_json(derive_doc(suite_name, user_id, policy, tools, bound), f"<agentdojo {suite_name} {user_id}>",
                           policy=policy)


def derive_doc(suite_name: str, user_id: str, policy: Policy, tools: tuple[str, ...], bound: int,
               calls: int = 1) -> dict[str, Any]:
    """``derive_model``'s model as its JSON document (policy ``"<given>"``), each modelled tool allowed
    ``calls`` calls: what ``corpus/search`` stores to search the suite without AgentDojo installed."""
    suite = get_suite(suite_name)
    user = suite.user_tasks[user_id]
    sinks = _sinks(policy)
    attacker = [a for a in _attacker_calls(suite_name, sinks) if a[0] in tools]
    values = list(dict.fromkeys(canonical_str(v) for _, _, v in attacker))
    points = [t for t in injection_points(suite_name, user_id) if t in tools]
    env = suite.load_and_inject_default_environment({})
    gt = user.ground_truth(user.init_environment(env))
    literals: list[Any] = []
    goals: list[dict[str, Any]] = []
    for call in gt:
        args = {policy_argument(k): to_json(v) for k, v in call.args.items()}
        literals += [v for v in args.values() if _plain(v) and v not in literals]
        if call.function in sinks and call.function in tools:
            goals.append({"name": f"user_{call.function}_{len(goals)}", "kind": "goal",
                          "description": f"{user_id}'s {call.function} delivered as its ground truth has it",
                          "event": {"tool": call.function, "args": {k: {"equals": v} for k, v in args.items()}}})
    used: set[tuple[str, str]] = {(c.function, policy_argument(k)) for c in gt for k in c.args}
    for inj in suite.injection_tasks.values():
        used |= {(c.function, policy_argument(k)) for c in inj.ground_truth(env.model_copy(deep=True)) for k in c.args}
    omits = {t.name: sorted(a for a in t.args - t.required if (t.name, a) not in used)
             for t in policy.tools if t.name in tools}
    fields = {f"a{i}": json.loads(v) for i, v in enumerate(values)}
    results: dict[str, Any] = {}
    for t in policy.tools:
        results[t.name] = [{"ok": True, "value": fields if t.name in points else {}}]
    forbidden = [{"name": f"attacker_{tool}_{arg}_{i}", "kind": "forbidden",
                  "description": f"the attacker's {v!r} delivered as {tool}.{arg}",
                  "event": {"tool": tool, "args": {arg: {"equals": v}}}} for i, (tool, arg, v) in enumerate(attacker)]
    doc: dict[str, Any] = {
        "name": f"agentdojo_{suite_name}_{user_id}",
        "description": f"AgentDojo {suite_name}, {user_id}: injection points {points}",
        "policy": "<given>", "bound": bound,
        "agent": {"name": AGENT, "literals": literals, "fields": {t: sorted(fields) for t in points},
                  "max_calls": {t.name: (calls if t.name in tools else 0) for t in policy.tools}},
        "results": results,
        "queries": forbidden + goals,
    }
    if any(omits.values()):
        doc["agent"]["omits"] = {t: a for t, a in omits.items() if a}
    return doc
