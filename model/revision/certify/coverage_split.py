"""Coverage of match vectors by case splitting, the independent checker's second way to decide it (Agenra
Section 7.1, the side condition of a simulation certificate: every effect of ``E`` has a listed vector).

``checker.covers`` first asks one query per action, "some effect differs from every listed vector". With
glob patterns that query is a conjunction of many disjunctions over strings, and Z3 may answer unknown.
This module decides the same question by splitting on one position at a time: a branch whose partial
vector no listed vector extends is one query, "some effect matches exactly these literals", a plain
conjunction Z3 decides quickly. A complete vector that is listed needs no query. The union of the
branches is every effect (each position matches or fails), so "no branch satisfiable" is coverage.

Choices where the source is silent: used only when the single query answers unknown; an unknown answer
on any branch leaves the whole question undecided.
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from model.monitor.language.policy import Entry
from model.revision.smt.solve import solve
from model.revision.smt.symbolic import Encoder


def split_covers(base: z3.BoolRef, enc: Encoder, positions: Sequence[Entry], action: str,
                 vectors: Sequence[Sequence[tuple[bool, ...]]]) -> z3.ModelRef | str | None:
    """A model of an effect of ``action`` (under ``base``) whose match vector over ``positions`` is none of
    ``vectors`` (one bit string per list); ``None`` if there is none; Z3's reason if a branch is undecided.
    Positions of other actions never match an effect of this one: a vector with one matching is skipped."""
    own = [i for i, e in enumerate(positions) if e.action == action]
    literals = [(enc.matches(positions[i]), enc.fails(positions[i])) for i in own]
    flats = [[b for side in v for b in side] for v in vectors]
    listed = sorted({tuple(f[i] for i in own) for f in flats
                     if not any(b for i, b in enumerate(f) if positions[i].action != action)})

    def go(i: int, chosen: tuple[z3.BoolRef, ...], candidates: list[tuple[bool, ...]]) -> z3.ModelRef | str | None:
        if not candidates:
            return solve(z3.And(base, *chosen), True)
        if i == len(literals):
            return None  # the vector is listed
        for bit in (True, False):
            lit = literals[i][0] if bit else literals[i][1]
            found = go(i + 1, (*chosen, lit), [v for v in candidates if v[i] == bit])
            if found is not None:
                return found
        return None

    return go(0, (), listed)
