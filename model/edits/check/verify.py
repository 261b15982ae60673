"""The independent verifier of rejection proofs (*Exact Checking for Execution Edits*, Section V-C3, Appendix A-B).

Accepts ``C_fp = (B̂₀, E₀, …, E_k)`` for an instance iff

1. the instance is well formed and ``B̂₀`` equals the candidate family recomputed here;
2. for every round ``i``: ``E_i`` is nonempty, its removed pairs are distinct members of ``B̂_i``,
   each carries a valid witness — ``z ⪯ y``, ``o_miss ∈ Compat(z)`` and no ``(o_miss, y') ∈ B̂_i``
   extends ``z`` — and every pair *not* removed is in ``Φ̂(B̂_i)`` (so ``B̂_{i+1} = Φ̂(B̂_i)`` exactly,
   which fixes each removal's rank);
3. the last family ``B̂_{k+1}`` is empty.

Soundness (A-B): every post-fixed family lies inside every ``B̂_i``, so an empty last family
excludes every safe execution set. Any valid witness is accepted, canonical or not.

Independence: this module shares only the data types, ``outcomes`` (the meaning of a contract)
and the policy automaton with the engines. It enumerates linearizations, resolves words and
decides compatibility with its own code (compatibility directly from the pomset, per outcome,
not through a trie or a product automaton).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from model.edits.check.answer import RejectionProof
from model.edits.check.contract import CallId, Outcome, Pomset
from model.edits.check.instance import Instance
from model.edits.check.instance_wellformed import check_wellformed
from model.edits.check.resolve import Letter, Mode, Word


class Refusal(enum.Enum):
    INSTANCE_INVALID = "instance-invalid"
    WRONG_CANDIDATES = "wrong-candidates"
    EMPTY_ROUND = "empty-round"
    NOT_A_MEMBER = "removed-pair-not-in-family"
    BAD_WITNESS = "bad-witness"
    INCOMPLETE_ROUND = "round-misses-a-removable-pair"
    NONEMPTY_END = "last-family-not-empty"


@dataclass(frozen=True, slots=True)
class ProofCheck:
    """``refusal is None`` iff the proof is valid; ``round`` is where it failed (-1: before the rounds)."""

    refusal: Refusal | None
    round: int = -1
    detail: str = ""

    @property
    def valid(self) -> bool:
        return self.refusal is None


def _lins(preds: dict[CallId, frozenset[CallId]], prefix: tuple[CallId, ...]) -> Iterator[tuple[CallId, ...]]:
    rest = [c for c in preds if c not in prefix]
    if not rest:
        yield prefix
    for c in rest:
        if all(p in prefix for p in preds[c]):
            yield from _lins(preds, (*prefix, c))


def _resolve(calls: tuple[CallId, ...], inst: Instance) -> Word:
    q_act = inst.action_map()
    seen = set(inst.log)
    out = []
    for x in calls:
        mode = Mode.REUSE if q_act[x] in seen else Mode.NEW
        seen.add(q_act[x])
        out.append(Letter(x, q_act[x], mode))
    return tuple(out)


def _compatible(word: Word, p: Pomset, inst: Instance) -> bool:
    """``word ∈ ↓R_o``: a correctly resolved prefix of some linearization of ``p``."""
    calls = tuple(a.call for a in word)
    if _resolve(calls, inst) != word or len(set(calls)) != len(calls):
        return False
    preds = p.pred_map()
    for i, c in enumerate(calls):
        if c not in preds or not preds[c] <= set(calls[:i]):
            return False
    return True


def recompute_candidates(inst: Instance) -> set[tuple[Outcome, Word]]:
    lab = inst.label_map()
    out = set()
    for o, p in inst.outcomes().items():
        for lin in _lins(p.pred_map(), ()):
            z = _resolve(lin, inst)
            labels = inst.log_labels() + tuple(lab[a.action] for a in z if a.mode is Mode.NEW)
            if inst.policy.accepts(labels):
                out.add((o, z))
    return out


def verify(inst: Instance, proof: RejectionProof) -> ProofCheck:
    if check_wellformed(inst) is not None:
        return ProofCheck(Refusal.INSTANCE_INVALID)
    outs = inst.outcomes()
    family = set(proof.candidates)
    if len(family) != len(proof.candidates) or family != recompute_candidates(inst):
        return ProofCheck(Refusal.WRONG_CANDIDATES)

    def compat(z: Word) -> list[Outcome]:
        return [o for o, p in outs.items() if _compatible(z, p, inst)]

    def extends(o: Outcome, z: Word, fam: set[tuple[Outcome, Word]]) -> bool:
        return any(o2 == o and y[: len(z)] == z for o2, y in fam)

    for i, removals in enumerate(proof.rounds):
        if not removals:
            return ProofCheck(Refusal.EMPTY_ROUND, i)
        removed = {(r.outcome, r.word) for r in removals}
        if len(removed) != len(removals) or not removed <= family:
            return ProofCheck(Refusal.NOT_A_MEMBER, i)
        for r in removals:
            z = r.prefix
            if r.word[: len(z)] != z or r.missing not in compat(z) or extends(r.missing, z, family):
                return ProofCheck(Refusal.BAD_WITNESS, i, f"{r.outcome} at prefix of length {len(z)}")
        for o, y in family - removed:
            for k in range(len(y) + 1):
                z = y[:k]
                if any(not extends(o2, z, family) for o2 in compat(z)):
                    return ProofCheck(Refusal.INCOMPLETE_ROUND, i, f"{o} should have been removed")
        family -= removed
    if family:
        return ProofCheck(Refusal.NONEMPTY_END, len(proof.rounds))
    return ProofCheck(None)
