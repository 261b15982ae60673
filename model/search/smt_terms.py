"""The variables of the Z3 bounded model checker's unrolling (the SMT engine of bounded analysis: our
design for Agenra's missing Section 8, see ``smt.py``): per step a record of the tool, outcome, argument
kinds and values and the output label, per state the live resource slots and quota counters, and the
output label of a call computed from its handles' records (Agenra Sections 4.2–4.3)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3

from model.monitor.language.labels import Inherit
from model.monitor.language.policy import Tool
from model.search.model import SearchModel
from model.search.smt_fragment import Domain

TYPES = ("object", "array", "string", "number", "boolean", "null")
# an argument is a literal, a handle on a result or on one of its fields, or (with ``copies``) the value of
# a result or of one of its fields retyped as a literal: it reads the record but has no producer
KIND_LIT, KIND_HANDLE, KIND_FIELD, KIND_COPY, KIND_COPY_FIELD = 0, 1, 2, 3, 4


@dataclass
class Arg:
    pres: z3.BoolRef
    kind: z3.ArithRef
    lit: z3.ArithRef
    ref: z3.ArithRef
    fld: z3.ArithRef
    val: z3.ArithRef

    def handle(self) -> z3.BoolRef:
        return z3.And(self.pres, z3.Or(self.kind == KIND_HANDLE, self.kind == KIND_FIELD))

    def reads(self) -> z3.BoolRef:
        return z3.And(self.pres, self.kind != KIND_LIT)


@dataclass
class Rec:
    tool: z3.ArithRef
    out: z3.ArithRef
    ok: z3.BoolRef
    resval: z3.ArithRef
    sens: z3.ArithRef
    cats: dict[str, z3.BoolRef]
    trust: z3.BoolRef
    args: dict[str, Arg]


@dataclass
class Slots:
    bound: dict[str, z3.BoolRef]
    val: dict[str, z3.ArithRef]
    inv: dict[str, z3.BoolRef]
    used: dict[str, list[z3.ArithRef]]


def _max(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    return z3.If(a >= b, a, b)


class Terms:
    """The unrolling's variables and the helpers both the step encoding (``smt.py``) and the decision
    (``smt_decide.py``) read."""


    def __init__(self, model: SearchModel, dom: Domain) -> None:
        self.m, self.d, self.p = model, dom, model.policy
        self.tools = list(self.p.tools)
        self.names = sorted({a for t in self.tools for a in t.args})
        self.rank = {lv: i for i, lv in enumerate(self.p.levels.order)}
        self.cats = sorted(self.p.categories)
        self.slotnames = sorted({r.slot for r in self.p.resolvers})
        self.recs: list[Rec] = []
        self.states: list[Slots] = []
        self.matched: list[list[z3.BoolRef]] = []
        self.premise: list[list[z3.BoolRef]] = []
        self.s = z3.Solver()
        n = len(dom.values)
        self.typ = z3.Function("type_of", z3.IntSort(), z3.IntSort())
        self.scalar = z3.Function("scalar", z3.IntSort(), z3.BoolSort())
        self.fv = z3.Function("field", z3.IntSort(), z3.IntSort(), z3.IntSort())
        for v in range(n):
            self.s.add(self.typ(v) == TYPES.index(dom.type_of(v)), self.scalar(v) == dom.scalar(v))
            for f, path in enumerate(dom.fields):
                got = dom.field(v, path)
                self.s.add(self.fv(v, f) == (-1 if got is None else got))
        zero = Slots({s: z3.BoolVal(False) for s in self.slotnames}, {s: z3.IntVal(-1) for s in self.slotnames},
                      {s: z3.BoolVal(False) for s in self.slotnames},
                      {"user": [z3.IntVal(0)] * len(self.p.user),
                       "application": [z3.IntVal(0)] * len(self.p.application)})
        self.states.append(zero)

    # --- helpers over earlier records ----------------------------------------------------------

    def _sel(self, ref: z3.ArithRef, i: int, pick: Callable[[Rec], z3.ExprRef], default: z3.ExprRef) -> z3.ExprRef:
        out = default
        for j in range(i):
            out = z3.If(ref == j, pick(self.recs[j]), out)
        return out

    def _value_const(self, text: str) -> z3.ArithRef | None:
        return z3.IntVal(self.d.id(text)) if self.d.has(text) else None

    def _producer_tools(self, name: str) -> list[int]:
        return [k for k, t in enumerate(self.tools) if name in (t.name, t.operation)]

    def _label(self, t: Tool, rec: Rec, i: int) -> tuple[z3.ArithRef, dict[str, z3.BoolRef], z3.BoolRef]:
        handles = [a for n, a in rec.args.items() if n in t.args]
        has = z3.Or([a.handle() for a in handles]) if handles else z3.BoolVal(False)
        sens: z3.ArithRef = z3.IntVal(0)
        for a in handles:
            sens = _max(sens, z3.If(a.handle(), self._sel(a.ref, i, lambda r: r.sens, z3.IntVal(0)), 0))
        def cat_of(c: str) -> Callable[[Rec], z3.ExprRef]:
            return lambda r: r.cats[c]

        cats = {c: z3.Or([z3.And(a.handle(), self._sel(a.ref, i, cat_of(c), z3.BoolVal(False))) for a in handles]
                         or [z3.BoolVal(False)]) for c in self.cats}
        trust = z3.And([z3.Implies(a.handle(), self._sel(a.ref, i, lambda r: r.trust, z3.BoolVal(True)))
                        for a in handles] or [z3.BoolVal(True)])
        node = self.p.node(t.source)
        lab = node.label if node is not None else self.p.levels.bottom()
        sens = z3.If(has, sens, self.rank[lab.sensitivity])
        cats = {c: z3.If(has, cats[c], z3.BoolVal(c in lab.categories)) for c in self.cats}
        trust = z3.If(has, trust, z3.BoolVal(lab.trusted))
        edge = self.p.edge(t.operation)
        if edge is None or isinstance(edge.propagation, Inherit):
            return sens, cats, trust
        tr = edge.propagation
        sens = z3.If(sens - tr.decrement >= 0, sens - tr.decrement, 0)
        if tr.set_sensitivity is not None:
            sens = z3.IntVal(self.rank[tr.set_sensitivity])
        cats = {c: z3.BoolVal(False) if c in tr.remove else v for c, v in cats.items()}
        if tr.set_trusted is not None:
            trust = z3.BoolVal(tr.set_trusted)
        return sens, cats, trust
