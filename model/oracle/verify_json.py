"""Differential check of the rejection-proof verifier (*When Can Agents Safely Checkpoint, Fork, Restore,
and Merge?*, Section V-C3, Appendix A-B): the Python verifier (``model.edits.check.verify``) against the Lean one
(``lean/AgentWarrant/Spec/Edits/Verify.lean``, judgment ``verify_rejection``), whose soundness is
proved in ``Thm/Edits/Verify.lean``.

A case is a rejected instance with its checker-produced proof and a fixed set of mutants of that
proof (a dropped round, a dropped or duplicated removal, a removal moved to another round, a wrong
missing outcome, a witness prefix that is supported, a candidate missing from ``B̂₀``), so both
accepting and refusing verdicts are compared. The instance is numbered as for ``edit_check``.
Choice: this judgment is not in the campaign list of ``model.oracle.lean.JUDGMENTS`` (its cases
need a proof, not just an instance); tests/drt/test_verify_rejection.py drives it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model.edits.check.answer import Engine, Rejected, RejectionProof, Removal
from model.edits.check.checker import decide
from model.edits.check.instance import Instance
from model.edits.check.resolve import Mode, Word
from model.edits.check.verify import verify
from model.oracle.edits_json import Names, edit_check_input
from model.oracle.lean import LeanOracle


def _word(names: Names, w: Word) -> list[list[Any]]:
    return [[names.calls.index(a.call), names.actions.index(a.action), a.mode is Mode.NEW] for a in w]


def verify_input(inst: Instance, proof: RejectionProof) -> dict[str, Any]:
    payload, names = edit_check_input(inst)

    def cand(o: Any, w: Word) -> list[Any]:
        return [names.outcomes.index(o), _word(names, w)]

    rounds = [[{"cand": cand(r.outcome, r.word), "pre": _word(names, r.prefix),
                "miss": names.outcomes.index(r.missing)} for r in e] for e in proof.rounds]
    return {"instance": payload, "family": [cand(o, w) for o, w in proof.candidates], "rounds": rounds}


def checker_proof(inst: Instance) -> RejectionProof | None:
    """The explicit engine's proof when it rejects ``inst`` (None when it accepts or calls it Invalid)."""
    v = decide(inst, Engine.EXPLICIT)
    return v.proof if isinstance(v, Rejected) else None


def mutants(inst: Instance, proof: RejectionProof) -> list[tuple[str, RejectionProof]]:
    """The proof itself and named mutants of it (some may still be valid: that is compared, not assumed)."""
    out = [("original", proof)]
    rounds = proof.rounds
    if rounds:
        out.append(("drop-last-round", replace(proof, rounds=rounds[:-1])))
        first = rounds[0]
        out.append(("drop-removal", replace(proof, rounds=(first[1:], *rounds[1:]))))
        out.append(("duplicate-removal", replace(proof, rounds=((first[0], *first), *rounds[1:]))))
        if len(rounds) > 1:
            out.append(("removal-a-round-early", replace(proof, rounds=((*first, rounds[1][0]), rounds[1][1:],
                                                                         *rounds[2:]))))
        r = first[0]
        others = [o for o in inst.outcomes() if o != r.missing]
        if others:
            out.append(("wrong-missing", replace(proof, rounds=((replace(r, missing=others[0]), *first[1:]),
                                                                 *rounds[1:]))))
        whole = Removal(r.outcome, r.word, r.word, r.missing)
        out.append(("prefix-is-whole-word", replace(proof, rounds=((whole, *first[1:]), *rounds[1:]))))
    if proof.candidates:
        out.append(("drop-candidate", replace(proof, candidates=proof.candidates[1:])))
    return out


def compare_verifiers(oracle: LeanOracle, inst: Instance, proof: RejectionProof) -> tuple[bool, bool]:
    """(Python's verdict, Lean's verdict) on one proof."""
    py = verify(inst, proof).valid
    lean = bool(oracle.call("verify_rejection", verify_input(inst, proof))["valid"])
    return py, lean
