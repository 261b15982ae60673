"""Independence of two accounts on ``E`` (Agenra Section 7.1): no effect in ``E`` matches both
under any binding state (and any JSON arguments). Remaining capacity is ignored, so independence
survives charges. Decided with Z3 through ``symbolic.Encoder``; an overlap carries a witness that
both entries match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from model.monitor.policy import Entry, Tool
from model.revision.effects import EffectSet
from model.revision.symbolic import Encoder, Unsupported, Witness, solve


@dataclass(frozen=True, slots=True)
class Independent:
    pass


@dataclass(frozen=True, slots=True)
class Overlap:
    witness: Witness  # matched by both entries


@dataclass(frozen=True, slots=True)
class Unknown:
    reason: str


IndependenceVerdict = Independent | Overlap | Unknown


def independent(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool]) -> IndependenceVerdict:
    if a.action != b.action:
        return Independent()
    for action in effects.actions(frozenset({a.action})):
        try:
            enc = Encoder(action, (a, b), tools)
            query = z3.And(enc.base(effects.resources(action)), enc.matches(a), enc.matches(b))
        except Unsupported as exc:
            return Unknown(str(exc))
        found = solve(query)
        if isinstance(found, str):
            return Unknown(f"z3 answered unknown: {found}")
        if found is not None:
            return Overlap(enc.witness(found))
    return Independent()
