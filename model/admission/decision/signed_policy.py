"""Parmana policies (the Parmana paper, Sections 4.1–4.3): versioned, deterministic,
first-match, with typed signals, signals bound to the intent, and approval signals.

JSON form (our own; the paper gives the concepts, not the file format)::

    {"name": "refunds", "version": 3, "action": "paytm:refund",
     "signalsSchema": {"orderId": "string", "amount": "number", "managerApproved": "boolean"},
     "bindings": {"orderId": "target", "amount": "params.amount"},
     "approvalSignals": {"managerApproved": {"resourceId": "orderId", "value": "amount"}},
     "rules": [{"id": "r1", "when": COND, "decision": "approve" | "refuse"}]}

    COND := {"signal": s, "op": "eq"|"ne"|"lt"|"le"|"gt"|"ge", "value": v}
          | {"all": [COND, ...]} | {"any": [COND, ...]} | {"not": COND}

Validated at load (``InvalidInput`` otherwise): a safe name (letters, digits, ``_``, ``-``; no
path traversal, Section 6.4), a positive integer version, declared signal types, bindings to
``action``, ``target`` or ``params.<key>``, approval signals that are boolean and name a string
resource signal (and optionally a number amount signal), and — Section 4.3 — every approve rule
requires an approval signal (``eq true``) as its whole condition or as a direct member of its
top-level ``all``. Evaluation, Section 4.2: every declared signal present with its declared type
and no undeclared ones (SIGNAL_TYPE), bound signals equal to the intent (SIGNAL_BINDING), then the
first matching rule decides; none matching refuses. An approval signal reads true only if the
caller also proved it with a verified signed approval; a plain ``true`` flag reads false. So a
declared fact can make a rule match only toward refusal or alongside an approval.
Choices: ``number`` excludes booleans; comparisons across types are false (fail closed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from model.admission.refusal import Refusal, RefusalReason
from model.base.canonical import JSON, check_exact_json, digest, json_equal
from model.base.errors import InputKind, InvalidInput, json_path

SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_TYPES = ("string", "number", "boolean")
_OPS = ("eq", "ne", "lt", "le", "gt", "ge")


@dataclass(frozen=True, slots=True)
class ApprovalSignal:
    resource_signal: str
    amount_signal: str | None


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    when: JSON
    approve: bool


@dataclass(frozen=True, slots=True)
class SignedPolicy:
    name: str
    version: int
    action: str
    signals: Mapping[str, str]
    bindings: Mapping[str, str]
    approval_signals: Mapping[str, ApprovalSignal]
    rules: tuple[Rule, ...]
    content_hash: str


@dataclass(frozen=True, slots=True)
class Approve:
    rule_id: str


def _has_type(v: JSON, t: str) -> bool:
    if t == "number":
        return isinstance(v, int | float) and not isinstance(v, bool)
    return isinstance(v, bool) if t == "boolean" else isinstance(v, str)


def _err(src: str, path: tuple[str | int, ...], expected: str, found: object, kind: InputKind = InputKind.SCHEMA
         ) -> InvalidInput:
    return InvalidInput(f"{src} at {json_path(path)}", expected, repr(found)[:80], kind)


def check_name(name: object, src: str, path: tuple[str | int, ...]) -> str:
    if not isinstance(name, str) or not SAFE_NAME.match(name):
        raise _err(src, path, "a name of letters, digits, _ and - (at most 64)", name, InputKind.VALUE)
    return name


def _cond(c: JSON, sig: Mapping[str, str], src: str, path: tuple[str | int, ...]) -> None:
    if not isinstance(c, dict) or len(c) == 0:
        raise _err(src, path, "a condition object", c)
    if set(c) == {"signal", "op", "value"}:
        s = c["signal"]
        if not isinstance(s, str) or s not in sig:
            raise _err(src, (*path, "signal"), "a declared signal", s, InputKind.REFERENCE)
        if c["op"] not in _OPS or (sig[s] != "number" and c["op"] not in ("eq", "ne")):
            raise _err(src, (*path, "op"), f"an operator valid for a {sig[s]}", c["op"])
        if not _has_type(c["value"], sig[s]):
            raise _err(src, (*path, "value"), f"a {sig[s]}", c["value"])
    elif set(c) in ({"all"}, {"any"}):
        (k, xs), = c.items()
        if not isinstance(xs, list) or not xs:
            raise _err(src, (*path, k), "a non-empty list of conditions", xs)
        for i, x in enumerate(xs):
            _cond(x, sig, src, (*path, k, i))
    elif set(c) == {"not"}:
        _cond(c["not"], sig, src, (*path, "not"))
    else:
        raise _err(src, path, "signal/op/value, all, any or not", sorted(c))


def _requires_approval(when: JSON, approval_signals: Mapping[str, ApprovalSignal]) -> bool:
    def is_req(c: JSON) -> bool:
        return isinstance(c, dict) and set(c) == {"signal", "op", "value"} and c["signal"] in approval_signals \
            and c["op"] == "eq" and c["value"] is True
    if is_req(when):
        return True
    return isinstance(when, dict) and set(when) == {"all"} and isinstance(when["all"], list) \
        and any(is_req(x) for x in when["all"])


def load_policy(obj: object, src: str = "<policy>") -> SignedPolicy:
    keys = {"name", "version", "action", "signalsSchema", "bindings", "approvalSignals", "rules"}
    if not isinstance(obj, dict) or set(obj) != keys:
        raise _err(src, (), f"an object with keys {sorted(keys)}", obj if not isinstance(obj, dict) else sorted(obj))
    check_exact_json(obj, src)
    name = check_name(obj["name"], src, ("name",))
    version = obj["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _err(src, ("version",), "a positive integer", version, InputKind.VALUE)
    action = obj["action"]
    if not isinstance(action, str) or not action:
        raise _err(src, ("action",), "a non-empty string", action)
    sig = obj["signalsSchema"]
    if not isinstance(sig, dict) or any(t not in _TYPES for t in sig.values()):
        raise _err(src, ("signalsSchema",), f"an object of signal types {_TYPES}", sig)
    binds = obj["bindings"]
    if not isinstance(binds, dict):
        raise _err(src, ("bindings",), "an object", binds)
    for s, target in binds.items():
        if s not in sig:
            raise _err(src, ("bindings", s), "a declared signal", s, InputKind.REFERENCE)
        if not isinstance(target, str) or not (target in ("action", "target") or re.match(r"^params\.\w+$", target)):
            raise _err(src, ("bindings", s), "action, target or params.<key>", target)
    aps_raw = obj["approvalSignals"]
    if not isinstance(aps_raw, dict):
        raise _err(src, ("approvalSignals",), "an object", aps_raw)
    aps: dict[str, ApprovalSignal] = {}
    for s, spec in aps_raw.items():
        if sig.get(s) != "boolean":
            raise _err(src, ("approvalSignals", s), "a declared boolean signal", s, InputKind.REFERENCE)
        if not isinstance(spec, dict) or "resourceId" not in spec or not set(spec) <= {"resourceId", "value"}:
            raise _err(src, ("approvalSignals", s), "an object with resourceId[, value]", spec)
        if not isinstance(spec["resourceId"], str) or sig.get(spec["resourceId"]) != "string":
            raise _err(src, ("approvalSignals", s, "resourceId"), "a declared string signal", spec["resourceId"],
                       InputKind.REFERENCE)
        if "value" in spec and (not isinstance(spec["value"], str) or sig.get(spec["value"]) != "number"):
            raise _err(src, ("approvalSignals", s, "value"), "a declared number signal", spec["value"],
                       InputKind.REFERENCE)
        aps[s] = ApprovalSignal(spec["resourceId"], spec.get("value"))
    rules_raw = obj["rules"]
    if not isinstance(rules_raw, list):
        raise _err(src, ("rules",), "a list of rules", rules_raw)
    rules: list[Rule] = []
    for i, r in enumerate(rules_raw):
        if not isinstance(r, dict) or set(r) != {"id", "when", "decision"} or not isinstance(r["id"], str):
            raise _err(src, ("rules", i), "an object with id, when, decision", r)
        _cond(r["when"], sig, src, ("rules", i, "when"))
        if r["decision"] not in ("approve", "refuse"):
            raise _err(src, ("rules", i, "decision"), "approve or refuse", r["decision"])
        if r["decision"] == "approve" and not _requires_approval(r["when"], aps):
            raise _err(src, ("rules", i, "when"), "an approve rule that requires an approval signal "
                       "(whole condition or top-level all)", r["when"], InputKind.VALUE)
        rules.append(Rule(r["id"], r["when"], r["decision"] == "approve"))
    return SignedPolicy(name, version, action, dict(sig), dict(binds), aps, tuple(rules), digest(obj))


def intent_value(intent: Mapping[str, JSON], path: str) -> tuple[bool, JSON]:
    if path in ("action", "target"):
        return (path in intent, intent.get(path))
    params = intent.get("params")
    key = path.split(".", 1)[1]
    return (isinstance(params, dict) and key in params, params.get(key) if isinstance(params, dict) else None)


def _holds(c: JSON, signals: Mapping[str, JSON]) -> bool:
    assert isinstance(c, dict)  # validated at load
    if "all" in c:
        return all(_holds(x, signals) for x in c["all"])
    if "any" in c:
        return any(_holds(x, signals) for x in c["any"])
    if "not" in c:
        return not _holds(c["not"], signals)
    v, w, op = signals[c["signal"]], c["value"], c["op"]
    if op in ("eq", "ne"):
        return bool(json_equal(v, w)) is (op == "eq")
    assert isinstance(v, int | float) and isinstance(w, int | float)
    return bool({"lt": v < w, "le": v <= w, "gt": v > w, "ge": v >= w}[op])


def check_signals(p: SignedPolicy, intent: Mapping[str, JSON], signals: Mapping[str, JSON]) -> Refusal | None:
    if intent.get("action") != p.action:
        return Refusal(RefusalReason.WRONG_ACTION, f"policy {p.name} governs {p.action}")
    if set(signals) != set(p.signals):
        return Refusal(RefusalReason.SIGNAL_TYPE, f"signals must be exactly {sorted(p.signals)}")
    for s, t in p.signals.items():
        if not _has_type(signals[s], t):
            return Refusal(RefusalReason.SIGNAL_TYPE, f"signal {s} must be a {t}")
    for s, path in p.bindings.items():
        present, v = intent_value(intent, path)
        if not present or not json_equal(v, signals[s]):
            return Refusal(RefusalReason.SIGNAL_BINDING, f"signal {s} must equal the intent's {path}")
    return None


def evaluate(p: SignedPolicy, intent: Mapping[str, JSON], signals: Mapping[str, JSON],
             proven: frozenset[str]) -> Approve | Refusal:
    """Deterministic: no clock, randomness or I/O. ``proven``: approval signals backed by a verified approval."""
    bad = check_signals(p, intent, signals)
    if bad is not None:
        return bad
    effective = {s: (v if s not in p.approval_signals else (v is True and s in proven)) for s, v in signals.items()}
    for r in p.rules:
        if _holds(r.when, effective):
            return Approve(r.id) if r.approve else Refusal(RefusalReason.RULE_REFUSED, r.id)
    return Refusal(RefusalReason.NO_RULE_MATCHED, p.name)
