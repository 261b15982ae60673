"""The ``arg_cover`` questions (model/revision/trusted/arg_cover.py): what an entry list, its tools and ``E``
become, and what is left to Z3 (``Unsupported``)."""

from __future__ import annotations

import pytest

from model.monitor.language.policy import (
    AnyRes,
    ArgRes,
    ConstPat,
    ConstRes,
    EffectDecl,
    Entry,
    EntryKind,
    EqPred,
    GlobPat,
    RangePred,
    SlotPat,
    Tool,
)
from model.revision.effects import EVERY_EFFECT, EffectClass, EffectSet
from model.revision.trusted.arg_cover import (
    BadAnswer,
    Unsupported,
    lean_outside,
    outside_entries,
    questions,
    source_name,
    witness_effect,
)

TOOL = Tool("t", "op", "s", "d", frozenset({"path", "mode"}), frozenset({"path"}), (EffectDecl("act", ArgRes("path")),))


def test_a_way_reads_the_resource_from_its_argument_and_the_allowlist_as_absent_keys() -> None:
    entry = Entry(EntryKind.ALLOW, "act", GlobPat("a*"), frozenset({"path"}), (EqPred(("mode",), 1.5),))
    (names, q), = questions(EVERY_EFFECT, [[entry]], ["1"], "act", [TOOL])
    assert names == ["mode", "path"]
    atoms = q["atoms"]
    assert isinstance(atoms, list)
    assert [1, ["present"]] in atoms and [1, ["scalar"]] in atoms and [1, ["glob", "a*"]] in atoms
    assert [0, ["num", 1.5]] in atoms and [0, ["present"]] in atoms
    present_mode = atoms.index([0, ["present"]])
    pos = q["positions"]
    assert isinstance(pos, list) and isinstance(pos[0], list)
    assert [[present_mode, False]] in pos[0]  # the allowlist {path}: mode absent
    assert q["listed"] == ["1"]


def test_e_restricts_the_resource_and_a_constant_resource_is_a_variable_of_its_own() -> None:
    tool = Tool("t", "op", "s", "d", frozenset(), frozenset(), (EffectDecl("act", ConstRes("x")),))
    effects = EffectSet((EffectClass("act", "x"), EffectClass("act", "y")))
    (names, q), = questions(effects, [[Entry(EntryKind.ALLOW, "act", AnyRes())]], [], "act", [tool])
    assert names == ["<resource>"]
    cond = q["cond"]
    assert isinstance(cond, list) and len(cond) == 2  # the tool's constant, and E's two resources
    assert witness_effect("act", names, [["str", "x"]]) == {"action": "act", "args": {}, "resource": "x"}


def test_an_array_or_object_constant_is_a_json_literal_and_a_witness_carries_its_value() -> None:
    entry = Entry(EntryKind.ALLOW, "act", AnyRes(), None, (EqPred(("mode",), [1]), EqPred(("path", "x"), {"a": 1})))
    (names, q), = questions(EVERY_EFFECT, [[entry]], [], "act", [TOOL])
    atoms = q["atoms"]
    assert isinstance(atoms, list)
    assert [names.index("mode"), ["json", [1]]] in atoms
    assert [names.index('<path:["path","x"]>'), ["json", {"a": 1}]] in atoms
    w = witness_effect("act", ["mode", "path"], [["arr", [None, None]], ["obj", {"#a": None}]])
    assert w["args"] == {"mode": [None, None], "path": {"#a": None}}


@pytest.mark.parametrize("entry", [
    Entry(EntryKind.ALLOW, "act", AnyRes(), None, (RangePred(("mode",), True, None),)),
    Entry(EntryKind.ALLOW, "act", AnyRes(), None, (RangePred(("mode",), None, float("inf")),)),
])
def test_what_lean_is_not_asked(entry: Entry) -> None:
    with pytest.raises(Unsupported):
        questions(EVERY_EFFECT, [[entry]], [], "act", [TOOL])


def test_a_range_is_one_literal_with_open_bounds_as_null() -> None:
    entry = Entry(EntryKind.ALLOW, "act", AnyRes(), None, (RangePred(("mode",), None, 2.5),))
    (names, q), = questions(EVERY_EFFECT, [[entry]], [], "act", [TOOL])
    atoms = q["atoms"]
    assert isinstance(atoms, list)
    rng = atoms.index([names.index("mode"), ["range", None, 2.5]])
    assert q["positions"] == [[[[rng, True]]]]
    assert "fuel" not in q


def test_a_nested_path_is_a_variable_present_only_under_an_object() -> None:
    entry = Entry(EntryKind.ALLOW, "act", AnyRes(), None, (EqPred(("mode", "a", "b"), "x"),))
    (names, q), = questions(EVERY_EFFECT, [[entry]], [], "act", [TOOL])
    mode, ab = names.index("mode"), names.index('<path:["mode","a","b"]>')
    a = names.index('<path:["mode","a"]>')
    atoms, cond = q["atoms"], q["cond"]
    assert isinstance(atoms, list) and isinstance(cond, list)
    for child, parent in ((a, mode), (ab, a)):
        assert [[atoms.index([child, ["present"]]), False], [atoms.index([parent, ["obj"]]), True]] in cond
    w = witness_effect("act", names, [["obj"] if n in ("mode", '<path:["mode","a"]>') else ["str", "x"]
                                      for n in names])
    assert w["args"] == {"mode": {"a": {"b": "x"}}, "path": "x"}


def test_a_slot_is_a_free_bit_on_a_resource_that_can_be_bound() -> None:
    (names, q), = questions(EVERY_EFFECT, [[Entry(EntryKind.ALLOW, "act", SlotPat("s"))]], [], "act", [TOOL])
    assert "<slot:s>" in names
    atoms = q["atoms"]
    assert isinstance(atoms, list)
    slot, res = names.index("<slot:s>"), names.index("path")
    pos = q["positions"]
    assert isinstance(pos, list) and isinstance(pos[0], list)
    assert [[atoms.index([slot, ["present"]]), True]] in pos[0]
    assert [[atoms.index([res, ["str", ""]]), False]] in pos[0]
    w = witness_effect("act", names, [["str", "x"] if n == "path" else ["bool", True] if n == "<slot:s>"
                                      else ["missing"] for n in names])
    assert w["bindings"] == {"s": "the resource"} and w["args"] == {"path": "x"}


def test_an_entry_of_another_action_never_matches() -> None:
    (_, q), = questions(EVERY_EFFECT, [[Entry(EntryKind.ALLOW, "other", SlotPat("s"))]], [], "act", [TOOL])
    assert q["positions"] == [None]


def test_a_null_resource_constant_is_the_null_literal_lean_states() -> None:
    """``resConstLit``: a scalar or null constant pattern is its equality literal on the resource, ``isNull``
    for null; the question writes that clause (never true under the tool's condition: the resource is a
    scalar), not a position that never matches."""
    entries = [Entry(EntryKind.ALLOW, "act", ConstPat(None)), Entry(EntryKind.ALLOW, "act", ConstPat([1]))]
    (names, q), = questions(EVERY_EFFECT, [entries], [], "act", [TOOL])
    res = names.index("path")
    atoms, pos, cond = q["atoms"], q["positions"], q["cond"]
    assert isinstance(atoms, list) and isinstance(pos, list) and isinstance(cond, list)
    null = atoms.index([res, ["null"]])
    assert pos[0] == [[[null, True]]] and pos[1] is None
    assert [[atoms.index([res, ["scalar"]]), True]] in cond


def test_lean_outside_names_each_entry_by_its_list_and_position() -> None:
    """Lean's ``outside`` answer names flat positions over the old and new lists; the report places them. An
    array or object constant in a predicate is inside the fragment (Lean writes it, ``wayQA``)."""
    lists = [[Entry(EntryKind.ALLOW, "act", GlobPat("a*")), Entry(EntryKind.ALLOW, "act", ConstPat([1]))],
             [Entry(EntryKind.ALLOW, "act", AnyRes(), None, (EqPred(("mode",), {"k": 1}),)),
              Entry(EntryKind.ALLOW, "act", ConstPat({"k": 1}))]]
    out = {"answer": "outside", "outside": [[1, "an array or object constant as its resource"],
                                            [3, "an array or object constant as its resource"]]}
    named = lean_outside(out, lists, ("old P", "new P"))
    assert named == ("old P entry 2 has an array or object constant as its resource",
                     "new P entry 2 has an array or object constant as its resource")
    assert named == outside_entries(lists, "act", ("old P", "new P"))
    assert lean_outside({"answer": "outside", "outside": []}, lists, ()) == ()


@pytest.mark.parametrize("raw", [None, [[3, "past the end"]], [["1", "x"]], [[True, "x"]], [[-1, "x"]], [[0]]])
def test_a_malformed_outside_answer_is_a_bad_answer(raw: object) -> None:
    lists = [[Entry(EntryKind.ALLOW, "act", GlobPat("a*"))], [Entry(EntryKind.ALLOW, "act", GlobPat("b*"))]]
    with pytest.raises(BadAnswer):
        lean_outside({"answer": "outside", "outside": raw}, lists, ("old P", "new P"))


def test_a_slot_source_is_named_as_the_python_translation_names_it() -> None:
    assert source_name({"slot": "env"}) == "<slot:env>"
    assert source_name(None) == "<resource>" and source_name(["a", "b"]).startswith("<path:")
    with pytest.raises(BadAnswer):
        source_name({"slot": 1})
