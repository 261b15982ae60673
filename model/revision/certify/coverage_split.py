"""Coverage of match vectors by case splitting, the independent checker's second way to decide it (Agenra
Section 7.1, the side condition of a simulation certificate: every effect of ``E`` has a listed vector),
and the fast path's one-query form of that question (``proved``).

``checker.covers`` first asks one query per action, "some effect differs from every listed vector". With
glob patterns that query is a conjunction of many disjunctions over strings, and Z3 may answer unknown.
This module decides the same question by splitting on one position at a time: a branch whose partial
vector no listed vector extends is one query, "some effect matches exactly these literals", a plain
conjunction Z3 decides quickly. A complete vector that is listed needs no query. The union of the
branches is every effect (each position matches or fails), so "no branch satisfiable" is coverage.

The one query is tried first within ``PROBE_STEPS`` of Z3's resource steps, and a query that needs more
goes to the split at once instead of running to ``SINGLE_MS``. On the revision corpus every coverage query
but one needs at most 195,000 steps (about 50 ms); the one (clean_insert_log's remove positions: four globs,
seven listed vectors) ran into the 3 s limit on every question and the split then decided it in about
0.1 s, so the limit alone was most of the whole corpus's revision time. Why the answers are unchanged:
the single query and the split decide the same question (the split's branches are a partition of the
effects), each soundly, so an answer both give is the same; from the detour only a proof ("unsat" on every
branch) is taken. Anything else — a branch with an effect, or a branch Z3 cannot decide — and the query is
asked again exactly as without the probe (same term, same kept solver, to ``SINGLE_MS``), and the caller
goes on as before (the split once more if that is unknown): a refusal's witness and an undecided reason
come from there. Steps, not seconds: where the probe stops does not depend on the machine's load, so
which way a question is proved is the same on every run. The only answers that could differ are those
the 3 s limit would have left undecided while the split proves them: then a checked certificate is
accepted instead of not counted (never on the corpus, where no coverage question ends undecided).

Choices where the source is silent: the split is used only when the single query is not decided within
its probe; an unknown answer on any branch leaves the whole question undecided.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import z3

from model.monitor.language.policy import Entry
from model.revision.explore.memo import SHARED
from model.revision.smt.solve import solve
from model.revision.smt.z3_matching import Encoder


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


def connect(mk: Callable[..., z3.Ast], args: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """``z3.Or(*args)`` / ``z3.And(*args)`` (``mk``: ``Z3_mk_or`` / ``Z3_mk_and``) for a non-empty list of
    Boolean terms — the same term, made by one C call instead of z3py's per-argument coercion."""
    ctx = args[0].ctx
    arr = (z3.Ast * len(args))(*[a.as_ast() for a in args])
    return z3.BoolRef(mk(ctx.ref(), len(args), arr), ctx)


SINGLE_MS = 3000  # the one coverage query's limit; past it the split decides
PROBE_STEPS = 500_000  # Z3 steps the fast path's first try of that query may take (2.5x the most a corpus query needs)


def proved(base: z3.BoolRef, differs: list[z3.BoolRef],
            split: Callable[[], z3.ModelRef | str | None]) -> z3.ModelRef | str | None:
    """``solve(And(base, *differs))`` on the checker's own kept ``SimpleSolver`` holding the base
    (``Memo.solver``), an unsat answer kept by the query's term (alive with it, so its id is not reused): each
    distinct coverage question is asked once per process, and only the checker's own answers are kept.
    First within ``PROBE_STEPS`` Z3 steps (not seconds: the same wherever the load): a query that needs more
    goes to ``split`` at once. Only a proof ends that detour; if the split finds an effect or cannot decide,
    the query is asked as without it, to ``SINGLE_MS``, and the caller goes on as before. So the answer is
    the 3 s query's (or its split's): both decide the same question and only "unsat on every branch" is taken
    from the detour; a refusal's witness and an undecided reason come from the same query and solver."""
    query = connect(z3.Z3_mk_and, [base, *differs])
    key = ("covered", query.get_id())
    if key in SHARED.terms:
        return None
    differ = connect(z3.Z3_mk_and, differs) if differs else z3.BoolVal(True)
    solver = SHARED.solver(base, "check")
    found = solve(differ, True, solver, SINGLE_MS, PROBE_STEPS)
    if isinstance(found, str):
        found = None if split() is None else solve(differ, True, solver, SINGLE_MS)
    if found is None:
        SHARED.terms[key] = query
        SHARED.grow()
    return found
