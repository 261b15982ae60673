"""Asking Z3 one question about the matching predicate (Agenra Section 5.2, as the side conditions of
Section 7.1 need it): a model, "unsatisfiable", or the solver's reason for answering unknown, which the
checks report as ``Undecidable`` rather than guessing. The time limit per question (20 s) is ours: the
paper does not bound its solver calls."""

from __future__ import annotations

from dataclasses import dataclass

import z3


@dataclass(frozen=True, slots=True)
class Undecidable:
    reason: str


def solve(constraint: z3.BoolRef, simple: bool = False, under: z3.Solver | None = None,
          timeout_ms: int = 20000, rlimit: int = 0) -> z3.ModelRef | str | None:
    """A model, ``None`` for unsatisfiable, or the solver's reason when it answers unknown. ``simple``: a
    ``SimpleSolver`` (no preprocessing tactics; the same question, about half the fixed cost on the
    corpus's small questions), else the default solver (the unmemoized path). ``under``: a
    kept solver whose assertions (a base, ``Memo.solver``) are part of the question; ``constraint`` is
    pushed and popped there. ``timeout_ms``: a shorter limit for a caller that has another way to decide.
    ``rlimit``: Z3's resource limit for this one check (0: none; set on every call, since a kept solver keeps
    its parameters), counted in Z3's own steps, so where it stops does not depend on the machine's load."""
    solver = under if under is not None else z3.SimpleSolver() if simple else z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.set("rlimit", rlimit)
    if under is not None:
        solver.push()
    try:
        solver.add(constraint)
        answer = solver.check()
        if answer == z3.sat:
            return solver.model()
        if answer == z3.unsat:
            return None
        return str(solver.reason_unknown())
    finally:
        if under is not None:
            solver.pop()
