"""Syntactic proofs that a conjunction of match / fail literals is unsatisfiable (issue 15 §2: fewer Z3
questions; the questions are those of ``simulation.vectors``, Agenra Section 7.1, as ``symbolic.Encoder``
writes them).

A match literal is the conjunction ``Encoder.matches`` builds; the rules below read only the *match*
literals of the question (an entry that must match) and conclude "unsatisfiable" when two of their
conjuncts, or one and the base, cannot hold together — so the whole conjunction, whatever its fail
literals say, cannot either. Each rule is a statement about the encoding's terms, with the encoding's
semantics (numbers are reals, compared exactly: ``Fraction``; JSON values of different kinds differ):

- *resource constants*: a constant pattern ``c`` contributes ``r == const(c)`` (or ``False`` when ``c`` is
  null or compound: the resource is a scalar); two different constants cannot both equal ``r``, and with
  ``E`` naming the resources of the action (the base's ``r ∈ E``) a constant outside ``E`` cannot equal
  ``r``;
- *one path's values*: an equality contributes ``v == const(c)``, a one-of ``v ∈ {const(c)…}``, a range
  ``is_jnum(v) ∧ lo ≤ n(v) ≤ hi``, all over the same variable ``v`` for the same path; when the values
  the equalities and one-ofs leave (each checked against every range) are none, or the ranges alone have
  an empty intersection (greatest ``lo`` above least ``hi``), no value of ``v`` satisfies them all.

Anything else (globs, slots, key allowlists, fail literals) is left to the other rules and to Z3: this
module never says "satisfiable", and saying nothing proves nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from model.canonical import JSON
from model.monitor.policy import ConstPat, Entry, EqPred, OneOfPred, RangePred


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
        if c is None or isinstance(c, list | dict) or not same_value(c, consts[0]):
            return True
        if resources is not None and not any(same_value(c, x) for x in resources):
            return True
    paths: dict[tuple[str, ...], list[object]] = {}
    for e in must:
        for p in e.where:
            paths.setdefault(p.path, []).append(p)
    return any(_empty(preds) for preds in paths.values() if len(preds) > 1)


def _empty(preds: Sequence[object]) -> bool:
    """No value satisfies every predicate (all on one path)."""
    ranges = [p for p in preds if isinstance(p, RangePred)]
    bounds = [b for r in ranges for b in (r.low, r.high) if b is not None]
    if any(not isinstance(b, int) and not (isinstance(b, float) and math.isfinite(b)) for b in bounds):
        return False  # not a bound the rules reason about: say nothing
    if any(isinstance(v, list | dict) for p in preds for v in _constants(p)):
        return False  # a compound constant is not encoded (Unsupported): say nothing
    finite: list[JSON] | None = None
    for p in preds:
        if isinstance(p, EqPred | OneOfPred):
            values = [p.value] if isinstance(p, EqPred) else list(p.values)
            finite = values if finite is None else [v for v in finite if any(same_value(v, w) for w in values)]
    if finite is not None:
        return not any(all(_within(v, r) for r in ranges) for v in finite)
    lows = [Fraction(r.low) for r in ranges if r.low is not None]
    highs = [Fraction(r.high) for r in ranges if r.high is not None]
    return bool(lows) and bool(highs) and max(lows) > min(highs)


def _constants(p: object) -> list[JSON]:
    if isinstance(p, EqPred):
        return [p.value]
    return list(p.values) if isinstance(p, OneOfPred) else []


def _within(v: JSON, r: RangePred) -> bool:
    n = _number(v)
    return n is not None and (r.low is None or Fraction(r.low) <= n) and (r.high is None or n <= Fraction(r.high))
