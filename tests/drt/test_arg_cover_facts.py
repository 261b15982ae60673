"""Per-binding-class coverage (model/revision/certify/binding_certificate.py: a class's facts about bound
values, each a literal more in every coverage question) decided by Lean (judgment ``arg_cover``, the facts
written as literals on each group's value variable and, for a matching slot pattern, on the resource:
``_fact_clauses`` in model/revision/trusted/arg_cover.py) and by Z3 with the certificate checker's encoding
(``side_conditions.covers`` with ``atoms``/``holds``): both answer alike on every class question of the
binding-swap family and on generated ones. Each comparison grows the listed vectors from none, adding the
vector of Lean's witness until Lean answers covered, and asks both at every step, then drops each listed
vector once (both must then answer uncovered). A class asserting two slots' values differ is written with
the clauses the inequalities force (``_apart_clauses``) and only Lean's ``covered`` is taken (``neqSound``):
there Lean's covered must be Z3's covered, and Lean's uncovered (``ApartUncovered``) is counted against
Z3's answer, not required to agree, except on one pair of groups with no fact that holds (``apart_exact``,
``neqExact2``), where both answers must agree. A question written with one fact dropped is caught: on the family's
certificates some such question answers otherwise than Z3 with every fact; and a translation writing a
stronger inequality clause is caught answering covered where Z3 finds an effect. Every ``uncovered`` witness of
Lean's own class question (``arg_cover_class``) is read by Python as a binding state and found a member of the
class (``_class_member``; ``Thm.bindingClassUncoveredIsBindingState``), while the witness of the same entries'
question without the facts often is not."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from model.base.canonical import JSON, json_equal
from model.monitor.decide.matching import resource_matches
from model.monitor.decide.state import State
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
    OneOfPred,
    SlotPat,
    Tool,
)
from model.oracle.lean import LeanOracle
from model.revision.binding_swap import QUOTAS, SHAPES, member
from model.revision.certify.binding_certificate import BindingSimulation
from model.revision.certify.binding_classes import atoms, propose_binding
from model.revision.certify.check_verdict import Invalid, Undecided, Valid
from model.revision.certify.lean_closure import LeanAbsent, LeanClosed, LeanRefused, lean_closure
from model.revision.effects import EVERY_EFFECT, EffectSet
from model.revision.trusted import arg_cover
from model.revision.trusted.arg_cover import (
    ApartUncovered,
    Fact,
    Unsupported,
    apart_exact,
    class_question,
    facts_outside,
    lean_covers,
    policy_question,
    questions,
    source_name,
)
from model.revision.trusted.encoding import SlotAtom
from model.revision.trusted.side_conditions import covers
from tests.drt.test_arg_cover import _norm

Lists = Sequence[Sequence[Entry]]


def _answer(v: object) -> str:
    if isinstance(v, Valid):
        return "covered"
    if isinstance(v, Invalid):
        return "uncovered"
    assert isinstance(v, Undecided)
    return "undecided"


def _unflat(bits: str, lists: Lists) -> tuple[tuple[bool, ...], ...]:
    out, i = [], 0
    for xs in lists:
        out.append(tuple(b == "1" for b in bits[i:i + len(xs)]))
        i += len(xs)
    return tuple(out)


def _both(oracle: LeanOracle, effects: EffectSet, lists: Lists, tools: Sequence[Tool], action: str,
          listed: Sequence[str], facts: Sequence[Fact], lean_facts: Sequence[Fact] | None = None) -> tuple[str, str]:
    """Z3's answer with ``facts`` and Lean's with ``lean_facts`` (default: the same facts)."""
    by_action = {action: [_unflat(b, lists) for b in listed]}
    olds = frozenset({action})
    z = covers(effects, by_action, lists, olds, tools, "drt", [a for a, _ in facts], [h for _, h in facts])
    try:
        lean = _answer(lean_covers(oracle.call, effects, by_action, lists, olds, tools, "drt",
                                   facts=facts if lean_facts is None else lean_facts))
    except ApartUncovered:
        lean = "apart-uncovered"
    return lean, _answer(z)


def _agree(lean: str, z: str, apart: bool) -> bool:
    """Exact agreement, except that on a class asserting slots differ Lean's uncovered is not an answer:
    only its covered must be Z3's."""
    if apart:
        return lean != "covered" or z == "covered"
    return lean == z


def _witnesses(oracle: LeanOracle, effects: EffectSet, lists: Lists, tools: Sequence[Tool], action: str,
               listed: Sequence[str], facts: Sequence[Fact]) -> list[str]:
    found = []
    for _, q in questions(effects, lists, listed, action, tools, facts):
        out = oracle.call("arg_cover", q)
        assert out["answer"] in ("covered", "uncovered"), out
        if out["answer"] == "uncovered":
            assert out["vector"] not in listed, out
            found.append(str(out["vector"]))
    return found


SPURIOUS: list[int] = []  # Lean's uncovered on a class asserting slots differ where Z3 answered covered
EXACT: list[int] = []  # grow runs on classes asserting slots differ whose uncovered is exact (``apart_exact``)


def _grow(oracle: LeanOracle, effects: EffectSet, lists: Lists, tools: Sequence[Tool], action: str,
          facts: Sequence[Fact]) -> tuple[int, int]:
    """Grow the listed set to coverage comparing at every step, then drop each vector once. Returns the
    number of comparisons and of steps Z3 could not decide (Lean's witnesses then grow the set alone)."""
    listed: list[str] = []
    asked = undecided = 0
    apart = facts_outside(facts) is not None and not apart_exact(facts)
    EXACT.extend([1] if facts_outside(facts) is not None and apart_exact(facts) else [])
    for _ in range(200):
        lean, z = _both(oracle, effects, lists, tools, action, listed, facts)
        where = f"lists={lists!r} tools={tools!r} facts={facts!r} listed={listed}"
        if z == "undecided":
            undecided += 1
        else:
            asked += 1
            assert _agree(lean, z, apart), f"mismatch lean={lean} z3={z}: {where}"
            SPURIOUS.extend([1] if lean == "apart-uncovered" and z == "covered" else [])
        if lean == "covered":
            break
        found = _witnesses(oracle, effects, lists, tools, action, listed, facts)
        assert found, f"lean answered uncovered with no uncovered way: {where}"
        listed += [v for v in found if v not in listed]
    else:
        pytest.fail(f"no coverage after 200 vectors: {lists!r} {facts!r}")
    for v in listed:
        lean, z = _both(oracle, effects, lists, tools, action, [u for u in listed if u != v], facts)
        if z == "undecided":
            undecided += 1
            continue
        asked += 1
        if apart:
            assert _agree(lean, z, apart), (lists, facts, v, lean, z)
        else:
            assert lean == z == "uncovered", (lists, facts, v, lean, z)
    return asked, undecided


def _classes(facts: Sequence[SlotAtom]) -> list[tuple[Fact, ...]]:
    return [tuple(zip(facts, holds, strict=True)) for holds in itertools.product((False, True), repeat=len(facts))]


def test_lean_and_z3_agree_on_every_binding_swap_class(oracle: LeanOracle) -> None:
    """Every member of the family at two quotas, every truth assignment of its facts, both lists."""
    asked = undecided = classes = apart = 0
    SPURIOUS.clear()
    EXACT.clear()
    for shape in SHAPES:
        for g, s in QUOTAS[:2]:
            old, new, _, _ = member(shape, g, s)
            for facts in _classes(atoms(old, new)):
                classes += 1
                apart += facts_outside(facts) is not None
                for lists in ((old.user, new.user), (old.application, new.application)):
                    for action in sorted({e.action for e in lists[0]}):
                        a, u = _grow(oracle, EVERY_EFFECT, lists, old.tools, action, facts)
                        asked, undecided = asked + a, undecided + u
    print(f"arg_cover binding classes (binding swap): {classes} classes compared ({apart} asserting two slots' "
          f"values differ), {asked} questions, {undecided} Z3-undecided steps, {len(SPURIOUS)} of Lean's "
          f"uncovered answers on inequality classes where Z3 answered covered (left to Z3), {len(EXACT)} "
          "grow runs on inequality classes compared exactly, uncovered included (apart_exact)")
    assert classes >= 20 and apart >= 4 and asked >= 100 and undecided == 0, (classes, apart, asked, undecided)


def test_a_dropped_fact_is_caught_on_the_binding_swap_certificates(oracle: LeanOracle) -> None:
    """On each certificate's own listed vectors (both deciders answer covered with every fact), Lean asked
    with one fact dropped answers uncovered somewhere: the comparison would catch a translation that loses a
    fact."""
    caught = compared = 0
    for shape in ("specific_first", "specific_first_two", "specific_first_other"):
        old, new, _, _ = member(shape, 1, 1)
        proof = propose_binding(old, new, EVERY_EFFECT)
        assert isinstance(proof, BindingSimulation), proof
        for c in proof.classes:
            facts = tuple(zip(proof.atoms, c.holds, strict=True))
            if facts_outside(facts) is not None:
                continue
            for rel, lists in ((c.user, (old.user, new.user)), (c.application, (old.application, new.application))):
                for action, vs in rel.vectors:
                    listed = ["".join("1" if b else "0" for side in v for b in side) for v in vs]
                    lean, z = _both(oracle, EVERY_EFFECT, lists, old.tools, action, listed, facts)
                    assert lean == z == "covered", (shape, facts, action, lean, z)
                    for k in range(len(facts)):
                        dropped = facts[:k] + facts[k + 1:]
                        lean, z = _both(oracle, EVERY_EFFECT, lists, old.tools, action, listed, facts, dropped)
                        compared += 1
                        caught += lean != z
    print(f"arg_cover binding classes: {compared} questions with one fact dropped, {caught} caught")
    assert caught >= 1, (compared, caught)


def test_revise_certifies_binding_swaps_with_lean_coverage() -> None:
    """``lean_closure`` asks Lean each class's coverage: with one slot or two, every class is Lean's, the
    classes asserting the two slots' values differ included (Lean answers covered on each, which is taken).
    Lean writes every class's question itself (``arg_cover_class``; ``classQN`` for the inequality classes)."""
    apart = lean_written = 0
    for shape in ("specific_first", "specific_first_other", "specific_first_two"):
        old, new, _, _ = member(shape, 1, 1)
        proof = propose_binding(old, new, EVERY_EFFECT)
        assert isinstance(proof, BindingSimulation), proof
        apart += sum(facts_outside(tuple(zip(proof.atoms, c.holds, strict=True))) is not None for c in proof.classes)
        verdict = lean_closure(proof, old, new)
        if not isinstance(verdict, LeanClosed):
            pytest.skip(f"Lean did not check: {verdict!r}")
        assert verdict.coverage is None, verdict
        assert verdict.questions, verdict
        assert all(w.judgment() == "arg_cover_class" for w in verdict.questions), verdict
        lean_written += sum(w.judgment() == "arg_cover_class" for w in verdict.questions)
    assert apart >= 1 and lean_written >= 1, (apart, lean_written)


def test_an_uncovered_answer_on_an_inequality_class_is_left_to_z3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lean's uncovered on a class asserting slots differ is not taken unless ``apart_exact``: ``lean_closure``
    names the class as left to Z3 instead of refusing (here every question is made to answer uncovered)."""
    real = arg_cover.questions
    real_class = arg_cover.class_question

    def nothing_listed(*args: Any, **kw: Any) -> Any:
        out = real(*args, **kw)
        for _, q in out:
            q["listed"] = []
        return out

    def nothing_listed_class(*args: Any, **kw: Any) -> Any:
        return {**real_class(*args, **kw), "listed": []}

    monkeypatch.setattr(arg_cover, "questions", nothing_listed)
    monkeypatch.setattr(arg_cover, "class_question", nothing_listed_class)
    old, new, _, _ = member("specific_first_two", 1, 1)
    proof = propose_binding(old, new, EVERY_EFFECT)
    assert isinstance(proof, BindingSimulation), proof
    verdict = lean_closure(proof, old, new)
    if isinstance(verdict, LeanAbsent):
        pytest.skip(verdict.reason)
    assert isinstance(verdict, LeanRefused), verdict  # a class without an inequality is refused first
    def facts(c: object) -> tuple[Fact, ...]:
        return tuple(zip(proof.atoms, c.holds, strict=True))  # type: ignore[attr-defined]

    inexact = [c for c in proof.classes if facts_outside(facts(c)) is not None and not apart_exact(facts(c))]
    exact = [c for c in proof.classes if facts_outside(facts(c)) is not None and apart_exact(facts(c))]
    assert inexact and exact, (inexact, exact)
    verdict = lean_closure(replace(proof, classes=tuple(inexact)), old, new)
    assert isinstance(verdict, LeanClosed) and verdict.coverage is not None, verdict
    assert verdict.coverage.startswith(f"{len(inexact)} of {len(inexact)} binding classes left to Z3"), verdict
    # where the uncovered answer is exact (``apart_exact``), it refuses as on any other class
    assert isinstance(lean_closure(replace(proof, classes=tuple(exact)), old, new), LeanRefused)


def test_lean_refuses_a_binding_certificate_whose_class_omits_a_vector() -> None:
    """The two classes' user relations exchanged: each relation is still closed, but the class where the
    specific and the general grant overlap lacks the vector where both match, and Lean's coverage check
    finds that effect."""
    old, new, _, _ = member("specific_first", 1, 1)
    proof = propose_binding(old, new, EVERY_EFFECT)
    assert isinstance(proof, BindingSimulation), proof
    c0, c1 = proof.classes
    swapped = replace(proof, classes=(replace(c0, user=c1.user), replace(c1, user=c0.user)))
    verdict = lean_closure(swapped, old, new)
    if isinstance(verdict, LeanAbsent):
        pytest.skip(verdict.reason)
    assert isinstance(verdict, LeanRefused) and verdict.reason.startswith("Lean's coverage check"), verdict
    assert "slot values" in verdict.reason or "bindings" in verdict.reason, verdict


SLOTS = ("s", "t", "u")
VALUES = ["a", "ab", "", 1, True, None]
GLOBS = ["a*", "*b", "?", "[ab]*", "a"]


def _entry(rng: random.Random) -> Entry:
    pick = rng.randrange(4)
    res = (AnyRes() if pick == 0 else ConstPat(rng.choice(VALUES)) if pick == 1 else
           GlobPat(rng.choice(GLOBS)) if pick == 2 else SlotPat(rng.choice(SLOTS)))
    return Entry(EntryKind.ALLOW, "act", res)


def _facts(rng: random.Random) -> tuple[Fact, ...]:
    pool: list[SlotAtom] = [(s, ConstPat(v)) for s in SLOTS for v in ("a", "ab", 1)]
    pool += [(s, GlobPat(g)) for s in SLOTS for g in GLOBS]
    chosen = rng.sample(pool, rng.randint(1, 3))
    out: list[Fact] = [(a, rng.random() < 0.5) for a in chosen]
    for pair in itertools.combinations(SLOTS, 2):
        if rng.random() < 0.3:
            out.append((pair, True))  # asserted equal: one value for the group (``_groups``)
    return tuple(out)


def test_lean_and_z3_agree_on_generated_binding_classes(oracle: LeanOracle) -> None:
    rng = random.Random(13)
    asked = undecided = equal = 0
    tools = [Tool("t", "op", "src", "dst", frozenset({"path"}), frozenset({"path"}),
                  (EffectDecl("act", ArgRes("path")),)),
             Tool("u", "op", "src", "dst", frozenset(), frozenset(), (EffectDecl("act", ConstRes("ab")),))]
    for _ in range(60):
        lists = [[_entry(rng) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        facts = _facts(rng)
        equal += any(isinstance(a[1], str) for a, _ in facts)
        try:
            a, u = _grow(oracle, EVERY_EFFECT, lists, tools[:rng.randint(1, 2)], "act", facts)
        except Unsupported as why:
            pytest.fail(f"not written: {why}")
        asked, undecided = asked + a, undecided + u
    print(f"arg_cover binding classes generated: 60 classes ({equal} with slots asserted equal), "
          f"{asked} compared, {undecided} Z3-undecided steps")
    assert asked >= 200 and undecided == 0 and equal >= 10, (asked, undecided, equal)


def _apart_facts(rng: random.Random) -> tuple[Fact, ...]:
    out = list(_facts(rng))
    pairs = list(itertools.combinations(SLOTS, 2))
    for pair in rng.sample(pairs, rng.randint(1, 2)):
        out.append((pair, False))  # asserted different (inside one group: the class is empty)
    return tuple(out)


def test_lean_covered_is_z3_covered_on_generated_classes_asserting_slots_differ(oracle: LeanOracle) -> None:
    rng = random.Random(17)
    asked = undecided = 0
    SPURIOUS.clear()
    EXACT.clear()
    tools = [Tool("t", "op", "src", "dst", frozenset({"path"}), frozenset({"path"}),
                  (EffectDecl("act", ArgRes("path")),)),
             Tool("u", "op", "src", "dst", frozenset(), frozenset(), (EffectDecl("act", ConstRes("ab")),))]
    for _ in range(60):
        lists = [[_entry(rng) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        a, u = _grow(oracle, EVERY_EFFECT, lists, tools[:rng.randint(1, 2)], "act", _apart_facts(rng))
        asked, undecided = asked + a, undecided + u
    print(f"arg_cover binding classes generated asserting slots differ: 60 classes, {asked} compared, "
          f"{undecided} Z3-undecided steps, {len(SPURIOUS)} of Lean's uncovered where Z3 answered covered, "
          f"{len(EXACT)} grow runs compared exactly, uncovered included (apart_exact)")
    assert asked >= 200 and undecided == 0, (asked, undecided)


def test_a_stronger_inequality_clause_is_caught(oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """A translation writing "no slot of the first group matches" for an inequality (dropping the second
    slot's literal) answers covered where Z3 finds an effect, on generated classes: Python's question (the
    reference Lean's ``classQN`` is compared with, clause for clause) decided by ``arg_cover``."""
    real = arg_cover._apart_clauses

    def stronger(q: arg_cover._Question, facts: Sequence[Fact], group: dict[str, str], res: int
                 ) -> list[arg_cover.Clause]:
        return [[lit for k, lit in enumerate(c) if k != 1] for c in real(q, facts, group, res)]

    monkeypatch.setattr(arg_cover, "_apart_clauses", stronger)
    rng = random.Random(17)
    caught = 0
    tools = [Tool("t", "op", "src", "dst", frozenset({"path"}), frozenset({"path"}),
                  (EffectDecl("act", ArgRes("path")),))]
    for _ in range(30):
        lists = [[_entry(rng) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        facts = _apart_facts(rng)
        every = ["".join(v) for v in itertools.product("01", repeat=sum(len(xs) for xs in lists))]
        for v in every:  # every vector listed but v: uncovered exactly when some effect has v
            listed = [u for u in every if u != v]
            answers = [oracle.call("arg_cover", q)["answer"]
                       for _, q in questions(EVERY_EFFECT, lists, listed, "act", tools, facts)]
            _, z = _both(oracle, EVERY_EFFECT, lists, tools, "act", listed, facts)
            caught += "uncovered" not in answers and z == "uncovered"
    print(f"arg_cover stronger inequality clause: {caught} covered answers Z3 refutes")
    assert caught >= 1


def test_an_inequality_inside_one_group_empties_the_class(oracle: LeanOracle) -> None:
    """``not @s = @t`` with ``@s = @t``: no binding state, so every question is covered, by both."""
    lists = [[Entry(EntryKind.ALLOW, "act", SlotPat("s"))], []]
    facts: tuple[Fact, ...] = ((("s", "t"), True), (("s", "t"), False))
    tools = [Tool("t", "op", "src", "dst", frozenset({"path"}), frozenset({"path"}),
                  (EffectDecl("act", ArgRes("path")),))]
    assert _both(oracle, EVERY_EFFECT, lists, tools, "act", [], facts) == ("covered", "covered")
    assert _both(oracle, EVERY_EFFECT, lists, tools, "act", [], facts[:1]) == ("uncovered", "uncovered")


def test_the_inequality_clause_decides_and_its_converse_fails(oracle: LeanOracle) -> None:
    """Two slot patterns of slots asserted different never both match: every other vector listed is covered
    for both deciders, Lean's by the inequality clause (without the inequality it is uncovered). And the
    elimination is one direction only: two slots each pinned to "a" and asserted different make the class
    empty (Z3: covered), while Lean's question still has the effects (its uncovered, not taken)."""
    lists = [[Entry(EntryKind.ALLOW, "act", SlotPat("s")), Entry(EntryKind.ALLOW, "act", SlotPat("t"))], []]
    tools = [Tool("t", "op", "src", "dst", frozenset({"path"}), frozenset({"path"}),
                  (EffectDecl("act", ArgRes("path")),))]
    apart: tuple[Fact, ...] = ((("s", "t"), False),)
    assert _both(oracle, EVERY_EFFECT, lists, tools, "act", ["00", "10", "01"], apart) == ("covered", "covered")
    assert _both(oracle, EVERY_EFFECT, lists, tools, "act", ["00", "10", "01"], ()) == ("uncovered", "uncovered")
    pinned: tuple[Fact, ...] = ((("s", ConstPat("a")), True), (("t", ConstPat("a")), True), *apart)
    assert _both(oracle, EVERY_EFFECT, lists, tools, "act", [], pinned) == ("apart-uncovered", "covered")
    assert not apart_exact(pinned) and apart_exact(apart)
    # unpinned groups: the uncovered answer is taken, and it is Z3's
    assert _both(oracle, EVERY_EFFECT, lists, tools, "act", ["00", "10"], apart) == ("uncovered", "uncovered")


# Lean's own class question (``arg_cover_class``: ``classQ``, or ``classQA`` with array or object predicate
# constants, or ``classQR`` with array or object resource constants, or ``classQN``/``classQNR`` for a class
# denying slot equalities, written from the class's facts) against Python's (``questions`` with
# ``_fact_clauses`` and ``_apart_clauses``), clause for clause and verdict for verdict.

JSON_ATOMS: list[int] = []  # ``["json", c]`` atoms in Lean's class questions (``classQA``)
NEVER: list[int] = []  # positions of array or object resource constants Lean writes never matching (``classQR``)
EMPTIED: list[int] = []  # denied equalities inside one group in the generated classes (the empty clause)


def _class_translations_differ(oracle: LeanOracle, lists: Lists, tools: Sequence[Tool], listed: Sequence[str],
                               facts: Sequence[Fact]) -> tuple[str | None, str]:
    """Where Lean's class question and Python's differ (``None``: they agree), and Lean's answer."""
    out = oracle.call("arg_cover_class", class_question(EVERY_EFFECT, lists, listed, "act", tools, facts))
    if out["answer"] not in ("covered", "uncovered"):
        return f"answered {out['answer']} on a class in Lean's fragment: {out}", out["answer"]
    if out.get("exact", True) is not (facts_outside(facts) is None):
        return f"flagged exact={out.get('exact')!r} on facts {facts!r}", out["answer"]
    py = questions(EVERY_EFFECT, lists, listed, "act", tools, facts)
    lean_qs = out["questions"]
    if len(py) != len(lean_qs):
        return f"{len(py)} ways in Python, {len(lean_qs)} in Lean", out["answer"]
    never = [_res_struct_entry(e) for xs in lists for e in xs]
    for (names, q), lq in zip(py, lean_qs, strict=True):
        JSON_ATOMS.extend(1 for _, lit in lq["atoms"] if lit[0] == "json")
        NEVER.extend(1 for p, n in zip(lq["positions"], never, strict=True) if n and p is None)
        if _norm(names, q) != _norm([source_name(n) for n in lq["names"]], lq):
            return f"the questions differ: python={q} lean={lq}", out["answer"]
    answers = [oracle.call("arg_cover", q)["answer"] for _, q in py]
    py_answer = "uncovered" if "uncovered" in answers else "covered"
    if py_answer != out["answer"]:
        return f"verdicts differ: python {py_answer}, lean {out['answer']}", out["answer"]
    return None, out["answer"]


MEMBERS: list[int] = []  # uncovered class witnesses Python finds in their class
UNIT_OUT: list[bool] = []  # per step, whether the witness of the question without the facts is outside the class


def _valid(v: JSON) -> bool:
    """A value a slot can be bound to: a number, a boolean, or a non-empty string."""
    return isinstance(v, int | float) or (isinstance(v, str) and v != "")


def _class_member(facts: Sequence[Fact], names: Sequence[str], witness: Sequence[JSON]) -> str | None:
    """Python's check that an ``arg_cover_class`` witness is a binding state of the class
    (``Thm.bindingClassUncoveredIsBindingState``): each group's value is the resource when one of its
    slots matches (its variable present, the resource a valid slot value), else the witness's value
    variable of the group, else (a group no fact names) any valid value; the matching slots are bound to
    it in a monitor ``State``. Then every value is valid, every fact holds as the class says (constants and
    globs by the monitor's ``resource_matches``, equalities by ``json_equal``), and the monitor's slot
    pattern matches the resource exactly for the slots the witness matches. Why it is not a member, else
    ``None``."""
    vals = dict(zip(names, witness, strict=False))
    # these tests' tools read a way's resource at the resource (a constant) or at argument ``path``
    raw = vals.get("<resource>" if "<resource>" in vals else "path", ["missing"])
    res: JSON | None = None if raw == ["missing"] else arg_cover._value(raw)
    present = raw != ["missing"]
    group = arg_cover._groups(facts)  # each slot the facts name to its group's least slot, as Lean names it
    named = sorted(n[len("<slot:"):-1] for n in vals if n.startswith("<slot:"))
    for s in named:
        group.setdefault(s, s)
    matched = {s for s in named if vals[f"<slot:{s}>"] != ["missing"] and present and _valid(res)}
    value: dict[str, JSON] = {}
    for s, g in group.items():
        if s in matched:
            value[g] = res
    for g in set(group.values()):
        if g not in value:
            v = vals.get(f"<value:{g}>", ["missing"])
            value[g] = arg_cover._value(v) if v != ["missing"] else "x"
    if bad := [g for g, v in value.items() if not _valid(v)]:
        return f"groups {bad} have values no slot can be bound to: {value}"
    for (s, pat), holds in facts:
        v = value[group[s]]
        got = json_equal(v, value[group[pat]]) if isinstance(pat, str) else resource_matches(pat, v, State())
        if got != holds:
            return f"fact {(s, pat)} is {got} of {v!r}, the class says {holds}"
    state = State(bindings=tuple((s, value[group[s]], 0) for s in sorted(matched)))
    for s in named:
        if present and resource_matches(SlotPat(s), res, state) != (s in matched):
            return f"slot {s}: the monitor's match is not the witness's ({sorted(matched)}, resource {res!r})"
    return None


def _check_member(oracle: LeanOracle, lists: Lists, tools: Sequence[Tool], listed: Sequence[str],
                  facts: Sequence[Fact], out: dict[str, Any]) -> str | None:
    """Check ``out``'s witness against the class; and, so that a check finding every witness a member would
    show, check the witness Lean gives on the same entries without the facts (``arg_cover_policy``)."""
    why = _class_member(facts, [source_name(n) for n in out["names"]], out["witness"])
    if why is None:
        MEMBERS.append(1)
    unit = oracle.call("arg_cover_policy", policy_question(EVERY_EFFECT, lists, listed, "act", tools))
    if unit["answer"] == "uncovered":
        names = [source_name(n) for n in unit["names"]]
        UNIT_OUT.append(_class_member(facts, names, unit["witness"]) is not None)
    return why


STRUCTURED: list[object] = [[1], {"k": 1}, [], ["a", [2]]]


def _structured(rng: random.Random, e: Entry) -> Entry:
    """``e`` with an equality or one-of predicate against an array or object constant (``wayQA``'s literal
    ``["json", c]``), on an argument the tools declare."""
    const = rng.choice(STRUCTURED)
    path = (rng.choice(["tags", "path"]),)
    return replace(e, where=(EqPred(path, const) if rng.random() < 0.5 else OneOfPred(path, ("a", const)),))


def _res_struct_entry(e: Entry) -> bool:
    return isinstance(e.resource, ConstPat) and isinstance(e.resource.value, list | dict)


def _with_res_struct(rng: random.Random, lists: list[list[Entry]]) -> list[list[Entry]]:
    """``lists`` with some entries' resource pattern an array or object constant (at least one)."""
    out = [[replace(e, resource=ConstPat(rng.choice(STRUCTURED))) if rng.random() < 0.4 else e for e in xs]
           for xs in lists]
    if not any(_res_struct_entry(e) for xs in out for e in xs):
        k = rng.randrange(len(out[0]))
        out[0][k] = replace(out[0][k], resource=ConstPat(rng.choice(STRUCTURED)))
    return out


def _class_runs(oracle: LeanOracle, n: int, structured: bool = False, apart: bool = False,
                resource: bool = False) -> tuple[int, int, list[str]]:
    """``n`` generated classes (the entries and facts of ``test_lean_and_z3_agree_on_generated_binding_classes``;
    ``structured``: each list's first entry compares with an array or object constant, so Lean writes
    ``classQA``; ``resource``: some entries' resource pattern is an array or object constant, so Lean writes
    ``classQR``; ``apart``: each class also denies one or two slot equalities, ``_apart_facts``, so Lean writes
    ``classQN``, or ``classQNR`` with ``structured`` or ``resource``), each grown from no listed vector by
    Lean's witnesses to coverage, compared at every step: the number of comparisons, of classes with slots
    asserted equal, and the differences found (the first per class)."""
    rng = random.Random((23 if resource else 0) + (19 if apart else 13 if not structured else 17))
    args = frozenset({"path", "tags"}) if structured else frozenset({"path"})
    tools = [Tool("t", "op", "src", "dst", args, frozenset({"path"}), (EffectDecl("act", ArgRes("path")),)),
             Tool("u", "op", "src", "dst", frozenset(), frozenset(), (EffectDecl("act", ConstRes("ab")),))]
    steps = equal = 0
    found: list[str] = []
    for _ in range(n):
        lists = [[_entry(rng) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        if structured:
            lists = [[_structured(rng, xs[0]), *xs[1:]] for xs in lists]
        if resource:
            lists = _with_res_struct(rng, lists)
        facts = _apart_facts(rng) if apart else _facts(rng)
        ts = tools[:rng.randint(1, 2)]
        equal += any(isinstance(a[1], str) and h for a, h in facts)
        group = arg_cover._groups(facts)
        EMPTIED.extend(1 for a, h in facts if isinstance(a[1], str) and not h and group[a[0]] == group[a[1]])
        listed: list[str] = []
        for _ in range(200):
            steps += 1
            why, answer = _class_translations_differ(oracle, lists, ts, listed, facts)
            if why is not None:
                found.append(f"lists={lists!r} facts={facts!r} listed={listed}: {why}")
                break
            if answer != "uncovered":
                break
            out = oracle.call("arg_cover_class", class_question(EVERY_EFFECT, lists, listed, "act", ts, facts))
            assert out["vector"] not in listed, out
            # On a class denying slot equalities (``classQN``, ``classQNR``, answered ``"exact": false``) only the
            # class without those denials is stated exactly by the question; the witness must be a member of that
            # class.
            denied = any(isinstance(a[1], str) and not h for a, h in facts)
            assert out.get("exact", True) is not denied, out  # flagged inexact exactly when the class denies one
            kept = [f for f in facts if not (isinstance(f[0][1], str) and not f[1])]
            if (why := _check_member(oracle, lists, ts, listed, kept, out)) is not None:
                found.append(f"lists={lists!r} facts={facts!r} listed={listed}: witness {out['witness']}: {why}")
                break
            listed.append(out["vector"])
    return steps, equal, found


def test_lean_writes_the_class_question_as_python_does(oracle: LeanOracle) -> None:
    """Lean's ``classQ`` against Python's question, clause for clause and verdict for verdict; and every
    ``uncovered`` witness Lean answers is a binding state of the class, checked by Python (``_class_member``)."""
    MEMBERS.clear()
    UNIT_OUT.clear()
    steps, equal, found = _class_runs(oracle, 60)
    assert not found, found[:3]
    print(f"arg_cover_class generated: 60 binding classes ({equal} with slots asserted equal), {steps} "
          f"comparisons of Lean's class question with Python's, 0 differences; {len(MEMBERS)} uncovered "
          f"witnesses each a binding state of its class, 0 failures; the witness of the question without the "
          f"facts at the same step is outside the class {sum(UNIT_OUT)} times of {len(UNIT_OUT)}")
    assert steps >= 150 and equal >= 10, (steps, equal)
    assert len(MEMBERS) >= 90 and sum(UNIT_OUT) >= 10, (len(MEMBERS), sum(UNIT_OUT))


def test_lean_writes_the_class_question_with_array_constants_as_python_does(oracle: LeanOracle) -> None:
    """Actions whose entries compare with array or object constants: Lean's ``classQA`` against Python's
    question, clause for clause and verdict for verdict."""
    JSON_ATOMS.clear()
    MEMBERS.clear()
    steps, equal, found = _class_runs(oracle, 60, structured=True)
    assert not found, found[:3]
    print(f"arg_cover_class generated with array or object predicate constants: 60 binding classes ({equal} "
          f"with slots asserted equal), {steps} comparisons of Lean's class question with Python's, 0 differences, "
          f"{len(JSON_ATOMS)} array or object constant atoms in Lean's questions; {len(MEMBERS)} uncovered "
          "witnesses each a binding state of its class, 0 failures")
    assert steps >= 150 and equal >= 10 and len(JSON_ATOMS) >= steps, (steps, equal, len(JSON_ATOMS))


def test_a_python_writer_misreading_array_constants_differs_from_lean(oracle: LeanOracle,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python writer comparing with ``[c]`` in place of an array or object constant ``c`` is caught on the
    generated classes with such constants."""
    real = arg_cover._pred_lit

    def wrapped(value: Any) -> list[Any]:
        return ["json", [value]] if isinstance(value, list | dict) else real(value)

    monkeypatch.setattr(arg_cover, "_pred_lit", wrapped)
    steps, _, found = _class_runs(oracle, 60, structured=True)
    print(f"arg_cover_class with a Python writer misreading array or object constants: {len(found)} of 60 "
          f"classes differ, {steps} comparisons")
    assert len(found) >= 30, (len(found), steps)


def test_a_python_class_writer_ignoring_equalities_differs_from_lean(oracle: LeanOracle,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python writer that gives every slot a group of its own (asserted equalities ignored) is caught."""
    def no_groups(facts: Sequence[Fact]) -> dict[str, str]:
        return {s: s for (a, _) in facts for s in ((a[0], a[1]) if isinstance(a[1], str) else (a[0],))}

    monkeypatch.setattr(arg_cover, "_groups", no_groups)
    steps, equal, found = _class_runs(oracle, 60)
    print(f"arg_cover_class with a Python writer ignoring equalities: {len(found)} of 60 classes differ "
          f"({equal} with slots asserted equal), {steps} comparisons")
    assert len(found) >= 5, (len(found), equal)


def test_lean_writes_the_inequality_class_question_as_python_does(oracle: LeanOracle) -> None:
    """Classes denying one or two slot equalities (``_apart_facts``, some inside one group): Lean's ``classQN``
    against Python's question with ``_apart_clauses``, clause for clause and verdict for verdict."""
    EMPTIED.clear()
    steps, equal, found = _class_runs(oracle, 60, apart=True)
    assert not found, found[:3]
    print(f"arg_cover_class generated denying slot equalities: 60 binding classes ({equal} with slots asserted "
          f"equal, {len(EMPTIED)} denied equalities inside one group), {steps} comparisons of Lean's class "
          f"question with Python's, 0 differences")
    assert steps >= 100 and equal >= 10 and EMPTIED, (steps, equal, len(EMPTIED))


def test_a_python_class_writer_dropping_the_inequality_clauses_differs_from_lean(
        oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python writer without ``_apart_clauses`` is caught against Lean's ``classQN``."""
    monkeypatch.setattr(arg_cover, "_apart_clauses", lambda *args: [])
    steps, _, found = _class_runs(oracle, 60, apart=True)
    print(f"arg_cover_class with a Python writer dropping the inequality clauses: {len(found)} of 60 classes "
          f"differ, {steps} comparisons")
    assert len(found) >= 20, (len(found), steps)


def test_lean_writes_the_class_question_with_array_resource_constants_as_python_does(oracle: LeanOracle) -> None:
    """Entries whose resource pattern is an array or object constant: Lean's ``classQR`` (such an entry never
    matching) against Python's question, clause for clause and verdict for verdict; every uncovered witness a
    binding state of its class."""
    NEVER.clear()
    MEMBERS.clear()
    steps, equal, found = _class_runs(oracle, 60, resource=True)
    assert not found, found[:3]
    print(f"arg_cover_class generated with array or object resource constants: 60 binding classes ({equal} "
          f"with slots asserted equal), {steps} comparisons of Lean's class question with Python's, 0 differences, "
          f"{len(NEVER)} never-matching positions in Lean's questions; {len(MEMBERS)} uncovered witnesses each a "
          "binding state of its class, 0 failures")
    assert steps >= 100 and equal >= 10 and len(NEVER) >= steps and MEMBERS, (steps, equal, len(NEVER))


def test_lean_writes_the_inequality_class_question_with_array_constants_as_python_does(oracle: LeanOracle) -> None:
    """Classes denying slot equalities on entries comparing with array or object constants, as predicate
    constants and as resource patterns: Lean's ``classQNR`` against Python's question with ``_apart_clauses``,
    clause for clause and verdict for verdict (the answer flagged not exact)."""
    NEVER.clear()
    JSON_ATOMS.clear()
    EMPTIED.clear()
    MEMBERS.clear()
    steps, equal, found = _class_runs(oracle, 60, structured=True, apart=True, resource=True)
    assert not found, found[:3]
    print(f"arg_cover_class generated denying slot equalities with array or object constants: 60 binding classes "
          f"({equal} with slots asserted equal, {len(EMPTIED)} denied equalities inside one group), {steps} "
          f"comparisons of Lean's class question with Python's, 0 differences, {len(JSON_ATOMS)} array or object "
          f"constant atoms and {len(NEVER)} never-matching positions in Lean's questions; {len(MEMBERS)} uncovered "
          "witnesses each a binding state of the class without its denials, 0 failures")
    assert steps >= 100 and equal >= 10 and EMPTIED and JSON_ATOMS and len(NEVER) >= steps, (
        steps, equal, len(EMPTIED), len(JSON_ATOMS), len(NEVER))


def test_a_python_writer_matching_array_resource_constants_differs_from_lean(
        oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python writer reading an array or object resource constant as ``any`` (in place of never matching) is
    caught against Lean's ``classQR`` and ``classQNR``."""
    real = arg_cover._position

    def wrapped(q: Any, e: Entry, action: str, res: int, keys: Sequence[str]) -> Any:
        return real(q, replace(e, resource=AnyRes()) if _res_struct_entry(e) else e, action, res, keys)

    monkeypatch.setattr(arg_cover, "_position", wrapped)
    steps, _, found = _class_runs(oracle, 60, resource=True)
    steps2, _, found2 = _class_runs(oracle, 60, structured=True, apart=True, resource=True)
    print(f"arg_cover_class with a Python writer matching array or object resource constants: {len(found)} of 60 "
          f"classes differ ({steps} comparisons), {len(found2)} of 60 inequality classes ({steps2})")
    assert len(found) >= 30 and len(found2) >= 30, (len(found), len(found2))


def test_lean_writes_the_class_question_with_array_constants_and_inequalities(oracle: LeanOracle) -> None:
    """A class denying a slot equality: Lean writes it (``classQN``) and flags its uncovered answer not exact;
    an action with an array predicate constant: Lean writes it (``classQA``); one with an array resource
    constant: ``classQR``; either with a denied equality: ``classQNR``, flagged not exact. None is answered
    ``outside`` (left to Python). With nothing listed the verdict is uncovered (one pair of unpinned groups,
    ``apart_exact``, so taken), as Z3's where Z3 takes the question (its encoding has no array predicate
    constant; an array resource constant it reads as never matching)."""
    tools = [Tool("t", "op", "src", "dst", frozenset({"path", "tags"}), frozenset({"path"}),
                  (EffectDecl("act", ArgRes("path")),))]
    slots = [[Entry(EntryKind.ALLOW, "act", SlotPat("s")), Entry(EntryKind.ALLOW, "act", SlotPat("t"))], []]
    tagged = [[Entry(EntryKind.ALLOW, "act", SlotPat("s"), where=(EqPred(("tags",), [1, 2]),))], []]
    boxed = [[Entry(EntryKind.ALLOW, "act", ConstPat([1])), Entry(EntryKind.ALLOW, "act", SlotPat("s"))], []]
    apart: tuple[Fact, ...] = ((("s", "t"), False),)
    pinned: tuple[Fact, ...] = ((("s", ConstPat("a")), True),)
    cases: list[tuple[Lists, tuple[Fact, ...], str]] = [
        (slots, apart, "uncovered"), (tagged, pinned, "undecided"), (tagged, apart, "undecided"),
        (boxed, pinned, "uncovered"), (boxed, apart, "uncovered")]
    for lists, facts, z_answer in cases:
        out = oracle.call("arg_cover_class", class_question(EVERY_EFFECT, lists, [], "act", tools, facts))
        assert out["answer"] == "uncovered", out
        # ``classQN``'s and ``classQNR``'s uncovered is flagged, ``classQ``'s, ``classQA``'s and ``classQR``'s exact
        assert out.get("exact", True) is (facts != apart), out
        written: list[arg_cover.Written] = []
        by_action = {"act": [_unflat(b, lists) for b in ()]}
        verdict = lean_covers(oracle.call, EVERY_EFFECT, by_action, lists, frozenset({"act"}), tools, "drt",
                              written, facts=facts)
        assert written == [], written  # an uncovered answer returns before anything is recorded
        z = covers(EVERY_EFFECT, by_action, lists, frozenset({"act"}), tools, "drt", [a for a, _ in facts],
                   [h for _, h in facts])
        assert (_answer(verdict), _answer(z)) == ("uncovered", z_answer), (verdict, z)
