"""Effects of a call and the permission-matching predicate (Agenra Sections 5 and 5.2).

A grant ``k`` matches effect ``(α′, r)`` of a call with arguments ``x`` iff

    α′ = α_k  ∧  r ∈ G_{B,I}(R_k)  ∧  keys(x) ⊆ K_k  ∧  χ_k(x).

Choices where the source is silent:
- Resources and constants compare as JSON values (RFC 8785 equality: ``1 == 1.0``, never ``true``).
- A resource must be a non-null JSON scalar; an object, array or null is malformed, and so is an
  empty list argument (an empty batch would otherwise run a tool with no authorization at all).
- A slot pattern matches only a bound slot that has not been invalidated.
- Globs use ``fnmatch.fnmatchcase`` and match strings only.
- Predicates read arguments by a dotted path through JSON objects; a missing step, or a
  non-number for a range (booleans are not numbers), makes the predicate false.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass

from model.base.canonical import JSON, canonical_str, json_equal
from model.base.fastinit import fast_init
from model.monitor.decide.state import State
from model.monitor.language.policy import (
    AnyRes,
    ArgPredicate,
    ArgRes,
    ConstPat,
    ConstRes,
    Entry,
    EqPred,
    GlobPat,
    ListArgRes,
    OneOfPred,
    RangePred,
    ResourcePattern,
    SlotPat,
    Tool,
)


@fast_init
@dataclass(frozen=True, slots=True)
class Effect:
    """One effect unit ``(action, resource)`` a call would perform."""

    action: str
    resource: JSON

    def show(self) -> str:
        """``action(resource)`` with the resource as canonical JSON, as the policy writes it (a Python repr
        would print ``True`` for ``true`` and ``'a'`` for ``"a"``)."""
        return f"{self.action}({canonical_str(self.resource)})"


def _scalar(v: JSON) -> bool:
    return v is not None and isinstance(v, str | int | float | bool)


def call_effects(tool: Tool, args: Mapping[str, JSON]) -> tuple[Effect, ...] | str:
    """The ordered effect units of a call, or a description of the malformed resource."""
    out: list[Effect] = []
    for decl in tool.effects:
        res = decl.resource
        if isinstance(res, ConstRes):
            out.append(Effect(decl.action, res.value))
        elif isinstance(res, ArgRes):
            if res.arg not in args:
                return f"argument {res.arg!r} naming the resource of {decl.action} is missing"
            if not _scalar(args[res.arg]):
                return f"argument {res.arg!r} is not a JSON scalar resource"
            out.append(Effect(decl.action, args[res.arg]))
        elif isinstance(res, ListArgRes):
            items = args.get(res.arg)
            if not isinstance(items, list) or not items:
                return f"argument {res.arg!r} is not a non-empty list of resources"
            for item in items:
                if not _scalar(item):
                    return f"argument {res.arg!r} holds a resource that is not a JSON scalar"
                out.append(Effect(decl.action, item))
    return tuple(out)


def resource_matches(pattern: ResourcePattern, resource: JSON, state: State) -> bool:
    """``r ∈ G_{B,I}(R)``."""
    if isinstance(pattern, AnyRes):
        return True
    if isinstance(pattern, ConstPat):
        return json_equal(pattern.value, resource)
    if isinstance(pattern, SlotPat):
        if pattern.slot in state.invalid or not state.is_bound(pattern.slot):
            return False
        return json_equal(state.binding(pattern.slot), resource)
    if isinstance(pattern, GlobPat):
        return isinstance(resource, str) and fnmatch.fnmatchcase(resource, pattern.glob)
    raise AssertionError(pattern)  # unreachable: ResourcePattern is closed


class Missing:
    """The absent value (distinct from JSON null)."""


MISSING = Missing()


def lookup_path(value: JSON, path: tuple[str, ...]) -> JSON | Missing:
    """Follow a dotted path through JSON objects; ``MISSING`` when any step is absent."""
    cur: JSON = value
    for step in path:
        if not isinstance(cur, dict) or step not in cur:
            return MISSING
        cur = cur[step]
    return cur


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def predicate_holds(pred: ArgPredicate, args: Mapping[str, JSON]) -> bool:
    v = lookup_path(dict(args), pred.path)
    if isinstance(v, Missing):
        return False
    if isinstance(pred, EqPred):
        return json_equal(v, pred.value)
    if isinstance(pred, OneOfPred):
        return any(json_equal(v, c) for c in pred.values)
    if isinstance(pred, RangePred):
        if not _number(v):
            return False
        assert isinstance(v, int | float)
        return (pred.low is None or pred.low <= v) and (pred.high is None or v <= pred.high)
    raise AssertionError(pred)


def entry_matches(entry: Entry, effect: Effect, args: Mapping[str, JSON], state: State) -> bool:
    """The full matching predicate of Section 5.2 (capacity and requirements are not part of it)."""
    if entry.action != effect.action:
        return False
    if not resource_matches(entry.resource, effect.resource, state):
        return False
    if entry.keys is not None and not set(args) <= entry.keys:
        return False
    return all(predicate_holds(p, args) for p in entry.where)


def ready(entry: Entry, state: State) -> bool:
    """A matching allow is ready when it needs no requirement or its requirement is in ``Q``."""
    return entry.requires is None or entry.requires in state.satisfied
