"""Argument origins ``O(S, h, e)`` (Agenra Section 4.4; the inductive meaning of Section 7.2 is
missing from our copy, so this is our reading).

``origin N {via: T argument: x producer: P [preserving: {C…}]}`` constrains calls of ``T``: the
handle given for ``x`` must name a *successful* result whose producing tool (or operation) is
``P``; with ``preserving``, a result of a listed operation that has exactly one distinct parent
qualifies iff that parent qualifies (inductively). Identical bytes from another producer never
qualify: the check reads the stored producer, not the payload.

Choices where the source is silent:
- ``via``/``producer``/``preserving`` names match a record's tool name or its operation name.
- If ``x`` is absent or given as a literal rather than a handle, the rule fails (fail closed):
  a literal has no producer.
- Rules are checked per call, so a chained rule (Sanitize's ``record`` must come from Read) stops
  the decoy at the Sanitize call, before any output exists.
"""

from __future__ import annotations

from typing import Protocol

from model.monitor.decide.state import Call, State
from model.monitor.language.policy import OriginRule, Policy


class _Produced(Protocol):
    """What the rule reads of a record: a ``Record``, or the Adapter's live row (``session.Row``)."""

    @property
    def tool(self) -> str: ...
    @property
    def operation(self) -> str: ...
    @property
    def succeeded(self) -> bool: ...
    @property
    def parents(self) -> tuple[int, ...]: ...


class Records(Protocol):
    def record(self, d: int) -> _Produced | None: ...


def _named(record: _Produced, name: str) -> bool:
    return record.tool == name or record.operation == name


def produced_by(state: Records, d: int, rule: OriginRule) -> bool:
    seen: set[int] = set()
    while True:
        rec = state.record(d)
        if rec is None or not rec.succeeded or d in seen:
            return False
        if _named(rec, rule.producer):
            return True
        if not any(_named(rec, op) for op in rule.preserving) or len(rec.parents) != 1:
            return False
        seen.add(d)
        d = rec.parents[0]


def violated_origins(policy: Policy, state: State, call: Call, operation: str) -> tuple[str, ...]:
    """Names of the origin rules this call breaks (empty: ``O`` holds)."""
    refs = dict(call.refs)
    bad: list[str] = []
    for rule in policy.origins:
        if rule.via not in (call.tool, operation):
            continue
        d = refs.get(rule.argument)
        if d is None or not produced_by(state, d, rule):
            bad.append(rule.name)
    return tuple(bad)
