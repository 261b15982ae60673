"""Simulation certificates in the Lean closure checker's input form (Agenra Sections 1 and 7.1: "for
other finite-quota revisions, Lean checks a proposed relation for closure").

The Lean judgment ``simulation_closure`` (lean/AgentWarrant/Oracle/Revision.lean) checks that a
relation between old and new usage vectors holds at the start and is closed under every unit the
certificate lists. A unit is one effect as first-fit sees it: a match bit for each position of each
list, plus the set of satisfied requirements. The theorem that gives this check its meaning is
``AgentWarrant.Revision.Closure.closedPreservesFromStart``. This module writes that input:

- for a joint certificate: the lists ``(P, A)`` and ``(P′, A′)``, and one unit for each match
  vector of the certificate and each subset of the requirements the four lists name. These are
  the units the Python checker ranges over. With them go the certificate's listed vectors
  (``listed``: per action, each vector's four bit strings joined in the lists' order) and the sorted
  requirement names (``requirementNames``), from which Lean checks that the units are complete
  (``unitsComplete``: every listed vector with every subset of the names) and that the names cover
  every entry's requirement (``reqsNamed``), the premises
  ``closedRelationPreservesWholeMonitorFromOracleChecked`` decides instead of assuming;
- for a per-list relation: one old and one new list, and one unit for each of its match vectors
  and each set of satisfied requirements (the signatures ``simulation.simulate`` charges).

Choices where the source is silent: entries are written as ``allow`` (an allow or a deny), the
quota (``null`` = unlimited) and the requirement. Match patterns are not written, because
the units already say what matches. That the units cover every effect is decided by Z3 in
``certify.checker.check_joint``; Lean checks closure only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from model.base.canonical import JSON
from model.monitor.language.policy import Entry, EntryKind, Policy
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.certify.simulation_certificate import Relation, requirement_sets

Usage = tuple[int, ...]


def _entry(e: Entry) -> JSON:
    return {"allow": e.kind is EntryKind.ALLOW, "quota": e.quota, "requires": e.requires}


def _lists(lists: Sequence[Sequence[Entry]]) -> JSON:
    return [[_entry(e) for e in xs] for xs in lists]


def _bits(xs: Iterable[bool]) -> str:
    return "".join("1" if b else "0" for b in xs)


def _usage(us: Sequence[Usage]) -> JSON:
    return [list(u) for u in us]


def requirement_names(lists: Sequence[Sequence[Entry]]) -> list[str]:
    """The requirements the lists name, sorted."""
    return sorted({e.requires for xs in lists for e in xs if e.requires is not None})


def requirement_subsets(lists: Sequence[Sequence[Entry]]) -> list[frozenset[str]]:
    """Every subset of the requirements the lists name (the sets the checkers range over)."""
    reqs = requirement_names(lists)
    return [frozenset(r for i, r in enumerate(reqs) if mask >> i & 1) for mask in range(1 << len(reqs))]


def joint_closure_input(cert: JointSimulation, old: Policy, new: Policy) -> dict[str, JSON]:
    """The joint certificate as a ``simulation_closure`` input over ``(P, A)`` and ``(P′, A′)``."""
    lists = (old.user, old.application, new.user, new.application)
    subsets = requirement_subsets(lists)
    units: list[JSON] = [{"old": [_bits(v[0]), _bits(v[1])], "new": [_bits(v[2]), _bits(v[3])],
                          "requirements": sorted(q)}
                         for a in cert.vectors for v in a.vectors for q in subsets]
    return {"old": _lists(lists[:2]), "new": _lists(lists[2:]), "units": units,
            "start": {"old": _usage(cert.start[:2]), "new": _usage(cert.start[2:])},
            "related": [{"old": _usage(q[:2]), "new": _usage(q[2:])} for q in sorted(cert.related)],
            "listed": [{"action": a.action, "vectors": ["".join(_bits(side) for side in v) for v in a.vectors]}
                       for a in cert.vectors],
            "requirementNames": list(requirement_names(lists))}


def list_closure_input(rel: Relation, old: Sequence[Entry], new: Sequence[Entry]) -> dict[str, JSON]:
    """A per-list relation as a ``simulation_closure`` input over one old and one new list: one unit
    per match vector and set of satisfied requirements, as ``simulation.simulate`` charges them."""
    units: list[JSON] = [{"old": [_bits(m_old)], "new": [_bits(m_new)], "requirements": sorted(q)}
                         for _, vs in rel.vectors for m_old, m_new in vs for q in requirement_sets((*old, *new))]
    return {"old": _lists([old]), "new": _lists([new]), "units": units,
            "start": {"old": [list(rel.start[0])], "new": [list(rel.start[1])]},
            "related": [{"old": [list(u)], "new": [list(v)]} for u, v in sorted(rel.pairs)]}
