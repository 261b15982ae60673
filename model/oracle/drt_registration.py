"""Differential test of registration (Agenra Section 6.1): ``monitor check``'s validator against the
oracle's ``policy_check`` judgment (lean/AgentWarrant/Spec/Monitor/Registration.lean).

A case is a random well-formed policy (``model.oracle.generators.policies``) in its JSON form, then at
most one mutation that breaks a check the Lean judgment models (a repeated name, an undeclared
reference, an empty endpoint or effect list, a resolver's argument set, a predicate's shape, an
undeclared level in a label, an array or object as a tool's resource constant), or a declaration check
on what only the JSON form carries (a name that is not an identifier or is reserved, an action name or
result path that is not dotted names, a repeated level, an undeclared category or requirement, a
resolver path its tool does not declare authoritative, an audience on a node that is not a sink, a
count, constant or bound outside ±(2**53 - 1)). The verdicts compared are accept/reject: Python's
``policy_from_json`` (schema, then ``validate``) raising ``InvalidInput`` against Lean's ``ok``. Which
check fails first is not compared, because the two sides order their checks differently; for an array or
object tool resource constant, which Python refuses in the schema (``validate`` refuses it too, as not a
JSON scalar), Lean's errors must also name its registration's ``tools`` check (``REGISTRATION_CHECK``).
Not drawn: an empty level list (the decoder refuses it while ranking labels) and lone surrogates (both
sides refuse a document holding one before any verdict: tests/drt/test_registration_schema.py).
Structural breakages (the schema's field types, required and unknown fields) are
model/oracle/drt_registration_schema.py's.
Choice: this judgment is not in the campaign list of ``model.oracle.lean.JUDGMENTS`` (a case is one
policy, whose verdict space is two answers and whose mutation kinds a few hundred cases reach);
tests/drt/test_registration.py drives it, so ``make drt`` runs it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from model.base.errors import InvalidInput
from model.monitor.language.policy_json import policy_from_json, policy_to_json
from model.oracle.generators import policies
from model.oracle.lean import shaped
from model.oracle.results import Agree, CaseResult, Mismatch

JUDGMENT = "policy_check"
UNDECLARED = "zz_undeclared"
UNSAFE = 2**53  # one past the largest integer the JSON boundary reads exactly

Doc = dict[str, Any]


def _first(doc: Doc, key: str) -> dict[str, Any] | None:
    items = doc.get(key) or []
    return items[0] if items else None


def _dup_name(doc: Doc, key: str, field: str = "name") -> bool:
    items = doc.get(key) or []
    if not items:
        return False
    items.append(copy.deepcopy(items[0]))
    return True


def _set(doc: Doc, key: str, field: str, value: Any) -> bool:
    item = _first(doc, key)
    if item is None:
        return False
    item[field] = value
    return True


def _resolver_extra_arg(doc: Doc) -> bool:
    r = _first(doc, "resolvers")
    if r is None:
        return False
    r["args"][UNDECLARED] = 1
    return True


def _resolver_drop_required(doc: Doc) -> bool:
    r = _first(doc, "resolvers")
    if r is None:
        return False
    tool = next(t for t in doc["tools"] if t["name"] == r["tool"])
    required = tool.get("required", [])
    if not required:
        return False
    del r["args"][required[0]]
    return True


def _endpoint(doc: Doc, kind: str) -> bool:
    e = _first(doc, "edges")
    if e is None:
        return False
    if kind == "empty":
        e["endpoints"] = []
    elif kind == "repeat":
        e["endpoints"].append(list(e["endpoints"][0]))
    else:
        e["endpoints"][0] = [UNDECLARED, e["endpoints"][0][1]]
    return True


def _entry(doc: Doc, change: str) -> bool:
    entries = (doc.get("user") or []) + (doc.get("application") or [])
    if not entries:
        return False
    e = entries[0]
    if change == "slot":
        e["resource"] = {"kind": "slot", "slot": UNDECLARED}
    elif change == "range":
        e["where"] = [{"kind": "range", "path": ["amount"], "low": 5, "high": 1}]
    elif change == "unbounded":
        e["where"] = [{"kind": "range", "path": ["amount"], "low": None, "high": None}]
    elif change == "one_of":
        e["where"] = [{"kind": "one_of", "path": ["amount"], "values": []}]
    elif change == "action":
        e["action"] = "message send"
    elif change == "keys":
        e["keys"] = ["1x"]
    elif change == "path name":
        e["where"] = [{"kind": "eq", "path": ["amount", "1x"], "value": 1}]
    elif change == "constant":
        e["where"] = [{"kind": "eq", "path": ["amount"], "value": UNSAFE}]
    elif change == "bound":
        e["where"] = [{"kind": "range", "path": ["amount"], "low": -UNSAFE}]
    else:
        e["where"] = [{"kind": "eq", "path": [], "value": 1}]
    return True


def _node_level(doc: Doc) -> bool:
    n = _first(doc, "nodes")
    if n is None:
        return False
    n["label"]["sensitivity"] = UNDECLARED
    return True


def _first_where(doc: Doc, key: str, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    return next((d for d in doc.get(key) or [] if test(d)), None)


def _allow(doc: Doc, field: str, value: Any) -> bool:
    e = _first_where(doc, "user", lambda e: e["kind"] == "allow") or \
        _first_where(doc, "application", lambda e: e["kind"] == "allow")
    if e is None:
        return False
    e[field] = value
    return True


def _extend(doc: Doc, key: str, field: str, value: str) -> bool:
    """``value`` joins the first declaration's list ``field`` (an undeclared name, or a reserved or malformed one)."""
    item = _first(doc, key)
    if item is None:
        return False
    item[field] = sorted({*item.get(field, []), value})
    return True


def _policy_name(doc: Doc) -> bool:
    doc["name"] = "1" + doc["name"]
    return True


def _levels_repeat(doc: Doc) -> bool:
    doc["levels"] = [*doc["levels"], doc["levels"][0]]
    return True


def _node_category(doc: Doc) -> bool:
    n = _first(doc, "nodes")
    if n is None:
        return False
    n["label"]["categories"] = sorted({*n["label"]["categories"], UNDECLARED})
    return True


def _decrement(doc: Doc) -> bool:
    e = _first_where(doc, "edges", lambda e: e["propagation"]["kind"] == "transform")
    if e is None:
        return False
    e["propagation"]["decrement"] = UNSAFE
    return True


def _resolver_path(doc: Doc) -> bool:
    return _set(doc, "resolvers", "path", UNDECLARED)


def _tool_resource_constant(doc: Doc, value: Any) -> bool:
    t = _first(doc, "tools")
    if t is None or not t["effects"]:
        return False
    t["effects"][0]["resource"] = {"kind": "const", "value": value}
    return True


def _audience_not_sink(doc: Doc) -> bool:
    n = _first_where(doc, "nodes", lambda n: n["kind"] != "sink")
    if n is None:
        return False
    doc["audiences"] = [{"node": n["name"], "effects": [{"action": "file.write", "resource": {"kind": "any"}}]}]
    return True


MUTATIONS: dict[str, Callable[[Doc], bool]] = {
    "none": lambda d: True,
    "dup node": lambda d: _dup_name(d, "nodes"),
    "dup edge": lambda d: _dup_name(d, "edges"),
    "dup tool": lambda d: _dup_name(d, "tools"),
    "dup agent": lambda d: _dup_name(d, "agents"),
    "dup origin": lambda d: _dup_name(d, "origins"),
    "dup history": lambda d: _dup_name(d, "histories"),
    "dup slot": lambda d: _dup_name(d, "resolvers", "slot"),
    "edge no endpoints": lambda d: _endpoint(d, "empty"),
    "edge repeated pair": lambda d: _endpoint(d, "repeat"),
    "edge undeclared node": lambda d: _endpoint(d, "node"),
    "agent operation": lambda d: _extend(d, "agents", "operations", UNDECLARED),
    "agent ceiling": lambda d: _set(d, "agents", "ceiling", UNDECLARED),
    "tool operation": lambda d: _set(d, "tools", "operation", UNDECLARED),
    "tool source": lambda d: _set(d, "tools", "source", UNDECLARED),
    "tool no effects": lambda d: _set(d, "tools", "effects", []),
    "tool required": lambda d: _extend(d, "tools", "required", UNDECLARED),
    "resolver tool": lambda d: _set(d, "resolvers", "tool", UNDECLARED),
    "resolver extra arg": _resolver_extra_arg,
    "resolver missing required": _resolver_drop_required,
    "origin via": lambda d: _set(d, "origins", "via", UNDECLARED),
    "origin producer": lambda d: _set(d, "origins", "producer", UNDECLARED),
    "origin argument": lambda d: _set(d, "origins", "argument", UNDECLARED),
    "flow operation": lambda d: _set(d, "flows", "operation", UNDECLARED),
    "flow destination": lambda d: _set(d, "flows", "destination", UNDECLARED),
    "history after": lambda d: _set(d, "histories", "after", UNDECLARED),
    "entry slot": lambda d: _entry(d, "slot"),
    "entry range order": lambda d: _entry(d, "range"),
    "entry range unbounded": lambda d: _entry(d, "unbounded"),
    "entry empty one_of": lambda d: _entry(d, "one_of"),
    "entry empty path": lambda d: _entry(d, "path"),
    "node level": _node_level,
    "policy name syntax": _policy_name,
    "reserved tool argument": lambda d: _extend(d, "tools", "args", "policy"),
    "authoritative path syntax": lambda d: _extend(d, "tools", "authoritative", "meta.1x"),
    "entry action syntax": lambda d: _entry(d, "action"),
    "entry key name": lambda d: _entry(d, "keys"),
    "predicate path name": lambda d: _entry(d, "path name"),
    "repeated level": _levels_repeat,
    "node category": _node_category,
    "entry requirement": lambda d: _allow(d, "requires", UNDECLARED),
    "resolver path": _resolver_path,
    "audience node kind": _audience_not_sink,
    "decrement range": _decrement,
    "quota range": lambda d: _allow(d, "quota", UNSAFE),
    "constant range": lambda d: _entry(d, "constant"),
    "bound range": lambda d: _entry(d, "bound"),
    "tool array resource": lambda d: _tool_resource_constant(d, [1, "a"]),
    "tool object resource": lambda d: _tool_resource_constant(d, {"a": 1}),
}

# Mutations whose refusal the theorems need from `registrationOk` itself (on the decoded policy), beside
# the schema's and the form's: the check Lean's `errors` must name. `registrationToolResScalar` derives
# `ToolResScalar` from `registrationOk`, so a registration that left the constant to the schema and the
# form's `scalars` would keep the verdict and lose the theorem's premise.
REGISTRATION_CHECK = {"tool array resource": "tools", "tool object resource": "tools"}


@st.composite
def registration_cases(draw: st.DrawFn, kinds: tuple[str, ...] = ()) -> tuple[str, Doc]:
    """A policy's JSON form and the mutation applied to it (``none`` when the drawn one had no target),
    drawn from ``kinds`` when given, else from every mutation."""
    doc: Doc = copy.deepcopy(policy_to_json(draw(policies())))
    kind = draw(st.sampled_from(sorted(kinds or MUTATIONS)))
    # a mutation without a target (no resolver, no entry...) leaves the policy as drawn
    return (kind, doc) if MUTATIONS[kind](doc) else ("none", doc)


def python_accepts(doc: Doc) -> bool:
    try:
        policy_from_json(doc)
    except InvalidInput:
        return False
    return True


def run_registration(oracle: Any, case: tuple[str, Doc]) -> CaseResult:
    kind, doc = case
    payload = {"policy": doc}
    py = python_accepts(doc)
    out = shaped(JUDGMENT, oracle.call(JUDGMENT, payload), lambda o: (bool(o["ok"]), list(o["errors"])))
    if out[0] != (not out[1]):  # the verdict and the failed-check list are computed apart in Lean
        return Mismatch(JUDGMENT, ("errors",), {"mutation": kind, "policy": doc}, payload, {"ok": py},
                        {"ok": out[0], "errors": out[1]})
    need = REGISTRATION_CHECK.get(kind)
    if need is not None and need not in out[1]:
        return Mismatch(JUDGMENT, ("errors",), {"mutation": kind, "policy": doc}, payload, {"errors": [need]},
                        {"ok": out[0], "errors": out[1]})
    if py == out[0]:
        # a rejection only the decoder made is told apart: the judgment's own checks should always have one
        how = " (decoding only)" if out[1] and all(e.startswith("decoding") for e in out[1]) else ""
        return Agree(f"{kind}: {'accept' if py else 'reject'}{how}")
    return Mismatch(JUDGMENT, ("ok",), {"mutation": kind, "policy": doc}, payload, {"ok": py},
                    {"ok": out[0], "errors": out[1]})
