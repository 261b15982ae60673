"""Simulations split by what the bindings are (Agenra Sections 1 and 7.1: "a certificate must hold in every
binding state"), as data, and their independent check.

A per-list simulation lets every unit take any realizable match vector, over every binding state at once.
When a specific grant (``@bob``) is moved before a general one (``like "*@corp.example"``), whether the two
overlap depends on the address the slot is bound to: if it is a corp address, a mail to Bob matches both; if
not, it matches the specific grant only. A run holds one of these, never both, since a slot is bound at
most once (``decide/commit.py``: later a slot only keeps its value or is invalidated for good, and an
unbound or invalidated slot matches nothing), but a relation closed under vectors of both kinds need not
exist. A ``BindingSimulation`` lists facts about bound values (``atoms``: a slot's value matches a
constant or glob, or equals another slot's value) and, for every truth assignment of them (a *class*), a
per-list relation for each list, closed under the vectors realizable when the bindings satisfy that
assignment.

Why it is a proof. Fix a run. Every slot the run binds keeps that value; give every other slot any value;
these values satisfy exactly one assignment of the atoms. Every unit the run charges has, at its moment,
each slot bound to its value or matching nothing, so its match vector is one the class's coverage question
allows (the atoms constrain the values, not whether the slots are bound yet). The class's relation starts at
the revision's counters and is closed under those vectors, so it relates the run's old and new counters at
every step, as a per-list simulation does.

``check_binding`` verifies: the atoms are at most ``MAX_ATOMS`` and the classes are exactly every truth
assignment of them; each class's two relations pass ``check_list`` (start, coverage under the class's
literals — the checker's encoding, each question a conjunction of literals —, closure with the checker's
first-fit). A class no binding satisfies needs no vector: its coverage questions are all unsatisfiable.

Choices where the source is silent: atoms speak of slot values only (never of arguments); a class's vectors
are listed per action as in a per-list certificate; JSON: ``binding_to_json`` / ``binding_from_json``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from model.base.canonical import JSON
from model.base.z3guard import exclusive
from model.monitor.language.policy import ConstPat, GlobPat, Policy
from model.revision.carry import Ledgers
from model.revision.certify.check_verdict import CheckVerdict, Invalid, Valid
from model.revision.certify.simulation_certificate import Relation, check_list, relation_from_json, relation_to_json
from model.revision.effects import EffectSet, parse_effects
from model.revision.trusted.encoding import SlotAtom
from model.revision.trusted.side_conditions import outside_simulation

MAX_ATOMS = 6


@dataclass(frozen=True, slots=True)
class BindingClass:
    holds: tuple[bool, ...]  # per atom
    user: Relation
    application: Relation


@dataclass(frozen=True, slots=True)
class BindingSimulation:
    atoms: tuple[SlotAtom, ...]
    classes: tuple[BindingClass, ...]
    effects: EffectSet

    def summary(self) -> str:
        pairs = sum(len(c.user.pairs) + len(c.application.pairs) for c in self.classes)
        return (f"simulation per binding class: {len(self.classes)} classes over {len(self.atoms)} facts about "
                f"bound values ({', '.join(atom_text(a) for a in self.atoms)}), {pairs} related ledger pairs")

    def to_json(self) -> dict[str, JSON]:
        return binding_to_json(self)


def atom_text(a: SlotAtom) -> str:
    slot, pat = a
    if isinstance(pat, str):
        return f"@{slot} = @{pat}"
    if isinstance(pat, ConstPat):
        return f"@{slot} = {pat.value!r}"
    return f"@{slot} like {pat.glob!r}"


def _atom_to_json(a: SlotAtom) -> dict[str, JSON]:
    slot, pat = a
    if isinstance(pat, str):
        return {"slot": slot, "same": pat}
    if isinstance(pat, ConstPat):
        return {"slot": slot, "equals": pat.value}
    return {"slot": slot, "like": pat.glob}


def _atom_from_json(obj: Any) -> SlotAtom:
    if not isinstance(obj, dict) or not isinstance(obj.get("slot"), str):
        raise ValueError("an atom object with a slot")
    if isinstance(obj.get("same"), str):
        return obj["slot"], obj["same"]
    if isinstance(obj.get("like"), str):
        return obj["slot"], GlobPat(obj["like"])
    if "equals" in obj:
        return obj["slot"], ConstPat(obj["equals"])
    raise ValueError("an atom with same, like or equals")


def binding_to_json(p: BindingSimulation) -> dict[str, JSON]:
    return {"kind": "binding_simulation", "effects": p.effects.to_json(),
            "atoms": [_atom_to_json(a) for a in p.atoms],
            "classes": [{"holds": list(c.holds), "user": relation_to_json(c.user),
                         "application": relation_to_json(c.application)} for c in p.classes]}


def binding_from_json(obj: dict[str, Any]) -> BindingSimulation:
    """The certificate back from ``binding_to_json`` (``ValueError``/``KeyError`` on a malformed one)."""
    if obj.get("kind") != "binding_simulation":
        raise ValueError("a binding simulation certificate")
    classes = []
    for c in obj["classes"]:
        holds = c["holds"]
        if not isinstance(holds, list) or not all(isinstance(h, bool) for h in holds):
            raise ValueError("holds: a list of booleans")
        classes.append(BindingClass(tuple(holds), relation_from_json(c["user"]), relation_from_json(c["application"])))
    effects = obj["effects"]
    return BindingSimulation(tuple(_atom_from_json(a) for a in obj["atoms"]), tuple(classes),
                             parse_effects(None if effects is None else ",".join(effects)))


@exclusive
def check_binding(proof: BindingSimulation, old: Policy, new: Policy, ledgers: Ledgers | None = None,
                  fast: bool = True) -> CheckVerdict:
    """Does the simulation per binding class prove ``Adm_E(P, A) ⊆ Adm_E(P′, A′)`` from these counters?"""
    if (why := outside_simulation(old, new, "binding simulation")) is not None:
        return Invalid(why)
    k = len(proof.atoms)
    if k > MAX_ATOMS:
        return Invalid(f"more than {MAX_ATOMS} facts about bound values")
    every = set(itertools.product((False, True), repeat=k))
    listed = [c.holds for c in proof.classes]
    if len(listed) != len(every) or set(listed) != every:
        return Invalid("the classes are not exactly every truth assignment of the facts about bound values")
    lg = ledgers or Ledgers.zero(old, new)
    for c in proof.classes:
        where = ", ".join(("" if h else "not ") + atom_text(a) for a, h in zip(proof.atoms, c.holds, strict=True))
        for rel, side, a, b, begin in ((c.user, "P", old.user, new.user, (lg.old_user, lg.new_user)),
                                       (c.application, "A", old.application, new.application,
                                        (lg.old_app, lg.new_app))):
            verdict = check_list(rel, f"{side} [{where}]", a, b, begin, old, proof.effects, fast, proof.atoms, c.holds)
            if not isinstance(verdict, Valid):
                return verdict
    return Valid()
