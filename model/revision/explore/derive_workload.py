"""A default workload for a revision when the user supplies none (``agentwarrant revise`` without
``--workload``): a small finite client model read off the two policies.

Choices (the source gives no client model; this one aims to reach every grant the lists name):
- Each resolver contributes its exact lookup call, succeeding at its result path with an address
  that other entries of the slot's action also accept where one exists (the first glob sample
  among them, e.g. ``acct-x`` for ``like "acct-*"``), else ``"<slot>@resolved.example"``.
- Each structured requirement contributes an application event satisfying it.
- Each tool contributes calls whose required arguments are: a ``{"$from": producer}`` handle when
  an origin rule constrains the argument; for the argument an effect reads its resource from,
  each constant and glob sample the entries of that action name, and each resolved address; for
  an argument a predicate reads, the predicate's constants and range bounds; otherwise ``"x"``.
  Resolved addresses come first among a resource argument's candidates, so the first
  ``PER_TOOL`` combinations (in product order) are calls the slot grants can admit; all succeed
  with ``{}``.
- No forbidden effects are inferred: the safety delta needs a declared workload.
"""

from __future__ import annotations

import itertools

from model.base.canonical import JSON, canonical_str
from model.monitor.language.policy import (
    ArgRes,
    ConstPat,
    Entry,
    EqPred,
    GlobPat,
    ListArgRes,
    OneOfPred,
    Policy,
    RangePred,
    SlotPat,
)
from model.revision.explore.workload import Workload, workload_from_json

PER_TOOL = 8


def _addresses(entries: tuple[Entry, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for e in entries:
        if isinstance(e.resource, SlotPat) and e.resource.slot not in out:
            samples = [_sample(x.resource.glob) for x in entries
                       if x.action == e.action and isinstance(x.resource, GlobPat)]
            out[e.resource.slot] = samples[0] if samples else f"{e.resource.slot}@resolved.example"
    return out


def _sample(glob: str) -> str:
    return glob.replace("*", "x").replace("?", "x")


def _nest(path: str, value: JSON) -> JSON:
    out: JSON = value
    for step in reversed(path.split(".")):
        out = {step: out}
    return out


def derive(old: Policy, new: Policy) -> Workload:
    entries = (*old.user, *old.application, *new.user, *new.application)
    address = _addresses(entries)
    calls: list[dict[str, JSON]] = []
    for r in old.resolvers:
        value = address.get(r.slot, f"{r.slot}@resolved.example")
        calls.append({"name": f"{r.tool} for @{r.slot}", "tool": r.tool, "args": dict(r.args),
                      "outcome": {"ok": True, "value": _nest(r.path, value)}})
    for req in sorted(old.requirements):
        calls.append({"name": f"satisfy {req}", "satisfy": req})
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
                            vals.append(_sample(e.resource.glob))
                        elif isinstance(e.resource, SlotPat):
                            vals.insert(0, address[e.resource.slot])
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
            # distinct as JSON values: Python's ``in`` takes ``true`` for ``1`` and would drop the call
            # that reaches a grant on ``true`` when one on ``1`` came first
            seen: set[str] = set()
            unique: list[JSON] = []
            for v in vals:
                text = canonical_str(v)
                if text not in seen:
                    seen.add(text)
                    unique.append(v)
            options.append(unique or ["x"])
        for combo in itertools.islice(itertools.product(*options), PER_TOOL):
            args = dict(zip(names, combo, strict=True))
            shown = ", ".join(f"{k}={canonical_str(v)}" for k, v in args.items() if not isinstance(v, dict))
            calls.append({"name": f"{tool.name}({shown})", "tool": tool.name, "args": args})
    agent = old.agents[0].name if old.agents else "agent"
    return workload_from_json({"agent": agent, "calls": calls})
