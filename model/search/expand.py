"""Successors of a compact state (``compact.py``), decided by the real monitor over its compiled policy
— the same transitions, in the same order, as ``space.successors`` (reviewer actions, approvals, then
each admitted agent call × each possible outcome), without a JSON round trip per transition: literal,
result and field values are parsed once per process, argument texts are composed from their canonical
parts, and ``commit``/``observe`` are the monitor's own.

``successors(ctx, s, sleep)`` is a pure function of (model, state, sleep set); ``Context`` only holds
per-process memo tables, so one level of the search — ``successors`` over each frontier state — can run
on any partition of a frontier (issue 15 §3 builds on this).

A transition is keyed position-wise for the sleep sets of ``por.py``: ``(tool, ((argument, source), ...),
outcome)`` with a source ``("L", canonical text)`` or ``("R", position, path)``; inserting a record at
``at`` shifts the positions ``>= at`` (``shift_key``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from model.canonical import JSON, canonical_str
from model.monitor.commit import Outcome, commit, observe
from model.monitor.compiled import compiled
from model.monitor.decide import Decision, decide
from model.monitor.ledger import charge_positions
from model.monitor.matching import Missing, lookup_path
from model.monitor.state import Call, Permit, State
from model.monitor.verdict import Verdict
from model.search.compact import (
    CATS,
    OK,
    REFS,
    RESULT,
    SENS,
    TOOL,
    TRUSTED,
    Compact,
    H,
    Materializer,
    PermitT,
    Rec,
    insert,
    permit_tuple,
)
from model.search.model import QueryKind, SearchModel
from model.search.patterns import args_match, event_matches, premise_matches
from model.search.por import SPECIAL, Footprint, Independence
from model.search.space import AgentCall, Approve, ArgSource, Lit, Ref, Satisfy, SearchState, Transition

SrcKey = tuple[str, str] | tuple[str, int, str]
Key = tuple[str, tuple[tuple[str, SrcKey], ...], int | None]
Sleep = Mapping[Key, object]  # transition key -> its footprint (id); only membership is read here
#: (transition — a ``Transition`` or the raw parts ``transition`` builds one from —, successor, canonical
#: position of the new record or None, footprint, key)
Raw = Transition | tuple[str, tuple[str, ...], tuple["Held", ...], int, Verdict]
Succ = tuple[Raw, Compact, int | None, int, Key]  # footprint: its id in ctx.independence


@dataclass(frozen=True, slots=True)
class _Result:
    ok: bool
    text: str  # canonical JSON of the value ("" on failure)
    value: JSON
    when: tuple[tuple[str, object], ...]


@dataclass
class Context:
    """The model and the per-process memo tables of one search."""

    model: SearchModel
    renaming: bool
    mat: Materializer = field(init=False)
    independence: Independence = field(init=False)
    special: int = field(init=False)
    values: dict[str, JSON] = field(default_factory=dict)  # canonical text -> parsed value
    fields: dict[tuple[str, str], tuple[JSON, str] | None] = field(default_factory=dict)
    results: dict[str, tuple[_Result, ...]] = field(default_factory=dict)
    names: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    goals: frozenset[int] = frozenset()
    # Decision memo: the monitor's verdict on a proposal is a function of the call's content (tool,
    # argument values, and the records its handles name: their label, success and producer) and of the
    # state's slots, invalid set, counters, Q and permits — not of the other records. Keys are interned
    # to small ints per state, so a lookup hashes a few ints. Off when the policy has history rules (they
    # read every record). A handle's content is its record's *deep* id: the record with the deep ids of the
    # records it names, transitively (producers behind ``preserving`` operations, ``produced_by`` patterns).
    memo: dict[tuple[object, ...], Verdict] | None = field(default_factory=dict)
    trans: dict[tuple[object, ...], tuple[tuple[Outcome_ | None, ...], tuple[int, ...], tuple[int, ...]]] = \
        field(default_factory=dict)
    refused: set[tuple[object, ...]] = field(default_factory=set)  # memo keys the monitor refused
    interned: dict[object, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        m = self.model
        self.mat = Materializer(m.agent, m.policy)
        self.independence = Independence()
        self.special = self.independence.id(SPECIAL)
        for tool in m.policy.tools:
            self.results[tool.name] = tuple(
                _Result(r.ok, canonical_str(json.loads(r.value)) if r.ok else "", json.loads(r.value), r.when)
                for r in m.results_of(tool.name))
            optional = sorted(tool.args - tool.required)
            self.names[tool.name] = tuple(tuple(sorted(tool.required | set(extra)))
                                          for k in range(len(optional) + 1)
                                          for extra in itertools.combinations(optional, k))
        self.goals = frozenset(i for i, q in enumerate(m.queries) if q.kind is QueryKind.GOAL)
        if m.policy.histories:
            self.memo = None

    def intern(self, value: object) -> int:
        n = self.interned.get(value)
        if n is None:
            n = self.interned[value] = len(self.interned)
        return n

    def value(self, text: str) -> JSON:
        v = self.values.get(text)
        if v is None and text not in self.values:
            v = self.values[text] = json.loads(text)
        return v

    def field(self, result: str, path: str) -> tuple[JSON, str] | None:
        key = (result, path)
        if key not in self.fields:
            sub = lookup_path(self.value(result), tuple(path.split(".")))
            self.fields[key] = None if isinstance(sub, Missing) else (sub, canonical_str(sub))
        return self.fields[key]


# a held value: (source, concrete value, canonical text, (position, path) for a handle, sleep-set key part,
# interned content for the decision memo)
Held = tuple[ArgSource, JSON, str, tuple[int, str] | None, SrcKey, int]


def held(ctx: Context, recs: tuple[Rec, ...], positional: bool) -> list[Held]:
    """``space.sources`` in its order: literals, per successful result its handle and declared fields,
    then (with ``copies``) the values read, retyped as literals. ``positional``: the memo content of a
    handle includes its position (permits bind positions)."""
    m = ctx.model
    intern = ctx.intern
    out: list[Held] = [(Lit(v), ctx.value(v), v, None, ("L", v), intern(("L", v))) for v in m.literals]
    copies: list[str] = []
    deep: list[int] = []
    for r in recs:  # parents precede children in canonical order, and in admission order
        deep.append(intern((r[:REFS], tuple((a, deep[d], p) for a, d, p in r[REFS]), r[REFS + 1:])))
    for pos, r in enumerate(recs):
        if not r[OK]:
            continue
        result = r[RESULT]
        where = pos if positional else -1
        out.append((Ref(pos), ctx.value(result), result, (pos, ""), ("R", pos, ""),
                    intern(("R", deep[pos], "", where))))
        copies.append(result)
        for path in m.fields_of(r[TOOL]):
            f = ctx.field(result, path)
            if f is not None:
                out.append((Ref(pos, path), f[0], f[1], (pos, path), ("R", pos, path),
                            intern(("R", deep[pos], path, where))))
                copies.append(f[1])
    if m.copies:
        have = {h[0] for h in out}
        for text in dict.fromkeys(copies):
            if Lit(text) not in have:
                out.append((Lit(text), ctx.value(text), text, None, ("L", text), intern(("L", text))))
    return out


def _proposals(ctx: Context, recs: tuple[Rec, ...], hs: list[Held]
               ) -> Iterator[tuple[str, tuple[str, ...], Iterator[tuple[tuple[int, ...], tuple[int, ...]]]]]:
    """``space.agent_calls`` in its order: per (tool, argument names), the index tuples into ``hs`` and,
    in lockstep, the content ids of the chosen values (both products run in C)."""
    m = ctx.model
    cids = [h[5] for h in hs]
    idx = range(len(hs))
    for tool in m.policy.tools:
        cap = m.max_calls_of(tool.name)
        if cap is not None and sum(1 for r in recs if r[TOOL] == tool.name) >= cap:
            continue
        for names in ctx.names[tool.name]:
            r = len(names)
            yield tool.name, names, zip(itertools.product(idx, repeat=r), itertools.product(cids, repeat=r),
                                        strict=True)


def _call(ctx: Context, tool: str, names: tuple[str, ...],
          choice: tuple[Held, ...]) -> tuple[Call, tuple[tuple[str, int, str], ...]]:
    args = {n: h[1] for n, h in zip(names, choice, strict=True)}
    refs3 = tuple((n, h[3][0], h[3][1]) for n, h in zip(names, choice, strict=True) if h[3] is not None)
    refs = tuple(sorted((n, d) for n, d, _ in refs3))
    paths = tuple(sorted((n, p) for n, _, p in refs3 if p))
    return Call(ctx.model.agent, tool, args, refs, paths), refs3


def _action(tool: str, names: tuple[str, ...], choice: tuple[Held, ...]) -> AgentCall:
    return AgentCall(tool, tuple(zip(names, (h[0] for h in choice), strict=True)))


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
        for tool, names, pairs in _proposals(ctx, recs, hs):
            for ix, _ in pairs:
                choice = tuple(hs[i] for i in ix)
                call, refs3 = _call(ctx, tool, names, choice)
                if any(a.tool == tool and args_match(m, a.args, ss, call, refs3) for a in m.approvals):
                    p = Permit(len(permits), call.tool, call.identity())
                    yield (Transition(Approve(_action(tool, names, choice)), None, None),
                           (recs, bindings, invalid, used_user, used_app, satisfied, (*permits, permit_tuple(p))),
                           None, ctx.special, ("approve", tuple(zip(names, (h[4] for h in choice), strict=True)), None))
    memo, trans, intern, refused = ctx.memo, ctx.trans, ctx.intern, ctx.refused
    proj = intern((tuple((b[0], b[1]) for b in bindings), invalid, used_user, used_app, satisfied, permits))
    old_pos = {b[0]: b[2] for b in bindings}
    n = len(recs)
    for tool, names, pairs in _proposals(ctx, recs, hs):
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
                call, refs3 = _call(ctx, tool, names, choice)
                verdict = decide(policy, mon, call)
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
                    call, refs3 = _call(ctx, tool, names, choice)
                assert call is not None
                if mon is None:
                    mon = ctx.mat.monitor(s)
                if ss is None:
                    ss = ctx.mat.search_state(s, mon)
                assert verdict.user is not None and verdict.app is not None
                memoized = (tuple(_outcome(ctx, ss, call, refs3, verdict, k, res) for k, res in enumerate(results)),
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
    return Transition(_action(tool, names, choice), k, verdict)


# What one admitted call with one outcome does, as far as it does not depend on positions: the new
# record's content (without height and refs), its matched and premise queries, the bindings after
# (slot, value, whether the new record made it), the invalid set, the footprint, and the permits when
# one was consumed (positional: never memoized). None: the outcome's guard does not hold.
Outcome_ = tuple[tuple[object, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[str, object, bool], ...] | None,
                 frozenset[str], int, tuple[PermitT, ...] | None]


def _outcome(ctx: Context, ss: SearchState, call: Call, refs3: tuple[tuple[str, int, str], ...], verdict: Verdict,
             k: int, res: _Result) -> Outcome_ | None:
    m, policy = ctx.model, ctx.model.policy
    if res.when and not args_match(m, res.when, ss, call, refs3):  # type: ignore[arg-type]
        return None
    mon = ss.monitor
    new, rec = commit(policy, mon, call, verdict)
    new = observe(policy, new, rec.id, Outcome(res.ok, res.value))
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
    limited = frozenset(policy.user[j].action for j in verdict.user.positions if policy.user[j].quota is not None) \
        | frozenset(policy.application[j].action for j in verdict.app.positions
                    if policy.application[j].quota is not None)
    special = bool(policy.histories) or verdict.permit is not None or any(
        text == rec.args_json for _, text in compiled(policy).resolvers.get(call.tool, ()))
    fp: Footprint = (special, call.tool, m.max_calls_of(call.tool) is not None,
                     frozenset(e.action for e in verdict.effects), limited, frozenset(matched) & ctx.goals)
    permits = None if verdict.permit is None else tuple(permit_tuple(p) for p in new.permits)
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


__all__ = ["CATS", "SENS", "TRUSTED", "Context", "Key", "Sleep", "Succ", "counts", "shift_key", "successors"]
