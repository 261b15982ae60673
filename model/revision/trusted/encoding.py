"""The certificate checker's own encoding of the matching predicate (Agenra Section 5.2) into Z3, for the
side conditions of Section 7.1 (agreement, independence, coverage of match vectors).

It is written apart from the proposers' encoding (``model/revision/smt/z3_matching.py``) and shares neither
code, terms nor solvers with it: every term lives in this module's own Z3 context (``CTX``), so no term
the proposers built, and no solver they keep, can take part in a question asked here.

Representation (a different one from the proposers' datatype of JSON values): a JSON value at an argument
path, the resource, or a slot's address is four Z3 constants — a tag (an integer: missing, null, boolean,
number, string, array, object), a Boolean, a real and a string payload; only the payload the tag names is
read. Equality of two values is equality of tags and of that payload; numbers are reals, so ``1`` and
``1.0`` are equal and ``true`` is never ``1`` (JSON equality, as the monitor's ``json_equal``).

Choices where the source is silent, each on the side of admitting more effects than the monitor can
produce (so an unsatisfiable question stays a proof):
- The call's keys are among the argument names of a tool that performs the action (any other key is
  refused at preparation under both policies), so "some other key is present" needs no variable: a key
  allowlist constrains only the keys of those tools.
- The resource is where such a tool reads it (a scalar or null constant, or the named argument, then a
  scalar); an element of a list argument is any scalar, the argument being an array. A null constant is
  a resource the monitor emits and matches (``any``, a null constant pattern), so it is an effect here too.
- A slot's address is a boolean, a number or a non-empty string; an unbound slot never matches.
- Globs are translated here (``regex``) following ``fnmatch.fnmatchcase``; a bracket set with a ``\\`` or a
  ``-`` that is not a plain range between two other characters is not translated (``Unsupported``), nor is
  a predicate constant that is an array or object: the caller answers Undecided, never a proof.

The alphabet. Z3's strings are sequences of code points 0..``MAX_CHAR`` (0x2FFFF, its default ``unicode``
encoding); Python's run to 0x10FFFF. A Z3 string constant cannot hold a character past ``MAX_CHAR``: its
``\\u{..}`` escape is then read as the escape's own nine characters, so it would alias a string that
spells them. A constant, glob character or bracket bound past ``MAX_CHAR`` is therefore ``Unsupported``.
Argument values and bindings, which the policies do not fix, may still hold such characters at run time;
a question is only asked when every such witness has a counterpart inside Z3's alphabet
(``alphabet_spare``): let ``K`` be every code point a constant, a glob character or a bracket range of the
question names, ``R`` the code points up to ``MAX_CHAR`` outside ``K``, and ``n`` the question's values.
Every character outside ``K`` — in ``R`` or past ``MAX_CHAR`` — is treated alike by every literal: it
equals no constant's or glob's character and lies in no bracket range (every bound is at most
``MAX_CHAR``), so ``?``, ``*`` and ``[!..]`` accept it and nothing else does. Given a witness, keep, for
each pair of distinct equal-length string values, the two characters at one position where they differ,
and replace every other character outside ``K`` at a position by one fixed such character (a replacement
that depends on position and character only, so equal strings stay equal, and the kept positions keep
distinct ones distinct); at most ``n(n−1) + 1`` characters outside ``K`` remain, and mapping them one to
one into ``R`` changes no literal's truth. So when ``|R| ≥ n(n−1) + 1`` a question Z3 finds unsatisfiable
has no witness over Python's strings either; otherwise it is ``Unsupported``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import z3
from z3 import z3core

from model.base.canonical import JSON
from model.monitor.language.policy import (
    AnyRes,
    ArgRes,
    ConstPat,
    ConstRes,
    Entry,
    EntryKind,
    EqPred,
    GlobPat,
    OneOfPred,
    RangePred,
    SlotPat,
    Tool,
)

# a fact about the values slots are bound to: (slot, a constant or glob its value matches, or another slot
# whose value it equals)
SlotAtom = tuple[str, ConstPat | GlobPat | str]

CTX = z3.Context()  # the checker's own: no term or solver of the proposers lives here

MISSING, NULL, BOOL, NUM, STR, ARR, OBJ = range(7)
MAX_CHAR = 0x2FFFF  # the last code point of Z3's string alphabet (its default ``unicode`` encoding)


class Unsupported(Exception):
    """A pattern or constant this encoding does not express exactly (the check is then Undecided)."""


# The terms below are built through Z3's C API directly (``z3core``): the Python layer's ``And``, ``==`` and the
# like coerce and sort-check every argument, which cost more than the questions' solving on the revision corpus.
# The calls are the ones that layer ends in, so every term is the same Z3 term (hash-consed), only cheaper to
# build; Z3 still checks sorts and raises on a mismatch.
_TAG = [z3.IntVal(k, CTX) for k in range(7)]


def _bool(ast: object) -> z3.BoolRef:
    return z3.BoolRef(ast, CTX)


def _asts(xs: Sequence[z3.ExprRef]) -> object:
    arr = (z3.Ast * len(xs))()
    for i, x in enumerate(xs):
        arr[i] = x.as_ast()
    return arr


def _and(*xs: z3.BoolRef) -> z3.BoolRef:
    return _bool(z3core.Z3_mk_and(CTX.ref(), len(xs), _asts(xs)))


def _or(*xs: z3.BoolRef) -> z3.BoolRef:
    return _bool(z3core.Z3_mk_or(CTX.ref(), len(xs), _asts(xs)))


def _not(x: z3.BoolRef) -> z3.BoolRef:
    return _bool(z3core.Z3_mk_not(CTX.ref(), x.as_ast()))


def _implies(x: z3.BoolRef, y: z3.BoolRef) -> z3.BoolRef:
    return _bool(z3core.Z3_mk_implies(CTX.ref(), x.as_ast(), y.as_ast()))


def _eq(x: z3.ExprRef, y: z3.ExprRef) -> z3.BoolRef:
    return _bool(z3core.Z3_mk_eq(CTX.ref(), x.as_ast(), y.as_ast()))


def _ne(x: z3.ExprRef, y: z3.ExprRef) -> z3.BoolRef:
    return _bool(z3core.Z3_mk_distinct(CTX.ref(), 2, _asts((x, y))))


def _within(x: z3.ArithRef, lo: int, hi: int) -> z3.BoolRef:
    """``lo <= x <= hi`` for a tag."""
    return _and(_bool(z3core.Z3_mk_ge(CTX.ref(), x.as_ast(), _TAG[lo].as_ast())),
                _bool(z3core.Z3_mk_le(CTX.ref(), x.as_ast(), _TAG[hi].as_ast())))


_SORTS = {"Int": z3.IntSort(CTX), "Bool": z3.BoolSort(CTX), "Real": z3.RealSort(CTX), "String": z3.StringSort(CTX)}


def _const(name: str, sort: str) -> object:
    """The constant ``z3.Int(name, CTX)`` (``Bool``, ``Real``, ``String``) would make, as a bare term."""
    return z3core.Z3_mk_const(CTX.ref(), z3.to_symbol(name, CTX), _SORTS[sort].ast)


_TRUE, _FALSE = z3.BoolVal(True, CTX), z3.BoolVal(False, CTX)


def true() -> z3.BoolRef:
    return _TRUE


def false() -> z3.BoolRef:
    return _FALSE


def all_of(xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    return true() if not xs else xs[0] if len(xs) == 1 else _and(*xs)


def any_of(xs: Sequence[z3.BoolRef]) -> z3.BoolRef:
    return false() if not xs else xs[0] if len(xs) == 1 else _or(*xs)


def text(value: str) -> z3.SeqRef:
    """A Z3 string of exactly ``value``: every character outside printable ASCII, and the backslash that
    starts Z3's escapes, written as its ``\\u{hex}`` escape; ``Unsupported`` past Z3's alphabet."""
    if any(ord(c) > MAX_CHAR for c in value):
        raise Unsupported(f"the string {value!r} has a character past Z3's alphabet (code point > {MAX_CHAR:#x})")
    out = "".join(c if 32 <= ord(c) < 127 and c != "\\" else f"\\u{{{ord(c):x}}}" for c in value)
    return z3.StringVal(out, CTX)


class Value:
    """One JSON value as a tag and three payloads."""

    def __init__(self, name: str) -> None:
        self.tag = z3.ArithRef(_const(f"{name}#tag", "Int"), CTX)
        self.b = z3.BoolRef(_const(f"{name}#b", "Bool"), CTX)
        self.n = z3.ArithRef(_const(f"{name}#n", "Real"), CTX)
        self.s = z3.SeqRef(_const(f"{name}#s", "String"), CTX)

    def has(self, tag: int) -> z3.BoolRef:
        return _eq(self.tag, _TAG[tag])

    def lacks(self, tag: int) -> z3.BoolRef:
        return _ne(self.tag, _TAG[tag])

    def scalar(self) -> z3.BoolRef:
        return _or(self.has(BOOL), self.has(NUM), self.has(STR))

    def equals(self, value: JSON) -> z3.BoolRef:
        if value is None:
            return self.has(NULL)
        if isinstance(value, bool):
            return _and(self.has(BOOL), _eq(self.b, _TRUE if value else _FALSE))
        if isinstance(value, int | float):
            f = Fraction(value)
            return _and(self.has(NUM), _eq(self.n, z3.RealVal(f"{f.numerator}/{f.denominator}", CTX)))
        if isinstance(value, str):
            return _and(self.has(STR), _eq(self.s, text(value)))
        raise Unsupported(f"the constant {value!r} is an array or object")

    def same(self, other: Value) -> z3.BoolRef:
        return _and(_eq(self.tag, other.tag), _implies(self.has(BOOL), _eq(self.b, other.b)),
                    _implies(self.has(NUM), _eq(self.n, other.n)), _implies(self.has(STR), _eq(self.s, other.s)))

    def read(self, model: z3.ModelRef, children: dict[str, Value]) -> JSON:
        tag = model.eval(self.tag, model_completion=True).as_long()
        if tag == BOOL:
            return z3.is_true(model.eval(self.b, model_completion=True))
        if tag == NUM:
            got = model.eval(self.n, model_completion=True)
            f = Fraction(got.as_fraction()) if isinstance(got, z3.RatNumRef) else Fraction(0)
            return int(f) if f.denominator == 1 else float(f)
        if tag == STR:
            got = model.eval(self.s, model_completion=True)
            return str(got.as_string()) if isinstance(got, z3.SeqRef) and got.is_string_value() else ""
        if tag == ARR:
            return []
        if tag == OBJ:
            return {k: v.read(model, {}) for k, v in children.items()
                    if model.eval(v.tag, model_completion=True).as_long() != MISSING}
        return None


def _paths(entries: Iterable[Entry], tools: Iterable[Tool]) -> list[tuple[str, ...]]:
    out: set[tuple[str, ...]] = {(k,) for t in tools for k in t.args}
    for e in entries:
        out.update((k,) for k in e.keys or ())
        for p in e.where:
            out.update(p.path[:i] for i in range(1, len(p.path) + 1))
    return sorted(out, key=lambda p: (len(p), p))


class Call:
    """An effect of ``action`` by some call, its arguments and the binding state, over the paths that
    ``entries`` and the action's tools read."""

    def __init__(self, action: str, entries: Sequence[Entry], tools: Sequence[Tool],
                 atoms: Sequence[SlotAtom] = ()) -> None:
        self.action = action
        self.entries = list(entries)
        self.atoms = list(atoms)
        self.tools = [t for t in tools if any(d.action == action for d in t.effects)]
        self.paths = _paths(entries, self.tools)
        self.keys = sorted({p[0] for p in self.paths})
        self.at = {p: Value("arg:" + ".".join(p)) for p in self.paths}
        self.r = Value("resource")
        slots = sorted({e.resource.slot for e in entries if isinstance(e.resource, SlotPat)}
                       | {a[0] for a in atoms} | {a[1] for a in atoms if isinstance(a[1], str)})
        self.bound = {s: z3.Bool(f"bound:{s}", CTX) for s in slots}
        self.slot = {s: Value(f"slot:{s}") for s in slots}

    def well_formed(self, resources: Sequence[JSON] | None) -> z3.BoolRef:
        """A call some tool could make, with the resource in ``resources`` (``None``: any); ``Unsupported``
        when Z3's alphabet leaves too few characters outside those the question names (module docstring)."""
        named = mentioned(self.entries, self.tools, resources, self.action)
        named += mentioned([Entry(EntryKind.ALLOW, self.action, a[1]) for a in self.atoms if not isinstance(a[1], str)],
                           (), None, self.action)
        if any(hi > MAX_CHAR for _, hi in named):
            raise Unsupported(f"a character past Z3's alphabet (code point > {MAX_CHAR:#x})")
        n = len(self.at) + 1 + len(self.slot)
        if alphabet_spare(named) < n * (n - 1) + 1:
            raise Unsupported(f"{self.action}: fewer than {n * (n - 1) + 1} characters of Z3's alphabet are named "
                              "by no constant or glob, too few to stand for the characters past it")
        cs: list[z3.BoolRef] = [_within(v.tag, MISSING, OBJ) for v in self.at.values()]
        cs += [_implies(v.lacks(MISSING), self.at[p[:-1]].has(OBJ)) for p, v in self.at.items() if len(p) > 1]
        if resources is not None:
            cs.append(any_of([self.r.equals(c) for c in resources]))
        cs += [_and(v.scalar(), _implies(v.has(STR), z3.Length(v.s) > 0)) for v in self.slot.values()]
        ways = []
        for t in self.tools:
            keys = [self.at[(k,)].lacks(MISSING) for k in sorted(t.required)]
            keys += [self.at[(k,)].has(MISSING) for k in self.keys if k not in t.args]
            ways.append(all_of([*keys, self._resource(t)]))
        cs.append(any_of(ways))
        return all_of(cs)

    def _resource(self, tool: Tool) -> z3.BoolRef:
        ways: list[z3.BoolRef] = []
        for d in tool.effects:
            if d.action != self.action:
                continue
            if isinstance(d.resource, ConstRes):
                # A null constant is an effect the monitor emits (``call_effects``) and ``any`` or a null
                # constant pattern matches; registration refuses an array or object one.
                value = d.resource.value
                ways.append(false() if isinstance(value, list | dict) else self.r.equals(value))
            elif isinstance(d.resource, ArgRes):
                # the monitor refuses a null, array or object argument as a resource
                ways.append(_and(self.r.scalar(), self.r.same(self.at[(d.resource.arg,)])))
            else:
                ways.append(_and(self.r.scalar(), self.at[(d.resource.arg,)].has(ARR)))
        return any_of(ways)

    def literals(self, e: Entry) -> tuple[z3.BoolRef, z3.BoolRef]:
        """``(matches, fails)``: the entry matches this effect, and its negation with a glob's failure
        written as membership in the complement language (the form Z3's string solver decides)."""
        if e.action != self.action:
            return false(), true()
        parts: list[tuple[z3.BoolRef, z3.BoolRef]] = []  # (conjunct, its negation)
        pat = e.resource
        if isinstance(pat, ConstPat):
            if isinstance(pat.value, list | dict):  # no resource is an array or object
                return false(), true()
            c = self.r.equals(pat.value)
            parts.append((c, _not(c)))
        elif isinstance(pat, SlotPat):
            c = _and(self.bound[pat.slot], self.r.same(self.slot[pat.slot]))
            parts.append((c, _not(c)))
        elif isinstance(pat, GlobPat):
            lang = regex(pat.glob)
            parts.append((_and(self.r.has(STR), z3.InRe(self.r.s, lang)),
                          _or(self.r.lacks(STR), z3.InRe(self.r.s, z3.Complement(lang)))))
        else:
            assert isinstance(pat, AnyRes)
        if e.keys is not None:
            for k in self.keys:
                if k not in e.keys:
                    c = self.at[(k,)].has(MISSING)
                    parts.append((c, _not(c)))
        for p in e.where:
            v = self.at[p.path]
            if isinstance(p, EqPred):
                c = v.equals(p.value)
            elif isinstance(p, OneOfPred):
                c = any_of([v.equals(x) for x in p.values])
            else:
                assert isinstance(p, RangePred)
                bounds = [v.has(NUM)]
                if p.low is not None:
                    bounds.append(_real(p.low) <= v.n)
                if p.high is not None:
                    bounds.append(v.n <= _real(p.high))
                c = all_of(bounds)
            parts.append((c, _not(c)))
        return all_of([m for m, _ in parts]), any_of([f for _, f in parts])

    def atom(self, a: SlotAtom) -> tuple[z3.BoolRef, z3.BoolRef]:
        """``(holds, fails)`` of a fact about bound values: slot ``a[0]``'s value matches the resource pattern
        ``a[1]``, or equals the value of the slot named ``a[1]`` (whether or not the slots are bound yet)."""
        v, pat = self.slot[a[0]], a[1]
        if isinstance(pat, str):
            c = v.same(self.slot[pat])
            return c, _not(c)
        if isinstance(pat, ConstPat):
            c = v.equals(pat.value)
            return c, _not(c)
        lang = regex(pat.glob)
        return _and(v.has(STR), z3.InRe(v.s, lang)), _or(v.lacks(STR), z3.InRe(v.s, z3.Complement(lang)))

    def effect(self, model: z3.ModelRef) -> dict[str, JSON]:
        """The concrete effect, arguments and bindings of ``model`` (for a refusal's message)."""
        args: dict[str, JSON] = {}
        for k in self.keys:
            v = self.at[(k,)]
            if model.eval(v.tag, model_completion=True).as_long() != MISSING:
                args[k] = v.read(model, {p[-1]: w for p, w in self.at.items() if len(p) == 2 and p[0] == k})
        bindings = {s: self.slot[s].read(model, {}) for s in self.bound
                    if z3.is_true(model.eval(self.bound[s], model_completion=True))}
        return {"action": self.action, "resource": self.r.read(model, {}), "args": args, "bindings": bindings}


def _real(x: int | float) -> z3.ArithRef:
    f = Fraction(x)
    return z3.RealVal(f"{f.numerator}/{f.denominator}", CTX)


def _bracket(body: str) -> list[tuple[str, str]]:
    """The character ranges of a bracket set's body (after any ``!``): single characters and ``lo-hi``."""
    if "\\" in body:
        raise Unsupported(f"a bracket set with a backslash: [{body}]")
    out: list[tuple[str, str]] = []
    k = 0
    while k < len(body):
        if body[k] == "-":
            raise Unsupported(f"a bracket set whose '-' is not a range: [{body}]")
        if k + 2 < len(body) and body[k + 1] == "-":
            if body[k + 2] == "-":
                raise Unsupported(f"a bracket set whose '-' is not a range: [{body}]")
            if body[k] <= body[k + 2]:  # an empty range matches nothing (fnmatch drops it)
                out.append((body[k], body[k + 2]))
            k += 3
        elif k + 1 < len(body) and body[k + 1] == "-":  # a trailing '-'
            raise Unsupported(f"a bracket set whose '-' is not a range: [{body}]")
        else:
            out.append((body[k], body[k]))
            k += 1
    return out


def _char(c: str) -> z3.ReRef:
    return z3.Re(text(c))


Part = tuple[str, list[tuple[str, str]], bool]  # ("*" | "?" | "set" | "char", ranges, negated)


def _parts(glob: str) -> list[Part]:
    """``glob`` read as ``fnmatch.fnmatchcase`` reads it: ``*`` any string, ``?`` any one character,
    ``[set]``/``[!set]`` one character in / not in the set (a ``]`` right after the opening ``[`` or ``[!`` is
    a member; a ``[`` without a closing ``]`` is itself), every other character itself."""
    parts: list[Part] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        i += 1
        if c in "*?":
            parts.append((c, [], False))
        elif c == "[":
            j = i + 1 if i < len(glob) and glob[i] == "!" else i
            j = j + 1 if j < len(glob) and glob[j] == "]" else j
            close = glob.find("]", j)
            if close < 0:
                parts.append(("char", [("[", "[")], False))
                continue
            body, i = glob[i:close], close + 1
            negate = body.startswith("!")
            parts.append(("set", _bracket(body[1:] if negate else body), negate))
        else:
            parts.append(("char", [(c, c)], False))
    return parts


def regex(glob: str) -> z3.ReRef:
    """The language ``fnmatch.fnmatchcase`` accepts for ``glob`` (``_parts``)."""
    one = z3.AllChar(z3.ReSort(z3.StringSort(CTX)))
    out: list[z3.ReRef] = []
    for kind, ranges, negate in _parts(glob):
        if kind == "*":
            out.append(z3.Star(one))
        elif kind == "?":
            out.append(one)
        elif kind == "char":
            out.append(_char(ranges[0][0]))
        else:
            members = [z3.Range(text(lo), text(hi)) if lo != hi else _char(lo) for lo, hi in ranges]
            if negate:
                out.append(z3.Intersect(one, z3.Complement(z3.Union(*members))) if len(members) > 1 else
                           z3.Intersect(one, z3.Complement(members[0])) if members else one)
            else:
                out.append(z3.Union(*members) if len(members) > 1 else members[0] if members
                           else z3.Empty(z3.ReSort(z3.StringSort(CTX))))
    if not out:
        return z3.Re(text(""))
    return out[0] if len(out) == 1 else z3.Concat(*out)


def _named(values: Iterable[JSON]) -> list[tuple[int, int]]:
    return [(ord(c), ord(c)) for v in values if isinstance(v, str) for c in v]


def mentioned(entries: Iterable[Entry], tools: Iterable[Tool], resources: Sequence[JSON] | None,
              action: str) -> list[tuple[int, int]]:
    """The code points ``K`` a question over ``entries`` names (module docstring): the characters of every
    string constant (resources, predicate values, tools' constant resources, ``E``'s resources) and every
    glob character and bracket range, as closed intervals (overlaps allowed)."""
    out = _named(resources or ())
    for t in tools:
        out += _named(d.resource.value for d in t.effects if d.action == action and isinstance(d.resource, ConstRes))
    for e in entries:
        if e.action != action:
            continue
        pat = e.resource
        if isinstance(pat, ConstPat):
            out += _named([pat.value])
        elif isinstance(pat, GlobPat):
            out += [(ord(lo), ord(hi)) for _, ranges, _ in _parts(pat.glob) for lo, hi in ranges]
        for p in e.where:
            if isinstance(p, EqPred):
                out += _named([p.value])
            elif isinstance(p, OneOfPred):
                out += _named(p.values)
    return out


def alphabet_spare(intervals: Iterable[tuple[int, int]]) -> int:
    """How many code points up to ``MAX_CHAR`` lie outside every interval: ``|R|``."""
    covered, top = 0, -1
    for lo, hi in sorted(intervals):
        lo, hi = max(lo, top + 1), min(hi, MAX_CHAR)
        if lo <= hi:
            covered += hi - lo + 1
            top = hi
    return MAX_CHAR + 1 - covered
