"""Breadth-first exploration of the product of two monitors — call sequences under two policies in
lockstep, through the real monitor transition ``model.monitor.decide.commit.step`` — merging equivalent product
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

from model.canonical import JSON, canonical_str
from model.monitor.decide.base import Decision, Verdict
from model.monitor.decide.commit import Outcome, commit_in, observe_in, step
from model.monitor.decide.compiled import Compiled, compiled
from model.monitor.decide.compiled_decide import decide_compiled
from model.monitor.decide.matching import Effect
from model.monitor.decide.state import Call, Record, State, initial_state, satisfy
from model.monitor.language.policy import Policy
from model.revision.search.workload import Template, Workload

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


def _deep(state: State, values: tuple[str, ...], cache: _Deep | None = None) -> list[Hashable]:
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
_Deep = dict[int, tuple[Record, Hashable]]


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


def _side(state: State, node: Node, exact: bool, cache: _Deep | None = None,
          sides: _Sides | None = None) -> Hashable:
    if exact:
        # The state itself (histories read the whole trace), plus its bindings in canonical form: State's
        # own equality is Python's, under which a slot bound to true equals one bound to 1, while the
        # monitor tells them apart (records keep canonical argument text already).
        return (state, tuple((s, _canon(v)) for s, v, _ in state.bindings))
    hit = None if sides is None else sides.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    deep = _deep(state, node.values, cache)
    latest: dict[str, Hashable] = {}
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
_Sides = dict[int, tuple[State, Hashable]]


def key(node: Node, exact: bool, effects: bool, cache: _Deep | None = None, sides: _Sides | None = None) -> Hashable:
    """The canonical key of a product node (see the module docstring); ``cache``, ``sides``: deep contents
    of the records and sides of the states met so far in this search (``_Deep``, ``_Sides``)."""
    other = None if node.other is None else _side(node.other, node, exact, cache, sides)
    counted = tuple(sorted((e.action, _canon(e.resource)) for e in node.effects)) if effects else ()
    return (_side(node.lead, node, exact, cache, sides), other, counted)


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
    # the templates parsed once per search on the memoized path; the baselines parse per call as before
    prepared = None if steps is None else [_Prepared.of(t) for t in workload.templates]
    # and the monitors' compiled forms looked up once per search, as the Adapter does (the same transition)
    monitors: _Monitors | None = None if steps is None else (compiled(lead), compiled(other), {})
    # the baselines (and a search from a mid-task root) compute every key afresh
    deep: _Deep | None = None if steps is None else {}
    sides: _Sides | None = None if steps is None else {}
    seen: set[Hashable] = {key(root, exact, effects_matter, deep, sides)} if merge else set()
    frontier = [root]
    visited = 0
    for depth in range(bound):
        # On the memoized path the last level's children are not merged: they are never expanded, and
        # one whose key was met before is taken by ``accept`` as its twin was (the key holds all
        # ``accept`` reads), so the answer and ``visited`` are the same (``visited`` counts repeats too).
        # Nor are their transitions committed: each policy's verdict is decided and the child keeps its
        # parent's states, so ``accept`` (counterexample.py) reads of a last-level child only its
        # sequence, which policy refused and how, and the effects — never the states themselves.
        last = steps is not None and depth == bound - 1
        nxt: list[Node] = []
        for node in frontier:
            for child in _children(lead, other, workload, node, steps, prepared, last, monitors):
                visited += 1
                if tick is not None:
                    tick()
                if merge and not last:
                    k = key(child, exact, effects_matter, deep, sides)
                    if k in seen:
                        continue  # an earlier (lexicographically smaller) sequence reached it
                    seen.add(k)
                if accept(child):
                    return child, visited
                if not last:
                    nxt.append(child)
        frontier = nxt
        if not frontier:
            break
    return None, visited


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What a template contributes to every call made from it, parsed once per search: its literal
    arguments, the tools its ``$from`` arguments read, and its declared outcome. A call's argument
    dict is a fresh copy per call; the parsed values themselves are shared (the monitor reads them;
    a record keeps their canonical text, a binding only a scalar)."""

    literal: dict[str, JSON]
    sources: tuple[tuple[str, str], ...]
    outcome: Outcome | None  # None for an application event

    @staticmethod
    def of(t: Template) -> _Prepared:
        if t.tool is None:
            return _Prepared({}, (), None)
        return _Prepared(t.literal_args(), tuple(t.sources().items()),
                         Outcome(t.ok, json.loads(t.value_json) if t.ok else None))


def _children(lead: Policy, other: Policy, workload: Workload, node: Node,
              steps: tuple[Steps, Steps] | None = None,
              prepared: list[_Prepared] | None = None, last: bool = False,
              monitors: _Monitors | None = None) -> Iterator[Node]:
    """``last``: the children are never expanded — a transition not in the tables is decided, not committed,
    and the child keeps its parent's states (see ``explore``). ``monitors``: the two policies' compiled
    forms and the declared results parsed so far (``_Monitors``), on the memoized path."""
    lead_steps, other_steps = (None, None) if steps is None else steps
    lead_c, other_c, parsed = (None, None, None) if monitors is None else monitors
    for k, t in enumerate(workload.templates):
        seq = (*node.seq, k)
        if t.tool is None:
            assert t.satisfy is not None
            yield Node(seq, satisfy(node.lead, t.satisfy),
                       None if node.other is None else satisfy(node.other, t.satisfy),
                       node.other_refusal, node.produced, node.values, node.effects)
            continue
        prep = _Prepared.of(t) if prepared is None else prepared[k]
        refs = _refs(prep, node)
        if refs is None:
            continue
        outcome = prep.outcome
        assert outcome is not None
        call: Call | None = None  # made only when a transition is not in the tables (Steps)
        hit = None if lead_steps is None else lead_steps.get(seq)
        if hit is None or (hit[1] is None and not last):
            call = _call(workload.agent, t, prep, refs, node, parsed)
            hit = _transition(lead, lead_c, node.lead, call, outcome, last)
            if lead_steps is not None:
                lead_steps[seq] = hit
        verdict, lead_state = hit[0], node.lead if hit[1] is None else hit[1]
        if verdict.decision is not Decision.ALLOW:
            continue
        other_state, refusal = node.other, node.other_refusal
        if other_state is not None:
            got = None if other_steps is None else other_steps.get(seq)
            if got is None or (got[1] is None and not last):
                call = call or _call(workload.agent, t, prep, refs, node, parsed)
                got = _transition(other, other_c, other_state, call, outcome, last)
                if other_steps is not None:
                    other_steps[seq] = got
            v_other, other_state = got[0], other_state if got[1] is None else got[1]
            if v_other.decision is not Decision.ALLOW:
                other_state, refusal = None, v_other
        yield Node(seq, lead_state, other_state, refusal, (*node.produced, t.tool if t.ok else None),
                   (*node.values, t.value_json if t.ok else "null"), (*node.effects, *verdict.effects))


def _refs(prep: _Prepared, node: Node) -> list[tuple[str, int]] | None:
    """Each ``$from`` argument's record (the latest success of its tool), or ``None`` if one has none."""
    refs: list[tuple[str, int]] = []
    for arg, producer in prep.sources:
        ids = [i for i, tool in enumerate(node.produced) if tool == producer]
        if not ids:
            return None
        refs.append((arg, ids[-1]))
    return refs


# (lead's compiled form, other's, declared result texts parsed so far): the memoized path's lookups
_Monitors = tuple[Compiled, Compiled, dict[str, JSON]]


def _transition(policy: Policy, c: Compiled | None, state: State, call: Call, outcome: Outcome,
                last: bool) -> tuple[Verdict, State | None]:
    """``commit.step`` — over ``c``, the policy's compiled form, when given (decide, then on Allow commit
    and observe, as the Adapter composes them); at the ``last`` level only decided (state ``None``)."""
    if c is None:
        return step(policy, state, call, outcome)  # the baselines: the monitor's step, as before
    verdict = decide_compiled(c, state, call)
    if last:
        return verdict, None
    if verdict.decision is not Decision.ALLOW:
        return verdict, state
    after, rec = commit_in(c, state, call, verdict)
    return verdict, observe_in(c, after, rec.id, outcome)


def _call(agent: str, t: Template, prep: _Prepared, refs: list[tuple[str, int]], node: Node,
          parsed: dict[str, JSON] | None = None) -> Call:
    """The call ``t`` makes; ``parsed``: declared results parsed once per search and shared, as the literal
    arguments are (``_Prepared``); ``None``: parsed per call, as before."""
    assert t.tool is not None
    args = dict(prep.literal)
    for arg, i in refs:
        text = node.values[i]
        if parsed is None:
            args[arg] = json.loads(text)
        else:
            if text not in parsed:
                parsed[text] = json.loads(text)
            args[arg] = parsed[text]
    return Call(agent, t.tool, args, tuple(sorted(refs)))
