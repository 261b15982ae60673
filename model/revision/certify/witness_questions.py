"""Witness questions of the structural rules' side conditions (Agenra Section 7.1): "is there an effect
in ``E`` that the entries' literals satisfy this way?", asked per action with the plain encoding or with
the terms and solvers a revision check's memo keeps (same question, same answer: tested)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import z3

from model.monitor.language.policy import Entry, Tool
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.smt.solve import Undecidable, solve
from model.revision.smt.z3_matching import Encoder, Unsupported, Witness

Literals = Callable[[Entry], tuple[z3.BoolRef, z3.BoolRef]]  # an entry's (matches, fails) literals


def find_witness(entries: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool],
                 query: Callable[[Literals], z3.BoolRef], memo: Memo | None = None) -> Witness | Undecidable | None:
    """For each action of ``E`` that ``entries`` name, ask Z3 for an effect satisfying ``query`` (written
    over the entries' literals): the first witness found, why the question could not be decided, or
    ``None`` (none exists). With a ``memo`` the same question is asked with the base and the
    literals from the memo's term cache (equal terms: ``Memo.base``, ``Memo.literals``), on a
    ``SimpleSolver`` (``solve``), and the witness is read once per variable (``Encoder.witness``)."""
    for action in effects.actions(frozenset(e.action for e in entries)):
        try:
            enc = Encoder(action, entries, tools)
            base, constraint = _question(enc, effects, tools, query, memo)
        except Unsupported as exc:
            return Undecidable(str(exc))
        found = solve(z3.And(base, constraint)) if memo is None else \
            solve(constraint, True, memo.solver(base, "witness"))
        if isinstance(found, str):
            return Undecidable(f"z3 answered unknown: {found}")
        if found is not None:
            return enc.witness(found, read_once=memo is not None)
    return None


def _question(enc: Encoder, effects: EffectSet, tools: Sequence[Tool], query: Callable[[Literals], z3.BoolRef],
              memo: Memo | None) -> tuple[z3.BoolRef, z3.BoolRef]:
    """The base and ``query`` over ``enc``'s literals (with a ``memo``, its kept terms: ``find_witness``)."""
    if memo is None:
        return enc.base(effects.resources(enc.action)), query(lambda e: (enc.matches(e), enc.fails(e)))
    context = memo.context(enc.action, effects, tools)
    return memo.base(context, enc, effects), query(lambda e: memo.literals(context, enc, e))
