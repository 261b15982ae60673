"""The Z3 encoding of one admitted call and its result processing (Agenra Sections 5.1, 5.2, 6.2, 6.3),
written independently of ``model.monitor`` for the SMT engine (``smt.py``).

``admits`` is the conjunction of every check ``D(S, c) = Allow`` needs, for a fixed tool and symbolic
arguments: preparation (declared and required arguments; scalar resources), struct (agent operation,
endpoints, output below the agent's ceiling), no explicit deny and some matching allow per effect on
each list, immediate-producer origin rules, flow rules, and first-fit allocation with tentative
reservations on both lists. Because only admitted calls are steps, the *order* of the failing cases
(which matters for the Deny reason) does not matter here. It returns the charge vector per list,
which the step adds to the counters. ``observe`` encodes the slot update of each designated lookup
whose exact arguments match, in policy order, for the chosen outcome (well-formed and equal: keep;
different or malformed: invalidate for good; unbound: bind; failure: nothing).
"""

from __future__ import annotations

import json

import z3

from model.base.canonical import JSON, canonical_str
from model.monitor.decide.matching import Missing, lookup_path
from model.monitor.language.policy import (
    AnyRes,
    ArgRes,
    ConstPat,
    ConstRes,
    Entry,
    EntryKind,
    FlowEffect,
    GlobPat,
    LabelGuard,
    SlotPat,
    Tool,
)
from model.search.smt_terms import Rec, Slots, Terms


def _well_formed_address(v: JSON | Missing) -> bool:
    if isinstance(v, str):
        return v != ""
    return isinstance(v, int | float | bool)


def _table(enc: Terms, val: z3.ArithRef, holds: list[int]) -> z3.BoolRef:
    return z3.Or([val == v for v in holds]) if holds else z3.BoolVal(False)


def _matches(enc: Terms, e: Entry, t: Tool, rec: Rec, r: z3.ArithRef, pre: Slots) -> z3.BoolRef:
    """The matching predicate of Section 5.2 for entry ``e`` and an effect with resource ``r`` (action fixed)."""
    d = enc.d
    conds: list[z3.BoolRef] = []
    pat = e.resource
    if isinstance(pat, ConstPat):
        text = canonical_str(pat.value)
        conds.append(r == d.id(text) if d.has(text) else z3.BoolVal(False))
    elif isinstance(pat, SlotPat):
        if pat.slot not in pre.bound:
            return z3.BoolVal(False)
        conds += [pre.bound[pat.slot], z3.Not(pre.inv[pat.slot]), pre.val[pat.slot] == r]
    elif isinstance(pat, GlobPat):
        conds.append(_table(enc, r, [v for v in range(len(d.values)) if d.glob(v, pat)]))
    else:
        assert isinstance(pat, AnyRes)
    if e.keys is not None:
        conds += [z3.Not(rec.args[a].pres) for a in sorted(t.args - e.keys)]
    for pred in e.where:
        name = pred.path[0]
        if name not in t.args:
            return z3.BoolVal(False)
        arg = rec.args[name]
        conds.append(z3.And(arg.pres, _table(enc, arg.val, [v for v in range(len(d.values)) if d.predicate(v, pred)])))
    return z3.And(conds) if conds else z3.BoolVal(True)


def _guard(enc: Terms, g: LabelGuard, sens: z3.ArithRef, cats: dict[str, z3.BoolRef],
           trust: z3.BoolRef) -> z3.BoolRef:
    conds: list[z3.BoolRef] = []
    if g.max_sensitivity is not None:
        conds.append(sens <= enc.rank[g.max_sensitivity])
    if g.min_sensitivity is not None:
        conds.append(sens >= enc.rank[g.min_sensitivity])
    if g.any_category:
        conds.append(z3.Or([cats.get(c, z3.BoolVal(False)) for c in sorted(g.any_category)]))
    conds += [z3.Not(cats.get(c, z3.BoolVal(False))) for c in sorted(g.no_category)]
    if g.trusted is not None:
        conds.append(trust == g.trusted)
    return z3.And(conds) if conds else z3.BoolVal(True)


def admits(enc: Terms, t: Tool, rec: Rec, i: int, pre: Slots) -> tuple[z3.BoolRef, dict[str, list[z3.ArithRef]]]:
    p, d = enc.p, enc.d
    zero = {"user": [z3.IntVal(0)] * len(p.user), "application": [z3.IntVal(0)] * len(p.application)}
    agent = p.agent(enc.m.agent)
    edge = p.edge(t.operation)
    if agent is None or t.operation not in agent.operations or edge is None or \
            (t.source, t.destination) not in edge.endpoints:
        return z3.BoolVal(False), zero
    conds: list[z3.BoolRef] = [z3.Not(rec.args[a].pres) for a in enc.names if a not in t.args]
    conds += [rec.args[a].pres for a in sorted(t.required)]
    sens, cats, trust = enc._label(t, rec, i)
    conds += [rec.sens == sens, rec.trust == trust] + [rec.cats[c] == cats[c] for c in enc.cats]
    conds.append(sens <= enc.rank[agent.ceiling])
    effects: list[tuple[str, z3.ArithRef]] = []
    for eff in t.effects:
        if isinstance(eff.resource, ConstRes):
            text = canonical_str(eff.resource.value)
            effects.append((eff.action, z3.IntVal(d.id(text))))
        else:
            assert isinstance(eff.resource, ArgRes)  # list resources are outside the fragment
            arg = rec.args[eff.resource.arg]
            conds += [arg.pres, enc.scalar(arg.val)]
            effects.append((eff.action, arg.val))
    charges: dict[str, list[z3.ArithRef]] = {}
    for side, entries in (("user", p.user), ("application", p.application)):
        reserved: list[z3.ArithRef] = [z3.IntVal(0)] * len(entries)
        for action, r in effects:
            conds += [z3.Not(_matches(enc, e, t, rec, r, pre)) for e in entries
                      if e.kind is EntryKind.DENY and e.action == action]
            found: z3.BoolRef = z3.BoolVal(False)
            for k, e in enumerate(entries):
                if e.kind is not EntryKind.ALLOW or e.action != action:
                    continue
                room = z3.BoolVal(True) if e.quota is None else pre.used[side][k] + reserved[k] < e.quota
                avail = z3.And(_matches(enc, e, t, rec, r, pre), room)
                reserved[k] = reserved[k] + z3.If(z3.And(avail, z3.Not(found)), 1, 0)
                found = z3.Or(found, avail)
            conds.append(found)  # implies some allow matches (the Matched case) and first-fit succeeded
        charges[side] = reserved
    for rule in p.origins:
        if rule.via not in (t.name, t.operation):
            continue
        if rule.argument not in t.args:
            return z3.BoolVal(False), zero
        arg = rec.args[rule.argument]
        prods = enc._producer_tools(rule.producer)
        conds.append(z3.And(arg.handle(), z3.Or([z3.And(arg.ref == j, z3.Or([enc.recs[j].tool == k for k in prods]
                                                                            or [z3.BoolVal(False)]))
                                                 for j in range(i)] or [z3.BoolVal(False)])))
    allows: list[z3.BoolRef] = []
    denies: list[z3.BoolRef] = []
    for flow in p.flows:
        if flow.operation not in ("*", t.operation) or flow.destination not in ("*", t.destination):
            continue
        g = _guard(enc, flow.guard, sens, cats, trust)
        (denies if flow.effect is FlowEffect.DENY else allows).append(g)
    conds.append(z3.Or(allows) if allows else z3.BoolVal(False))
    conds += [z3.Not(g) for g in denies]
    return z3.And(conds), charges


def observe(enc: Terms, t: Tool, k: int, rec: Rec, post: Slots) -> None:
    d = enc.d
    outs = enc.m.results_of(t.name)
    for res in enc.p.resolvers:
        if res.tool != t.name:
            continue
        names = {n for n, _ in res.args}
        if not names <= t.args:
            continue
        exact = [rec.args[a].pres == (a in names) for a in sorted(t.args)]
        for n, v in res.args:
            text = canonical_str(v)
            exact.append(rec.args[n].val == d.id(text) if d.has(text) else z3.BoolVal(False))
        s = res.slot
        applies = z3.And(rec.tool == k, rec.ok, *exact, z3.Not(post.inv[s]))
        wf_outs, value = [], z3.IntVal(-1)
        for o, r in enumerate(outs):
            if not r.ok:
                continue
            got = lookup_path(json.loads(r.value), tuple(res.path.split(".")))
            if _well_formed_address(got):
                wf_outs.append(o)
                value = z3.If(rec.out == o, d.id(canonical_str(got)), value)
        wf = z3.Or([rec.out == o for o in wf_outs]) if wf_outs else z3.BoolVal(False)
        bound, val, inv = post.bound[s], post.val[s], post.inv[s]
        post.bound[s] = z3.If(applies, z3.And(wf, z3.Or(z3.Not(bound), val == value)), bound)
        post.inv[s] = z3.Or(inv, z3.And(applies, z3.Or(z3.Not(wf), z3.And(bound, val != value))))
        post.val[s] = z3.If(z3.And(applies, wf, z3.Not(bound)), value, val)
