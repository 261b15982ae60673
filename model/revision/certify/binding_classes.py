"""The proposer of simulations split by binding class (binding_certificate.py says what they are and why they
prove preservation; Agenra Sections 1 and 7.1).

``atoms`` picks the facts about bound values that can decide which grants overlap: for every slot a grant of
either list names, that its value matches the resource pattern (a constant or a glob) of a grant of an action
some grant naming the slot has, and that two such slots are bound to equal values. ``propose_binding``
enumerates, for every truth assignment of them, the realizable match vectors with the proposers' encoding
(``smt/z3_matching.py``) and the assignment's literals added to every question, then proposes and closes a
relation per list as ``simulation.py`` does.

Choices where the source is silent: tried only when some grant names a slot and there are between one and
``MAX_ATOMS`` facts; an assignment no binding satisfies gets the relation holding the start alone (no
vectors). The enumeration is the unmemoized one (a fresh solver per question): the revisions it is asked of
are the ones every cheaper engine left open.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import z3

from model.base.budget import Meter
from model.monitor.language.policy import ConstPat, Entry, GlobPat, Policy, SlotPat, Tool
from model.revision.carry import Ledgers
from model.revision.certify.binding_certificate import MAX_ATOMS, BindingClass, BindingSimulation, atom_text
from model.revision.certify.conditions import outside_simulation
from model.revision.certify.simulation import NoSimulation, closed, leaves_of, propose
from model.revision.certify.simulation_certificate import Relation, Vectors, requirement_sets
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.identity import match_key
from model.revision.smt.globs import translate
from model.revision.smt.z3_matching import JV, Encoder, Unsupported, const
from model.revision.trusted.encoding import SlotAtom


def atoms(old: Policy, new: Policy) -> tuple[SlotAtom, ...]:
    entries = [e for p in (old, new) for xs in (p.user, p.application) for e in xs]
    out: list[SlotAtom] = []
    slots = sorted({e.resource.slot for e in entries if isinstance(e.resource, SlotPat)})
    for s in slots:
        actions = {e.action for e in entries if isinstance(e.resource, SlotPat) and e.resource.slot == s}
        seen: set[str] = set()
        for e in entries:
            if e.action in actions and isinstance(e.resource, ConstPat | GlobPat) and repr(e.resource) not in seen:
                seen.add(repr(e.resource))
                out.append((s, e.resource))
    out += [(s, t) for s, t in itertools.combinations(slots, 2)]
    return tuple(out)


def _literal(a: SlotAtom, holds: bool) -> z3.BoolRef:
    v = z3.Const(f"slot:{a[0]}", JV)  # the encoder's own name for the slot's value
    pat = a[1]
    if isinstance(pat, str):
        c = v == z3.Const(f"slot:{pat}", JV)
        return c if holds else z3.Not(c)
    if isinstance(pat, ConstPat):
        c = v == const(pat.value)
        return c if holds else z3.Not(c)
    regex = translate(pat.glob)
    if regex is None:
        raise Unsupported(f"glob {pat.glob!r}")
    if holds:
        return z3.And(JV.is_jstr(v), z3.InRe(JV.s(v), regex))
    return z3.Or(z3.Not(JV.is_jstr(v)), z3.InRe(JV.s(v), z3.Complement(regex)))


def _vectors(a: Sequence[Entry], b: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool],
             given: Sequence[z3.BoolRef], meter: Meter | None) -> Vectors | str:
    everything = [*a, *b]
    out = []
    for action in effects.actions(frozenset(e.action for e in everything)):
        by_key = {match_key(e): e for e in everything if e.action == action}
        distinct = list(by_key.values())
        try:
            enc = Encoder(action, distinct, tools)
            base = z3.And(enc.base(effects.resources(action)), *given)
            lits = [(enc.matches(e), enc.fails(e)) for e in distinct]
        except Unsupported as exc:
            return str(exc)
        found = leaves_of(base, lits, meter)
        if isinstance(found, str):
            return f"{action}: {found}"
        vs = []
        for bits in found:
            value = dict(zip(by_key, bits, strict=True))
            vs.append((tuple(value.get(match_key(e), False) for e in a),
                       tuple(value.get(match_key(e), False) for e in b)))
        out.append((action, tuple(vs)))
    return tuple(out)


def propose_binding(old: Policy, new: Policy, effects: EffectSet, ledgers: Ledgers | None = None,
                    meter: Meter | None = None, memo: Memo | None = None) -> BindingSimulation | NoSimulation:
    """A relation per list for every binding class, each closed; or why none was found."""
    if (why := outside_simulation(old, new, memo)) is not None:
        return NoSimulation(why)
    facts = atoms(old, new)
    if not facts:
        return NoSimulation("no grant names a slot")
    if len(facts) > MAX_ATOMS:
        return NoSimulation(f"more than {MAX_ATOMS} facts about bound values")
    lg = ledgers or Ledgers.zero(old, new)
    classes: list[BindingClass] = []
    for holds in itertools.product((False, True), repeat=len(facts)):
        try:
            given = [_literal(a, h) for a, h in zip(facts, holds, strict=True)]
        except Unsupported as exc:
            return NoSimulation(str(exc))
        where = ", ".join(("" if h else "not ") + atom_text(a) for a, h in zip(facts, holds, strict=True))
        rels: list[Relation] = []
        for side, a, b, begin in (("P", old.user, new.user, (lg.old_user, lg.new_user)),
                                  ("A", old.application, new.application, (lg.old_app, lg.new_app))):
            found = _vectors(a, b, effects, old.tools, given, meter)
            if isinstance(found, str):
                return NoSimulation(f"{side} [{where}]: {found}")
            sigs = tuple((m_old, m_new, q) for _, vs in found for m_old, m_new in vs
                         for q in requirement_sets((*a, *b)))
            rel = propose(a, b, sigs, f"{side} [{where}]", begin, meter, True)
            if isinstance(rel, NoSimulation):
                return rel
            if isinstance(rel, str):
                return NoSimulation(rel)
            if not closed(rel, a, b, sigs, begin, True):
                return NoSimulation(f"{side} [{where}]: the proposed relation is not closed")
            rels.append(Relation(rel.side, rel.pairs, rel.signatures, rel.start, found))
        classes.append(BindingClass(holds, rels[0], rels[1]))
    return BindingSimulation(facts, tuple(classes), effects)
