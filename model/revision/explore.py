"""Breadth-first exploration of call sequences under two policies in lockstep, through the real
monitor transition ``model.monitor.commit.step``.

The ``lead`` policy must admit every call of an explored sequence (a client of ``lead``); the
``other`` policy is run alongside until it first refuses. Sequences are visited in order of
length, then template order, so the first sequence a caller accepts is a shortest one. Used by
``counterexample.py`` for lost clients (lead = old) and newly admitted forbidden traces
(lead = new). Application events (a satisfied requirement) are admitted by both.

Mid-task, the search starts from a given ``root`` (``prefix.root``): the prefix's state under the
lead policy and the carried state (or the old state S) under the other, with the prefix's records
available to ``$from`` arguments and its effects counted against forbidden budgets.

Choice: no state merging — two sequences reaching equal ledgers may still differ in their traces,
which origin, flow and history rules read; the bound and the workload keep the tree small.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from model.budget import Meter
from model.monitor.commit import Outcome, step
from model.monitor.decide import Decision, Verdict
from model.monitor.matching import Effect
from model.monitor.policy import Policy
from model.monitor.state import Call, State, initial_state, satisfy
from model.revision.workload import Template, Workload


@dataclass(frozen=True, slots=True)
class Node:
    seq: tuple[int, ...]  # template indices
    lead: State
    other: State | None  # None once the other policy refused a call of the sequence
    other_refusal: Verdict | None  # the other policy's verdict on the call it refused
    produced: tuple[str | None, ...]  # per record of the lead trace: the tool, if it succeeded
    values: tuple[str, ...]  # per record: the canonical JSON of its declared result
    effects: tuple[Effect, ...]  # effects the lead admitted, in order


def explore(lead: Policy, other: Policy, workload: Workload, bound: int,
            accept: Callable[[Node], bool], root: Node | None = None,
            meter: Meter | None = None) -> tuple[Node | None, int]:
    """The first (shortest) node ``accept`` takes, and how many nodes were visited; ``meter`` ticks
    once per visited node (it raises ``BudgetExhausted``, which the caller turns into ``Unknown``)."""
    if root is None:
        root = Node((), initial_state(len(lead.user), len(lead.application)),
                    initial_state(len(other.user), len(other.application)), None, (), (), ())
    frontier = [root]
    visited = 0
    for _ in range(bound):
        nxt: list[Node] = []
        for node in frontier:
            for child in _children(lead, other, workload, node):
                visited += 1
                if meter is not None:
                    meter.tick()
                if accept(child):
                    return child, visited
                nxt.append(child)
        frontier = nxt
        if not frontier:
            break
    return None, visited


def _children(lead: Policy, other: Policy, workload: Workload, node: Node) -> Iterator[Node]:
    for k, t in enumerate(workload.templates):
        seq = (*node.seq, k)
        if t.tool is None:
            assert t.satisfy is not None
            yield Node(seq, satisfy(node.lead, t.satisfy),
                       None if node.other is None else satisfy(node.other, t.satisfy),
                       node.other_refusal, node.produced, node.values, node.effects)
            continue
        call = _call_with(workload.agent, t, node)
        if call is None:
            continue
        outcome = Outcome(t.ok, json.loads(t.value_json) if t.ok else None)
        verdict, lead_state = step(lead, node.lead, call, outcome)
        if verdict.decision is not Decision.ALLOW:
            continue
        other_state, refusal = node.other, node.other_refusal
        if other_state is not None:
            v_other, other_state = step(other, other_state, call, outcome)
            if v_other.decision is not Decision.ALLOW:
                other_state, refusal = None, v_other
        yield Node(seq, lead_state, other_state, refusal, (*node.produced, t.tool if t.ok else None),
                   (*node.values, t.value_json if t.ok else "null"), (*node.effects, *verdict.effects))


def _call_with(agent: str, t: Template, node: Node) -> Call | None:
    assert t.tool is not None
    args = t.literal_args()
    refs: list[tuple[str, int]] = []
    for arg, producer in t.sources().items():
        ids = [i for i, tool in enumerate(node.produced) if tool == producer]
        if not ids:
            return None
        refs.append((arg, ids[-1]))
        args[arg] = json.loads(node.values[ids[-1]])
    return Call(agent, t.tool, args, tuple(sorted(refs)))
