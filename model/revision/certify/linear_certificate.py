"""Symbolic simulation certificates: a relation between old and new usage counters written as linear
constraints, so that its size does not grow with the quotas (Agenra Sections 1 and 7.1: "if every
successful charge under the old permissions can be matched by a successful charge under the new
ones, with their usage counters staying related, then every old client survives at every finite
length").

The explicit certificates (simulation_certificate.py, joint_certificate.py) list every related pair
or quadruple of usage vectors, so a quota of a million cannot be written down. A ``LinearSimulation``
states the relation instead as a conjunction of ``Atom``s, each ``Σ c·counter ≤ bound`` over the
counters of the finite-quota allows (an unlimited account's counter never limits first-fit, so it is
not a variable). It comes in the two shapes of the explicit ones:

- ``mode == "per_list"``: two ``LinearGroup``s, ``P`` relating the lists ``P`` and ``P′`` and ``A``
  relating ``A`` and ``A′``;
- ``mode == "joint"``: one group over the four lists ``P, A, P′, A′``; a unit is admitted by the
  old policy when both old lists charge it, and must then be charged by both new ones.

Each group also holds the counters it starts at and, per action of ``E``, the match vectors (one bit
per position of each of its lists) the proposer found realizable; the checker (linear_check.py)
proves with Z3 that no effect has a vector outside them, as for the explicit certificates.

JSON: ``{"kind": "linear_simulation", "mode", "effects", "groups": [{"side", "lists", "old_lists",
"start", "vectors", "relation": [{"terms": [{"list", "at", "coefficient"}], "at_most"}]}]}``.
Choices where the source is silent: the lists themselves are not stored (a certificate is checked
against the policies it is given); coefficients and bounds are exact integers of any size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.base.canonical import JSON
from model.revision.certify.certificate import count_from_json
from model.revision.effects import EffectSet, parse_effects

Bits = tuple[bool, ...]
GroupVector = tuple[Bits, ...]  # one bit string per list of the group


@dataclass(frozen=True, slots=True)
class Atom:
    """``Σ coefficient · counter ≤ at_most``; a term is (list index in the group, position, coefficient)."""

    terms: tuple[tuple[int, int, int], ...]
    at_most: int

    def holds(self, counters: tuple[tuple[int, ...], ...]) -> bool:
        return sum(c * counters[l_][i] for l_, i, c in self.terms) <= self.at_most

    def show(self, names: tuple[str, ...]) -> str:
        parts = [f"{'-' if c < 0 else '+'} {'' if abs(c) == 1 else f'{abs(c)}·'}{names[l_]}[{i}]"
                 for l_, i, c in self.terms]
        text = " ".join(parts)
        return f"{text[2:] if text.startswith('+ ') else text} ≤ {self.at_most}"


@dataclass(frozen=True, slots=True)
class LinearGroup:
    side: str  # "P", "A" or "joint"
    lists: tuple[str, ...]  # the lists' names, the old ones first
    old_lists: int  # how many of ``lists`` are old
    start: tuple[tuple[int, ...], ...]  # one usage vector per list
    vectors: tuple[tuple[str, tuple[GroupVector, ...]], ...]
    atoms: tuple[Atom, ...]


@dataclass(frozen=True, slots=True)
class LinearSimulation:
    mode: str  # "per_list" or "joint"
    effects: EffectSet
    groups: tuple[LinearGroup, ...]

    def summary(self) -> str:
        shape = "per permission list" if self.mode == "per_list" else "over (P, A) × (P′, A′)"
        sizes = ", ".join(f"{g.side} {len(g.atoms)}" for g in self.groups)
        return (f"symbolic simulation {shape}: linear constraints over the usage counters ({sizes}), "
                f"whatever the quotas")

    def to_json(self) -> dict[str, JSON]:
        return linear_to_json(self)


def _bits(xs: Bits) -> str:
    return "".join("1" if b else "0" for b in xs)


def _unbits(text: Any) -> Bits:
    if not isinstance(text, str) or any(ch not in "01" for ch in text):
        raise ValueError(f"a string of 0 and 1, found {text!r}")
    return tuple(ch == "1" for ch in text)


def _int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"an integer, found {x!r}")
    return x


def _group_to_json(g: LinearGroup) -> dict[str, JSON]:
    return {"side": g.side, "lists": list(g.lists), "old_lists": g.old_lists,
            "start": [list(u) for u in g.start],
            "vectors": [{"action": a, "vectors": [[_bits(b) for b in v] for v in vs]} for a, vs in g.vectors],
            "relation": [{"terms": [{"list": g.lists[l_], "at": i, "coefficient": c} for l_, i, c in a.terms],
                          "at_most": a.at_most, "text": a.show(g.lists)} for a in g.atoms]}


def _group_from_json(obj: Any) -> LinearGroup:
    if not isinstance(obj, dict):
        raise ValueError("a group object")
    lists = tuple(str(x) for x in obj["lists"])
    index = {name: k for k, name in enumerate(lists)}
    atoms = []
    for a in obj["relation"]:
        terms = []
        for t in a["terms"]:
            if t["list"] not in index:
                raise ValueError(f"a list of the group, found {t['list']!r}")
            terms.append((index[t["list"]], count_from_json(t["at"]), _int(t["coefficient"])))
        atoms.append(Atom(tuple(terms), _int(a["at_most"])))
    vectors = tuple((str(a["action"]), tuple(tuple(_unbits(b) for b in v) for v in a["vectors"]))
                    for a in obj["vectors"])
    start = tuple(tuple(count_from_json(x) for x in u) for u in obj["start"])
    return LinearGroup(str(obj["side"]), lists, _int(obj["old_lists"]), start, vectors, tuple(atoms))


def linear_to_json(c: LinearSimulation) -> dict[str, JSON]:
    return {"kind": "linear_simulation", "mode": c.mode, "effects": c.effects.to_json(),
            "groups": [_group_to_json(g) for g in c.groups]}


def linear_from_json(obj: dict[str, Any]) -> LinearSimulation:
    """The certificate back from ``linear_to_json`` (``ValueError``/``KeyError`` on a malformed one; the
    ``text`` of a constraint is for readers and ignored)."""
    if obj.get("kind") != "linear_simulation":
        raise ValueError("a linear_simulation certificate")
    effects = obj["effects"]
    return LinearSimulation(str(obj["mode"]), parse_effects(None if effects is None else ",".join(effects)),
                            tuple(_group_from_json(g) for g in obj["groups"]))
