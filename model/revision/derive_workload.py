"""A default workload for a revision when the user supplies none (``agentwarrant revise`` without
``--workload``): a small finite client model read off the two policies.

Choices (the source gives no client model; this one aims to reach every grant the lists name):
- Each resolver contributes its exact lookup call, succeeding with the address
  ``"<slot>@resolved.example"`` at its result path, so slot grants can be reached.
- Each tool contributes calls whose required arguments are: a ``{"$from": producer}`` handle when
  an origin rule constrains the argument; for the argument an effect reads its resource from,
  each constant and glob sample the entries of that action name, and each resolved address; for
  an argument a predicate reads, the predicate's constants and range bounds; otherwise ``"x"``.
  At most ``PER_TOOL`` calls per tool, all succeeding with ``{}``.
- No forbidden effects are inferred: the safety delta needs a declared workload.
"""

from __future__ import annotations

import itertools

from model.canonical import JSON
from model.monitor.policy import (
    ArgRes,
    ConstPat,
    EqPred,
    GlobPat,
    ListArgRes,
    OneOfPred,
    Policy,
    RangePred,
    SlotPat,
)
from model.revision.workload import Workload, workload_from_json

PER_TOOL = 4


def _address(slot: str) -> str:
    return f"{slot}@resolved.example"


def _nest(path: str, value: JSON) -> JSON:
    out: JSON = value
    for step in reversed(path.split(".")):
        out = {step: out}
    return out


def derive(old: Policy, new: Policy) -> Workload:
    entries = (*old.user, *old.application, *new.user, *new.application)
    calls: list[dict[str, JSON]] = []
    for r in old.resolvers:
        calls.append({"name": f"{r.tool} for @{r.slot}", "tool": r.tool, "args": dict(r.args),
                      "outcome": {"ok": True, "value": _nest(r.path, _address(r.slot))}})
    for tool in old.tools:
        options: list[list[JSON]] = []
        names = sorted(tool.required)
        for arg in names:
            origin = next((o for o in old.origins if o.via == tool.name and o.argument == arg), None)
            if origin is not None:
                options.append([{"$from": origin.producer}])
                continue
            vals: list[JSON] = []
            for d in tool.effects:
                if isinstance(d.resource, ArgRes | ListArgRes) and d.resource.arg == arg:
                    for e in entries:
                        if e.action != d.action:
                            continue
                        if isinstance(e.resource, ConstPat) and e.resource.value is not None:
                            vals.append(e.resource.value)
                        elif isinstance(e.resource, GlobPat):
                            vals.append(e.resource.glob.replace("*", "x").replace("?", "x"))
                        elif isinstance(e.resource, SlotPat):
                            vals.append(_address(e.resource.slot))
                    if isinstance(d.resource, ListArgRes):
                        vals = [[v] for v in vals]
            for e in entries:
                for p in e.where:
                    if p.path[0] != arg or len(p.path) != 1:
                        continue
                    if isinstance(p, EqPred):
                        vals.append(p.value)
                    elif isinstance(p, OneOfPred):
                        vals += list(p.values)
                    elif isinstance(p, RangePred):
                        vals += [b for b in (p.low, p.high) if b is not None]
            unique: list[JSON] = []
            for v in vals:
                if v not in unique:
                    unique.append(v)
            options.append(unique or ["x"])
        for combo in itertools.islice(itertools.product(*options), PER_TOOL):
            args = dict(zip(names, combo, strict=True))
            shown = ", ".join(f"{k}={v!r}" for k, v in args.items() if not isinstance(v, dict))
            calls.append({"name": f"{tool.name}({shown})", "tool": tool.name, "args": args})
    agent = old.agents[0].name if old.agents else "agent"
    return workload_from_json({"agent": agent, "calls": calls})
