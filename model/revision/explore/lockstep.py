"""Breadth-first exploration of the product of two monitors — call sequences under two policies in
lockstep, through the real monitor transition ``model.monitor.decide.commit.step`` — merging equivalent
product states (merging, instead of enumerating
sequences, is what keeps the search tractable one or two calls beyond the corpus bound).

The ``lead`` policy must admit every call of an explored sequence (a client of ``lead``); the
``other`` policy is run alongside until it first refuses. Sequences are visited in order of
length, then template order, so the first sequence a caller accepts is a shortest one, and the
lexicographically first among the shortest. Used by ``counterexample.py`` for lost clients (lead = old)
and newly admitted forbidden traces (lead = new). Application events (a satisfied requirement) are
admitted by both.

Mid-task, the search starts from a given ``root`` (``prefix.root``): the prefix's state under the
lead policy and the carried state (or the old state S) under the other, with the prefix's records
available to ``$from`` arguments and its effects counted against forbidden budgets.

**Merging** equivalent product nodes by their canonical keys is described in ``merge_keys.py``.

``visited`` counts the nodes generated (with merging: distinct product states, plus the repeats met).
The loop is ``model/search/engine.py``'s: the nodes are its transitions, a ``KeyedFrontier`` (the merge
keys, the frontier as a list; a node carries its own sequence) its store, and the first accepted node
stops it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from model.base.canonical import JSON
from model.monitor.decide.base import Decision, Verdict
from model.monitor.decide.commit import Outcome, commit_in, observe_in, step
from model.monitor.decide.compiled import Compiled, compiled
from model.monitor.decide.compiled_decide import decide_compiled
from model.monitor.decide.matching import Effect
from model.monitor.decide.state import Call, State, initial_state, satisfy
from model.monitor.language.policy import Policy
from model.revision.explore.merge_keys import Deep, Node, Sides, Steps, key
from model.revision.explore.workload import Counts, Template, Workload, with_args
from model.search.engine import KeyedFrontier, Stop, bfs


def explore(lead: Policy, other: Policy, workload: Workload, bound: int,
            accept: Callable[[Node], bool], root: Node | None = None, *, merge: bool = True,
            effects_matter: bool = True, tick: Callable[[], None] | None = None,
            steps: tuple[Steps, Steps] | None = None,
            budgets: bool = False, lean: bool = True) -> tuple[Node | None, int]:
    """The first (shortest, then template order) node ``accept`` takes, and how many nodes were visited.

    ``effects_matter``: ``accept`` reads ``node.effects`` (they are then part of the merge key);
    ``tick``: called once per node generated (a budget meter's ``tick``); ``steps``: tables of the
    lead's and the other policy's transitions by sequence, filled and read here (see ``Steps``; only
    from the task-start root, where a sequence fixes both states). ``budgets``: ``accept`` takes only nodes whose
    effects break one of the workload's forbidden budgets; on the memoized path a last-level child whose
    effects break none is then not generated (``_Effects``). ``lean``: on the memoized path, the merge key
    leaves the latest records out when no template has a ``$from`` argument (merge_keys.py); ``False``
    keeps them (the speed baseline)."""
    if root is not None:
        steps = None
    if root is None:
        root = Node((), initial_state(len(lead.user), len(lead.application)),
                    initial_state(len(other.user), len(other.application)), None, (), (), ())
    exact = bool(lead.histories or other.histories)
    # the templates parsed once per search on the memoized path; the baselines parse per call as before
    # (with the budgets' argument tests compiled per template: a call's literal arguments never change)
    prepared = None if steps is None else [_Prepared.of(t, workload) for t in workload.templates]
    # and the monitors' compiled forms looked up once per search, as the Adapter does (the same transition)
    monitors: _Monitors | None = None if steps is None else (compiled(lead), compiled(other), {})
    known: _Effects | None = {} if steps is not None and budgets else None
    # the baselines (and a search from a mid-task root) compute every key afresh
    deep: Deep | None = None if steps is None else {}
    sides: Sides | None = None if steps is None else {}
    # without a ``$from`` argument no call names an earlier record (merge_keys.py); the baselines keep them
    records = steps is None or not lean or any(t.sources() for t in workload.templates)
    store: KeyedFrontier[Node] = KeyedFrontier([root], [key(root, exact, effects_matter, deep, sides, records)]
                                               if merge else [])
    accepted: list[Node] = []

    def expand(depth: int, at_bound: bool, _n: int, node: Node, _x: None) -> Iterator[None]:
        # On the memoized path the last level's children are not merged: they are never expanded, and
        # one whose key was met before is taken by ``accept`` as its twin was (the key holds all
        # ``accept`` reads), so the answer and ``visited`` are the same (``visited`` counts repeats too).
        # Nor are their transitions committed: each policy's verdict is decided and the child keeps its
        # parent's states, so ``accept`` (counterexample.py) reads of a last-level child only its
        # sequence, which policy refused and how, and the effects — never the states themselves.
        last = steps is not None and at_bound
        for child in _children(lead, other, workload, node, steps, prepared, last, monitors, known):
            yield None
            if merge and not last and not store.add(key(child, exact, effects_matter, deep, sides, records)):
                continue  # an earlier (lexicographically smaller) sequence reached it
            if accept(child):
                accepted.append(child)
                raise Stop
            if not last:
                store.push(child)

    # ``tick`` (a budget meter's) runs once per node generated and its ``BudgetExhausted`` is the caller's
    cov = bfs(store, expand, bound, None, step=tick, catch=False)
    return (accepted[0] if accepted else None), cov.transitions


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What a template contributes to every call made from it, parsed once per search: its literal
    arguments, the tools its ``$from`` arguments read, and its declared outcome. A call's argument
    dict is a fresh copy per call; the parsed values themselves are shared (the monitor reads them;
    a record keeps their canonical text, a binding only a scalar)."""

    literal: dict[str, JSON]
    sources: tuple[tuple[str, str], ...]
    outcome: Outcome | None  # None for an application event
    passes: tuple[bool, ...] | None = None  # the budgets' argument tests, compiled (Workload.passes)

    @staticmethod
    def of(t: Template, workload: Workload | None = None) -> _Prepared:
        if t.tool is None:
            return _Prepared({}, (), None)
        passes = workload.passes(t.args) if workload is not None and workload.tests_args() else None
        return _Prepared(t.literal_args(), tuple(t.sources().items()),
                         Outcome(t.ok, json.loads(t.value_json) if t.ok else None), passes)


def _children(lead: Policy, other: Policy, workload: Workload, node: Node,
              steps: tuple[Steps, Steps] | None = None,
              prepared: list[_Prepared] | None = None, last: bool = False,
              monitors: _Monitors | None = None, known: _Effects | None = None) -> Iterator[Node]:
    """``last``: the children are never expanded — a transition not in the tables is decided, not committed,
    and the child keeps its parent's states (see ``explore``). ``monitors``: the two policies' compiled
    forms and the declared results parsed so far (``_Monitors``), on the memoized path."""
    lead_steps, other_steps = (None, None) if steps is None else steps
    lead_c, other_c, parsed = (None, None, None) if monitors is None else monitors
    tested = workload.tests_args()
    after: Callable[[Counts], bool] | None = None  # the parent's effects counted once, when needed
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
        if last and known is not None and not prep.sources and k in known:
            if after is None:
                after = workload.forbidden_after(node.effects)
            if not after(known[k][1]):
                continue  # whatever either policy decides, this child is never accepted
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
        made = tuple(verdict.effects if not tested else with_args(verdict.effects, t.args) if prep.passes is None
                     else workload.tagged(verdict.effects, t.args, prep.passes))
        if known is not None and not prep.sources and k not in known:
            known[k] = (made, workload.counts(made))  # a call's effects come from its tool and arguments alone
        yield Node(seq, lead_state, other_state, refusal, (*node.produced, t.tool if t.ok else None),
                   (*node.values, t.value_json if t.ok else "null"), (*node.effects, *made))


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
# Per template without ``$from`` arguments, the effects it made when admitted and their budget counts: a
# last-level child whose effects break no budget is skipped before either policy decides it. The effects
# of an admitted call are ``matching.call_effects`` of its tool and arguments — no state enters them — so a
# template's are known from any earlier admission of it.
_Effects = dict[int, tuple[tuple[Effect, ...], Counts]]


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
