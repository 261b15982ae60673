"""Breadth-first exploration of the product of two monitors — call sequences under two policies in
lockstep, through the real monitor transition ``model.monitor.commit.step`` — merging equivalent product
states (issue 15 §2: "explore the product of old and new monitors over canonical states with merging,
instead of enumerating sequences").

The ``lead`` policy must admit every call of an explored sequence (a client of ``lead``); the
``other`` policy is run alongside until it first refuses. Sequences are visited in order of
length, then template order, so the first sequence a caller accepts is a shortest one, and the
lexicographically first among the shortest. Used by ``counterexample.py`` for lost clients (lead = old)
and newly admitted forbidden traces (lead = new). Application events (a satisfied requirement) are
admitted by both.

Mid-task, the search starts from a given ``root`` (``prefix.root``): the prefix's state under the
lead policy and the carried state (or the old state S) under the other, with the prefix's records
available to ``$from`` arguments and its effects counted against forbidden budgets.

**Merging.** Two product nodes have the same future — every continuation gets the same decisions under
both policies, the same effects and the same acceptance — when their *canonical keys* are equal: per
policy, the counters, slot values, invalid slots, ``Q`` and permits, whether ``other`` still runs, and
for each tool the *deep content* of its latest successful record (the only record a ``$from`` argument
can name: tool, arguments, label, success, value and, recursively, the records it was made from, which
origin rules and produced-by lineage read); plus, when ``accept`` reads them (forbidden budgets), the
effects as a multiset. A decision reads the state only through these (the compiled monitor's decision
memo of ``model/search/expand.py`` rests on the same fact), and stepping two nodes with equal keys by
the same template gives nodes with equal keys. History rules read every admitted record in order, so
under a policy with one the key is the exact pair of states (merging only equal states).
A merged node is dropped where it is met again: its BFS representative is the lexicographically first
sequence reaching it, so every continuation of the dropped one has a smaller twin with the same
outcome, and the first accepted sequence is the one the unmerged search returns
(tests/property/test_revision_differential.py compares both). ``merge=False`` is the sequence
enumeration this replaced, kept as the baseline of ``experiments/revision_corpus.py``.

``visited`` counts the nodes generated (with merging: distinct product states, plus the repeats met).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

from model.canonical import canonical_str
from model.monitor.commit import Outcome, step
from model.monitor.decide import Decision, Verdict
from model.monitor.matching import Effect
from model.monitor.policy import Policy
from model.monitor.state import Call, State, initial_state, satisfy
from model.revision.workload import Template, Workload

# A policy's transitions from the task-start state, by template sequence: the call a sequence ends with is
# fixed by the sequence (its ``$from`` arguments read the results the workload declares), so the state
# after it is too — whichever policy runs alongside, merged or not. Kept per (policy, workload) in the
# memo (memo.py), the old policy's transitions are computed once for all the revisions of a base, and
# the new policy's once for both searches of a check. ``None``: every transition stepped afresh.
Steps = dict[tuple[int, ...], tuple[Verdict, State]]


@dataclass(frozen=True, slots=True)
class Node:
    seq: tuple[int, ...]  # template indices
    lead: State
    other: State | None  # None once the other policy refused a call of the sequence
    other_refusal: Verdict | None  # the other policy's verdict on the call it refused
    produced: tuple[str | None, ...]  # per record of the lead trace: the tool, if it succeeded
    values: tuple[str, ...]  # per record: the canonical JSON of its declared result
    effects: tuple[Effect, ...]  # effects the lead admitted, in order


def _deep(state: State, values: tuple[str, ...]) -> list[Hashable]:
    out: list[Hashable] = []
    for r in state.trace:  # parents precede children
        out.append((r.tool, r.args_json, r.label, r.succeeded, values[r.id] if r.id < len(values) else None,
                    tuple(out[p] for p in r.parents)))
    return out


_CANON: dict[tuple[type, object], str] = {}


def _canon(v: object) -> str:
    """``canonical_str`` of a merge key's scalar, remembered (keyed by type: ``1`` and ``True`` differ)."""
    if isinstance(v, list | dict):
        return canonical_str(v)
    k = (type(v), v)
    got = _CANON.get(k)
    if got is None:
        got = _CANON[k] = canonical_str(v)
        if len(_CANON) > 100_000:
            _CANON.clear()
    return got


def _side(state: State, node: Node, exact: bool) -> Hashable:
    if exact:
        # The state itself (histories read the whole trace), plus its bindings in canonical form: State's
        # own equality is Python's, under which a slot bound to true equals one bound to 1, while the
        # monitor tells them apart (records keep canonical argument text already).
        return (state, tuple((s, _canon(v)) for s, v, _ in state.bindings))
    deep = _deep(state, node.values)
    latest: dict[str, Hashable] = {}
    for i, tool in enumerate(node.produced):
        if tool is not None and i < len(deep):
            latest[tool] = deep[i]
    return (tuple((s, _canon(v)) for s, v, _ in state.bindings), state.invalid, state.used_user,
            state.used_app, state.satisfied, state.permits, tuple(sorted(latest.items())))


def key(node: Node, exact: bool, effects: bool) -> Hashable:
    """The canonical key of a product node (see the module docstring)."""
    other = None if node.other is None else _side(node.other, node, exact)
    counted = tuple(sorted((e.action, _canon(e.resource)) for e in node.effects)) if effects else ()
    return (_side(node.lead, node, exact), other, counted)


def explore(lead: Policy, other: Policy, workload: Workload, bound: int,
            accept: Callable[[Node], bool], root: Node | None = None, *, merge: bool = True,
            effects_matter: bool = True, tick: Callable[[], None] | None = None,
            steps: tuple[Steps, Steps] | None = None) -> tuple[Node | None, int]:
    """The first (shortest, then template order) node ``accept`` takes, and how many nodes were visited.

    ``effects_matter``: ``accept`` reads ``node.effects`` (they are then part of the merge key);
    ``tick``: called once per node generated (a budget meter's ``tick``); ``steps``: tables of the
    lead's and the other policy's transitions by sequence, filled and read here (see ``Steps``; only
    from the task-start root, where a sequence fixes both states)."""
    if root is not None:
        steps = None
    if root is None:
        root = Node((), initial_state(len(lead.user), len(lead.application)),
                    initial_state(len(other.user), len(other.application)), None, (), (), ())
    exact = bool(lead.histories or other.histories)
    seen: set[Hashable] = {key(root, exact, effects_matter)} if merge else set()
    frontier = [root]
    visited = 0
    for _ in range(bound):
        nxt: list[Node] = []
        for node in frontier:
            for child in _children(lead, other, workload, node, steps):
                visited += 1
                if tick is not None:
                    tick()
                if merge:
                    k = key(child, exact, effects_matter)
                    if k in seen:
                        continue  # an earlier (lexicographically smaller) sequence reached it
                    seen.add(k)
                if accept(child):
                    return child, visited
                nxt.append(child)
        frontier = nxt
        if not frontier:
            break
    return None, visited


def _stepped(table: Steps | None, seq: tuple[int, ...], policy: Policy, state: State, call: Call,
             outcome: Outcome) -> tuple[Verdict, State]:
    if table is None:
        return step(policy, state, call, outcome)
    hit = table.get(seq)
    if hit is None:
        hit = table[seq] = step(policy, state, call, outcome)
    return hit


def _children(lead: Policy, other: Policy, workload: Workload, node: Node,
              steps: tuple[Steps, Steps] | None = None) -> Iterator[Node]:
    lead_steps, other_steps = (None, None) if steps is None else steps
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
        verdict, lead_state = _stepped(lead_steps, seq, lead, node.lead, call, outcome)
        if verdict.decision is not Decision.ALLOW:
            continue
        other_state, refusal = node.other, node.other_refusal
        if other_state is not None:
            v_other, other_state = _stepped(other_steps, seq, other, other_state, call, outcome)
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
