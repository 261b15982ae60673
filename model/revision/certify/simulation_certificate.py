"""Per-list simulation certificates as data, and their independent check (Agenra Sections 1 and 7.1:
"if every successful charge under the old permissions can be matched by a successful charge under
the new ones, with their usage counters staying related, then every old client survives").

A ``SimulationProof`` (simulation.py) holds, for each permission list, the related pairs of (old,
new) usage vectors, the pair the revision starts at and the match vectors the proposer found
realizable for each action of ``E``: one bit per position of the old list and of the new list, for
one effect, one argument object and one binding state. ``check_simulation`` verifies it without
the proposer's code. It uses the joint checker's own pieces (checker.py): it proves with Z3 that no
effect of ``E`` the old list could admit has a vector outside the listed ones; it checks that the
relation starts at the revision's counters; and it checks closure with the checker's first-fit
over the monitor's ``ledger.has_capacity``, for every set of satisfied requirements the two lists
name. JSON: ``simulation_to_json``/``simulation_from_json``, with bit strings per list as in
joint_certificate.py.

Choices where the source is silent: a per-list certificate does not store the lists themselves; it
is checked against the policies it is given, as joint certificates are.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from model.base.canonical import JSON
from model.base.z3guard import exclusive
from model.monitor.language.policy import Entry, EntryKind, Policy
from model.revision.carry import Ledgers
from model.revision.certify.certificate import count_from_json
from model.revision.certify.certificate_checker import CheckVerdict, Invalid, Valid, fitter
from model.revision.effects import EffectSet, parse_effects
from model.revision.trusted import side_conditions as questions
from model.revision.trusted.encoding import SlotAtom
from model.revision.trusted.side_conditions import outside_simulation

Ledger = tuple[int, ...]
# (old matches, new matches, satisfied requirements)
Signature = tuple[tuple[bool, ...], tuple[bool, ...], frozenset[str]]
Vectors = tuple[tuple[str, tuple[tuple[tuple[bool, ...], tuple[bool, ...]], ...]], ...]


@dataclass(frozen=True, slots=True)
class Relation:
    """A simulation for one permission list: related (old usage, new usage) pairs, the pair it starts
    at and, per action of ``E``, the (old, new) match vectors it is closed under."""

    side: str
    pairs: frozenset[tuple[Ledger, Ledger]]
    signatures: int
    start: tuple[Ledger, Ledger] = ((), ())
    vectors: Vectors = ()


@dataclass(frozen=True, slots=True)
class SimulationProof:
    user: Relation
    application: Relation
    effects: EffectSet

    def summary(self) -> str:
        return (f"simulation: P {len(self.user.pairs)} related ledger pairs over {self.user.signatures} signatures; "
                f"A {len(self.application.pairs)} over {self.application.signatures}")

    def to_json(self) -> dict[str, JSON]:
        return simulation_to_json(self)


@dataclass(frozen=True, slots=True)
class NoSimulation:
    reason: str
    capped: bool = False  # the explicit relation passed its cap: a larger cap or a symbolic one may still succeed


def requirement_sets(entries: Sequence[Entry]) -> list[frozenset[str]]:
    """Every set of satisfied requirements that matters: the subsets of those the entries name."""
    reqs = sorted({e.requires for e in entries if e.requires is not None})
    return [frozenset(c) for r in range(len(reqs) + 1) for c in itertools.combinations(reqs, r)]


def _bits(xs: tuple[bool, ...]) -> str:
    return "".join("1" if b else "0" for b in xs)


def _unbits(text: Any) -> tuple[bool, ...]:
    if not isinstance(text, str) or any(ch not in "01" for ch in text):
        raise ValueError(f"a string of 0 and 1, found {text!r}")
    return tuple(ch == "1" for ch in text)


def _usage(obj: Any) -> Ledger:
    if not isinstance(obj, list):
        raise ValueError("a usage vector (a list of counts)")
    return tuple(count_from_json(x) for x in obj)


def _pair(obj: Any) -> tuple[Ledger, Ledger]:
    if not isinstance(obj, list) or len(obj) != 2:
        raise ValueError("two usage vectors (old, new)")
    return _usage(obj[0]), _usage(obj[1])


def relation_to_json(r: Relation) -> dict[str, JSON]:
    return {"side": r.side, "start": [list(r.start[0]), list(r.start[1])],
            "vectors": [{"action": a, "vectors": [[_bits(m_old), _bits(m_new)] for m_old, m_new in vs]}
                        for a, vs in r.vectors],
            "related": [[list(u), list(v)] for u, v in sorted(r.pairs)]}


def relation_from_json(obj: Any) -> Relation:
    if not isinstance(obj, dict):
        raise ValueError("a relation object")
    vectors = tuple((str(a["action"]), tuple((_unbits(v[0]), _unbits(v[1])) for v in a["vectors"]))
                    for a in obj["vectors"])
    pairs = frozenset(_pair(p) for p in obj["related"])
    n = sum(len(vs) for _, vs in vectors)  # the proposer's count is re-derived: vectors × requirement sets
    return Relation(str(obj["side"]), pairs, n, _pair(obj["start"]), vectors)


def simulation_to_json(p: SimulationProof) -> dict[str, JSON]:
    return {"kind": "simulation", "effects": p.effects.to_json(), "user": relation_to_json(p.user),
            "application": relation_to_json(p.application)}


def simulation_from_json(obj: dict[str, Any]) -> SimulationProof:
    """The certificate back from ``simulation_to_json`` (``ValueError``/``KeyError`` on a malformed one)."""
    if obj.get("kind") != "simulation":
        raise ValueError("a simulation certificate")
    effects = obj["effects"]
    return SimulationProof(relation_from_json(obj["user"]), relation_from_json(obj["application"]),
                           parse_effects(None if effects is None else ",".join(effects)))


def check_list(rel: Relation, side: str, old: Sequence[Entry], new: Sequence[Entry], begin: tuple[Ledger, Ledger],
               policy: Policy, effects: EffectSet, fast: bool, atoms: Sequence[SlotAtom] = (),
               holds: Sequence[bool] = ()) -> CheckVerdict:
    """One list's relation: it starts at ``begin``, its vectors cover every effect (under bindings where
    atom ``i`` holds exactly when ``holds[i]``), and it is closed under them."""
    if rel.start != begin or begin not in rel.pairs:
        return Invalid(f"{side}: the relation does not start at the revision's counters")
    sizes = (len(old), len(new))
    if any((len(u), len(v)) != sizes for u, v in rel.pairs) or \
            any((len(m_old), len(m_new)) != sizes for _, vs in rel.vectors for m_old, m_new in vs):
        return Invalid(f"{side}: a vector does not fit the permission lists")
    old_actions = frozenset(e.action for e in old if e.kind is EntryKind.ALLOW)
    listed = {a: tuple((m_old, m_new) for m_old, m_new in vs) for a, vs in rel.vectors}
    covered = questions.covers(effects, listed, (old, new), old_actions, policy.tools, side, atoms, holds)
    if not isinstance(covered, Valid):
        return covered
    fit = fitter((old, new), fast)
    for u, v in rel.pairs:
        for action, vs in rel.vectors:
            for m_old, m_new in vs:
                for q in requirement_sets((*old, *new)):
                    u2 = fit(0, u, m_old, q)
                    if u2 is None:
                        continue
                    v2 = fit(1, v, m_new, q)
                    if v2 is None:
                        return Invalid(f"{side}: from {[list(u), list(v)]} a {action} unit old admits is refused after")
                    if (u2, v2) not in rel.pairs:
                        return Invalid(f"{side}: from {[list(u), list(v)]} a {action} unit old admits "
                                       "leads outside the relation")
    return Valid()


@exclusive
def check_simulation(proof: SimulationProof, old: Policy, new: Policy, ledgers: Ledgers | None = None,
                     fast: bool = True) -> CheckVerdict:
    """Does the per-list simulation prove ``Adm_E(P, A) ⊆ Adm_E(P′, A′)`` from these counters?"""
    if (why := outside_simulation(old, new, "simulation")) is not None:
        return Invalid(why)
    lg = ledgers or Ledgers.zero(old, new)
    verdict = check_list(proof.user, "P", old.user, new.user, (lg.old_user, lg.new_user), old, proof.effects, fast)
    if not isinstance(verdict, Valid):
        return verdict
    return check_list(proof.application, "A", old.application, new.application, (lg.old_app, lg.new_app), old,
                      proof.effects, fast)
