"""Workflow contracts: pomsets with outcome (result) labels (*Exact Checking for Execution Edits*, Section IV-A).

A contract term is built from single workflow calls, the empty contract, choice ⊕, parallel ⊗ and
sequence ▷. Its meaning is a finite family of outcomes, each with a pomset ``p_o`` of calls:

    O_{C⊕D} = ({L}×O_C) ⊎ ({R}×O_D)      p_(L,o) = p_o
    O_{C⊗D} = O_C × O_D                   p_(o,v) = p_o ⊎ p_v   (disjoint union of orders)
    O_{C▷D} = O_C × O_D                   p_(o,v) = p_o ▷ p_v   (every call of p_o before p_v)

Choices made where the paper is silent:
- Every workflow call leaf occurs once in a term (call IDs are globally unique, Section IV-B2);
  sharing between calls is expressed through the action map ``q_act``, never by repeating a call.
- A choice may have two or more named arms (``L``/``R`` by default) and carries an ID (the paper's
  group ``g``). An outcome is identified by the arm chosen at every choice it passes through,
  ``((g1, arm1), (g2, arm2), ...)`` sorted by choice ID: unique, readable and canonically ordered.
- ``Par`` and ``Seq`` are n-ary here (associative folds of the binary constructors).
- ``Family`` is the second form: an explicit finite family of outcomes, each with its own
  strict order, as §V-C and the pomset lift of Appendix A-A allow. Such families need not be
  series-parallel (an N-shaped order) and one call may occur in several outcomes, ordered
  differently in each; a family carries an ID like a choice and its outcome ``n`` is named
  ``((family, n),)``, so it composes with ⊕, ⊗ and ▷ exactly as a choice does. Call IDs stay unique
  across the *leaves* of a term: a family is one leaf, whatever its outcomes share.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

CallId = str
Outcome = tuple[tuple[str, str], ...]  # sorted (choice ID, arm) pairs


@dataclass(frozen=True, slots=True)
class Call:
    call: CallId


@dataclass(frozen=True, slots=True)
class Nil:
    """The empty contract: one outcome whose pomset has no calls."""


@dataclass(frozen=True, slots=True)
class Choice:
    """Outcome-indexed choice ⊕ over named arms."""

    group: str
    arms: tuple[tuple[str, Term], ...]


@dataclass(frozen=True, slots=True)
class Par:
    """Parallel composition ⊗: product of outcomes, no order between the parts."""

    parts: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class Seq:
    """Sequence ▷: product of outcomes, every call of an earlier part precedes every later call."""

    parts: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class Pomset:
    """A finite labelled partial order: ``preds[c]`` are the strict predecessors of call ``c``.

    ``preds`` is transitively closed and sorted by call ID so equal pomsets are equal values.
    """

    preds: tuple[tuple[CallId, frozenset[CallId]], ...]

    @property
    def calls(self) -> frozenset[CallId]:
        return frozenset(c for c, _ in self.preds)

    def pred_map(self) -> dict[CallId, frozenset[CallId]]:
        return dict(self.preds)

    def __len__(self) -> int:
        return len(self.preds)


@dataclass(frozen=True, slots=True)
class Family:
    """An explicit outcome family: outcome names with their pomsets, sorted by name
    (``model.edits.check.family`` builds it from Hasse pairs and checks the orders are acyclic)."""

    group: str
    members: tuple[tuple[str, Pomset], ...]

    @property
    def calls(self) -> tuple[CallId, ...]:
        return tuple(sorted({c for _, p in self.members for c, _ in p.preds}))  # not p.calls: a set per outcome


Term = Call | Nil | Choice | Par | Seq | Family


def _pomset(preds: dict[CallId, frozenset[CallId]]) -> Pomset:
    return Pomset(tuple(sorted(preds.items())))


def call_ids(term: Term) -> Iterator[CallId]:
    """Every call leaf of the term in left-to-right order (with repeats, if the term has any); a
    family's calls once each, sorted, whatever outcomes share them."""
    if isinstance(term, Call):
        yield term.call
    elif isinstance(term, Family):
        yield from term.calls
    elif isinstance(term, Choice):
        for _, arm in term.arms:
            yield from call_ids(arm)
    elif isinstance(term, Par | Seq):
        for part in term.parts:
            yield from call_ids(part)


@functools.lru_cache(maxsize=32)
def outcomes(term: Term) -> dict[Outcome, Pomset]:
    """``O_C`` with ``p_o`` for each outcome, in canonical (sorted) outcome order.

    Cached per term (terms are frozen values): well-formedness and the engines all ask for it.
    Callers must not mutate the returned dict.
    """
    if isinstance(term, Family):  # its pomsets already are canonical values: no rebuilding
        return {((term.group, n),): p for n, p in sorted(term.members, key=lambda m: m[0])}
    raw = _outcomes(term)
    return {o: _pomset(p) for o, p in sorted(raw, key=lambda op: op[0])}


def _outcomes(term: Term) -> list[tuple[Outcome, dict[CallId, frozenset[CallId]]]]:
    if isinstance(term, Call):
        return [((), {term.call: frozenset()})]
    if isinstance(term, Nil):
        return [((), {})]
    if isinstance(term, Family):
        return [(((term.group, n),), p.pred_map()) for n, p in term.members]
    if isinstance(term, Choice):
        out: list[tuple[Outcome, dict[CallId, frozenset[CallId]]]] = []
        for arm, sub in term.arms:
            for o, p in _outcomes(sub):
                out.append((tuple(sorted(((term.group, arm), *o))), p))
        return out
    acc: list[tuple[Outcome, dict[CallId, frozenset[CallId]]]] = [((), {})]
    for part in term.parts:
        nxt: list[tuple[Outcome, dict[CallId, frozenset[CallId]]]] = []
        for o1, p1 in acc:
            before = frozenset(p1) if isinstance(term, Seq) else frozenset()
            for o2, p2 in _outcomes(part):
                merged = dict(p1)
                for c, pr in p2.items():
                    merged[c] = pr | before
                nxt.append((tuple(sorted(o1 + o2)), merged))
        acc = nxt
    return acc


def show_outcome(o: Outcome) -> str:
    """``g1=L,g2=R``; the single outcome of a choice-free contract is shown as ``·``."""
    return ",".join(f"{g}={a}" for g, a in o) if o else "·"


def show_term(term: Term) -> str:
    if isinstance(term, Call):
        return term.call
    if isinstance(term, Nil):
        return "ε"
    if isinstance(term, Family):
        return term.group + "{" + " | ".join(f"{n}:{show_pomset(p)}" for n, p in term.members) + "}"
    if isinstance(term, Choice):
        return "(" + " ⊕ ".join(f"{a}:{show_term(t)}" for a, t in term.arms) + ")"
    sep = " ⊗ " if isinstance(term, Par) else " ▷ "
    return "(" + sep.join(show_term(t) for t in term.parts) + ")"


def hasse(p: Pomset) -> list[tuple[CallId, CallId]]:
    """The covering pairs of ``p`` (its transitive reduction), sorted: the canonical spelling."""
    preds = p.pred_map()
    out = []
    for c, pr in preds.items():
        implied = {d for b in pr for d in preds[b]}
        out += [(b, c) for b in pr - implied]
    return sorted(out)


def show_pomset(p: Pomset) -> str:
    """``a<b,c`` (calls without order listed after the pairs); ``ε`` when empty."""
    pairs = hasse(p)
    ordered = {c for pair in pairs for c in pair}
    items = [f"{a}<{b}" for a, b in pairs] + sorted(p.calls - ordered)
    return ",".join(items) or "ε"
