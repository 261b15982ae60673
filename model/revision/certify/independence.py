"""Independence of two accounts on ``E`` (Agenra Section 7.1): no effect in ``E`` matches both
under any binding state (and any JSON arguments). Remaining capacity is ignored, so independence
survives charges. Decided with Z3 through ``symbolic.Encoder``; an overlap carries a witness that
both entries match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from model.monitor.language.policy import Entry, Tool
from model.revision.certify.witness_questions import find_witness
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.smt.solve import Undecidable
from model.revision.smt.z3_matching import Witness


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


def independent(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool],
                memo: Memo | None = None) -> IndependenceVerdict:
    """``memo``: the question asked as the memoized structural search asks it (``questions.find_witness``)."""
    if a.action != b.action:
        return Independent()
    found = find_witness((a, b), effects, tools, lambda lits: z3.And(lits(a)[0], lits(b)[0]), memo)
    if isinstance(found, Undecidable):
        return Unknown(found.reason)
    return Independent() if found is None else Overlap(found)
