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

from model.monitor.language.policy import Entry, Tool
from model.revision.certify.witness_questions import Literals, find_witness
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.identity import match_key
from model.revision.smt.solve import Undecidable
from model.revision.smt.z3_matching import Witness


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


def same_match(a: Entry, b: Entry, memo: Memo | None = None) -> bool:
    """The fields the matching predicate reads are equal (quota, requirement and permit aside); ``memo``: each
    entry's key written once per entry object (``memo.py``)."""
    if memo is not None:
        return memo.match_key(a) == memo.match_key(b)
    return match_key(a) == match_key(b)


def agree(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool], memo: Memo | None = None) -> AgreementVerdict:
    """``memo``: the question asked as the memoized structural search asks it (``questions.find_witness``)."""
    if same_match(a, b, memo):
        return Agree("identical")
    if a.kind is not b.kind:
        return Undecided("an allow and a deny never stand for the same account")
    def query(lits: Literals) -> z3.BoolRef:
        (m_a, f_a), (m_b, f_b) = lits(a), lits(b)
        return z3.Or(z3.And(m_a, f_b), z3.And(f_a, m_b))

    found = find_witness((a, b), effects, tools, query, memo)
    if isinstance(found, Undecidable):
        return Undecided(found.reason)
    return Agree("z3") if found is None else Disagree(found)
