"""Engine 2: Z3 bounded model checking of the search's transition relation for k steps (our design for
the missing Section 8; the fragment it covers is stated in ``smt_fragment.py``).

This is an *independent* encoding of the monitor's decision and update (Sections 4–6) — it does not
call ``model.monitor`` — so that agreement with the explicit engine, which steps the real monitor,
checks both. Step ``i`` of an unrolling is one admitted agent call, i.e. record ``i`` (the fragment has
no reviewer or approver actions). Its variables are the tool, the outcome, and per argument name
whether it is present and whether it is a literal, a handle on record ``j < i``, a field handle, or (with
the model's ``copies``) such a value retyped as a literal, which has no producer; the
argument's value is a value id of ``smt_fragment.Domain``. From them the encoding derives the output
label (join of the parents' labels, else the source node's label, then the edge transfer), the
effects and their resources, explicit denies, allow matching against the live slot state, first-fit
allocation on both lists (scanning entries in order with tentative reservations), origin, flow and
the agent's struct checks, and, after the chosen outcome, the slot update of every designated lookup.

Queries: ``count_L(q) > more_than`` over the events of the first ``L`` steps. The solver is incremental:
for ``L = 1..k`` it adds step ``L-1`` and asks each open query, so the first satisfiable ``L`` is the
length of a shortest trace, as in the breadth-first engine; the model is decoded into a trace. The
premise of each query is asked the same way, giving ``Vacuous`` when it is never satisfiable.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable
from dataclasses import dataclass

import z3

from model.base.budget import Budget, BudgetExhausted, Meter, Spent, Unknown
from model.base.interrupt import InterruptFlag, remembered_interrupts
from model.base.z3guard import exclusive
from model.monitor.language.policy import Tool
from model.search.model import ArgPattern, BoundTo, Equals, Not, OneOf, Produced, SearchModel, TypeIs, When
from model.search.search_verdict import Answer, Exhausted, Found, Step, Unsupported, Vacuous
from model.search.smt_decide import admits, observe
from model.search.smt_fragment import domain, unsupported
from model.search.smt_terms import (
    KIND_COPY,
    KIND_COPY_FIELD,
    KIND_FIELD,
    KIND_HANDLE,
    KIND_LIT,
    TYPES,
    Arg,
    Rec,
    Slots,
    Terms,
)
from model.search.states import AgentCall, ArgSource, Lit, Ref

Tick = Callable[[int, int], None]
@dataclass(frozen=True, slots=True)
class SmtRun:
    bound: int
    answers: tuple[tuple[str, Answer], ...]
    seconds: float

    def answer(self, name: str) -> Answer:
        return dict(self.answers)[name]


class _Encoder(Terms):
    # --- patterns (shared by queries and result guards; same reading as patterns.py) -------------

    def pattern(self, pat: ArgPattern, arg: Arg, i: int, slots: Slots) -> z3.BoolRef:
        if isinstance(pat, Not):
            return z3.Not(self.pattern(pat.pattern, arg, i, slots))
        if isinstance(pat, Equals | OneOf):
            texts = (pat.value,) if isinstance(pat, Equals) else pat.values
            ids = [c for c in (self._value_const(t) for t in texts) if c is not None]
            return z3.And(arg.pres, z3.Or([arg.val == c for c in ids]) if ids else z3.BoolVal(False))
        if isinstance(pat, TypeIs):
            return z3.And(arg.pres, self.typ(arg.val) == TYPES.index(pat.type))
        if isinstance(pat, BoundTo):
            s = pat.slot
            return z3.And(arg.pres, slots.bound[s], z3.Not(slots.inv[s]), slots.val[s] == arg.val)
        assert isinstance(pat, Produced)
        options = []
        for j in range(i):
            rec = self.recs[j]
            sub = [self.pattern(p, rec.args[n], j, slots) if n in rec.args else z3.BoolVal(isinstance(p, Not))
                   for n, p in pat.args]
            producers = [rec.tool == k for k in self._producer_tools(pat.producer)] or [z3.BoolVal(False)]
            options.append(z3.And(arg.ref == j, rec.ok, z3.Or(producers), *sub))
        return z3.And(arg.handle(), z3.Or(options) if options else z3.BoolVal(False))

    # --- one step --------------------------------------------------------------------------------

    def add_step(self) -> None:
        i = len(self.recs)
        pre = self.states[i]
        s, d = self.s, self.d
        args: dict[str, Arg] = {}
        for a in self.names:
            arg = Arg(z3.Bool(f"pres_{i}_{a}"), z3.Int(f"kind_{i}_{a}"), z3.Int(f"lit_{i}_{a}"),
                       z3.Int(f"ref_{i}_{a}"), z3.Int(f"fld_{i}_{a}"), z3.Int(f"val_{i}_{a}"))
            args[a] = arg
            top = KIND_COPY_FIELD if self.m.copies else KIND_FIELD
            s.add(z3.And(arg.kind >= 0, arg.kind <= top, arg.lit >= 0, arg.lit < max(1, len(self.m.literals))))
            s.add(z3.Implies(z3.And(arg.pres, arg.kind == KIND_LIT), z3.And(len(self.m.literals) > 0,
                                                                          arg.val == arg.lit)))
            s.add(z3.Implies(arg.reads(), z3.And(arg.ref >= 0, arg.ref < i,
                                                  self._sel(arg.ref, i, lambda r: r.ok, z3.BoolVal(False)))))
            resval = self._sel(arg.ref, i, lambda r: r.resval, z3.IntVal(-1))
            whole = z3.Or(arg.kind == KIND_HANDLE, arg.kind == KIND_COPY)
            s.add(z3.Implies(z3.And(arg.pres, whole), arg.val == resval))
            field_ok = []
            for k, t in enumerate(self.tools):
                for path in self.m.fields_of(t.name):
                    f = d.fields.index(path)
                    field_ok.append(z3.And(self._sel(arg.ref, i, lambda r: r.tool, z3.IntVal(-1)) == k, arg.fld == f))
            s.add(z3.Implies(z3.And(arg.pres, z3.Or(arg.kind == KIND_FIELD, arg.kind == KIND_COPY_FIELD)),
                             z3.And(z3.Or(field_ok) if field_ok else z3.BoolVal(False),
                                    self.fv(resval, arg.fld) >= 0, arg.val == self.fv(resval, arg.fld))))
        tool, out = z3.Int(f"tool_{i}"), z3.Int(f"out_{i}")
        rec = Rec(tool, out, z3.Bool(f"ok_{i}"), z3.Int(f"resval_{i}"), z3.Int(f"sens_{i}"),
                   {c: z3.Bool(f"cat_{i}_{c}") for c in self.cats}, z3.Bool(f"trust_{i}"), args)
        s.add(tool >= 0, tool < len(self.tools))
        for k, t in enumerate(self.tools):
            cap = self.m.max_calls_of(t.name)
            if cap is not None:
                s.add(z3.Sum([z3.If(r.tool == k, 1, 0) for r in self.recs] + [z3.If(tool == k, 1, 0)]) <= cap)
        post = Slots(dict(pre.bound), dict(pre.val), dict(pre.inv), {k: list(v) for k, v in pre.used.items()})
        per_tool_used: dict[str, list[list[z3.ArithRef]]] = {"user": [], "application": []}
        for k, t in enumerate(self.tools):
            here = tool == k
            admitted, charges = self._admits(t, rec, i, pre)
            s.add(z3.Implies(here, admitted))
            s.add([z3.Implies(here, z3.Not(args[a].pres)) for a in sorted(self.m.omitted(t.name)) if a in args])
            for side in ("user", "application"):
                per_tool_used[side].append([z3.If(here, c, 0) for c in charges[side]])
            outs = self.m.results_of(t.name)
            s.add(z3.Implies(here, z3.And(out >= 0, out < len(outs))))
            for o, r in enumerate(outs):
                cond = z3.And(here, out == o)
                val = d.id(r.value) if r.ok else -1
                s.add(z3.Implies(cond, z3.And(rec.ok == r.ok, rec.resval == val)))
                guard = [self.pattern(p, args[n], i, pre) for n, p in r.when]
                s.add(z3.Implies(cond, z3.And(guard) if guard else z3.BoolVal(True)))
            self._observe(t, k, rec, post)
        for side in ("user", "application"):
            post.used[side] = [pre.used[side][e] + z3.Sum([row[e] for row in per_tool_used[side]])
                               for e in range(len(pre.used[side]))]
        self.recs.append(rec)
        self.states.append(post)
        self.matched.append([])
        self.premise.append([])
        for q in self.m.queries:
            ev = q.event
            k = next(x for x, t in enumerate(self.tools) if t.name == ev.tool)
            premise = z3.And(tool == k, rec.ok if ev.when is When.DELIVERED else z3.BoolVal(True))
            conds = [self.pattern(p, args[n], i, pre) for n, p in ev.args]
            if ev.label_above is not None:
                conds.append(rec.sens > self.rank[ev.label_above])
            self.premise[i].append(premise)
            self.matched[i].append(z3.And(premise, *conds))

    def _admits(self, t: Tool, rec: Rec, i: int, pre: Slots) -> tuple[z3.BoolRef, dict[str, list[z3.ArithRef]]]:
        return admits(self, t, rec, i, pre)

    def _observe(self, t: Tool, k: int, rec: Rec, post: Slots) -> None:
        observe(self, t, k, rec, post)

    # --- decoding --------------------------------------------------------------------------------

    def decode(self, mdl: z3.ModelRef, length: int) -> tuple[Step, ...]:
        steps = []
        for i in range(length):
            rec = self.recs[i]
            t = self.tools[mdl.eval(rec.tool).as_long()]
            args: list[tuple[str, ArgSource]] = []
            for n in sorted(t.args):
                a = rec.args[n]
                if not z3.is_true(mdl.eval(a.pres, model_completion=True)):
                    continue
                kind = mdl.eval(a.kind, model_completion=True).as_long()
                if kind == KIND_LIT:
                    args.append((n, Lit(self.m.literals[mdl.eval(a.lit, model_completion=True).as_long()])))
                elif kind in (KIND_COPY, KIND_COPY_FIELD):
                    args.append((n, Lit(self.d.values[mdl.eval(a.val, model_completion=True).as_long()])))
                else:
                    ref = mdl.eval(a.ref, model_completion=True).as_long()
                    fld = mdl.eval(a.fld, model_completion=True).as_long()
                    path = self.d.fields[fld] if kind == KIND_FIELD else ""
                    args.append((n, Ref(ref, path)))
            steps.append(Step(AgentCall(t.name, tuple(args)), mdl.eval(rec.out).as_long()))
        return tuple(steps)


@exclusive
def check(model: SearchModel, bound: int | None = None, tick: Tick | None = None,
          meter: Meter | None = None) -> SmtRun:
    """Every query of the model, bounded by ``bound`` steps (the model's bound by default).

    With a ``meter`` each solver call is one tick and gets the budget's remaining time as its Z3 timeout;
    when the budget runs out (or Z3 answers unknown) every query not yet decided
    answers ``Unknown`` — a query ``Found`` at a shorter length keeps its trace."""
    k = model.bound if bound is None else bound
    start = time.perf_counter()
    reason = unsupported(model)
    if reason is not None:
        return SmtRun(k, tuple((q.name, reason) for q in model.queries), time.perf_counter() - start)
    with remembered_interrupts() as flag:  # the encoder is built inside: a Ctrl-C there answers Unknown too
        return _check_all(model, k, lambda: _Encoder(model, domain(model)), start, flag, tick, meter)


def _check_all(model: SearchModel, k: int, make: Callable[[], _Encoder], start: float, flag: InterruptFlag,
               tick: Tick | None, meter: Meter | None) -> SmtRun:
    answers: dict[int, Answer] = {}
    premise = [False] * len(model.queries)

    def ask() -> z3.CheckSatResult:
        flag.raise_if_interrupted()  # a Ctrl-C a finalizer swallowed since the last question
        if meter is not None:
            meter.tick()  # one unit per solver call, so a budget of states bounds this engine too
            meter.check_time()
            left = meter.remaining_seconds()
            if left is not None:
                enc.s.set("timeout", max(1, int(left * 1000)))
        result = enc.s.check()
        if result == z3.unknown:
            # Z3 stops a check on SIGINT and answers unknown ("interrupted from keyboard", or "canceled"
            # as for its timeout — but with more than a second of the budget left, the timeout did not fire)
            why, left = enc.s.reason_unknown(), None if meter is None else meter.remaining_seconds()
            if "interrupt" in why or ("cancel" in why and (left is None or left > 1.0)):
                raise KeyboardInterrupt
            assert meter is not None, "Z3 answers unknown only under a timeout"
            meter.check_time()
            raise BudgetExhausted(meter.budget, meter.spent, "time")
        return result

    try:
        enc = make()
        for length in range(1, k + 1):
            enc.add_step()
            for qi, q in enumerate(model.queries):
                if qi in answers:
                    continue
                count = z3.Sum([z3.If(enc.matched[i][qi], 1, 0) for i in range(length)])
                enc.s.push()
                enc.s.add(count > q.more_than)
                if ask() == z3.sat:
                    answers[qi] = Found(enc.decode(enc.s.model(), length))
                    premise[qi] = True
                enc.s.pop()
                if not premise[qi]:
                    enc.s.push()
                    enc.s.add(z3.Sum([z3.If(enc.premise[i][qi], 1, 0) for i in range(length)])
                              >= max(1, q.more_than))
                    premise[qi] = ask() == z3.sat
                    enc.s.pop()
            if tick is not None:
                tick(length, k)
    except (BudgetExhausted, KeyboardInterrupt, ctypes.ArgumentError) as exc:
        # A SIGINT that lands while ctypes converts an argument of a Z3 call comes out as
        # ``ctypes.ArgumentError("argument 2: KeyboardInterrupt")``; the flag says which errors are Ctrl-C.
        if isinstance(exc, ctypes.ArgumentError) and not flag.pending:
            raise
        if not isinstance(exc, BudgetExhausted):  # Ctrl-C: what was decided stays, the rest is Unknown
            spent = meter.spent if meter is not None else Spent(time.perf_counter() - start, 0)
            unknown = Unknown(meter.budget if meter is not None else Budget(), spent, "interrupt",
                              f"interrupted before Z3 decided every query up to bound {k}")
        else:
            unknown = Unknown.of(exc, f"Z3 ran out of time before deciding every query up to bound {k}")
        return SmtRun(k, tuple((q.name, answers.get(qi) or unknown) for qi, q in enumerate(model.queries)),
                      time.perf_counter() - start)
    out: list[tuple[str, Answer]] = []
    for qi, q in enumerate(model.queries):
        out.append((q.name, answers.get(qi) or (Exhausted(k, None) if premise[qi] else Vacuous(k))))
    return SmtRun(k, tuple(out), time.perf_counter() - start)


__all__ = ["SmtRun", "Unsupported", "check"]
