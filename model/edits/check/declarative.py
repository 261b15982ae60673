"""The declarative engine: the largest safe execution set by brute force over subsets (Definition 2).

Section V-C1 / Appendix A-A. For every nonempty ``B̂ ⊆ B̂₀`` with ``L = ↓π₂B̂`` we check the five
conditions of Definition 2 directly:

1. ``B̂ ≠ ∅``;
2. ``B̂ ⊆ ⊎_o {o} × R_o`` and ``L ⊆ ↓(⋃_o R_o)`` (with every outcome required, ``PreservesRequired``
   is condition 5 at ``z = ε``, where every outcome is compatible);
3. ``lab(Δ)·auth(z) ∈ 𝒜`` for every ``z ∈ L``;
4. ``L = ↓π₂B̂`` (true by the choice of ``L``);
5. for every ``z ∈ L`` and ``o ∈ Compat(z)``, some ``(o, y) ∈ B̂`` extends ``z``.

Safe sets are closed under union (condition 5 is existential), so the largest one, if any, is the
union of all of them; we check that it is itself safe rather than assume it. This is the semantic
reference for tiny inputs: it never iterates Φ̂. On rejection the proof (which is about the
iteration, not the subsets) comes from ``model.edits.check.rounds``.
Budget: one tick per linearization and per subset tried; a states budget below ``2^|B̂₀|`` is
``Unknown`` before the subsets are tried. (The former fixed cap |B̂₀| ≤ 12 limited work, not
validity.) On acceptance the rounds are those of the literal iteration (``model.edits.check.rounds``).
"""

from __future__ import annotations

from itertools import compress

from model.base.budget import BudgetExhausted, Meter
from model.edits.check.answer import Accepted, Counts, Engine, Rejected, RejectionProof
from model.edits.check.can import can_of_family
from model.edits.check.candidates import Candidate, Candidates, enumerate_candidates
from model.edits.check.digest import InstanceDigest
from model.edits.check.instance import Instance
from model.edits.check.resolve import auth
from model.edits.check.rounds import iterate, proof_of


def is_safe(family: frozenset[Candidate], cands: Candidates, inst: Instance) -> bool:
    """Definition 2 for ``(↓π₂B̂, B̂)`` with ``B̂ = family``."""
    if not family:
        return False
    sizes = {o: len(p) for o, p in inst.outcomes().items()}
    labels = inst.label_map()
    start = inst.policy.run(inst.log_labels())
    lang = {y[:i] for _, y in family for i in range(len(y) + 1)}
    for o, y in family:  # condition 2: complete executions of the workflow
        if y not in cands.compat or o not in cands.compat[y] or len(y) != sizes[o]:
            return False
    for z in lang:
        if z not in cands.compat:  # condition 2 on L
            return False
        if start is None or inst.policy.run((labels[d] for d in auth(z)), start) is None:  # condition 3
            return False
        for o in cands.compat[z]:  # condition 5
            if not any(o2 == o and y[: len(z)] == z for o2, y in family):
                return False
    return True


def run(inst: Instance, digest: InstanceDigest, meter: Meter) -> Accepted | Rejected:
    cands = enumerate_candidates(inst, meter)
    n = len(cands.b0)
    limit = meter.budget.states
    if limit is not None and meter.states + (1 << n) - 1 > limit:
        raise BudgetExhausted(meter.budget, meter.spent, "states")
    safe_sets = []
    for mask in range(1, 1 << n):
        meter.tick()
        fam = frozenset(compress(cands.b0, [(mask >> i) & 1 for i in range(n)]))
        if is_safe(fam, cands, inst):
            safe_sets.append(fam)
    if not safe_sets:
        proof = proof_of(cands)
        return Rejected(Engine.DECLARATIVE, proof, Counts(n, 0, 0, 0, proof.sizes()), digest)
    greatest = frozenset().union(*safe_sets)
    if not is_safe(greatest, cands, inst):  # pragma: no cover - would refute Lemma 4
        raise AssertionError("the union of safe execution sets is not safe")
    can = can_of_family(greatest)
    sizes = RejectionProof(cands.b0, iterate(cands)[1]).sizes()
    return Accepted(Engine.DECLARATIVE, can, Counts(n, len(greatest), can.count_prefixes(), can.n_states, sizes),
                    digest)
