"""Syntactic proofs that a conjunction of match / fail literals is unsatisfiable (to ask Z3 fewer
questions; the questions are those of ``simulation.vectors``, Agenra Section 7.1, as ``symbolic.Encoder``
writes them).

A match literal is the conjunction ``Encoder.matches`` builds; the rules below read only the *match*
literals of the question (an entry that must match) and conclude "unsatisfiable" when two of their
conjuncts, or one and the base, cannot hold together — so the whole conjunction, whatever its fail
literals say, cannot either. Each rule is a statement about the encoding's terms, with the encoding's
semantics (numbers are reals, compared exactly: ``Fraction``; JSON values of different kinds differ):

- *resource constants*: a constant pattern ``c`` contributes ``r == const(c)`` (or ``False`` when ``c`` is
  compound: no resource is an array or object; a null ``c`` is ``r == null``, the resource of a tool whose
  effect has the null constant); two different constants cannot both equal ``r``, and with ``E`` naming the
  resources of the action (the base's ``r ∈ E``; ``E`` never names null) a constant outside ``E`` cannot
  equal ``r``;
- *one path's values*: an equality contributes ``v == const(c)``, a one-of ``v ∈ {const(c)…}``, a range
  ``is_jnum(v) ∧ lo ≤ n(v) ≤ hi``, all over the same variable ``v`` for the same path; when the values
  the equalities and one-ofs leave (each checked against every range) are none, or the ranges alone have
  an empty intersection (greatest ``lo`` above least ``hi``), no value of ``v`` satisfies them all.

- *an implied match*: ``Encoder.fails(f)`` is equivalent to ``Not(matches(f))``, so a fail literal is
  contradicted when the match literals imply every conjunct of ``f``'s match: its resource conjunct (a
  constant equal to one a match literal's constant pattern fixes; a slot a match literal's slot pattern
  names, which asserts the same ``bound`` and ``r == sval``; a glob that a match literal's same glob
  asserts, or that a string constant a match literal fixes matches — ``globs.translate`` is exact for
  ``fnmatchcase``, tested against it in tests/unit/test_revision_symbolic.py); its key allowlist
  ``K`` (a match literal's allowlist inside ``K``: ``keys(x) ⊆ K′ ⊆ K``); and each predicate (the values
  the match literals leave on its path, as in the rule above, all satisfy it; or, with no equality
  or one-of there, their ranges' intersection lies inside its range). An entry of another action, or
  with a compound constant pattern, never matches: its fail literal is never contradicted. A null
  constant is a constant like any other here (``same_value`` compares null with null only).

- *globs' fixed ends*: every string a glob accepts starts with its literal prefix (the characters before
  its first ``*``, ``?`` or ``[``) and ends with its literal suffix (those after its last ``*``, ``?``, ``[``
  or ``]``): ``fnmatchcase`` and ``globs.translate`` match such characters one for one. So two match literals
  whose globs' prefixes (or suffixes) disagree — neither a prefix (suffix) of the other — cannot both hold,
  nor can a glob's and a string constant's the glob does not accept (``fnmatchcase``); and a fail literal
  of a glob ``P*`` (``*S``), with ``P`` (``S``) free of wildcards, is contradicted by a match literal whose
  glob's literal prefix starts with ``P`` (suffix ends with ``S``) — in the *implied match* rule above.

Anything else (fail literals otherwise, other globs against globs, slots against constants) is left to the
other rules and to Z3: this module never says "satisfiable", and saying nothing proves nothing.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Sequence
from fractions import Fraction

from model.base.canonical import JSON
from model.monitor.language.policy import ConstPat, Entry, EqPred, GlobPat, OneOfPred, RangePred, SlotPat


def _number(v: JSON) -> Fraction | None:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return Fraction(v)
    return None


def same_value(a: JSON, b: JSON) -> bool:
    """Equality of ``symbolic.const(a)`` and ``const(b)``: numbers as exact reals, booleans, strings, null."""
    na, nb = _number(a), _number(b)
    if na is not None or nb is not None:
        return na is not None and na == nb
    return type(a) is type(b) and a == b and not isinstance(a, list | dict)


def refuted(action: str, resources: Sequence[JSON] | None, literals: Sequence[tuple[Entry, bool]]) -> bool:
    """Whether a rule of the module docstring proves the question unsatisfiable."""
    must = [e for e, b in literals if b]
    if any(e.action != action for e in must):
        return True  # ``matches`` of another action's entry is ``False``
    consts = [e.resource.value for e in must if isinstance(e.resource, ConstPat)]
    for c in consts:
        if isinstance(c, list | dict) or not same_value(c, consts[0]):
            return True
        if resources is not None and not any(same_value(c, x) for x in resources):
            return True
    globs = [e.resource.glob for e in must if isinstance(e.resource, GlobPat)]
    if globs and consts and not (isinstance(consts[0], str) and all(fnmatch.fnmatchcase(consts[0], g) for g in globs)):
        return True  # the resource is the constant, which some glob does not accept
    ends = [(_prefix(g), _suffix(g)) for g in globs]
    if any(not (p.startswith(q) or q.startswith(p)) or not (x.endswith(y) or y.endswith(x))
           for i, (p, x) in enumerate(ends) for q, y in ends[i + 1:]):
        return True
    paths: dict[tuple[str, ...], list[object]] = {}
    for e in must:
        for p in e.where:
            paths.setdefault(p.path, []).append(p)
    if any(_empty(preds) for preds in paths.values() if len(preds) > 1):
        return True
    return any(_implied(f, must, paths) for f, b in literals if not b and f.action == action)


def _implied(f: Entry, must: Sequence[Entry], paths: dict[tuple[str, ...], list[object]]) -> bool:
    """The match literals imply every conjunct of ``f``'s match (module docstring)."""
    pat = f.resource
    if isinstance(pat, ConstPat):
        if isinstance(pat.value, list | dict) or \
                not any(isinstance(m.resource, ConstPat) and same_value(m.resource.value, pat.value) for m in must):
            return False
    elif isinstance(pat, SlotPat):
        if not any(isinstance(m.resource, SlotPat) and m.resource.slot == pat.slot for m in must):
            return False
    elif isinstance(pat, GlobPat):
        if not any((isinstance(m.resource, GlobPat) and _wider(pat.glob, m.resource.glob))
                   or (isinstance(m.resource, ConstPat) and isinstance(m.resource.value, str) and
                       fnmatch.fnmatchcase(m.resource.value, pat.glob)) for m in must):
            return False
    if f.keys is not None and not any(m.keys is not None and m.keys <= f.keys for m in must):
        return False
    return all(_entailed(p, paths.get(p.path, [])) for p in f.where)


def _prefix(glob: str) -> str:
    """The characters every string ``glob`` accepts starts with (module docstring)."""
    cut = min((i for i, c in enumerate(glob) if c in "*?["), default=len(glob))
    return glob[:cut]


def _suffix(glob: str) -> str:
    """The characters every string ``glob`` accepts ends with (module docstring)."""
    cut = max((i for i, c in enumerate(glob) if c in "*?[]"), default=-1)
    return glob[cut + 1:]


def _wider(wide: str, narrow: str) -> bool:
    """Every string ``narrow`` accepts, ``wide`` accepts: they are the same glob, or ``wide`` is ``P*`` (``*S``)
    with ``P`` (``S``) free of wildcards and ``narrow``'s literal prefix starts with ``P`` (its literal suffix
    ends with ``S``)."""
    if wide == narrow or (wide.endswith("*") and _prefix(wide) == wide[:-1]
                          and _prefix(narrow).startswith(wide[:-1])):
        return True
    return wide.startswith("*") and _suffix(wide) == wide[1:] and _suffix(narrow).endswith(wide[1:])


def _entailed(p: object, preds: Sequence[object]) -> bool:
    """Every value the predicates ``preds`` (all on ``p``'s path) allow satisfies ``p``."""
    if not preds or _odd(preds) or _odd([p]):
        return False
    finite = _finite(preds)
    if finite is not None:
        return all(_holds(p, v) for v in finite)
    if not isinstance(p, RangePred):
        return False  # ranges alone leave infinitely many values; an equality or one-of holds of finitely many
    ranges = [q for q in preds if isinstance(q, RangePred)]
    lows = [Fraction(q.low) for q in ranges if q.low is not None]
    highs = [Fraction(q.high) for q in ranges if q.high is not None]
    return (p.low is None or (bool(lows) and max(lows) >= Fraction(p.low))) and \
        (p.high is None or (bool(highs) and min(highs) <= Fraction(p.high)))


def _holds(p: object, v: JSON) -> bool:
    if isinstance(p, RangePred):
        return _within(v, p)
    return any(same_value(v, c) for c in constants(p))


def _odd(preds: Sequence[object]) -> bool:
    """A bound that is not a finite number, or a compound constant (not encoded: ``Unsupported``): the
    rules say nothing about such predicates."""
    bounds = [b for r in preds if isinstance(r, RangePred) for b in (r.low, r.high) if b is not None]
    if any(not isinstance(b, int) and not (isinstance(b, float) and math.isfinite(b)) for b in bounds):
        return True
    return any(isinstance(v, list | dict) for p in preds for v in constants(p))


def _finite(preds: Sequence[object]) -> list[JSON] | None:
    """The values the equalities and one-ofs among ``preds`` leave that every range admits; ``None`` if
    there is no equality or one-of."""
    finite: list[JSON] | None = None
    for p in preds:
        if isinstance(p, EqPred | OneOfPred):
            values = constants(p)
            finite = values if finite is None else [v for v in finite if any(same_value(v, w) for w in values)]
    if finite is None:
        return None
    ranges = [p for p in preds if isinstance(p, RangePred)]
    return [v for v in finite if all(_within(v, r) for r in ranges)]


def _empty(preds: Sequence[object]) -> bool:
    """No value satisfies every predicate (all on one path)."""
    if _odd(preds):
        return False
    finite = _finite(preds)
    if finite is not None:
        return not finite
    ranges = [p for p in preds if isinstance(p, RangePred)]
    lows = [Fraction(r.low) for r in ranges if r.low is not None]
    highs = [Fraction(r.high) for r in ranges if r.high is not None]
    return bool(lows) and bool(highs) and max(lows) > min(highs)


def constants(p: object) -> list[JSON]:
    """The values an equality or one-of predicate names (none for a range)."""
    if isinstance(p, EqPred):
        return [p.value]
    return list(p.values) if isinstance(p, OneOfPred) else []


def _within(v: JSON, r: RangePred) -> bool:
    n = _number(v)
    return n is not None and (r.low is None or Fraction(r.low) <= n) and (r.high is None or n <= Fraction(r.high))
