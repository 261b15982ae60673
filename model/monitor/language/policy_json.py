"""The JSON form of a policy (Agenra Sections 4–5), checked against corpus/schemas/policy.schema.json.

``policy_to_json`` and ``policy_from_json`` are inverse on valid policies; the text form
(``model.monitor.language.syntax``) and this form describe the same ``Policy``. Errors name the JSON path
(``$.tools[2].effects``) of the offending value.

Choices where the source is silent:
- Tagged unions carry a ``kind`` field (propagation, effect resources, resource patterns,
  predicates, entries). Sets are arrays of distinct names, printed sorted.
- An entry's ``quota`` omitted means 1 and ``null`` means unlimited; ``keys`` omitted means no
  allowlist. A tool's ``operation`` defaults to its name. Missing top-level lists are empty.
- ``policy_to_json`` writes every field except those whose absence carries meaning (``keys``,
  ``requires``, a range's open bound, unset transform components and flow conditions).
- Duplicate object keys, ``NaN``/``Infinity`` and numbers that overflow a float are rejected
  when reading JSON text, since the JSON value would otherwise silently lose information.
- A string (a value or a key) holding an unpaired UTF-16 surrogate is refused wherever it stands,
  before the schema: it cannot be encoded as UTF-8, and the text reader refuses its escape, so an object
  built in memory gets the same answer as its text would.
"""

from __future__ import annotations

import json
from typing import Any

from model.base.canonical import JSON
from model.base.errors import InvalidInput, Location, json_path
from model.base.json_exact import clip, lone_surrogate
from model.base.jsonio import decode
from model.base.schemas import validate as schema_validate
from model.monitor.language import policy as P
from model.monitor.language.labels import Inherit, Label, Levels, Propagation, Transform
from model.monitor.language.validate import json_locator, validate

SCHEMA = "policy.schema.json"


# --- to JSON --------------------------------------------------------------------------------


def _label(lab: Label) -> dict[str, JSON]:
    return {"sensitivity": lab.sensitivity, "categories": sorted(lab.categories), "trusted": lab.trusted}


def _propagation(prop: Propagation) -> dict[str, JSON]:
    if isinstance(prop, Inherit):
        return {"kind": "inherit"}
    out: dict[str, JSON] = {"kind": "transform", "remove": sorted(prop.remove), "decrement": prop.decrement}
    if prop.set_sensitivity is not None:
        out["sensitivity"] = prop.set_sensitivity
    if prop.set_trusted is not None:
        out["trusted"] = prop.set_trusted
    return out


def _resource(ref: P.ResourceRef) -> dict[str, JSON]:
    if isinstance(ref, P.ConstRes):
        return {"kind": "const", "value": ref.value}
    return {"kind": "arg" if isinstance(ref, P.ArgRes) else "list_arg", "arg": ref.arg}


def tool_to_json(t: P.Tool) -> dict[str, JSON]:
    return {"name": t.name, "operation": t.operation, "source": t.source, "destination": t.destination,
            "args": sorted(t.args), "required": sorted(t.required),
            "effects": [{"action": e.action, "resource": _resource(e.resource)} for e in t.effects],
            "authoritative": sorted(t.authoritative)}


def _guard(g: P.LabelGuard) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    if g.max_sensitivity is not None:
        out["max_sensitivity"] = g.max_sensitivity
    if g.min_sensitivity is not None:
        out["min_sensitivity"] = g.min_sensitivity
    if g.any_category:
        out["any_category"] = sorted(g.any_category)
    if g.no_category:
        out["no_category"] = sorted(g.no_category)
    if g.trusted is not None:
        out["trusted"] = g.trusted
    return out


def _pattern(pat: P.ResourcePattern) -> dict[str, JSON]:
    if isinstance(pat, P.AnyRes):
        return {"kind": "any"}
    if isinstance(pat, P.ConstPat):
        return {"kind": "const", "value": pat.value}
    if isinstance(pat, P.SlotPat):
        return {"kind": "slot", "slot": pat.slot}
    return {"kind": "like", "glob": pat.glob}


def predicate_json(pred: P.ArgPredicate) -> dict[str, JSON]:
    if isinstance(pred, P.EqPred):
        return {"kind": "eq", "path": list(pred.path), "value": pred.value}
    if isinstance(pred, P.OneOfPred):
        return {"kind": "one_of", "path": list(pred.path), "values": list(pred.values)}
    out: dict[str, JSON] = {"kind": "range", "path": list(pred.path)}
    if pred.low is not None:
        out["low"] = pred.low
    if pred.high is not None:
        out["high"] = pred.high
    return out


def entry_to_json(e: P.Entry) -> dict[str, JSON]:
    out: dict[str, JSON] = {"kind": e.kind.value, "action": e.action, "resource": _pattern(e.resource)}
    if e.keys is not None:
        out["keys"] = sorted(e.keys)
    out["where"] = [predicate_json(p) for p in e.where]
    if e.kind is P.EntryKind.ALLOW:
        out["quota"] = e.quota
        if e.requires is not None:
            out["requires"] = e.requires
        out["permit"] = e.permit
    return out


def policy_to_json(p: P.Policy) -> dict[str, JSON]:
    """The JSON form of ``p`` (plain dicts and lists, ready for ``canonical_bytes``)."""
    return {
        "name": p.name,
        "levels": list(p.levels.order),
        "categories": sorted(p.categories),
        "requirements": sorted(p.requirements),
        "nodes": [{"name": n.name, "kind": n.kind.value, "label": _label(n.label)} for n in p.nodes],
        "edges": [{"name": e.name, "endpoints": [[a, b] for a, b in e.endpoints],
                   "propagation": _propagation(e.propagation)} for e in p.edges],
        "agents": [{"name": a.name, "operations": sorted(a.operations), "ceiling": a.ceiling} for a in p.agents],
        "tools": [tool_to_json(t) for t in p.tools],
        "resolvers": [{"slot": r.slot, "tool": r.tool, "args": dict(r.args), "path": r.path} for r in p.resolvers],
        "origins": [{"name": o.name, "via": o.via, "argument": o.argument, "producer": o.producer,
                     "preserving": sorted(o.preserving)} for o in p.origins],
        "flows": [_flow(f) for f in p.flows],
        "histories": [{"name": h.name, "scope": h.scope.value, "after": h.after, "require": h.require,
                       "before": h.before} for h in p.histories],
        "user": [entry_to_json(e) for e in p.user],
        "application": [entry_to_json(e) for e in p.application],
        # an extension beyond Agenra, written only when used, so a paper policy's JSON form is unchanged
        **({"audiences": [{"node": a.node, "effects": [{"action": e.action, "resource": _pattern(e.resource)}
                                                       for e in a.effects]} for a in p.audiences]}
           if p.audiences else {}),
    }


def _flow(f: P.FlowRule) -> dict[str, JSON]:
    out: dict[str, JSON] = {"effect": f.effect.value, "operation": f.operation, "destination": f.destination,
                            "when": _guard(f.guard)}
    if f.argument is not None:  # a request sink (an extension beyond Agenra), written only when used
        out["argument"] = f.argument
    return out


# --- from JSON ------------------------------------------------------------------------------


def _prop_from(obj: dict[str, Any]) -> Propagation:
    if obj["kind"] == "inherit":
        return Inherit()
    return Transform(frozenset(obj.get("remove", ())), obj.get("decrement", 0), obj.get("sensitivity"),
                     obj.get("trusted"))


def _res_from(obj: dict[str, Any]) -> P.ResourceRef:
    if obj["kind"] == "const":
        return P.ConstRes(obj["value"])
    return P.ArgRes(obj["arg"]) if obj["kind"] == "arg" else P.ListArgRes(obj["arg"])


def _tool_from(obj: dict[str, Any]) -> P.Tool:
    effects = tuple(P.EffectDecl(e["action"], _res_from(e["resource"])) for e in obj["effects"])
    return P.Tool(obj["name"], obj.get("operation", obj["name"]), obj["source"], obj["destination"],
                  frozenset(obj.get("args", ())), frozenset(obj.get("required", ())), effects,
                  frozenset(obj.get("authoritative", ())))


def _guard_from(obj: dict[str, Any]) -> P.LabelGuard:
    return P.LabelGuard(obj.get("max_sensitivity"), obj.get("min_sensitivity"),
                        frozenset(obj.get("any_category", ())), frozenset(obj.get("no_category", ())),
                        obj.get("trusted"))


def _pattern_from(obj: dict[str, Any]) -> P.ResourcePattern:
    kind = obj["kind"]
    if kind == "any":
        return P.AnyRes()
    if kind == "const":
        return P.ConstPat(obj["value"])
    return P.SlotPat(obj["slot"]) if kind == "slot" else P.GlobPat(obj["glob"])


def predicate_from_json(obj: dict[str, Any]) -> P.ArgPredicate:
    path = tuple(obj["path"])
    if obj["kind"] == "eq":
        return P.EqPred(path, obj["value"])
    if obj["kind"] == "one_of":
        return P.OneOfPred(path, tuple(obj["values"]))
    return P.RangePred(path, obj.get("low"), obj.get("high"))


def entry_from(obj: dict[str, Any]) -> P.Entry:
    keys = obj.get("keys")
    return P.Entry(P.EntryKind(obj["kind"]), obj["action"], _pattern_from(obj["resource"]),
                   keys=None if keys is None else frozenset(keys),
                   where=tuple(predicate_from_json(w) for w in obj.get("where", ())),
                   quota=obj.get("quota", 1), requires=obj.get("requires"), permit=obj.get("permit", False))


def _surrogate_at(obj: object, at: tuple[str | int, ...] = ()) -> tuple[tuple[str | int, ...], str] | None:
    """The place of the first string (key or value) holding an unpaired surrogate, and that string."""
    if isinstance(obj, str):
        return (at, obj) if lone_surrogate(obj) is not None else None
    items: list[tuple[str | int, object]] = (
        list(obj.items()) if isinstance(obj, dict) else list(enumerate(obj)) if isinstance(obj, list) else [])
    for k, v in items:
        if isinstance(k, str) and lone_surrogate(k) is not None:
            return at, k
        found = _surrogate_at(v, (*at, k))
        if found is not None:
            return found
    return None


def refuse_lone_surrogates(obj: object, source: str = "<input>") -> None:
    # one C-speed pass decides; only a document that fails it is walked to name the place
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        found = _surrogate_at(obj)
        if found is not None:
            raise InvalidInput(Location(source=source, json_path=json_path(found[0])),
                               "a string of Unicode characters (an unpaired surrogate cannot be encoded as UTF-8)",
                               clip(found[1])) from None
    except (TypeError, ValueError):
        return  # not a JSON value: the schema names the place


def policy_from_json(obj: object, source: str = "<input>") -> P.Policy:
    """Check ``obj`` against the schema, build the ``Policy`` and run the registration checks."""
    refuse_lone_surrogates(obj, source)
    schema_validate(obj, SCHEMA, source)
    assert isinstance(obj, dict)
    policy = P.Policy(
        name=obj["name"],
        levels=Levels(tuple(obj["levels"])),
        categories=frozenset(obj.get("categories", ())),
        nodes=tuple(P.Node(n["name"], P.NodeKind(n["kind"]),
                           Label(n["label"]["sensitivity"], frozenset(n["label"]["categories"]),
                                 n["label"]["trusted"])) for n in obj.get("nodes", ())),
        edges=tuple(P.Edge(e["name"], tuple((a, b) for a, b in e["endpoints"]), _prop_from(e["propagation"]))
                    for e in obj.get("edges", ())),
        agents=tuple(P.Agent(a["name"], frozenset(a["operations"]), a["ceiling"]) for a in obj.get("agents", ())),
        tools=tuple(_tool_from(t) for t in obj.get("tools", ())),
        resolvers=tuple(P.Resolver(r["slot"], r["tool"], tuple(sorted(r["args"].items())), r["path"])
                        for r in obj.get("resolvers", ())),
        origins=tuple(P.OriginRule(o["name"], o["via"], o["argument"], o["producer"],
                                   frozenset(o.get("preserving", ()))) for o in obj.get("origins", ())),
        flows=tuple(P.FlowRule(P.FlowEffect(f["effect"]), f["operation"], f["destination"],
                               _guard_from(f.get("when", {})), f.get("argument")) for f in obj.get("flows", ())),
        histories=tuple(P.HistoryRule(h["name"], P.HistoryScope(h["scope"]), h["after"], h["require"], h["before"])
                        for h in obj.get("histories", ())),
        requirements=frozenset(obj.get("requirements", ())),
        user=tuple(entry_from(e) for e in obj.get("user", ())),
        application=tuple(entry_from(e) for e in obj.get("application", ())),
        audiences=tuple(P.Audience(a["node"], tuple(P.AudienceEffect(e["action"], _pattern_from(e["resource"]))
                                                    for e in a["effects"])) for a in obj.get("audiences", ())),
    )
    validate(policy, json_locator(source))
    return policy


def policy_from_json_text(data: str | bytes, source: str = "<input>") -> P.Policy:
    """Read the JSON form from text or UTF-8 bytes (the ``.json`` branch of ``load_policy``); decoding,
    exact numbers and repeated names are ``model.base.jsonio``'s."""
    return policy_from_json(decode(data, source), source)


def policy_json_text(p: P.Policy) -> str:
    """Readable JSON text of ``p`` (two-space indent, field order as above), as stored in corpus/."""
    return json.dumps(policy_to_json(p), indent=2, ensure_ascii=False) + "\n"
