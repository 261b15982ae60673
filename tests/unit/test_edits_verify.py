"""The independent proof verifier (execution-edit-checking.md Section V-C3, Appendix A-B)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from model.edits.check import check
from model.edits.contract import Call, Choice
from model.edits.instance import make_instance
from model.edits.load import load_instance
from model.edits.policy import from_maximal_words
from model.edits.verdict import Engine, Rejected, RejectionProof
from model.edits.verify import Refusal, verify

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "edits"


def _proof() -> tuple[object, RejectionProof]:
    inst = load_instance(CORPUS / "release_reject.json")
    v = check(inst, Engine.EXPLICIT)
    assert isinstance(v, Rejected)
    return inst, v.proof


def test_valid_proof_is_accepted() -> None:
    inst, proof = _proof()
    assert verify(inst, proof).valid  # type: ignore[arg-type]


def test_each_kind_of_tampering_is_refused_with_its_reason() -> None:
    inst, proof = _proof()
    (e0,), (e1,) = proof.rounds
    cases = {Refusal.NONEMPTY_END: RejectionProof(proof.candidates, ((e0,),))}
    cases[Refusal.EMPTY_ROUND] = RejectionProof(proof.candidates, ((), (e0,), (e1,)))
    cases[Refusal.NOT_A_MEMBER] = RejectionProof(proof.candidates, ((e0,), (e0,)))
    cases[Refusal.BAD_WITNESS] = RejectionProof(proof.candidates, ((dataclasses.replace(e0, missing=e0.outcome),),
                                                                    (e1,)))
    cases[Refusal.WRONG_CANDIDATES] = RejectionProof(proof.candidates[:1], ((e0,),))
    for reason, bad in cases.items():
        got = verify(inst, bad)  # type: ignore[arg-type]
        assert got.refusal is reason, (reason, got)
    # Removing y·x already in round 0 is premature: at that point x·z still completes Z from ε.
    premature = RejectionProof(proof.candidates, ((e0, e1),))
    assert verify(inst, premature).refusal is Refusal.BAD_WITNESS  # type: ignore[arg-type]
    # Leaving x·z for round 1 makes round 0 incomplete.
    late = RejectionProof(proof.candidates, ((e1,), (e0,)))
    assert not verify(inst, late).valid  # type: ignore[arg-type]


def test_a_round_that_misses_a_removable_pair_is_refused() -> None:
    term = Choice("g", (("L", Call("x")), ("M", Call("y")), ("R", Call("z"))))
    inst = make_instance(term, {"x": "dx", "y": "dy", "z": "dz"}, {"dx": "a", "dy": "a", "dz": "b"}, (),
                         from_maximal_words([["a"]]))
    v = check(inst, Engine.SYMBOLIC)
    assert isinstance(v, Rejected) and v.proof.sizes() == (2, 0)
    (r0, r1), = v.proof.rounds
    assert verify(inst, v.proof).valid
    split = RejectionProof(v.proof.candidates, ((r0,), (r1,)))
    assert verify(inst, split).refusal is Refusal.INCOMPLETE_ROUND
