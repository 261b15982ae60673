"""Matching agreement and independence decided with Z3 (model/revision/smt/z3_matching.py, agreement.py,
independence.py), and the effect-set syntax (effects.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from model.base.errors import InvalidInput
from model.monitor.language.policy import AnyRes, ConstPat, EqPred, GlobPat, SlotPat
from model.monitor.language.syntax import load_policy
from model.revision.certify.agreement import Agree, Disagree, Undecided, agree
from model.revision.certify.independence import Independent, Overlap, independent
from model.revision.effects import EVERY_EFFECT, EffectClass, parse_effects
from model.revision.smt.enumerate import replay_matches
from model.revision.smt.globs import translate

ROOT = Path(__file__).resolve().parents[2]
PAY = load_policy(ROOT / "corpus" / "policies" / "payments.policy")
CLEAN = load_policy(ROOT / "corpus" / "revisions" / "bases" / "cleanup.policy")
REPORT = load_policy(ROOT / "corpus" / "policies" / "report.policy")


def test_amount_ranges_overlap_exactly_at_the_shared_bound() -> None:
    small, large = PAY.user[3], PAY.user[4]
    verdict = independent(small, large, EVERY_EFFECT, PAY.tools)
    assert isinstance(verdict, Overlap)
    assert verdict.witness.args["amount"] == 1000
    assert replay_matches(small, verdict.witness) and replay_matches(large, verdict.witness)
    assert isinstance(independent(small, replace(large, where=(replace(large.where[0], low=1001),
                                                                 large.where[1])), EVERY_EFFECT, PAY.tools),
                      Independent)


def test_globs_disjoint_and_nested() -> None:
    tmp, logs = CLEAN.user[2], CLEAN.user[3]
    assert isinstance(independent(tmp, logs, EVERY_EFFECT, CLEAN.tools), Independent)
    any_log = replace(logs, resource=GlobPat("*.log"), where=())
    verdict = independent(logs, any_log, EVERY_EFFECT, CLEAN.tools)
    assert isinstance(verdict, Overlap) and str(verdict.witness.resource).endswith(".log")


def test_slot_agrees_with_nothing_but_itself_over_binding_states() -> None:
    slot = PAY.user[3]
    const = replace(slot, resource=ConstPat("acct-acme"))
    verdict = agree(slot, const, EVERY_EFFECT, PAY.tools)
    assert isinstance(verdict, Disagree)
    assert replay_matches(slot, verdict.witness) != replay_matches(const, verdict.witness)
    assert isinstance(agree(slot, replace(slot, quota=9), EVERY_EFFECT, PAY.tools), Agree)


def test_key_allowlist_equal_to_the_tool_arguments_agrees_with_none() -> None:
    small = PAY.user[3]
    assert isinstance(agree(small, replace(small, keys=None), EVERY_EFFECT, PAY.tools), Agree)
    fewer = replace(small, keys=frozenset({"to", "amount", "currency"}))
    verdict = agree(small, fewer, EVERY_EFFECT, PAY.tools)
    assert isinstance(verdict, Disagree) and "memo" in verdict.witness.args


def test_resource_is_tied_to_where_the_tool_reads_it() -> None:
    release = REPORT.user[2]
    assert isinstance(agree(release, replace(release, resource=ConstPat("summary")), EVERY_EFFECT, REPORT.tools),
                      Agree)
    assert isinstance(agree(release, replace(release, resource=ConstPat("other")), EVERY_EFFECT, REPORT.tools),
                      Disagree)


def test_effect_set_restricts_the_question() -> None:
    delete = load_policy(ROOT / "corpus" / "policies" / "delete_ab.policy")
    star = delete.application[0]
    ab = replace(star, resource=GlobPat("[AB]"))
    assert isinstance(agree(star, ab, EVERY_EFFECT, delete.tools), Disagree)
    assert isinstance(agree(star, ab, parse_effects('file.delete("A"),file.delete("B")'), delete.tools), Agree)
    assert isinstance(agree(star, replace(star, resource=AnyRes()), EVERY_EFFECT, delete.tools), Agree)


def test_unsupported_constants_and_globs_are_undecided_not_agreed() -> None:
    small = PAY.user[3]
    compound = replace(small, where=(EqPred(("memo",), {"a": 1}),))
    assert isinstance(agree(small, compound, EVERY_EFFECT, PAY.tools), Undecided)
    assert translate("[a-]") is None
    odd = replace(CLEAN.user[2], resource=GlobPat("tmp/[a-]"))
    assert isinstance(agree(CLEAN.user[2], odd, EVERY_EFFECT, CLEAN.tools), Undecided)


def test_two_slot_grants_overlap_in_a_state_where_the_slot_is_bound() -> None:
    slot = PAY.user[3]
    other = replace(slot, resource=SlotPat("supplier"), where=())
    verdict = independent(slot, other, EVERY_EFFECT, PAY.tools)
    assert isinstance(verdict, Overlap) and verdict.witness.bindings[0][0] == "supplier"


def test_parse_effects() -> None:
    assert parse_effects(None) == EVERY_EFFECT == parse_effects("*")
    e = parse_effects('file.delete("A, B"), message.send, pay(3)')
    assert e.classes == (EffectClass("file.delete", "A, B"), EffectClass("message.send"), EffectClass("pay", 3))
    for bad in ("9x", 'file.delete("A"', "file.delete([1])", "file.delete(null)"):
        with pytest.raises(InvalidInput):
            parse_effects(bad)


def test_false_and_zero_are_different_resources_although_python_equates_them() -> None:
    star = PAY.user[3]
    zero, false = replace(star, resource=ConstPat(0)), replace(star, resource=ConstPat(False))
    assert zero == false  # Python's dataclass equality, which model/revision/identity.py avoids
    verdict = agree(zero, false, EVERY_EFFECT, PAY.tools)
    assert isinstance(verdict, Disagree)
    assert replay_matches(zero, verdict.witness) != replay_matches(false, verdict.witness)
