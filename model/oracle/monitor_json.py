"""Translation between the Python monitor and the oracle's closed core (ledger_allocate, monitor_step).

The oracle (lean/AgentWarrant/Oracle/Monitor.lean) takes, per call, facts the Python model computes with its
own matching code and decides the rest itself (see the module docstring of Step.lean):

- facts from Python: the preparation verdict (``decide.prepare``: tool, arguments, handles,
  resources), agent known / operation permitted / endpoints declared, for every list entry and
  every effect whether it matches (``entry_matches``) and whether it is ready, and the origin and
  history verdicts;
- computed by Lean: the input label (join of the parents' labels, else the source node's), the
  edge propagation, the ceiling, the flow rules, the cascade order, first-fit on both lists, and
  the Allow update of the counters and the trace labels.

Labels are numbered: the sensitivity is its rank, categories a characteristic vector over the
policy's sorted categories. Closed core only: no exact-call permits (callers strip them).

Comparison modes (:func:`compare_step`): ``decision``; ``reason`` with SLOT_UNBOUND and
SLOT_INVALID read as NO_MATCHING_ALLOW (a diagnostic refinement the base decision does not
make); ``waiting`` as a set; ``label``; ``allocation`` (positions on both lists); ``counters``;
``trace`` (labels of the records). For ledger_allocate: both single-list results (positions
and charge vectors, or failure) and the all-or-nothing verdict, exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from model.base.canonical import JSON
from model.monitor.decide.base import Decision, DenyReason, Verdict, prepare
from model.monitor.decide.flow import history_violations
from model.monitor.decide.ledger import Allocation, allocate
from model.monitor.decide.matching import Effect, entry_matches, ready
from model.monitor.decide.origins import violated_origins
from model.monitor.decide.state import Call, State, proposed_record
from model.monitor.language.labels import Inherit, Label, Levels, Propagation
from model.monitor.language.policy import Entry, EntryKind, FlowEffect, LabelGuard, Policy

SLOT_REASONS = {DenyReason.SLOT_UNBOUND.value: DenyReason.NO_MATCHING_ALLOW.value,
                DenyReason.SLOT_INVALID.value: DenyReason.NO_MATCHING_ALLOW.value}


def _vec(cats: frozenset[str], universe: Sequence[str]) -> list[bool]:
    return [c in cats for c in universe]


def label_json(levels: Levels, universe: Sequence[str], lab: Label) -> dict[str, Any]:
    return {"sens": levels.rank(lab.sensitivity), "cats": _vec(lab.categories, universe), "trusted": lab.trusted}


def entry_json(entry: Entry, used: int, effects: Sequence[Effect], args: Mapping[str, JSON],
               state: State) -> dict[str, Any]:
    return {"allow": entry.kind is EntryKind.ALLOW, "ready": ready(entry, state),
            "hits": [entry_matches(entry, eff, args, state) for eff in effects],
            "quota": entry.quota, "used": used, "requires": entry.requires}


def ledger_input(user: Sequence[Entry], used_user: Sequence[int], app: Sequence[Entry], used_app: Sequence[int],
                 effects: Sequence[Effect], args: Mapping[str, JSON], state: State) -> dict[str, Any]:
    return {"user": [entry_json(e, u, effects, args, state) for e, u in zip(user, used_user, strict=True)],
            "app": [entry_json(e, u, effects, args, state) for e, u in zip(app, used_app, strict=True)],
            "effects": len(effects)}


def _alloc_json(a: Allocation | None) -> Any:
    return None if a is None else {"positions": list(a.positions), "charge": list(a.charge)}


def python_ledger(user: Sequence[Entry], used_user: Sequence[int], app: Sequence[Entry], used_app: Sequence[int],
                  effects: Sequence[Effect], args: Mapping[str, JSON], state: State) -> dict[str, Any]:
    u = allocate(user, used_user, effects, args, state)
    a = allocate(app, used_app, effects, args, state)
    return {"user": _alloc_json(u), "app": _alloc_json(a), "both": u is not None and a is not None}


def compare_ledger(py: Mapping[str, Any], lean: Mapping[str, Any]) -> list[str]:
    return [k for k in ("user", "app", "both") if py[k] != lean[k]]


def _transform(levels: Levels, universe: Sequence[str], prop: Propagation) -> Any:
    if isinstance(prop, Inherit):
        return None
    return {"remove": _vec(prop.remove, universe), "decrement": prop.decrement,
            "set_sens": None if prop.set_sensitivity is None else levels.rank(prop.set_sensitivity),
            "set_trusted": prop.set_trusted}


def _guard(levels: Levels, universe: Sequence[str], g: LabelGuard) -> dict[str, Any]:
    def rank(x: str | None) -> int | None:
        return None if x is None else levels.rank(x)

    return {"max_sens": rank(g.max_sensitivity), "min_sens": rank(g.min_sensitivity),
            "any_cat": _vec(g.any_category, universe), "no_cat": _vec(g.no_category, universe),
            "trusted": g.trusted}


def step_input(policy: Policy, state: State, call: Call) -> dict[str, Any]:
    """The oracle's monitor_step input for one call (closed core: the policy carries no permits)."""
    lv, cats = policy.levels, sorted(policy.categories)
    bottom = label_json(lv, cats, lv.bottom())
    prep = prepare(policy, state, call)
    tool = policy.tool(call.tool)
    base: dict[str, Any] = {
        "prep": None, "trace": [label_json(lv, cats, r.label) for r in state.trace], "parents": list(call.parents()),
        "source_label": bottom, "propagation": None, "agent_known": False, "operation_permitted": False,
        "endpoint_ok": False, "ceiling": 0, "effects": 0, "user": [], "app": [], "origin_ok": True,
        "operation": "", "destination": "", "flows": [], "history_ok": True}
    if isinstance(prep, Verdict) or tool is None:
        base["prep"] = prep.reason.value if isinstance(prep, Verdict) and prep.reason is not None else "unknown_tool"
        # the counters still travel: the state update must leave them unchanged
        base["user"] = [entry_json(e, u, (), call.args, state)
                        for e, u in zip(policy.user, state.used_user, strict=True)]
        base["app"] = [entry_json(e, u, (), call.args, state)
                       for e, u in zip(policy.application, state.used_app, strict=True)]
        return base
    node = policy.node(tool.source)
    edge = policy.edge(tool.operation)
    agent = policy.agent(call.agent)
    effects = prep.effects
    hist = True
    if policy.histories:
        hist = not history_violations(policy, state, proposed_record(state, call, tool, prep.label_out))
    base.update({
        "source_label": label_json(lv, cats, node.label) if node is not None else bottom,
        "propagation": _transform(lv, cats, edge.propagation) if edge is not None else None,
        "agent_known": agent is not None,
        "operation_permitted": agent is not None and tool.operation in agent.operations,
        "endpoint_ok": edge is not None and (tool.source, tool.destination) in edge.endpoints,
        "ceiling": lv.rank(agent.ceiling) if agent is not None else 0,
        "effects": len(effects),
        "user": [entry_json(e, u, effects, call.args, state)
                 for e, u in zip(policy.user, state.used_user, strict=True)],
        "app": [entry_json(e, u, effects, call.args, state)
                for e, u in zip(policy.application, state.used_app, strict=True)],
        "origin_ok": not violated_origins(policy, state, call, tool.operation),
        "operation": tool.operation, "destination": tool.destination,
        "flows": [{"deny": f.effect is FlowEffect.DENY, "operation": f.operation, "destination": f.destination,
                   "guard": _guard(lv, cats, f.guard)} for f in policy.flows],
        "history_ok": hist,
    })
    return base


def python_step_view(policy: Policy, verdict: Verdict, after: State) -> dict[str, Any]:
    lv, cats = policy.levels, sorted(policy.categories)
    allow = verdict.decision is Decision.ALLOW
    reason = verdict.reason.value if verdict.reason is not None else None
    return {
        "decision": verdict.decision.value,
        "reason": SLOT_REASONS.get(reason, reason) if reason is not None else None,
        "waiting": sorted(verdict.waiting_for),
        "label": label_json(lv, cats, verdict.label) if allow and verdict.label is not None else None,
        "user": list(verdict.user.positions) if allow and verdict.user is not None else None,
        "app": list(verdict.app.positions) if allow and verdict.app is not None else None,
        "used_user": list(after.used_user), "used_app": list(after.used_app),
        "trace": [label_json(lv, cats, r.label) for r in after.trace],
    }


def lean_step_view(out: Mapping[str, Any]) -> dict[str, Any]:
    view = dict(out)
    view["waiting"] = sorted(set(out["waiting"]))
    return view


STEP_MODES = {"decision": ("decision",), "reason": ("reason",), "waiting": ("waiting",), "label": ("label",),
              "allocation": ("user", "app"), "counters": ("used_user", "used_app"), "trace": ("trace",)}


def compare_step(py: Mapping[str, Any], lean: Mapping[str, Any]) -> list[str]:
    return [mode for mode, keys in STEP_MODES.items() if any(py[k] != lean[k] for k in keys)]
