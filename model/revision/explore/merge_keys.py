"""Merge keys of the revision product search (*Agenra: A Language and Verified Core for Stateful LLM
Agent Authorization*, Section 7.1's bounded search for lost clients and newly admitted forbidden traces;
the merging is ours), the product nodes they key, and the step tables shared through the memo.

Two product nodes have the same future — every continuation gets the same decisions under
both policies, the same effects and the same acceptance — when their *canonical keys* are equal: per
policy, the counters, slot values, invalid slots, ``Q`` and permits, whether ``other`` still runs, and
for each tool the *deep content* of its latest successful record (the only record a ``$from`` argument
can name: tool, arguments, label, success, value and, recursively, the records it was made from, which
origin rules and produced-by lineage read; left out when no template of the workload has a ``$from``
argument, since then no call names a record); plus, when ``accept`` reads them (forbidden budgets), the
effects as a multiset. A decision reads the state only through these (the compiled monitor's decision
memo of ``model/search/expand.py`` rests on the same fact), and stepping two nodes with equal keys by
the same template gives nodes with equal keys. History rules read every admitted record in order, so
under a policy with one the key is the exact pair of states (merging only equal states).
A merged node is dropped where it is met again: its BFS representative is the lexicographically first
sequence reaching it, so every continuation of the dropped one has a smaller twin with the same
outcome, and the first accepted sequence is the one the unmerged search returns
(tests/property/test_revision_differential.py compares both). ``merge=False`` is the sequence
enumeration this replaced, kept as the baseline of ``experiments/revision_corpus.py``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from model.base.canonical import canonical_str
from model.monitor.decide.base import Verdict
from model.monitor.decide.matching import Effect
from model.monitor.decide.state import Record, State
from model.revision.explore.workload import ArgEffect

# A policy's transitions from the task-start state, by template sequence: the call a sequence ends with is
# fixed by the sequence (its ``$from`` arguments read the results the workload declares), so the state
# after it is too — whichever policy runs alongside, merged or not. Kept per (policy, workload) in the
# memo (memo.py), the old policy's transitions are computed once for all the revisions of a base, and
# the new policy's once for both searches of a check. ``None``: every transition stepped afresh.
# A transition met only at a search's last level is kept decided but not committed (state ``None``):
# the children there are never expanded, so the state after is never read; a search that needs it
# (a deeper bound) steps it then.
Steps = dict[tuple[int, ...], tuple[Verdict, State | None]]


@dataclass(frozen=True, slots=True)
class Node:
    seq: tuple[int, ...]  # template indices
    lead: State
    other: State | None  # None once the other policy refused a call of the sequence
    other_refusal: Verdict | None  # the other policy's verdict on the call it refused
    produced: tuple[str | None, ...]  # per record of the lead trace: the tool, if it succeeded
    values: tuple[str, ...]  # per record: the canonical JSON of its declared result
    effects: tuple[Effect, ...]  # effects the lead admitted, in order


def _deep(state: State, values: tuple[str, ...], cache: Deep | None = None) -> list[Hashable]:
    out: list[Hashable] = []
    for r in state.trace:  # parents precede children
        hit = None if cache is None else cache.get(id(r))
        if hit is not None and hit[0] is r:
            out.append(hit[1])
            continue
        d = (r.tool, r.args_json, r.label, r.succeeded, values[r.id] if r.id < len(values) else None,
             tuple(out[p] for p in r.parents))
        if cache is not None:
            cache[id(r)] = (r, d)
        out.append(d)
    return out


# A record's deep content by record object, within one search: the record a step makes is shared by every
# state after it, and so is the declared result it refers to (``values`` grows along the sequence that
# made it), so its deep content is computed once (the record kept alive with it, so its id is not reused).
Deep = dict[int, tuple[Record, Hashable]]


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


def _side(state: State, node: Node, exact: bool, cache: Deep | None = None,
          sides: Sides | None = None, records: bool = True) -> Hashable:
    if exact:
        # The state itself (histories read the whole trace), plus its bindings in canonical form: State's
        # own equality is Python's, under which a slot bound to true equals one bound to 1, while the
        # monitor tells them apart (records keep canonical argument text already).
        return (state, tuple((s, _canon(v)) for s, v, _ in state.bindings))
    hit = None if sides is None else sides.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    latest: dict[str, Hashable] = {}
    if records:
        deep = _deep(state, node.values, cache)
        for i, tool in enumerate(node.produced):
            if tool is not None and i < len(deep):
                latest[tool] = deep[i]
    out = (tuple((s, _canon(v)) for s, v, _ in state.bindings), state.invalid, state.used_user,
           state.used_app, state.satisfied, state.permits, tuple(sorted(latest.items())))
    if sides is not None:
        sides[id(state)] = (state, out)
    return out


# A state's side of the merge key, by state object, within one search (from the task-start root): a
# state object is made by the step (or requirement) that ends one sequence — the step tables hand out
# the same object for the same sequence — and its side reads, besides the state, only the results
# declared along that sequence (``produced`` and ``values`` up to its trace's length), so it is the
# same in every node that holds it.
Sides = dict[int, tuple[State, Hashable]]


def _tests(e: object) -> tuple[object, ...]:
    """What the budgets read of an effect besides action and resource: its compiled tests when it carries
    them (two calls whose arguments pass the same tests count alike for every budget, so their nodes
    merge), else its literal arguments."""
    if not isinstance(e, ArgEffect):
        return ()
    return ("passes", e.passes) if e.passes is not None else e.args


def key(node: Node, exact: bool, effects: bool, cache: Deep | None = None, sides: Sides | None = None,
        records: bool = True) -> Hashable:
    """The canonical key of a product node (see the module docstring); ``cache``, ``sides``: deep contents
    of the records and sides of the states met so far in this search (``Deep``, ``Sides``); ``records``:
    some template of the workload has a ``$from`` argument — else no call names an earlier record (no call
    has parents), so the latest records are left out of the key and more nodes merge."""
    other = None if node.other is None else _side(node.other, node, exact, cache, sides, records)
    counted = tuple(sorted((e.action, _canon(e.resource), _tests(e)) for e in node.effects)) if effects else ()
    return (_side(node.lead, node, exact, cache, sides, records), other, counted)
