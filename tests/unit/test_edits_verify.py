"""The independent proof verifier (*Exact Checking for Execution Edits* Section V-C3, Appendix A-B)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from model.edits.check.answer import Engine, Rejected, RejectionProof
from model.edits.check.checker import check
from model.edits.check.contract import Call, Choice, Par
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.instance import make_instance
from model.edits.check.load_instance import load_instance
from model.edits.check.verify import ProofCheck, Refusal, verify

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


def test_refusals_say_which_round_failed_and_for_which_pair() -> None:
    inst, proof = _proof()
    (e0,), (e1,) = proof.rounds
    cands = proof.candidates
    z, y = e0.outcome, e1.outcome
    cases = [
        (RejectionProof((*cands, cands[0]), proof.rounds), Refusal.WRONG_CANDIDATES, -1, ""),  # a duplicate
        (RejectionProof(cands, ((e0, e0), (e1,))), Refusal.NOT_A_MEMBER, 0, ""),  # a pair removed twice
        # the witness prefix is not a prefix of the removed word
        (RejectionProof(cands, ((dataclasses.replace(e0, prefix=e1.word[:1]),), (e1,))), Refusal.BAD_WITNESS, 0,
         f"{z} at prefix of length 1"),
        (RejectionProof(cands, ((e1,), (e0,))), Refusal.BAD_WITNESS, 0, f"{y} at prefix of length 0"),
        # in round 1 nothing of Z is left, so (x, missing Z) would be a witness, but x is not a prefix of y·x
        (RejectionProof(cands, ((e0,), (dataclasses.replace(e1, prefix=e0.prefix),))), Refusal.BAD_WITNESS, 1,
         f"{y} at prefix of length 1"),
        (RejectionProof(cands, ((e0,), (), (e1,))), Refusal.EMPTY_ROUND, 1, ""),
        (RejectionProof(cands, ((e0,),)), Refusal.NONEMPTY_END, 1, ""),
        (proof, None, -1, ""),
    ]
    for bad, refusal, rnd, detail in cases:
        assert verify(inst, bad) == ProofCheck(refusal, rnd, detail)  # type: ignore[arg-type]


def test_an_incomplete_round_names_the_pair_it_left_behind() -> None:
    term = Choice("g", (("L", Call("x")), ("M", Call("y")), ("R", Call("z"))))
    inst = make_instance(term, {"x": "dx", "y": "dy", "z": "dz"}, {"dx": "a", "dy": "a", "dz": "b"}, (),
                         from_maximal_words([["a"]]))
    v = check(inst, Engine.EXPLICIT)
    assert isinstance(v, Rejected)
    (r0, r1), = v.proof.rounds
    got = verify(inst, RejectionProof(v.proof.candidates, ((r0,), (r1,))))
    assert got == ProofCheck(Refusal.INCOMPLETE_ROUND, 0, f"{r1.outcome} should have been removed")
    assert not got.valid and verify(inst, v.proof).valid


def test_an_ill_formed_instance_has_no_valid_proof() -> None:
    _, proof = _proof()
    dup = make_instance(Par((Call("x"), Call("x"))), {"x": "dx"}, {"dx": "a"}, (), from_maximal_words([["a"]]))
    assert verify(dup, proof) == ProofCheck(Refusal.INSTANCE_INVALID)
