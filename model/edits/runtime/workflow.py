"""Typed Agent workflows and the registration map λ (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge?*, Section IV-C and Appendix A-G): the input of ``CheckReg(𝒲, ℛ)``.

A workflow 𝒲 is a finite-state labelled transition system: states, one initial state, transitions
that are either internal (τ) or a tool call — labelled by the workflow's name for the call site and
the concrete tool request — and result states that carry a result label. The registration map λ
(stored with ℛ) names, for every call site, the registered workflow call it is, and for every result
label, the registered outcome of the root contract (written as ``show_outcome`` writes it, ``·`` for a
choice-free contract).

JSON form (every key required unless marked optional)::

    {"workflow": {"initial": "s0", "states": ["s0", ...], "results": {"s3": "bought"},
                  "transitions": [{"from": "s0", "to": "s1", "call": "reserve", "request": {...}},
                                  {"from": "s1", "to": "s2", "tau": true}, ...]},
     "lambda": {"calls": {"reserve": "xr", ...}, "results": {"bought": "·"}}}

Loading checks the typing: every name is a declared state, each transition is exactly one of τ or a
tool call, a result state has no outgoing transition, λ names only tool-call transitions and
declared result labels, and every call site is mapped. Everything about traces (cycles, totality, correspondence) is
``CheckReg``'s (``model.edits.runtime.checkreg``), which answers with a closed refusal instead.
Choice where the paper is silent: a request is compared as canonical JSON text (``canonical_str``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.base.canonical import canonical_str
from model.base.errors import InputKind, InvalidInput, Location, json_path


@dataclass(frozen=True, slots=True)
class Transition:
    source: str
    target: str
    site: str | None  # the call site's name; None for τ
    request: str | None  # canonical JSON of the tool request; None for τ


@dataclass(frozen=True, slots=True)
class Workflow:
    initial: str
    states: tuple[str, ...]
    results: tuple[tuple[str, str], ...]  # (result state, result label)
    transitions: tuple[Transition, ...]

    def result_of(self) -> dict[str, str]:
        return dict(self.results)


@dataclass(frozen=True, slots=True)
class RegMap:
    """λ: call site → registered workflow call; result label → registered outcome name."""

    calls: tuple[tuple[str, str], ...]
    results: tuple[tuple[str, str], ...]


def _at(source: str, *path: str | int) -> Location:
    return Location(source=source, json_path=json_path(tuple(path)))


def _obj(doc: Any, source: str, *path: str | int) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise InvalidInput(_at(source, *path), "an object", type(doc).__name__, InputKind.SCHEMA)
    return doc


def _str(doc: Any, source: str, *path: str | int) -> str:
    if not isinstance(doc, str) or not doc:
        raise InvalidInput(_at(source, *path), "a nonempty string", repr(doc), InputKind.SCHEMA)
    return doc


def _key(doc: dict[str, Any], key: str, source: str, *path: str | int) -> Any:
    if key not in doc:
        raise InvalidInput(_at(source, *path), f"the key {key!r}", "no such key", InputKind.SCHEMA)
    return doc[key]


def _state(name: Any, states: set[str], source: str, *path: str | int) -> str:
    s = _str(name, source, *path)
    if s not in states:
        raise InvalidInput(_at(source, *path), "a declared state", s, InputKind.REFERENCE)
    return s


def _transition(doc: Any, states: set[str], source: str, i: int) -> Transition:
    p = ("workflow", "transitions", i)
    t = _obj(doc, source, *p)
    unknown = sorted(set(t) - {"from", "to", "tau", "call", "request"})
    if unknown:
        raise InvalidInput(_at(source, *p, unknown[0]), "one of from, to, tau, call, request", unknown[0],
                           InputKind.SCHEMA)
    a = _state(_key(t, "from", source, *p), states, source, *p, "from")
    b = _state(_key(t, "to", source, *p), states, source, *p, "to")
    if "tau" in t:
        if t["tau"] is not True or "call" in t or "request" in t:
            raise InvalidInput(_at(source, *p), "an internal step: 'tau': true and no call or request",
                               canonical_str(t), InputKind.SCHEMA)
        return Transition(a, b, None, None)
    if "call" not in t or "request" not in t:
        raise InvalidInput(_at(source, *p), "either 'tau': true or a tool call with 'call' and 'request'",
                           canonical_str(t), InputKind.SCHEMA)
    site = _str(t["call"], source, *p, "call")
    return Transition(a, b, site, canonical_str(_obj(t["request"], source, *p, "request")))


def workflow_from_json(doc: Any, source: str = "<workflow>") -> tuple[Workflow, RegMap]:
    """The typed workflow and λ, or ``InvalidInput`` naming the JSON path of the first ill-typed part."""
    top = _obj(doc, source)
    w = _obj(_key(top, "workflow", source), source, "workflow")
    raw_states = _key(w, "states", source, "workflow")
    if not isinstance(raw_states, list) or not raw_states:
        raise InvalidInput(_at(source, "workflow", "states"), "a nonempty list of state names", repr(raw_states),
                           InputKind.SCHEMA)
    states: list[str] = []
    known: set[str] = set()
    for i, s in enumerate(raw_states):
        name = _str(s, source, "workflow", "states", i)
        if name in known:
            raise InvalidInput(_at(source, "workflow", "states", i), "distinct state names", name,
                               InputKind.REFERENCE)
        states.append(name)
        known.add(name)
    initial = _state(_key(w, "initial", source, "workflow"), known, source, "workflow", "initial")
    res = _obj(_key(w, "results", source, "workflow"), source, "workflow", "results")
    results = tuple(sorted((_state(s, known, source, "workflow", "results", s),
                            _str(r, source, "workflow", "results", s)) for s, r in res.items()))
    raw_ts = _key(w, "transitions", source, "workflow")
    if not isinstance(raw_ts, list):
        raise InvalidInput(_at(source, "workflow", "transitions"), "a list", type(raw_ts).__name__, InputKind.SCHEMA)
    ts = tuple(_transition(t, known, source, i) for i, t in enumerate(raw_ts))
    terminal = dict(results)
    for i, t in enumerate(ts):
        if t.source in terminal:
            raise InvalidInput(_at(source, "workflow", "transitions", i, "from"),
                               "a state that is not a result state (result states are terminal)", t.source,
                               InputKind.VALUE)
    lam = _obj(_key(top, "lambda", source), source, "lambda")
    calls_doc = _obj(_key(lam, "calls", source, "lambda"), source, "lambda", "calls")
    sites = {t.site: i for i, t in enumerate(ts) if t.site is not None}
    calls = []
    for k, x in sorted(calls_doc.items()):
        if k not in sites:
            raise InvalidInput(_at(source, "lambda", "calls", k), "a call site of the workflow", k, InputKind.REFERENCE)
        calls.append((k, _str(x, source, "lambda", "calls", k)))
    for site, i in sorted(sites.items()):
        if site not in calls_doc:
            raise InvalidInput(_at(source, "workflow", "transitions", i, "call"), "a call site that λ maps",
                               site, InputKind.REFERENCE)
    labels = {r for _, r in results}
    res_doc = _obj(_key(lam, "results", source, "lambda"), source, "lambda", "results")
    for r in res_doc:
        if r not in labels:
            raise InvalidInput(_at(source, "lambda", "results", r), "a result label of the workflow", r,
                               InputKind.REFERENCE)
    lam_results = tuple(sorted((r, _str(o, source, "lambda", "results", r)) for r, o in res_doc.items()))
    return Workflow(initial, tuple(states), results, ts), RegMap(tuple(sorted(calls)), lam_results)
