"""Contracts and well-formedness (*Exact Checking for Execution Edits* Section IV-A)."""

from __future__ import annotations

from model.edits.check.answer import Invalid, InvalidReason
from model.edits.check.checker import check
from model.edits.check.contract import Call, Choice, Family, Nil, Par, Seq, outcomes
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.family import pomset_of
from model.edits.check.instance import make_instance
from model.edits.check.instance_wellformed import prefix_violation
from model.edits.check.outcome_bits import compile_contract, compile_outcomes


def test_choice_par_seq_outcomes() -> None:
    t = Seq((Call("a"), Par((Choice("g", (("L", Call("b")), ("R", Call("c")))), Call("d")))))
    outs = outcomes(t)
    assert list(outs) == [(("g", "L"),), (("g", "R"),)]
    left = outs[(("g", "L"),)].pred_map()
    assert left == {"a": frozenset(), "b": frozenset({"a"}), "d": frozenset({"a"})}
    # Nested choices under ⊗ multiply outcomes.
    t2 = Par((Choice("g", (("L", Call("a")), ("R", Call("b")))), Choice("h", (("L", Call("c")), ("R", Call("d"))))))
    assert len(outcomes(t2)) == 4


def _inst(term, policy_words=(("a", "b", "c"),)):  # type: ignore[no-untyped-def]
    calls = {"x": "dx", "y": "dy", "z": "dz"}
    return make_instance(term, calls, {"dx": "a", "dy": "b", "dz": "c"}, (), from_maximal_words(policy_words))


def test_complete_trace_prefixing_another_is_refused() -> None:
    bad = Par((Call("x"), Choice("g", (("skip", Nil()), ("Y", Call("y"))))))
    v = check(_inst(bad))
    assert isinstance(v, Invalid) and v.reason is InvalidReason.COMPLETE_PREFIXES_ANOTHER
    assert "x completes" in v.detail
    # Empty and nonempty outcomes together are refused too (ε prefixes everything).
    v2 = check(_inst(Choice("g", (("skip", Nil()), ("Y", Call("y"))))))
    assert isinstance(v2, Invalid) and v2.reason is InvalidReason.COMPLETE_PREFIXES_ANOTHER
    # Same call sets in different orders are fine: neither sequence extends the other.
    good = Choice("g", (("L", Seq((Call("x"), Call("y")))), ("R", Seq((Call("z"),)))))
    assert prefix_violation(compile_outcomes(outcomes(good))) is None


def test_prefix_check_on_many_unordered_calls_is_fast() -> None:
    # 12 unordered calls: 12! linearizations, 4096 raw states; the check never compares words.
    term = Par(tuple(Call(f"c{i}") for i in range(12)))
    assert prefix_violation(compile_outcomes(outcomes(term))) is None
    bad = Par((*(Call(f"c{i}") for i in range(11)), Choice("g", (("a", Nil()), ("b", Call("c11"))))))
    assert prefix_violation(compile_outcomes(outcomes(bad))) is not None


def test_duplicate_calls_groups_and_log_problems_are_invalid() -> None:
    assert check(_inst(Par((Call("x"), Call("x"))))).reason is InvalidReason.DUPLICATE_CALL  # type: ignore[union-attr]
    dup_group = Par((Choice("g", (("L", Call("x")),)), Choice("g", (("L", Call("y")),))))
    assert check(_inst(dup_group)).reason is InvalidReason.DUPLICATE_GROUP  # type: ignore[union-attr]
    repeated = make_instance(Call("x"), {"x": "dx"}, {"dx": "a"}, ("dx", "dx"), from_maximal_words([["a", "a"]]))
    assert check(repeated).reason is InvalidReason.LOG_REPEATS_ACTION  # type: ignore[union-attr]
    outside = make_instance(Call("x"), {"x": "dx"}, {"dx": "a", "dy": "b"}, ("dy",), from_maximal_words([["a"]]))
    assert check(outside).reason is InvalidReason.LOG_OUTSIDE_POLICY  # type: ignore[union-attr]


def test_a_family_compiles_as_its_outcome_map_does() -> None:
    """``compile_contract`` skips the outcome map for a family; it must give the same compiled form,
    members named out of order (o10 before o2) included, and for other terms too."""
    members = tuple((f"o{i}", pomset_of(("x", f"y{i}"), (("x", f"y{i}"),) if i % 2 else ()))
                    for i in (0, 10, 2, 1))
    fam = Family("F", members)
    assert compile_contract(fam) == compile_outcomes(outcomes(fam))
    assert compile_contract(fam).outcomes == ((("F", "o0"),), (("F", "o1"),), (("F", "o10"),), (("F", "o2"),))
    term = Choice("g", (("L", Seq((Call("a"), Call("b")))), ("R", Par((Call("c"), fam)))))
    assert compile_contract(term) == compile_outcomes(outcomes(term))


def test_prefix_search_is_skipped_only_when_every_outcome_has_one_size() -> None:
    """Equal sizes cannot prefix each other; unequal ones are still searched (a·b extends a)."""
    same = Family("F", (("p", pomset_of(("a", "b"), ())), ("q", pomset_of(("a", "c"), ()))))
    assert prefix_violation(compile_contract(same)) is None
    bad = Family("F", (("p", pomset_of(("a",), ())), ("q", pomset_of(("a", "b"), (("a", "b"),)))))
    assert prefix_violation(compile_contract(bad)) is not None


def test_a_family_with_no_members_or_a_repeated_name_is_invalid_in_any_order() -> None:
    """Well-formedness reads a family's repeated names off its compiled form (fewer outcomes than
    members): sorted or not, a repeat is refused, and distinct names in any order are not."""
    p = pomset_of(("x",), ())
    policy = from_maximal_words([["x"]])
    for members, ok in [((), False), ((("a", p), ("a", p)), False), ((("b", p), ("a", p), ("b", p)), False),
                        ((("b", p), ("a", p)), True), ((("a", p), ("b", p)), True)]:
        v = check(make_instance(Family("F", members), {"x": "dx"}, {"dx": "x"}, (), policy))
        assert (isinstance(v, Invalid) and v.reason is InvalidReason.EMPTY_CHOICE) is not ok, members
