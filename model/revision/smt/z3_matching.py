"""The matching predicate of Section 5.2, encoded for Z3 over arbitrary JSON arguments and every
binding state (Agenra Section 7.1: "a certificate must hold in every binding state … and cover
payloads it never enumerates").

For an action ``α`` the encoder introduces: the resource ``r`` (a JSON scalar, or null where a tool's
effect has the null constant as its resource: the monitor emits that effect, ``call_effects``); for every
argument path a predicate or key allowlist mentions, the JSON value at that path (a datatype with
``missing``, ``null``, booleans, numbers as reals, strings, and opaque arrays and objects), tied
together so that a present ``a.b`` forces ``a`` to be an object; a flag for "some other argument
key is present"; and for every slot ``s`` whether it is bound and to which well-formed address
(non-empty string, number or boolean; invalidated and unbound slots both fail to match). Every
satisfying assignment is realised by concrete JSON (``Witness``), which tests replay through the
monitor's own ``entry_matches``.

Choices where the source is silent, all on the safe side (the encoding admits *more* effects than
the monitor can produce, so "no disagreement" and "no overlap" remain proofs):
- Numbers are reals: every double is a real, so unsatisfiable over the reals is unsatisfiable over
  doubles. The monitor rounds integers beyond ±(2^53−1) to doubles in ``json_equal``; the encoding
  compares them exactly (documented gap, only for equality predicates on such integers).
- The call's keys are constrained by the tools that can produce ``α`` (a call with other keys is
  denied at preparation under both policies), and the resource is tied to where such a tool reads
  it: its constant (a scalar or null; registration refuses an array or object one), or the named argument,
  then a scalar (the monitor refuses any other); an element of a list argument is any scalar. This is the
  checker's reading (``trusted/encoding.py``), so a null-constant resource is an effect here too: an
  ``any`` or null-constant pattern matches it, a glob, a slot or a scalar constant does not.
- A predicate or pattern whose constant is an array or object, or a glob ``globs.translate``
  cannot translate, makes the encoding raise ``Unsupported``; callers then report "undecided".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import z3

from model.base.canonical import JSON
from model.monitor.language.policy import (
    AnyRes,
    ArgPredicate,
    ArgRes,
    ConstPat,
    ConstRes,
    Entry,
    EqPred,
    GlobPat,
    OneOfPred,
    RangePred,
    SlotPat,
    Tool,
)
from model.revision.smt.globs import beyond_alphabet, translate, zstring


class Unsupported(Exception):
    """An entry the symbolic encoding cannot express exactly (internal; turned into a verdict)."""


def _make_jv() -> z3.DatatypeSortRef:
    jv = z3.Datatype("JV")
    jv.declare("missing")
    jv.declare("null")
    jv.declare("jbool", ("b", z3.BoolSort()))
    jv.declare("jnum", ("n", z3.RealSort()))
    jv.declare("jstr", ("s", z3.StringSort()))
    jv.declare("jarr")
    jv.declare("jobj")
    return jv.create()


JV = _make_jv()


def const(value: JSON) -> z3.DatatypeRef:
    if value is None:
        return JV.null
    if isinstance(value, bool):
        return JV.jbool(z3.BoolVal(value))
    if isinstance(value, int | float):
        f = Fraction(value)
        return JV.jnum(z3.RealVal(f"{f.numerator}/{f.denominator}"))
    if isinstance(value, str):
        if beyond_alphabet(value):
            raise Unsupported(f"constant {value!r} past Z3's string alphabet")
        return JV.jstr(zstring(value))
    raise Unsupported(f"compound constant {value!r}")


_ESCAPE = re.compile(r"\\u\{([0-9a-fA-F]+)\}")


def _decode(z3_text: str) -> str:
    """Z3 prints non-printable and non-ASCII characters of a string model as ``\\u{hex}``."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), z3_text)


def _emitted(value: JSON) -> bool:
    """A tool's constant resource is an effect: a scalar or null (registration refuses an array or object)."""
    return not isinstance(value, list | dict)


@dataclass(frozen=True, slots=True)
class Witness:
    """A concrete effect, arguments and binding state (slots not listed are unbound)."""

    action: str
    resource: JSON
    args: dict[str, JSON]
    bindings: tuple[tuple[str, JSON], ...]

    def to_json(self) -> dict[str, JSON]:
        return {"action": self.action, "resource": self.resource, "args": self.args,
                "bindings": {s: v for s, v in self.bindings}}


def _paths(entries: Iterable[Entry], tools: Iterable[Tool]) -> tuple[tuple[str, ...], ...]:
    out: set[tuple[str, ...]] = set()
    for e in entries:
        for p in e.where:
            for i in range(1, len(p.path) + 1):
                out.add(p.path[:i])
        for k in e.keys or ():
            out.add((k,))
    for t in tools:
        for k in t.args:
            out.add((k,))
    return tuple(sorted(out, key=lambda p: (len(p), p)))


class Encoder:
    """Symbolic variables for one action over a fixed universe of entries and tools."""

    def __init__(self, action: str, entries: Sequence[Entry], tools: Sequence[Tool], tag: str = "") -> None:
        self.action = action
        self.tools = tuple(t for t in tools if any(d.action == action for d in t.effects))
        self.paths = _paths(entries, self.tools)
        self.keys = tuple(sorted({p[0] for p in self.paths}))
        self.val = {p: z3.Const(f"{tag}v:{'.'.join(p)}", JV) for p in self.paths}
        self.other = z3.Bool(f"{tag}other_key")
        self.r = z3.Const(f"{tag}r", JV)
        slots = sorted({e.resource.slot for e in entries if isinstance(e.resource, SlotPat)})
        self.bound = {s: z3.Bool(f"{tag}bound:{s}") for s in slots}
        self.sval = {s: z3.Const(f"{tag}slot:{s}", JV) for s in slots}

    def base(self, resources: Sequence[JSON] | None = None) -> z3.BoolRef:
        """Well-formedness of the symbolic call: consistent paths, a possible tool and a resource it reads."""
        cs: list[z3.BoolRef] = []
        for p, v in self.val.items():
            if len(p) > 1:
                cs.append(z3.Implies(z3.Not(JV.is_missing(v)), JV.is_jobj(self.val[p[:-1]])))
        r = self.r
        if resources is not None:
            cs.append(z3.Or(*[r == const(c) for c in resources]) if resources else z3.BoolVal(False))
        for v in self.sval.values():
            cs.append(z3.Or(JV.is_jbool(v), JV.is_jnum(v), z3.And(JV.is_jstr(v), z3.Length(JV.s(v)) > 0)))
        if not self.tools:
            cs.append(z3.BoolVal(False))  # no tool performs this action: E holds no such effect
        else:
            options = []
            for t in self.tools:
                present = [z3.Not(JV.is_missing(self.val[(k,)])) for k in t.required]
                absent = [JV.is_missing(self.val[(k,)]) for k in self.keys if k not in t.args]
                options.append(z3.And(*present, *absent, z3.Not(self.other), self._resource_of(t)))
            cs.append(z3.Or(*options))
        return z3.And(*cs)

    def _resource_of(self, tool: Tool) -> z3.BoolRef:
        """Where ``tool`` reads the resource of an ``α`` effect: a constant (a null one too), or an argument,
        then a scalar (a list argument holds it as some element, any scalar)."""
        r = self.r
        scalar = z3.Or(JV.is_jbool(r), JV.is_jnum(r), JV.is_jstr(r))
        ways: list[z3.BoolRef] = []
        for d in tool.effects:
            if d.action != self.action:
                continue
            if isinstance(d.resource, ConstRes):
                # a string past Z3's alphabet is left out (the proposers' answers are checked; the checker's
                # encoding refuses to ask about it)
                v = d.resource.value
                ways.append(r == const(v) if _emitted(v) and not (isinstance(v, str) and beyond_alphabet(v))
                            else z3.BoolVal(False))
            elif isinstance(d.resource, ArgRes):
                ways.append(z3.And(scalar, r == self.val[(d.resource.arg,)]))
            else:
                ways.append(z3.And(scalar, JV.is_jarr(self.val[(d.resource.arg,)])))
        return z3.Or(*ways)

    def _pred(self, pred: ArgPredicate) -> z3.BoolRef:
        v = self.val[pred.path]
        if isinstance(pred, EqPred):
            return v == const(pred.value)
        if isinstance(pred, OneOfPred):
            return z3.Or(*[v == const(c) for c in pred.values]) if pred.values else z3.BoolVal(False)
        if isinstance(pred, RangePred):
            cs = [JV.is_jnum(v)]
            if pred.low is not None:
                cs.append(JV.n(const(pred.low)) <= JV.n(v))
            if pred.high is not None:
                cs.append(JV.n(v) <= JV.n(const(pred.high)))
            return z3.And(*cs)
        raise AssertionError(pred)

    def matches(self, entry: Entry) -> z3.BoolRef:
        """``α′=α_k ∧ r∈G_{B,I}(R_k) ∧ keys(x)⊆K_k ∧ χ_k(x)`` for the encoder's action."""
        cs = self._conjuncts(entry, negated=False)
        return z3.And(*cs) if cs else z3.BoolVal(True)

    def fails(self, entry: Entry) -> z3.BoolRef:
        """Equivalent to ``Not(matches(entry))``, with a glob's failure written as membership in the
        complement regex: Z3's string solver decides that form where it gives up on a negated membership."""
        return z3.Or(*self._conjuncts(entry, negated=True))

    def _conjuncts(self, entry: Entry, negated: bool) -> list[z3.BoolRef]:
        """The conjuncts of the match (or, negated, the negation of each)."""
        if entry.action != self.action:
            return [z3.BoolVal(negated)]
        cs: list[z3.BoolRef] = []
        pat = entry.resource
        glob_failure: z3.BoolRef | None = None
        if isinstance(pat, ConstPat):
            if isinstance(pat.value, list | dict):
                return [z3.BoolVal(negated)]  # no resource is an array or object
            cs.append(self.r == const(pat.value))  # a null constant: the resource is null
        elif isinstance(pat, SlotPat):
            cs += [self.bound[pat.slot], self.r == self.sval[pat.slot]]
        elif isinstance(pat, GlobPat):
            regex = translate(pat.glob)
            if regex is None:
                raise Unsupported(f"glob {pat.glob!r}")
            cs.append(z3.And(JV.is_jstr(self.r), z3.InRe(JV.s(self.r), regex)))
            glob_failure = z3.Or(z3.Not(JV.is_jstr(self.r)), z3.InRe(JV.s(self.r), z3.Complement(regex)))
        else:
            assert isinstance(pat, AnyRes)
        if entry.keys is not None:
            cs += [JV.is_missing(self.val[(k,)]) for k in self.keys if k not in entry.keys]
            cs.append(z3.Not(self.other))
        cs += [self._pred(p) for p in entry.where]
        if not negated:
            return cs
        out = [z3.Not(c) for c in cs]
        if glob_failure is not None:
            out[0] = glob_failure  # the glob conjunct is always the first
        return out or [z3.BoolVal(False)]

    # --- from a model back to JSON ------------------------------------------------------------

    def _value(self, model: z3.ModelRef, v: z3.DatatypeRef, path: tuple[str, ...]) -> JSON:
        def ev(t: z3.ExprRef) -> z3.ExprRef:
            return model.eval(t, model_completion=True)

        if z3.is_true(ev(JV.is_null(v))):
            return None
        if z3.is_true(ev(JV.is_jbool(v))):
            return z3.is_true(ev(JV.b(v)))
        if z3.is_true(ev(JV.is_jnum(v))):
            num = ev(JV.n(v))
            frac = Fraction(num.as_fraction()) if isinstance(num, z3.RatNumRef) else Fraction(0)
            return int(frac) if frac.denominator == 1 else float(frac)
        if z3.is_true(ev(JV.is_jstr(v))):
            return _decode(str(ev(JV.s(v)).as_string()))
        if z3.is_true(ev(JV.is_jarr(v))):
            return []
        if z3.is_true(ev(JV.is_jobj(v))):
            out: dict[str, JSON] = {}
            for p, child in self.val.items():
                if len(p) == len(path) + 1 and p[:-1] == path and not z3.is_true(ev(JV.is_missing(child))):
                    out[p[-1]] = self._value(model, child, p)
            return out
        return None  # missing: callers never ask for it

    def witness(self, model: z3.ModelRef, read_once: bool = False) -> Witness:
        """The concrete effect, arguments and binding state ``model`` gives. ``read_once``: each variable's
        value is evaluated once and read off its constructor (``_read``), the same JSON as the recognizer
        by recognizer evaluation (the original reading, kept on the baseline path)."""
        value = self._read if read_once else self._value
        args: dict[str, JSON] = {}
        for k in self.keys:
            v = self.val[(k,)]
            if not z3.is_true(model.eval(JV.is_missing(v), model_completion=True)):
                args[k] = value(model, v, (k,))
        bindings = tuple((s, value(model, self.sval[s], ()))
                         for s in sorted(self.bound) if z3.is_true(model.eval(self.bound[s], model_completion=True)))
        return Witness(self.action, value(model, self.r, ()), args, bindings)

    def _read(self, model: z3.ModelRef, v: z3.DatatypeRef, path: tuple[str, ...]) -> JSON:
        """``_value`` from one evaluation of ``v``: with model completion it is a constructor applied to
        values (``JV``'s constructors are its recognizers' cases); anything else is read as ``_value`` does."""
        got = model.eval(v, model_completion=True)
        name = got.decl().name() if z3.is_app(got) else ""
        if name == "null":
            return None
        if name == "jbool" and (z3.is_true(got.arg(0)) or z3.is_false(got.arg(0))):
            return z3.is_true(got.arg(0))
        if name == "jnum":
            num = got.arg(0)
            frac = Fraction(num.as_fraction()) if isinstance(num, z3.RatNumRef) else Fraction(0)
            return int(frac) if frac.denominator == 1 else float(frac)
        if name == "jstr" and isinstance(got.arg(0), z3.SeqRef) and got.arg(0).is_string_value():
            return _decode(str(got.arg(0).as_string()))
        if name == "jarr":
            return []
        if name == "jobj":
            out: dict[str, JSON] = {}
            for p, child in self.val.items():
                if len(p) == len(path) + 1 and p[:-1] == path and not z3.is_true(
                        model.eval(JV.is_missing(child), model_completion=True)):
                    out[p[-1]] = self._read(model, child, p)
            return out
        return self._value(model, v, path)
