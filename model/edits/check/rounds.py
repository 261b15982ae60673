"""The descending iteration B̂_{i+1} = Φ̂(B̂_i) from B̂₀, literally (Sections V-C1, V-C3; Appendix A-B).

    Φ̂(B̂) = {(o, y) ∈ B̂ | ∀ z ⪯ y. ∀ o' ∈ Compat(z). ∃ (o', y') ∈ B̂. z ⪯ y'}

Each round recomputes the covered pairs ``(z, o')`` of the current family from scratch, so this is
the quadratic textbook iteration: it is the reference the support-count engine is compared with,
and it builds the declarative engine's rejection proof and rounds (the symbolic engine reads its own off
its states, ``model.edits.check.symbolic_rounds``). The witness of a removal is canonical: the shortest
uncovered prefix, then the least missing outcome (``model.edits.check.answer``).
"""

from __future__ import annotations

from model.edits.check.answer import RejectionProof, Removal
from model.edits.check.candidates import Candidate, Candidates, candidate_key
from model.edits.check.contract import Outcome
from model.edits.check.resolve import Word


def covered(family: frozenset[Candidate]) -> set[tuple[Word, Outcome]]:
    """Every ``(z, o')`` such that some ``(o', y') ∈ family`` extends ``z``."""
    out: set[tuple[Word, Outcome]] = set()
    for o, y in family:
        for i in range(len(y) + 1):
            out.add((y[:i], o))
    return out


def removal_reason(cand: Candidate, cov: set[tuple[Word, Outcome]],
                   compat: dict[Word, frozenset[Outcome]]) -> Removal | None:
    """Why ``cand`` is not in Φ̂ of the family with coverage ``cov`` (canonical witness), or ``None``."""
    o, y = cand
    for i in range(len(y) + 1):
        z = y[:i]
        for o2 in sorted(compat[z]):
            if (z, o2) not in cov:
                return Removal(o, y, z, o2)
    return None


def iterate(cands: Candidates) -> tuple[frozenset[Candidate], tuple[tuple[Removal, ...], ...]]:
    """``(B̂†, (E₀, …, E_k))`` where ``E_i = B̂_i \\ B̂_{i+1}`` with witnesses; stops at the fixed point."""
    family = frozenset(cands.b0)
    rounds: list[tuple[Removal, ...]] = []
    while True:
        cov = covered(family)
        removed = []
        for c in sorted(family, key=candidate_key):
            r = removal_reason(c, cov, cands.compat)
            if r is not None:
                removed.append(r)
        if not removed:
            return family, tuple(rounds)
        rounds.append(tuple(removed))
        family = family - {(r.outcome, r.word) for r in removed}


def proof_of(cands: Candidates) -> RejectionProof:
    _, rounds = iterate(cands)
    return RejectionProof(cands.b0, rounds)
