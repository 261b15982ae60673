"""Successors of a compact state (``compact.py``), decided by the real monitor over its compiled policy
— the same transitions, in the same order, as ``space.successors`` (reviewer actions, approvals, then
each admitted agent call × each possible outcome), without a JSON round trip per transition: literal,
result and field values are parsed once per process, argument texts are composed from their canonical
parts, and ``commit``/``observe`` are the monitor's own — or, with ``Context.semantics`` set, the Lean
core's decision and step (``agentwarrant search --backend lean``).

``successors(ctx, s, sleep)`` is a pure function of (model, state, sleep set); ``Context`` only holds
per-process memo tables, so one level of the search — ``successors`` over each frontier state — can run
on any partition of a frontier (the partitioned search of ``model/dist`` builds on this).

A transition is keyed position-wise for the sleep sets of ``por.py``: ``(tool, ((argument, source), ...),
outcome)`` with a source ``("L", canonical text)`` or ``("R", position, path)``; inserting a record at
``at`` shifts the positions ``>= at`` (``shift_key``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from model.monitor.decide.base import Decision, decide
from model.monitor.decide.commit import Outcome, commit, observe
from model.monitor.decide.compiled import compiled
from model.monitor.decide.counters import charge_positions
from model.monitor.decide.state import Call, Permit, Record, State
from model.monitor.decide.verdict import Verdict
from model.search.compact import (
    Compact,
    H,
    Rec,
    insert,
    permit_tuple,
)
from model.search.held import Context, Held, Outcome_, SrcKey, ToolOutcome, action_of, call_of, held, proposals
from model.search.patterns import args_match, event_matches, premise_matches
from model.search.por import Footprint
from model.search.states import Approve, Satisfy, SearchState, Transition

Key = tuple[str, tuple[tuple[str, SrcKey], ...], int | None]
Sleep = Mapping[Key, object]  # transition key -> its footprint (id); only membership is read here
#: (transition — a ``Transition`` or the raw parts ``transition`` builds one from —, successor, canonical
#: position of the new record or None, footprint, key)
Raw = Transition | tuple[str, tuple[str, ...], tuple["Held", ...], int, Verdict]
Succ = tuple[Raw, Compact, int | None, int, Key]  # footprint: its id in ctx.independence


def successors(ctx: Context, s: Compact, sleep: Sleep | None = None) -> Iterator[Succ]:
    """Every enabled transition of ``s`` not in ``sleep``, with its successor (canonical)."""
    m, policy = ctx.model, ctx.model.policy
    recs, bindings, invalid, used_user, used_app, satisfied, permits = s
    for req in m.satisfy:
        if req not in satisfied:
            yield (Transition(Satisfy(req), None, None), (recs, bindings, invalid, used_user, used_app,
                                                          satisfied | {req}, permits), None, ctx.special,
                   ("", (("satisfy", ("L", req)),), None))
    mon: State | None = None
    ss: SearchState | None = None
    call: Call | None = None
    hs = held(ctx, recs, bool(permits))
    if m.approvals and len(permits) < m.max_permits:
        mon = ctx.mat.monitor(s)
        ss = ctx.mat.search_state(s, mon)
        for tool, names, pairs in proposals(ctx, recs, hs):
            for ix, _ in pairs:
                choice = tuple(hs[i] for i in ix)
                call, refs3 = call_of(ctx, tool, names, choice)
                if any(a.tool == tool and args_match(m, a.args, ss, call, refs3) for a in m.approvals):
                    p = Permit(len(permits), call.tool, call.identity())
                    yield (Transition(Approve(action_of(tool, names, choice)), None, None),
                           (recs, bindings, invalid, used_user, used_app, satisfied, (*permits, permit_tuple(p))),
                           None, ctx.special, ("approve", tuple(zip(names, (h[4] for h in choice), strict=True)), None))
    memo, trans, intern, refused = ctx.memo, ctx.trans, ctx.intern, ctx.refused
    # A binding's value is keyed with its type: Python's ``True == 1`` (and ``1 == 1.0``) would let a state
    # bound to ``true`` answer for one bound to ``1``, which the monitor's ``json_equal`` tells apart. Slot
    # values are scalars (``commit._well_formed_address``), so the type makes the key exact; splitting
    # ``1`` from ``1.0`` only shares less.
    proj = intern((tuple((b[0], b[1], b[1].__class__) for b in bindings), invalid, used_user, used_app, satisfied,
                   permits))
    old_pos = {b[0]: b[2] for b in bindings}
    n = len(recs)
    for tool, names, pairs in proposals(ctx, recs, hs):
        results = ctx.results[tool]
        prefix = intern((tool, names, proj))
        for ix, content in pairs:
            verdict: Verdict | None = None
            mkey: tuple[object, ...] = ()
            if memo is not None:  # a known refusal costs one lookup, before anything else is built
                mkey = (prefix, content)
                if mkey in refused:
                    continue
                verdict = memo.get(mkey)
            choice = tuple(hs[i] for i in ix)
            argkey: tuple[tuple[str, SrcKey], ...] | None = None
            if sleep:
                argkey = tuple(zip(names, (h[4] for h in choice), strict=True))
                if all((tool, argkey, k) in sleep for k in range(len(results))):
                    continue
            call = None
            if verdict is None:
                if mon is None:
                    mon = ctx.mat.monitor(s)
                call, refs3 = call_of(ctx, tool, names, choice)
                verdict = decide(policy, mon, call) if ctx.semantics is None else ctx.semantics.decide(mon, call)
                if verdict.decision is not Decision.ALLOW:
                    if memo is not None:
                        refused.add(mkey)
                    continue
                if memo is not None:
                    memo[mkey] = verdict
            if argkey is None:
                argkey = tuple(zip(names, (h[4] for h in choice), strict=True))
            memoized = trans.get(mkey) if memo is not None and verdict.permit is None else None
            height = 0
            if call is None:
                refs3 = tuple((nm, h[3][0], h[3][1]) for nm, h in zip(names, choice, strict=True) if h[3] is not None)
            for _, d, _p in refs3:
                if recs[d][H] >= height:
                    height = recs[d][H] + 1
            if memoized is None:
                if call is None:
                    call, refs3 = call_of(ctx, tool, names, choice)
                assert call is not None
                if mon is None:
                    mon = ctx.mat.monitor(s)
                if ss is None:
                    ss = ctx.mat.search_state(s, mon)
                assert verdict.user is not None and verdict.app is not None
                memoized = (tuple(outcome_of(ctx, ss, call, refs3, verdict, k, res) for k, res in enumerate(results)),
                            charge_positions(used_user, verdict.user.positions),
                            charge_positions(used_app, verdict.app.positions))
                if memo is not None and verdict.permit is None:
                    trans[mkey] = memoized
            outcomes, uu, ua = memoized  # the counters after: a function of the key's counters and the verdict
            for k, out in enumerate(outcomes):
                if out is None:
                    continue
                key = (tool, argkey, k)
                if sleep and key in sleep:
                    continue
                core, matched, premise, after, inv, fp, new_permits = out
                crec: Rec = (height, *core, refs3, matched, premise)
                nb = bindings if after is None else \
                    tuple((sl, v, n if fresh else old_pos[sl]) for sl, v, fresh in after)
                nrecs, nbind, nperm, at = insert(recs, crec, nb, permits if new_permits is None else new_permits,
                                                 ctx.renaming)
                yield ((tool, names, choice, k, verdict), (nrecs, nbind, inv, uu, ua, satisfied, nperm), at, fp, key)


def transition(raw: Raw) -> Transition:
    """The ``Transition`` of a yielded step (agent calls are built only for the few the search keeps)."""
    if isinstance(raw, Transition):
        return raw
    tool, names, choice, k, verdict = raw
    return Transition(action_of(tool, names, choice), k, verdict)


def outcome_of(ctx: Context, ss: SearchState, call: Call, refs3: tuple[tuple[str, int, str], ...], verdict: Verdict,
             k: int, res: ToolOutcome, committed: tuple[State, Record] | None = None,
             footprint: bool = True) -> Outcome_ | None:
    """Outcome ``k`` of an admitted call. ``committed``: ``commit``'s answer for this call and verdict, when
    the caller computed it once for every outcome (it does not depend on the outcome); ``footprint``: False
    for a search without sleep sets, which never reads it (its id is then 0)."""
    m, policy = ctx.model, ctx.model.policy
    if res.when and not args_match(m, res.when, ss, call, refs3):  # type: ignore[arg-type]
        return None
    mon = ss.monitor
    if ctx.semantics is None:
        new, rec = commit(policy, mon, call, verdict) if committed is None else committed
        new = observe(policy, new, rec.id, Outcome(res.ok, res.value))
    else:
        new = ctx.semantics.step(mon, call, Outcome(res.ok, res.value))
    rec = new.trace[-1]
    matched, premise = [], []
    for i, q in enumerate(m.queries):
        if not premise_matches(q.event, call.tool, res.ok):
            continue
        premise.append(i)
        if event_matches(m, q.event, ss, call, refs3, rec.label):
            matched.append(i)
    lab = rec.label
    core = (call.tool, rec.args_json, lab.sensitivity, tuple(sorted(lab.categories)), lab.trusted, rec.succeeded,
            res.text, k)
    n = len(mon.trace)
    after: tuple[tuple[str, object, bool], ...] | None = tuple((sl, v, i == n) for sl, v, i in new.bindings)
    if new.bindings == mon.bindings:
        after = None  # unchanged (the key of this memo entry fixes the bindings it applies to)
    assert verdict.user is not None and verdict.app is not None
    permits = None if verdict.permit is None else tuple(permit_tuple(p) for p in new.permits)
    if not footprint:
        return core, tuple(matched), tuple(premise), after, new.invalid, 0, permits
    limited = frozenset(policy.user[j].action for j in verdict.user.positions if policy.user[j].quota is not None) \
        | frozenset(policy.application[j].action for j in verdict.app.positions
                    if policy.application[j].quota is not None)
    special = bool(policy.histories) or verdict.permit is not None or any(
        text == rec.args_json for _, text in compiled(policy).resolvers.get(call.tool, ()))
    fp: Footprint = (special, call.tool, m.max_calls_of(call.tool) is not None,
                     frozenset(e.action for e in verdict.effects), limited, frozenset(matched) & ctx.goals)
    return core, tuple(matched), tuple(premise), after, new.invalid, ctx.independence.id(fp), permits


def shift_key(key: Key, at: int) -> Key:
    tool, argkey, k = key
    if not any(src[0] == "R" and src[1] >= at for _, src in argkey):  # type: ignore[operator]
        return key
    return (tool, tuple((n, ("R", src[1] + 1, src[2]) if src[0] == "R" and src[1] >= at else src)  # type: ignore[operator, misc]
                        for n, src in argkey), k)


def counts(s: Compact, nq: int) -> tuple[list[int], list[int]]:
    """Per query, how many records of ``s`` match its event, and its premise."""
    matched, premise = [0] * nq, [0] * nq
    for r in s[0]:
        for i in r[10]:
            matched[i] += 1
        for i in r[11]:
            premise[i] += 1
    return matched, premise


__all__ = ["Context", "Key", "Sleep", "Succ", "counts", "outcome_of", "shift_key", "successors", "transition"]
