"""Evaluating query and approval patterns on one proposed or admitted call (our design for the
missing Section 8: forbidden-execution predicates over effects at sinks, and useful-completion goals).

An argument pattern is read against the *pre-state* of the call (the state the monitor decided in):

- ``Equals``/``OneOf``: the concrete argument is JSON-equal to one of the values (RFC 8785 equality,
  as the matcher uses).
- ``BoundTo(slot)``: the slot is bound, not invalidated, and its value equals the argument.
- ``Produced(P, args)``: the argument was passed as a handle (or a field handle) on a *successful*
  result whose tool or operation is ``P``, and that result's own arguments match ``args``
  recursively — so ``Produced(Sanitize, record=Produced(Read))`` follows the stored producers, never
  the payload, like the monitor's origin check.
- ``TypeIs``: the argument's JSON type (used by result guards: Sanitize succeeds only on objects).
- ``Not``: negation. A missing argument fails every positive pattern.

An event pattern additionally fixes the tool (by tool name), whether the effect needs the tool to
succeed (``delivered``) or only the monitor's admission (``admitted``, e.g. "more sends than
allowed" counts charged attempts, Section 2), and optionally a sensitivity the call's output label
must exceed (confidential data at the sink).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping

from model.base.canonical import JSON, json_equal
from model.monitor.decide.matching import MISSING, Missing
from model.monitor.decide.state import Call
from model.monitor.language.labels import Label
from model.search.model import (
    ArgPattern,
    BoundTo,
    Equals,
    EventPattern,
    Not,
    OneOf,
    Produced,
    SearchModel,
    TypeIs,
    When,
)
from model.search.states import SearchState


def arg_matches(model: SearchModel, pattern: ArgPattern, state: SearchState, value: JSON | Missing,
                ref: int | None) -> bool:
    if isinstance(pattern, Not):
        return not arg_matches(model, pattern.pattern, state, value, ref)
    if isinstance(value, Missing):
        return False
    if isinstance(pattern, TypeIs):
        return json_type(value) == pattern.type
    if isinstance(pattern, Equals):
        return json_equal(value, parsed(pattern.value))
    if isinstance(pattern, OneOf):
        return any(json_equal(value, parsed(v)) for v in pattern.values)
    if isinstance(pattern, BoundTo):
        mon = state.monitor
        return pattern.slot not in mon.invalid and mon.is_bound(pattern.slot) and \
            json_equal(mon.binding(pattern.slot), value)
    if isinstance(pattern, Produced):
        rec = state.monitor.record(ref) if ref is not None else None
        if rec is None or not rec.succeeded or pattern.producer not in (rec.tool, rec.operation):
            return False
        assert ref is not None
        args = rec.args()
        sub_refs = {n: d for n, d, _ in state.extras[ref].refs}
        return all(arg_matches(model, p, state, args.get(n, MISSING), sub_refs.get(n)) for n, p in pattern.args)
    raise AssertionError(pattern)  # unreachable: ArgPattern is closed


@functools.lru_cache(maxsize=4096)
def parsed(text: str) -> JSON:
    """A pattern's JSON value, parsed once per text (read only: ``json_equal`` never mutates it)."""
    return json.loads(text)


def json_type(value: JSON) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def args_match(model: SearchModel, patterns: tuple[tuple[str, ArgPattern], ...], state: SearchState, call: Call,
               refs: tuple[tuple[str, int, str], ...]) -> bool:
    by_ref: Mapping[str, int] = {n: d for n, d, _ in refs}
    return all(arg_matches(model, p, state, call.args.get(n, MISSING), by_ref.get(n)) for n, p in patterns)


def premise_matches(event: EventPattern, tool: str, ok: bool) -> bool:
    return event.tool == tool and (event.when is When.ADMITTED or ok)


def event_matches(model: SearchModel, event: EventPattern, state: SearchState, call: Call,
                  refs: tuple[tuple[str, int, str], ...], label: Label) -> bool:
    """Whether an admitted call (whose premise already matched) is an event of the pattern."""
    if event.label_above is not None and model.policy.levels.le(label.sensitivity, event.label_above):
        return False
    return args_match(model, event.args, state, call, refs)
