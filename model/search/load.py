"""Loading a search model (``corpus/search/*.json``, schema ``corpus/schemas/search_model.schema.json``).

Text in, frozen ``SearchModel`` out, once: the JSON is schema-checked, the policy file it names is
loaded (relative to the model file) with the monitor's own loader, and every name is resolved against
that policy. Anything without a meaning raises ``InvalidInput`` with the JSON path of the offending
value. Nothing downstream re-validates.

Reference rules (choices where the source is silent): the agent must be declared; every tool of the
policy must list at least one result (otherwise its calls could never finish and the model would
silently omit executions), and only declared tools may; query and approval tools must be declared
and their argument patterns may only name the tool's arguments; ``label_above`` must be a level;
``bound_to`` must name a resolver slot; ``produced_by`` must name a tool or an edge, and when it
names a tool its nested patterns may only name that tool's arguments; the reviewer may only satisfy
declared requirements; the ``report``/``delete`` toolkits must implement every tool of the policy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model.base.canonical import canonical_str, load_file
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.schemas import validate
from model.monitor.language.policy import Policy
from model.monitor.language.syntax import load_policy
from model.search.model import (
    Approval,
    ArgPattern,
    BoundTo,
    Equals,
    EventPattern,
    Not,
    OneOf,
    Produced,
    Query,
    QueryKind,
    SearchModel,
    ToolResult,
    TypeIs,
    When,
)

TOOLKIT_TOOLS = {"report": {"Read", "Other", "Sanitize", "Edit", "Lookup", "Send"},
                 "delete": {"Delete", "DeleteBatch"}}

Path_ = tuple[str | int, ...]


class _Ctx:
    def __init__(self, source: str, policy: Policy) -> None:
        self.source = source
        self.policy = policy

    def fail(self, path: Path_, expected: str, found: object) -> InvalidInput:
        return InvalidInput(Location(self.source, json_path=json_path(path)), expected, repr(found),
                            InputKind.REFERENCE)

    def tool_args(self, path: Path_, tool: str) -> frozenset[str]:
        decl = self.policy.tool(tool)
        if decl is None:
            raise self.fail(path, f"a tool of policy {self.policy.name}", tool)
        return decl.args

    def pattern(self, obj: dict[str, Any], path: Path_) -> ArgPattern:
        if "equals" in obj:
            return Equals(canonical_str(obj["equals"]))
        if "one_of" in obj:
            return OneOf(tuple(canonical_str(v) for v in obj["one_of"]))
        if "bound_to" in obj:
            if obj["bound_to"] not in {r.slot for r in self.policy.resolvers}:
                raise self.fail((*path, "bound_to"), "a slot some resolver fills", obj["bound_to"])
            return BoundTo(obj["bound_to"])
        if "type" in obj:
            return TypeIs(obj["type"])
        if "not" in obj:
            return Not(self.pattern(obj["not"], (*path, "not")))
        producer = obj["produced_by"]
        decl = self.policy.tool(producer)
        if decl is None and self.policy.edge(producer) is None:
            raise self.fail((*path, "produced_by"), "a tool or edge name", producer)
        allowed = decl.args if decl is not None else None
        return Produced(producer, self.args(obj.get("args", {}), (*path, "args"), allowed))

    def args(self, obj: dict[str, Any], path: Path_, allowed: frozenset[str] | None) -> tuple[tuple[str, ArgPattern],
                                                                                               ...]:
        out = []
        for name in sorted(obj):
            if allowed is not None and name not in allowed:
                raise self.fail((*path, name), f"one of the tool's arguments {sorted(allowed)}", name)
            out.append((name, self.pattern(obj[name], (*path, name))))
        return tuple(out)


def _query(ctx: _Ctx, obj: dict[str, Any], path: Path_) -> Query:
    ev = obj["event"]
    epath = (*path, "event")
    allowed = ctx.tool_args((*epath, "tool"), ev["tool"])
    above = ev.get("label_above")
    if above is not None and above not in ctx.policy.levels.order:
        raise ctx.fail((*epath, "label_above"), f"a level of {list(ctx.policy.levels.order)}", above)
    event = EventPattern(ev["tool"], When(ev.get("when", "delivered")), ctx.args(ev.get("args", {}),
                                                                               (*epath, "args"), allowed), above)
    return Query(obj["name"], QueryKind(obj["kind"]), event, int(obj.get("more_than", 0)), obj.get("description", ""))


def model_from_json(doc: object, source: str = "<model>", base: Path | None = None,
                    policy_path: str | None = None, policy: Policy | None = None) -> SearchModel:
    """``policy`` (already loaded) or ``policy_path`` replace the policy file the document names."""
    validate(doc, "search_model.schema.json", source=source)
    assert isinstance(doc, dict)
    if policy_path is not None and not policy_path.strip():  # '' is no file, not "the model's own policy"
        raise InvalidInput("--policy", "a policy file", "an empty name", InputKind.VALUE)
    ppath = policy_path if policy_path is not None else str((base or Path(".")) / doc["policy"])
    if policy is None:
        try:
            policy = load_policy(ppath)
        except InvalidInput as exc:
            if exc.kind is not InputKind.IO or policy_path is not None:
                raise
            raise InvalidInput(Location(source, json_path="$.policy"), "a readable policy file", ppath,
                               InputKind.IO) from None
    else:
        ppath = f"<{policy.name}>"
    ctx = _Ctx(source, policy)
    agent = doc["agent"]
    if policy.agent(agent["name"]) is None:
        raise ctx.fail(("agent", "name"), "an agent of the policy", agent["name"])
    results = doc["results"]
    for name in results:
        ctx.tool_args(("results", name), name)
    for tool in policy.tools:
        if tool.name not in results:
            raise InvalidInput(Location(source, json_path="$.results"), f"results for every tool (missing {tool.name})",
                               None, InputKind.REFERENCE)
    fields = agent.get("fields", {})
    for name in fields:
        ctx.tool_args(("agent", "fields", name), name)
    caps = agent.get("max_calls", {})
    for name in caps:
        ctx.tool_args(("agent", "max_calls", name), name)
    omits = agent.get("omits", {})
    for name, names in omits.items():
        ctx.tool_args(("agent", "omits", name), name)
        decl = policy.tool(name)
        assert decl is not None  # tool_args checked it
        for i, a in enumerate(names):
            if a not in decl.args - decl.required:
                raise ctx.fail(("agent", "omits", name, i), f"an optional argument of {name}", a)
    toolkit = doc.get("toolkit", "none")
    missing = sorted({t.name for t in policy.tools} - TOOLKIT_TOOLS.get(toolkit, set())) if toolkit != "none" else []
    if missing:
        raise ctx.fail(("toolkit",), f"a toolkit implementing every tool (it lacks {missing[0]})", toolkit)
    reviewer = doc.get("reviewer", {})
    for i, req in enumerate(reviewer.get("satisfy", [])):
        if req not in policy.requirements:
            raise ctx.fail(("reviewer", "satisfy", i), "a requirement the policy declares", req)
    approver = doc.get("approver", {})
    approvals = []
    for i, a in enumerate(approver.get("permits", [])):
        allowed = ctx.tool_args(("approver", "permits", i, "tool"), a["tool"])
        approvals.append(Approval(a["tool"], ctx.args(a.get("args", {}), ("approver", "permits", i, "args"), allowed)))
    queries = [_query(ctx, q, ("queries", i)) for i, q in enumerate(doc["queries"])]
    seen: set[str] = set()
    for i, q in enumerate(queries):
        if q.name in seen:
            raise ctx.fail(("queries", i, "name"), "a query name not used before", q.name)
        seen.add(q.name)
    return SearchModel(
        name=doc["name"], policy=policy, policy_path=ppath, toolkit=toolkit, agent=agent["name"],
        literals=tuple(canonical_str(v) for v in agent.get("literals", [])),
        fields=tuple((t, tuple(fields[t])) for t in sorted(fields)),
        max_calls=tuple((t, int(caps[t])) for t in sorted(caps)), copies=bool(agent.get("copies", False)),
        results=tuple((t.name, tuple(ToolResult(r["ok"], canonical_str(r.get("value")),
                                                ctx.args(r.get("when", {}), ("results", t.name, i, "when"), t.args))
                                     for i, r in enumerate(results[t.name]))) for t in policy.tools),
        satisfy=tuple(reviewer.get("satisfy", [])), approvals=tuple(approvals),
        max_permits=int(approver.get("max_permits", 1 if approvals else 0)), queries=tuple(queries),
        omits=tuple((t, tuple(sorted(omits[t]))) for t in sorted(omits) if omits[t]),
        bound=int(doc.get("bound", 4)),
    )


def load_model(path: str | Path, policy_path: str | None = None) -> SearchModel:
    """Read a model file; ``policy_path`` replaces the policy it names (to run one model under variants)."""
    name = str(path)
    return model_from_json(load_file(name), name, Path(name).parent, policy_path)
