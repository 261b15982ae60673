"""Search states and the actions between them (Agenra Sections 3 and 6.1, in the finite model of bounded
analysis): a search state is the monitor state ``S`` plus, per admitted record, the argument-to-handle
map, the result value on success and the query events the record matched when it was made (see
``space.py`` for why each is kept). Actions are the agent's calls, the reviewer's ``Satisfy`` and the
approver's ``Approve``; a ``Transition`` names one action with its outcome and the monitor's verdict."""

from __future__ import annotations

import json
from dataclasses import dataclass

from model.base.canonical import JSON
from model.monitor.decide.base import Verdict
from model.monitor.decide.matching import MISSING, Missing, lookup_path
from model.monitor.decide.state import State


@dataclass(frozen=True, slots=True)
class Lit:
    value: str  # canonical JSON text


@dataclass(frozen=True, slots=True)
class Ref:
    record: int
    path: str = ""  # dotted field path; "" for the whole result


ArgSource = Lit | Ref


@dataclass(frozen=True, slots=True)
class AgentCall:
    tool: str
    args: tuple[tuple[str, ArgSource], ...]  # sorted by argument name


@dataclass(frozen=True, slots=True)
class Satisfy:
    requirement: str


@dataclass(frozen=True, slots=True)
class Approve:
    call: AgentCall


Action = AgentCall | Satisfy | Approve


@dataclass(frozen=True, slots=True)
class Extra:
    refs: tuple[tuple[str, int, str], ...]  # (argument, record id, field path)
    result: str | None  # canonical JSON of the result, when the tool succeeded
    outcome: int  # index of the listed outcome the tool produced
    matched: frozenset[int]  # indices of the queries whose event this record matches
    premise: frozenset[int]  # indices of the queries whose premise event this record matches


@dataclass(frozen=True, slots=True)
class SearchState:
    monitor: State
    extras: tuple[Extra, ...] = ()  # parallel to monitor.trace

    def count(self, q: int) -> int:
        return sum(1 for e in self.extras if q in e.matched)

    def premise_count(self, q: int) -> int:
        return sum(1 for e in self.extras if q in e.premise)

    def value(self, ref: Ref) -> JSON | Missing:
        rec = self.monitor.record(ref.record)
        if rec is None or not rec.succeeded:
            return MISSING
        result = self.extras[ref.record].result
        if result is None:
            return MISSING
        return lookup_path(json.loads(result), tuple(ref.path.split(".")) if ref.path else ())


@dataclass(frozen=True, slots=True)
class Transition:
    action: Action
    outcome: int | None  # index into the tool's results, for agent calls
    verdict: Verdict | None  # the monitor's Allow, for agent calls


def renumber_action(action: Action, ids: dict[int, int]) -> Action:
    """The same action with every handle's record ID mapped through ``ids``."""
    if isinstance(action, Satisfy):
        return action
    if isinstance(action, Approve):
        inner = renumber_action(action.call, ids)
        assert isinstance(inner, AgentCall)
        return Approve(inner)
    return AgentCall(action.tool, tuple((n, Ref(ids[s.record], s.path) if isinstance(s, Ref) else s)
                                        for n, s in action.args))
