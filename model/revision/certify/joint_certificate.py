"""The joint simulation certificate: a relation between the old ledgers ``(P, A)`` and the new ledgers
``(P′, A′)`` taken together (Agenra Sections 1 and 5: "every effect must satisfy two permission lists";
"if every successful charge under the old permissions can be matched by a successful charge under
the new ones, with their usage counters staying related, then every old client survives").

A ``JointSimulation`` holds, as data ``checker.check_joint`` verifies without trusting the proposer
(``joint.py``):

- ``effects``: the effect set ``E`` it speaks of;
- ``vectors``: per action of ``E``, the match vectors the proposer found realizable — one bit per
  position of each of the four lists ``P, A, P′, A′``, all for one effect, one argument object and
  one binding state. The checker proves with Z3 that no effect of ``E`` has a vector outside them;
- ``start``: the four usage vectors the revision is installed at (all zero at task start; the old
  state's and the carried counters mid-task, carry.py);
- ``related``: the related quadruples ``(u_P, u_A, v_P, v_A)``.

Choices where the source is silent: satisfied requirement sets are not stored (the checker ranges
over every subset of the requirements the lists name); the lists themselves are not stored either
— the certificate is checked against the policies it is given, and a certificate that passes is a
proof for those policies whatever produced it. JSON: lists of 0/1 strings per vector, one per list,
so a reader can line bits up with list positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.base.canonical import JSON
from model.revision.certify.certificate import count_from_json
from model.revision.effects import EffectSet, parse_effects

Usage = tuple[int, ...]
Quad = tuple[Usage, Usage, Usage, Usage]  # (old P, old A, new P, new A)
Vector = tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...], tuple[bool, ...]]
LISTS = ("P", "A", "P′", "A′")


@dataclass(frozen=True, slots=True)
class ActionVectors:
    action: str
    vectors: tuple[Vector, ...]


@dataclass(frozen=True, slots=True)
class JointSimulation:
    effects: EffectSet
    vectors: tuple[ActionVectors, ...]
    start: Quad
    related: frozenset[Quad]

    def signatures(self) -> int:
        return sum(len(a.vectors) for a in self.vectors)

    def summary(self) -> str:
        return (f"joint simulation over (P, A) × (P′, A′): {len(self.related)} related ledger quadruples "
                f"over {self.signatures()} match vectors on {self.effects.show()}")


def _bits(xs: tuple[bool, ...]) -> str:
    return "".join("1" if b else "0" for b in xs)


def joint_to_json(c: JointSimulation) -> dict[str, JSON]:
    return {"kind": "joint_simulation", "effects": c.effects.to_json(),
            "vectors": [{"action": a.action, "vectors": [[_bits(side) for side in v] for v in a.vectors]}
                        for a in c.vectors],
            "start": [list(u) for u in c.start],
            "related": [[list(u) for u in q] for q in sorted(c.related)]}


def _unbits(text: str) -> tuple[bool, ...]:
    if any(ch not in "01" for ch in text):
        raise ValueError(f"a string of 0 and 1, found {text!r}")
    return tuple(ch == "1" for ch in text)


def _quad(obj: Any) -> Quad:
    if not isinstance(obj, list) or len(obj) != 4:
        raise ValueError("four usage vectors (P, A, P′, A′)")
    if not all(isinstance(u, list) for u in obj):
        raise ValueError("four usage vectors (P, A, P′, A′), each a list of counts")
    a, b, c, d = (tuple(count_from_json(x) for x in u) for u in obj)
    return (a, b, c, d)



def _vector(obj: Any) -> Vector:
    if not isinstance(obj, list) or len(obj) != 4:
        raise ValueError("four bit strings (P, A, P′, A′)")
    a, b, c, d = (_unbits(x) for x in obj)
    return (a, b, c, d)


def joint_from_json(obj: dict[str, Any]) -> JointSimulation:
    """The certificate back from ``joint_to_json`` (``ValueError``/``KeyError`` on a malformed one)."""
    if obj.get("kind") != "joint_simulation":
        raise ValueError("a joint_simulation certificate")
    effects = obj["effects"]
    return JointSimulation(parse_effects(None if effects is None else ",".join(effects)),
                           tuple(ActionVectors(str(a["action"]), tuple(_vector(v) for v in a["vectors"]))
                                 for a in obj["vectors"]),
                           _quad(obj["start"]), frozenset(_quad(q) for q in obj["related"]))
