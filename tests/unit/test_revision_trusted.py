"""The certificate checker's own encoding (model/revision/trusted/): its glob languages are exactly what
``fnmatchcase`` accepts; on every pair of same-action grants of the corpus's policies its agreement and
independence answers are the proposers' (two encodings written apart, answering alike); the coverage
question that once needed a step-limited probe is now answered on every branch."""

from __future__ import annotations

import fnmatch
import itertools

import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest import MonkeyPatch

from model.monitor.language.policy import Entry, EntryKind, GlobPat
from model.revision.certify.agreement import Agree, agree
from model.revision.certify.check_verdict import Valid
from model.revision.certify.independence import Independent, independent
from model.revision.certify.simulation import SimulationProof, simulate
from model.revision.certify.simulation_certificate import check_simulation
from model.revision.corpus import load_manifest
from model.revision.effects import EVERY_EFFECT
from model.revision.trusted import side_conditions as questions
from model.revision.trusted.encoding import CTX, Unsupported, regex, text

ALPHABET = "ab]-!["


def _accepts(glob: str, word: str) -> bool:
    s = z3.SimpleSolver(ctx=CTX)
    s.add(z3.InRe(text(word), regex(glob)))
    return s.check() == z3.sat


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=ALPHABET + "*?", max_size=6), st.lists(st.text(alphabet=ALPHABET, max_size=4), max_size=4))
def test_glob_languages_are_fnmatchcase(glob: str, words: list[str]) -> None:
    try:
        regex(glob)
    except Unsupported:
        return  # Undecided for the checker: never a proof
    for w in words:
        assert _accepts(glob, w) == fnmatch.fnmatchcase(w, glob), (glob, w)


def test_agreement_and_independence_agree_with_the_proposers_encoding_on_the_corpus() -> None:
    entries = load_manifest()
    seen: set[str] = set()
    pairs = 0
    for e in entries:
        for policy in (e.base.policy, e.new):
            if policy.name in seen:
                continue
            seen.add(policy.name)
            grants = [x for x in (*policy.user, *policy.application)]
            for a, b in itertools.combinations(grants, 2):
                if a.action != b.action or a.kind is not b.kind:
                    continue
                pairs += 1
                ours = questions.agree(a, b, EVERY_EFFECT, policy.tools)
                assert isinstance(ours, Valid) == isinstance(agree(a, b, EVERY_EFFECT, policy.tools), Agree)
                ours = questions.independent(a, b, EVERY_EFFECT, policy.tools)
                assert isinstance(ours, Valid) == isinstance(independent(a, b, EVERY_EFFECT, policy.tools), Independent)
    assert pairs > 50


def test_the_coverage_question_that_needed_a_probe_is_answered_on_every_branch(monkeypatch: MonkeyPatch) -> None:
    e = {x.id: x for x in load_manifest()}["clean_insert_log"]
    proof = simulate(e.base.policy, e.new, e.effects)
    assert isinstance(proof, SimulationProof)
    answers: list[object] = []
    real = questions._ask

    def spy(s: z3.Solver) -> object:
        got = real(s)
        answers.append(got)
        return got

    monkeypatch.setattr(questions, "_ask", spy)
    assert isinstance(check_simulation(proof, e.base.policy, e.new), Valid)
    assert answers and all(a is None for a in answers)  # every branch unsat: no unknown, no cut


def test_a_resource_clash_is_only_claimed_where_no_effect_matches_both() -> None:
    seen: set[str] = set()
    claimed = 0
    for e in load_manifest():
        for policy in (e.base.policy, e.new):
            if policy.name in seen:
                continue
            seen.add(policy.name)
            grants = [*policy.user, *policy.application]
            for a, b in itertools.combinations(grants, 2):
                if a.action == b.action and questions._resources_clash(a, b):
                    claimed += 1
                    assert isinstance(questions.independent(a, b, EVERY_EFFECT, policy.tools), Valid), (a, b)
    assert claimed > 5


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="ab/.*?[]", max_size=6), st.text(alphabet="ab/.*?[]", max_size=6),
       st.lists(st.text(alphabet="ab/.", max_size=5), max_size=6))
def test_globs_whose_fixed_ends_clash_share_no_string(g: str, h: str, words: list[str]) -> None:
    """The coverage split skips a branch where two globs both match when their fixed starts or ends disagree
    (``_resources_clash``): then no string ``fnmatchcase`` tries is accepted by both, and the checker's Z3
    encoding finds none either."""
    a, b = Entry(EntryKind.ALLOW, "pay", GlobPat(g)), Entry(EntryKind.ALLOW, "pay", GlobPat(h))
    if not questions._resources_clash(a, b):
        return
    assert not any(fnmatch.fnmatchcase(w, g) and fnmatch.fnmatchcase(w, h) for w in words), (g, h)
    try:
        both = z3.And(z3.InRe(z3.String("w", CTX), regex(g)), z3.InRe(z3.String("w", CTX), regex(h)))
    except Unsupported:
        return
    s = z3.SimpleSolver(ctx=CTX)
    s.add(both)
    assert s.check() == z3.unsat, (g, h)
