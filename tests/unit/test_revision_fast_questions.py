"""The fast path's ways of asking the same Z3 questions: a model read once per variable gives
the witness the recognizer-by-recognizer reading gives; agreement and independence asked with the memo's
terms on its kept solvers give the plain verdicts; an enumeration answers a question containing a refuted
one without Z3 and still finds the baseline's leaves."""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations
from pathlib import Path

import z3

from model.monitor.language.policy import GlobPat
from model.monitor.language.syntax import load_policy
from model.revision.certify.agreement import agree
from model.revision.certify.independence import Independent, independent
from model.revision.certify.leaves import leaves
from model.revision.certify.simulation import leaves_of
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.memo import Memo
from model.revision.smt.enumerate import replay_matches
from model.revision.smt.z3_matching import Encoder

ROOT = Path(__file__).resolve().parents[2]
PAY = load_policy(ROOT / "corpus" / "policies" / "payments.policy")
CLEAN = load_policy(ROOT / "corpus" / "revisions" / "bases" / "cleanup.policy")


def test_a_model_read_once_per_variable_is_the_same_witness() -> None:
    seen = 0
    for policy in (PAY, CLEAN):
        for a, b in permutations(policy.user, 2):
            if a.action != b.action:
                continue
            enc = Encoder(a.action, (a, b), policy.tools)
            solver = z3.Solver()
            solver.add(enc.base(None), z3.Or(z3.And(enc.matches(a), enc.fails(b)), enc.matches(b)))
            if solver.check() != z3.sat:
                continue
            model = solver.model()
            slow, fast = enc.witness(model), enc.witness(model, read_once=True)
            assert repr(fast) == repr(slow)  # repr: 1 and True, 1 and 1.0 differ here
            seen += 1
    assert seen >= 4


def test_questions_asked_with_kept_terms_and_solvers_answer_as_the_plain_ones() -> None:
    memo = Memo()
    for policy in (PAY, CLEAN):
        for a, b in permutations(policy.user, 2):
            for decide in (agree, independent):
                plain, kept = decide(a, b, EVERY_EFFECT, policy.tools), decide(a, b, EVERY_EFFECT, policy.tools, memo)
                assert type(kept) is type(plain)
                witness = getattr(kept, "witness", None)
                if witness is not None:  # a model of the same question, maybe another one: check it
                    hits = replay_matches(a, witness), replay_matches(b, witness)
                    assert hits == (True, True) if decide is independent else hits[0] != hits[1]


def test_a_question_containing_a_refuted_one_is_not_asked_and_the_leaves_stay_the_baselines() -> None:
    a, b = CLEAN.user[2], CLEAN.user[3]  # tmp/* and logs/...: no file is in both
    assert a.action == b.action and isinstance(independent(a, b, EVERY_EFFECT, CLEAN.tools), Independent)
    c = replace(a, resource=GlobPat("*"), where=())
    memo = Memo()
    for order in ([a, b], [a, c, b], [c, b, a]):  # {a, b} both matching is refuted first, then contained
        enc = Encoder(a.action, order, CLEAN.tools)
        lits = [(enc.matches(e), enc.fails(e)) for e in order]
        want = leaves_of(enc.base(EVERY_EFFECT.resources(a.action)), lits)
        assert leaves(memo, a.action, order, EVERY_EFFECT, CLEAN.tools, 512, None) == want
    assert memo.subsumed > 0
