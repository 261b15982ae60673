"""The canonical text form of a ``Policy``: ``parse_policy(print_policy(p)) == p`` for every valid ``p``.

Canonical choices (the grammar is documented in ``model.monitor.language.syntax``):
- Declarations print in one fixed order: policy, levels, categories, requirements, nodes, edges,
  agents, tools, resolvers, origins, flows, audiences, histories, user, application. Within a kind the
  policy's tuple order is kept; frozensets print sorted; resolver arguments print by name.
- Optional parts print only when they differ from their default: a tool's ``operation`` (when
  it is not the tool's name), ``args``, ``required``, ``authoritative``; an entry's ``keys``
  (``keys {}`` is an empty allowlist, distinct from no allowlist), ``where``, ``requires``,
  ``permit``. An allow entry always prints its quota; a deny entry never does.
- Scalars print as JSON (``json.dumps``, non-ASCII kept), so strings, integers and floats come
  back with their Python type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from model.base.canonical import JSON
from model.monitor.language import policy as P
from model.monitor.language.labels import Inherit, Label, Propagation


def scalar(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def name_set(names: Iterable[str]) -> str:
    return "{" + ", ".join(sorted(names)) + "}"


def label(lab: Label) -> str:
    return f"({lab.sensitivity}, {name_set(lab.categories)}, {'trusted' if lab.trusted else 'untrusted'})"


def propagation(prop: Propagation) -> str:
    if isinstance(prop, Inherit):
        return "inherit"
    parts: list[str] = []
    if prop.remove:
        parts.append(f"remove: {name_set(prop.remove)}")
    if prop.decrement:
        parts.append(f"decrement: {prop.decrement}")
    sets: list[str] = []
    if prop.set_sensitivity is not None:
        sets.append(f"sensitivity: {prop.set_sensitivity}")
    if prop.set_trusted is not None:
        sets.append(f"trust: {'trusted' if prop.set_trusted else 'untrusted'}")
    if sets:
        parts.append("set: {" + ", ".join(sets) + "}")
    return "transform {" + ", ".join(parts) + "}"


def resource_ref(ref: P.ResourceRef) -> str:
    if isinstance(ref, P.ConstRes):
        return scalar(ref.value)
    if isinstance(ref, P.ArgRes):
        return ref.arg
    return f"{ref.arg}[*]"


def tool(t: P.Tool) -> str:
    parts: list[str] = []
    if t.operation != t.name:
        parts.append(f"operation: {t.operation}")
    parts.append(f"endpoints: {t.source} -> {t.destination}")
    if t.args:
        parts.append(f"args: {name_set(t.args)}")
    if t.required:
        parts.append(f"required: {name_set(t.required)}")
    effects = ", ".join(f"{e.action}({resource_ref(e.resource)})" for e in t.effects)
    parts.append(f"effects: [{effects}]")
    if t.authoritative:
        parts.append(f"authoritative: {name_set(t.authoritative)}")
    return f"tool {t.name} {{" + ", ".join(parts) + "}"


def guard(g: P.LabelGuard) -> str:
    conds: list[str] = []
    if g.max_sensitivity is not None:
        conds.append(f"sensitivity <= {g.max_sensitivity}")
    if g.min_sensitivity is not None:
        conds.append(f"sensitivity >= {g.min_sensitivity}")
    if g.any_category:
        conds.append(f"category {name_set(g.any_category)}")
    if g.no_category:
        conds.append(f"no category {name_set(g.no_category)}")
    if g.trusted is not None:
        conds.append("trusted" if g.trusted else "untrusted")
    return " when " + " and ".join(conds) if conds else ""


def flow_destination(f: P.FlowRule) -> str:
    return f.destination if f.argument is None else f"{f.destination}({f.argument})"


def pattern(pat: P.ResourcePattern) -> str:
    if isinstance(pat, P.AnyRes):
        return "*"
    if isinstance(pat, P.SlotPat):
        return f"@{pat.slot}"
    if isinstance(pat, P.GlobPat):
        return f"like {scalar(pat.glob)}"
    return scalar(pat.value)


def predicate(pred: P.ArgPredicate) -> str:
    path = ".".join(pred.path)
    if isinstance(pred, P.EqPred):
        return f"{path} == {scalar(pred.value)}"
    if isinstance(pred, P.OneOfPred):
        return f"{path} in {{" + ", ".join(scalar(v) for v in pred.values) + "}"
    low = "" if pred.low is None else scalar(pred.low)
    high = "" if pred.high is None else scalar(pred.high)
    return f"{path} in {low}..{high}"


def entry(e: P.Entry) -> str:
    out = f"{e.kind.value} {e.action}({pattern(e.resource)})"
    if e.keys is not None:
        out += f" keys {name_set(e.keys)}"
    if e.where:
        out += " where " + " and ".join(predicate(p) for p in e.where)
    if e.kind is P.EntryKind.ALLOW:
        out += " quota " + ("unlimited" if e.quota is None else str(e.quota))
    if e.requires is not None:
        out += f" requires {e.requires}"
    if e.permit:
        out += " permit"
    return out


def print_policy(p: P.Policy) -> str:
    lines = [f"policy {p.name}", "", "levels " + " < ".join(p.levels.order),
             " ".join(["categories", ", ".join(sorted(p.categories))]).rstrip()]
    lines += [f"requirement {r}" for r in sorted(p.requirements)]
    lines.append("")
    lines += [f"node {n.name}: {n.kind.value} {label(n.label)}" for n in p.nodes]
    for e in p.edges:
        eps = ", ".join(f"{a} -> {b}" for a, b in e.endpoints)
        lines.append(f"edge {e.name}: {eps} {propagation(e.propagation)}")
    lines += [f"agent {a.name} {{operations: {name_set(a.operations)}, ceiling: {a.ceiling}}}" for a in p.agents]
    lines += [tool(t) for t in p.tools]
    for r in p.resolvers:
        args = ", ".join(f"{k}: {scalar(v)}" for k, v in sorted(r.args, key=lambda kv: kv[0]))
        lines.append(f"resolve {r.slot}: {r.tool}({args}) -> {r.path}")
    for o in p.origins:
        keep = f" preserving: {name_set(o.preserving)}" if o.preserving else ""
        lines.append(f"origin {o.name} {{via: {o.via} argument: {o.argument} producer: {o.producer}{keep}}}")
    lines += [f"flow {f.effect.value} {f.operation} -> {flow_destination(f)}{guard(f.guard)}" for f in p.flows]
    lines += [f"audience {a.node}: " + ", ".join(f"{e.action}({pattern(e.resource)})" for e in a.effects)
              for a in p.audiences]
    lines += [f"history {h.name} {{scope: {h.scope.value}, after: {h.after}, require: {h.require}, "
              f"before: {h.before}}}" for h in p.histories]
    for side, entries in (("user", p.user), ("application", p.application)):
        lines += ["", side + " {", *(f"  {entry(e)}" for e in entries), "}"]
    return "\n".join(lines) + "\n"
