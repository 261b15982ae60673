"""Matching agreement (Agenra Section 7.1): two entries agree on ``E`` when, for every effect in
``E``, every binding state and every JSON argument object, one matches iff the other does.

Decided with Z3 through ``symbolic.Encoder`` (one query per action of ``E`` that either entry
names). Syntactically equal entries agree without a query ("appending unchanged grants qualifies
for all effects, without a finite domain"). A disagreement carries a concrete witness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from model.monitor.policy import Entry, Tool
from model.revision.effects import EffectSet
from model.revision.identity import match_key
from model.revision.symbolic import Undecidable, Witness, find_witness


@dataclass(frozen=True, slots=True)
class Agree:
    by: str  # "identical" | "z3"


@dataclass(frozen=True, slots=True)
class Disagree:
    witness: Witness  # matched by exactly one of the two entries


@dataclass(frozen=True, slots=True)
class Undecided:
    reason: str


AgreementVerdict = Agree | Disagree | Undecided


def same_match(a: Entry, b: Entry) -> bool:
    """The fields the matching predicate reads are equal (quota, requirement and permit aside)."""
    return match_key(a) == match_key(b)


def agree(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool], simple: bool = False) -> AgreementVerdict:
    """``simple``: Z3's ``SimpleSolver`` (``symbolic.solve``), as the memoized structural search asks."""
    if same_match(a, b):
        return Agree("identical")
    if a.kind is not b.kind:
        return Undecided("an allow and a deny never stand for the same account")
    found = find_witness((a, b), effects, tools, lambda enc: z3.Or(z3.And(enc.matches(a), enc.fails(b)),
                                                                    z3.And(enc.fails(a), enc.matches(b))),
                         simple)
    if isinstance(found, Undecidable):
        return Undecided(found.reason)
    return Agree("z3") if found is None else Disagree(found)
