"""Effect coverage for entries whose match reads arguments (Agenra Section 7.1), decided by Lean over every
valuation of the effect's resource and arguments (judgment ``arg_cover``; theorems
``AgentWarrant.Revision.ArgCover.argCoveredSound``/``argUncoveredSound``) and by Z3 with the certificate
checker's encoding (``side_conditions.covers``): both answer alike on generated entry lists (equality,
one-of and range predicates on top-level and nested argument paths) and on the lists of every corpus
revision pair. Each comparison grows the listed vectors from none, adding the vector of
Lean's witness until Lean answers covered, and asks both deciders at every step, then drops each listed vector
once (both must then answer uncovered). A mismatch prints every input and both answers."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import pairwise

import pytest

from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Refusal
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.base import DenyReason
from model.monitor.decide.matching import call_effects, entry_matches
from model.monitor.decide.state import initial_state
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
    ListArgRes,
    OneOfPred,
    RangePred,
    SlotPat,
    Tool,
)
from model.oracle.lean import LeanOracle, OracleError
from model.oracle.toolchain import oracle_path
from model.revision.certify.check_verdict import Invalid, Undecided, Valid
from model.revision.corpus import load_manifest
from model.revision.effects import EVERY_EFFECT, EffectClass, EffectSet
from model.revision.trusted.arg_cover import (
    ToolRefused,
    Unsupported,
    Written,
    flat_listed,
    lean_covers,
    outside_entries,
    policy_question,
    questions,
    source_name,
    witness_effect,
)
from model.revision.trusted.side_conditions import covers


def _unflat(bits: str, lists: Sequence[Sequence[Entry]]) -> tuple[tuple[bool, ...], ...]:
    out, i = [], 0
    for xs in lists:
        out.append(tuple(b == "1" for b in bits[i:i + len(xs)]))
        i += len(xs)
    return tuple(out)


def _answer(v: object) -> str:
    if isinstance(v, Valid):
        return "covered"
    if isinstance(v, Invalid):
        return "uncovered"
    assert isinstance(v, Undecided)
    return "undecided"


def _compare(oracle: LeanOracle, effects: EffectSet, lists: Sequence[Sequence[Entry]], tools: Sequence[Tool],
             action: str, listed: Sequence[str]) -> tuple[str, list[str]]:
    """Both answers on one listed set (they must agree); returns the answer and the vectors of Lean's
    witnesses (one per uncovered way)."""
    by_action = {action: [_unflat(b, lists) for b in listed]}
    olds = frozenset({action})
    z = covers(effects, by_action, lists, olds, tools, "drt")
    lean = lean_covers(oracle.call, effects, by_action, lists, olds, tools, "drt")
    where = (f"action={action} effects={effects.show()} lists={lists!r} tools={tools!r} listed={sorted(listed)} "
             f"questions={[q for _, q in questions(effects, lists, listed, action, tools)]!r}: "
             f"lean={lean!r} z3={z!r}")
    if _answer(z) == "undecided":  # Z3 unknown or a pattern its encoding does not take: compared with nothing
        return "z3 undecided", []
    assert _answer(lean) == _answer(z), f"mismatch: {where}"
    found: list[str] = []
    if _answer(lean) == "uncovered":
        for _, q in questions(effects, lists, listed, action, tools):
            out = oracle.call("arg_cover", q)
            if out["answer"] == "uncovered":
                v = out["vector"]
                assert isinstance(v, str) and v not in listed, f"lean's vector is listed: {where} {out!r}"
                found.append(v)
        assert found, f"lean answered uncovered with no uncovered way: {where}"
    return _answer(lean), found


def _grow(oracle: LeanOracle, effects: EffectSet, lists: Sequence[Sequence[Entry]], tools: Sequence[Tool],
          action: str) -> tuple[int, int]:
    """Grow the listed set to coverage, comparing at every step; then drop each vector once. Returns the
    number of comparisons and of steps Z3 could not decide (Lean's answer then grows the set alone)."""
    listed: list[str] = []
    asked = undecided = 0
    for _ in range(200):
        answer, found = _compare(oracle, effects, lists, tools, action, listed)
        if answer == "z3 undecided":
            undecided += 1
            answer, found = _lean_only(oracle, effects, lists, tools, action, listed)
        else:
            asked += 1
        if answer == "covered":
            break
        listed += [v for v in found if v not in listed]
    else:
        pytest.fail(f"no coverage after 200 vectors: {lists!r}")
    for v in listed:
        answer, _ = _compare(oracle, effects, lists, tools, action, [u for u in listed if u != v])
        if answer == "z3 undecided":
            undecided += 1
            continue
        asked += 1
        assert answer == "uncovered", (lists, v)
    return asked, undecided


def _lean_only(oracle: LeanOracle, effects: EffectSet, lists: Sequence[Sequence[Entry]], tools: Sequence[Tool],
               action: str, listed: Sequence[str]) -> tuple[str, list[str]]:
    found = []
    for _, q in questions(effects, lists, listed, action, tools):
        out = oracle.call("arg_cover", q)
        assert out["answer"] in ("covered", "uncovered"), out
        if out["answer"] == "uncovered":
            found.append(str(out["vector"]))
    return ("uncovered" if found else "covered"), found


VALUES = ["a", "ab", "", 1, 1.0, 2.5, -0.5, True, False, None]
BOUNDS = [None, 0, 1, 1.0, 2.5, -0.5, 0.1, 3]
GLOBS = ["a*", "*b", "?", "[ab]*", "a", "*"]
PATHS = [("path",), ("mode",), ("mode",), ("mode", "k"), ("opts", "a"), ("opts", "a", "b"), ("path", "x")]


def _entry(rng: random.Random, keys: Sequence[str], fragment: bool = False, structured: bool = False) -> Entry:
    """A generated entry; ``fragment``: no slot pattern and no key allowlist; ``structured``: half the time an
    array or object constant (as the resource, outside Lean's fragment, or in an equality or one-of
    predicate, inside it: ``["json", c]``)."""
    pick = rng.randrange(5)
    res = (AnyRes() if pick == 0 else ConstPat(rng.choice(VALUES)) if pick == 1 else
           SlotPat(rng.choice(["s", "t"])) if pick == 2 and not fragment else GlobPat(rng.choice(GLOBS)))
    where: list[EqPred | OneOfPred | RangePred] = []
    for _ in range(rng.randint(0, 2)):
        path = rng.choice(PATHS) if rng.random() < 0.5 else (rng.choice(keys),)
        kind = rng.random()
        if kind < 0.3:
            where.append(EqPred(path, rng.choice(VALUES)))
        elif kind < 0.55:
            where.append(OneOfPred(path, tuple(rng.sample(VALUES, 2))))
        else:
            lo, hi = rng.choice(BOUNDS), rng.choice(BOUNDS)
            if lo is not None and hi is not None and hi < lo and rng.random() < 0.8:
                lo, hi = hi, lo  # mostly non-empty ranges; an empty one now and then
            where.append(RangePred(path, lo, hi))
    allow = frozenset(rng.sample(list(keys), rng.randint(0, len(keys)))) if rng.random() < 0.3 else None
    if structured and rng.random() < 0.5:
        const = rng.choice([[1], {"k": 1}, []])
        kind = rng.randrange(3)
        if kind == 0:
            res = ConstPat(const)
        else:
            path = (rng.choice(keys),)
            where.append(EqPred(path, const) if kind == 1 else OneOfPred(path, ("a", const)))
    return Entry(EntryKind.ALLOW, "act", res, None if fragment else allow, tuple(where))


def _tools(rng: random.Random) -> list[Tool]:
    ways: list[ArgRes | ConstRes | ListArgRes] = [ArgRes("path"), ConstRes(rng.choice(["a", "ab", 2.5])),
                                                   ListArgRes("items")]
    res = rng.choice(ways)
    args = frozenset({"path", "mode", "items", "opts"})
    return [Tool("t", "op", "src", "dst", args, frozenset({"path"}) if rng.random() < 0.5 else frozenset(),
                 (EffectDecl("act", res),))]


def test_lean_and_z3_agree_on_generated_entries(oracle: LeanOracle) -> None:
    rng = random.Random(7)
    asked = undecided = ranges = nested = 0
    for _ in range(40):
        tools = _tools(rng)
        lists = [[_entry(rng, ["path", "mode"]) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        preds = [p for xs in lists for e in xs for p in e.where]
        ranges += any(isinstance(p, RangePred) for p in preds)
        nested += any(len(p.path) > 1 for p in preds)
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        a, u = _grow(oracle, effects, lists, tools, "act")
        asked, undecided = asked + a, undecided + u
    print(f"arg_cover generated: 40 entry lists ({ranges} with a range, {nested} with a nested path), "
          f"{asked} compared")
    assert asked >= 100 and undecided == 0 and ranges >= 10 and nested >= 10, (asked, undecided, ranges, nested)


def _corpus_questions() -> tuple[list[tuple[tuple[tuple[Entry, ...], ...], tuple[Tool, ...], str]], int]:
    """Every corpus revision pair, each list and each action its old list names, once each; and how many
    of those the translation does not write (``Unsupported``)."""
    out = []
    unsupported = 0
    done: set[str] = set()
    for e in load_manifest():
        for old, new in ((e.base.policy.user, e.new.user), (e.base.policy.application, e.new.application)):
            lists = (tuple(old), tuple(new))
            for action in sorted({x.action for x in old}):
                key = repr((lists, e.base.policy.tools, action))
                if key in done:
                    continue
                done.add(key)
                try:
                    questions(EVERY_EFFECT, lists, [], action, e.base.policy.tools)
                except Unsupported as why:
                    unsupported += 1
                    print(f"arg_cover corpus: not sent to Lean: {why}")
                    continue
                out.append((lists, tuple(e.base.policy.tools), action))
    return out, unsupported


def test_lean_and_z3_agree_on_the_corpus_revision_pairs(oracle: LeanOracle) -> None:
    """Every corpus revision pair, each list and each action its old list names (a question asked once)."""
    asked = undecided = 0
    cases, unsupported = _corpus_questions()
    for lists, tools, action in cases:
        a, u = _grow(oracle, EVERY_EFFECT, lists, tools, action)
        asked, undecided = asked + a, undecided + u
    print(f"arg_cover corpus: {len(cases) + unsupported} questions, {asked} compared, {undecided} Z3-undecided "
          f"steps, {unsupported} not sent to Lean")
    assert asked >= 20 and undecided == 0, (asked, undecided, unsupported)


def test_listed_vectors_of_the_wrong_width_are_input_errors(oracle: LeanOracle) -> None:
    tools = [Tool("t", "op", "s", "d", frozenset({"path"}), frozenset({"path"}), (EffectDecl("act", ArgRes("path")),))]
    (_, q), = questions(EVERY_EFFECT, [[Entry(EntryKind.ALLOW, "act", GlobPat("a*"))]], [], "act", tools)
    q["listed"] = ["11"]
    with pytest.raises(OracleError) as err:
        oracle.call("arg_cover", q)
    assert err.value.kind == "input" and "listed" in err.value.message


def test_a_tool_registration_refuses_is_refused_by_lean_and_reported(oracle: LeanOracle) -> None:
    # Lean's arg_cover_policy checks the tools it is given with registration's effect check (effArgOk), so
    # its covered answer needs no hypothesis on them; a tool with an array or object resource constant,
    # which registration refuses, gets an "invalid" answer naming it, and lean_covers a ToolRefused.
    good = Tool("fine", "op", "s", "d", frozenset({"path"}), frozenset({"path"}), (EffectDecl("act", ArgRes("path")),))
    lists = [[Entry(EntryKind.ALLOW, "act", AnyRes())]]
    for const in ([1, 2], {"k": "v"}):
        bad = Tool("bad", "op", "s", "d", frozenset(), frozenset(), (EffectDecl("act", ConstRes(const)),))
        for judgment, doc in (("arg_cover_policy", policy_question(EVERY_EFFECT, lists, ["1"], "act", [good, bad])),
                              ("arg_cover_class", {**policy_question(EVERY_EFFECT, lists, ["1"], "act", [good, bad]),
                                                   "facts": []})):
            out = oracle.call(judgment, doc)
            assert out["answer"] == "invalid" and out["tool"] == "bad", (judgment, out)
            assert "bad" in out["reason"]
        with pytest.raises(ToolRefused) as err:
            lean_covers(oracle.call, EVERY_EFFECT, {"act": [((True,),)]}, lists, frozenset({"act"}), [good, bad], "drt")
        assert "tool bad" in str(err.value)
    # the same tools with a scalar constant pass the check and are covered by the one always-matching entry
    ok = Tool("bad", "op", "s", "d", frozenset(), frozenset(), (EffectDecl("act", ConstRes("x")),))
    out = oracle.call("arg_cover_policy", policy_question(EVERY_EFFECT, lists, ["1"], "act", [good, ok]))
    assert out["answer"] == "covered", out
    # an argument resource naming an argument the tool does not declare fails the same check
    undeclared = Tool("undecl", "op", "s", "d", frozenset(), frozenset(), (EffectDecl("act", ArgRes("path")),))
    out = oracle.call("arg_cover_policy", policy_question(EVERY_EFFECT, lists, ["1"], "act", [undeclared]))
    assert out["answer"] == "invalid" and out["tool"] == "undecl", out


def test_flat_listed_keeps_only_full_width_vectors() -> None:
    assert flat_listed([((True,), (False, True)), ((True,),)], 3) == ["101"]


def test_a_range_bound_that_is_not_a_number_is_an_input_error(oracle: LeanOracle) -> None:
    q = {"atoms": [[0, ["range", "1", None]]], "cond": [], "positions": [[[[0, True]]]], "listed": ["1"]}
    with pytest.raises(OracleError) as err:
        oracle.call("arg_cover", q)
    assert err.value.kind == "input" and "range bound" in err.value.message


def test_ranges_partition_the_numbers_exactly(oracle: LeanOracle) -> None:
    """Two overlapping ranges on one variable: numbers fall in four vectors (in neither, the first only, both,
    the second only), and Lean finds a number of each vector left unlisted."""
    listed = ["00", "10", "11", "01"]
    q = {"atoms": [[0, ["range", 0, 2]], [0, ["range", 1, 3.5]], [0, ["num", 0]]], "cond": [],
         "positions": [[[[0, True]]], [[[1, True]]]], "listed": listed}
    assert oracle.call("arg_cover", q)["answer"] == "covered"
    for drop in ("10", "11", "01"):
        out = oracle.call("arg_cover", {**q, "listed": [v for v in listed if v != drop]})
        assert out["answer"] == "uncovered" and out["vector"] == drop, (drop, out)
        kind, value = out["witness"][0]
        assert kind == "num" and f"{int(0 <= value <= 2)}{int(1 <= value <= 3.5)}" == drop, (drop, out)


def _dec(rng: random.Random) -> str:
    """A decimal written exactly as JSON text: mantissas near zero, up to eight decimals, so constants crowd
    together and differ in the last place."""
    m, e = rng.randint(-40, 40), rng.randint(0, 8)
    s = str(abs(m)).rjust(e + 1, "0")
    text = s if e == 0 else f"{s[:-e]}.{s[-e:]}"
    return ("-" if m < 0 else "") + text


def _holds(lit: list[object], x: Fraction | None) -> bool:
    if x is None:  # a value that is not a number meets no number literal
        return False
    if lit[0] == "num":
        return x == Fraction(str(lit[1]))
    lo, hi = lit[1], lit[2]
    return (lo is None or Fraction(str(lo)) <= x) and (hi is None or x <= Fraction(str(hi)))


def test_number_stand_ins_decide_crowded_constants_exactly(oracle: LeanOracle) -> None:
    """Equalities and ranges over crowded decimals (``argCoverNeverUnknown``: Lean's number stand-ins always
    lie where they should). The vectors some value has are computed here exactly (rationals, at every
    constant, between neighbours and beyond both ends, and at a non-number); Lean must answer covered on
    exactly those, and with each one left out, uncovered with a witness whose exact value (read from the
    answer's text, not as a float) has that vector."""
    rng = random.Random(11)
    exe = oracle_path()
    asked = 0
    for _ in range(60):
        consts = [_dec(rng) for _ in range(rng.randint(1, 5))]
        lits: list[list[object]] = []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.4:
                lits.append(["num", rng.choice(consts)])
            else:
                lo, hi = (rng.choice([*consts, None]) for _ in range(2))
                lits.append(["range", lo, hi])
        xs = sorted({Fraction(c) for c in consts})
        points: list[Fraction | None] = [None, xs[0] - 1, xs[-1] + 1, *xs,
                                         *((a + b) / 2 for a, b in pairwise(xs))]
        vectors = sorted({"".join("1" if _holds(lit, x) else "0" for lit in lits) for x in points})
        # Constants go as exact JSON text (a Python float would round the crowded decimals).
        atoms = ",".join(f'[0,["num",{lit[1]}]]' if lit[0] == "num" else
                         f'[0,["range",{lit[1] or "null"},{lit[2] or "null"}]]' for lit in lits)
        positions = json.dumps([[[[i, True]]] for i in range(len(lits))])
        text = "".join(f'{{"id":{i},"judgment":"arg_cover","input":{{"atoms":[{atoms}],"cond":[],'
                       f'"positions":{positions},"listed":{json.dumps(listed)}}}}}\n'
                       for i, listed in enumerate([vectors] + [[u for u in vectors if u != v] for v in vectors]))
        run = subprocess.run([str(exe)], input=text, capture_output=True, text=True, timeout=120, check=True)
        outs = [json.loads(line, parse_float=Fraction, parse_int=Fraction)["output"]
                for line in run.stdout.splitlines()]
        where = f"lits={lits} vectors={vectors} outs={outs}"
        assert len(outs) == len(vectors) + 1 and outs[0]["answer"] == "covered", where
        for v, out in zip(vectors, outs[1:], strict=True):
            assert out["answer"] == "uncovered" and out["vector"] == v, (v, where)
            kind, *value = out["witness"][0]
            x = value[0] if kind == "num" else None
            assert "".join("1" if _holds(lit, x) else "0" for lit in lits) == v, (v, x, where)
            asked += 1
    print(f"arg_cover crowded numbers: 60 questions, {asked} uncovered answers checked exactly")
    assert asked >= 120, asked


# Lean's own translation (``arg_cover_policy``: the question written in Lean from the entries, tools and E)
# against the Python translation (``questions``), answer for answer and clause for clause.

def _in_fragment(lists: Sequence[Sequence[Entry]], action: str) -> bool:
    """The report's reading of ``wayQA``'s fragment (``outside_entries``); ``arg_cover_policy`` writes the
    entries outside it too (``wayQR``: an array or object resource constant never matching)."""
    return not outside_entries(lists, action, ())


def _norm_value(x: object) -> object:
    """A literal's part, hashable, numbers by exact value (an array or object constant of ``["json", c]``
    included: Lean writes it back normalised)."""
    if isinstance(x, int | float) and not isinstance(x, bool):
        return Fraction(str(x))
    if isinstance(x, list):
        return ("list", tuple(_norm_value(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple(sorted((k, repr(_norm_value(v))) for k, v in x.items())))
    return x


def _norm_lit(lit: Sequence[object]) -> tuple[object, ...]:
    return tuple(_norm_value(x) for x in lit)


def _norm(names: Sequence[str], q: dict[str, object]) -> tuple[object, object]:
    """A question up to the numbering of its atoms and variables and the order of its clauses."""
    atoms = [(names[v], _norm_lit(lit)) for v, lit in q["atoms"]]  # type: ignore[attr-defined]

    def cnf(f: object) -> frozenset[frozenset[tuple[object, bool]]]:
        return frozenset(frozenset((atoms[i], s) for i, s in c) for c in f)  # type: ignore[attr-defined]
    return cnf(q["cond"]), tuple(None if p is None else cnf(p) for p in q["positions"])  # type: ignore[attr-defined]


def _translations_differ(oracle: LeanOracle, effects: EffectSet, lists: Sequence[Sequence[Entry]],
                         tools: Sequence[Tool], action: str, listed: Sequence[str]) -> str | None:
    """Where Lean's translation and Python's differ on one listed set (``None``: they agree). Lean writes
    every generated entry (its predicate constants pass the oracle's checks), so ``outside`` is a
    difference."""
    out = oracle.call("arg_cover_policy", policy_question(effects, lists, listed, action, tools))
    if out["answer"] == "outside":
        return f"outside on generated entries: {out}"
    py = questions(effects, lists, listed, action, tools)
    lean_qs = out["questions"]
    if len(py) != len(lean_qs):
        return f"{len(py)} ways in Python, {len(lean_qs)} in Lean"
    for (names, q), lq in zip(py, lean_qs, strict=True):
        if _norm(names, q) != _norm([source_name(n) for n in lq["names"]], lq):
            return f"the questions differ: python={q} lean={lq}"
    answers = [oracle.call("arg_cover", q)["answer"] for _, q in py]
    py_answer = "uncovered" if "uncovered" in answers else "covered"
    if py_answer != out["answer"]:
        return f"answers differ: python {py_answer}, lean {out['answer']}"
    if out["answer"] == "uncovered" and out["vector"] in listed:
        return f"lean's vector is listed: {out}"
    return None


def _grow_translations(oracle: LeanOracle, effects: EffectSet, lists: Sequence[Sequence[Entry]],
                       tools: Sequence[Tool], action: str) -> tuple[int, list[str]]:
    """Grow the listed set to coverage by Lean's witnesses, comparing the translations at every step."""
    listed: list[str] = []
    found: list[str] = []
    steps = 0
    for _ in range(200):
        steps += 1
        why = _translations_differ(oracle, effects, lists, tools, action, listed)
        if why is not None:
            found.append(f"action={action} lists={lists!r} tools={tools!r} listed={listed}: {why}")
            break
        out = oracle.call("arg_cover_policy", policy_question(effects, lists, listed, action, tools))
        if out["answer"] != "uncovered":
            break
        listed.append(out["vector"])
    return steps, found


def _features(lists: Sequence[Sequence[Entry]]) -> tuple[bool, bool]:
    entries = [e for xs in lists for e in xs]
    return any(e.keys is not None for e in entries), any(isinstance(e.resource, SlotPat) for e in entries)


def _has_structured_pred(lists: Sequence[Sequence[Entry]]) -> bool:
    return any(isinstance(v, list | dict) for xs in lists for e in xs for p in e.where
               for v in ((p.value,) if isinstance(p, EqPred) else p.values if isinstance(p, OneOfPred) else ()))


def test_lean_translation_agrees_with_python_on_generated_entries(oracle: LeanOracle) -> None:
    """60 generated entry lists: 45 with slot patterns and key allowlists now and then, 15 with array or
    object constants half the time (as a resource pattern, which both write as never matching, ``wayQR``;
    in a predicate, written ``["json", c]``). Lean writes every one."""
    rng = random.Random(17)
    steps = res_struct = allowlists = slots = json_inside = 0
    for i in range(60):
        tools = _tools(rng)
        lists = [[_entry(rng, ["path", "mode"], structured=i >= 45) for _ in range(rng.randint(1, 2))]
                 for _ in range(2)]
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        res_struct += not _in_fragment(lists, "act")
        k, sl = _features(lists)
        allowlists, slots = allowlists + k, slots + sl
        json_inside += _has_structured_pred(lists)
        n, found = _grow_translations(oracle, effects, lists, tools, "act")
        assert not found, found
        steps += n
    print(f"arg_cover_policy generated: 60 entry lists ({allowlists} with a key allowlist, {slots} with a slot "
          f"pattern, {json_inside} with an array or object predicate constant, {res_struct} with an array or object "
          f"resource constant), {steps} comparisons, 0 differences")
    assert steps >= 150 and res_struct >= 2 and json_inside >= 2 and allowlists >= 10 and slots >= 10, (
        steps, res_struct, json_inside, allowlists, slots)


def _res_struct_lists(n: int, seed: int) -> list[tuple[list[Tool], list[list[Entry]], EffectSet]]:
    """``n`` generated entry lists each with an entry whose resource pattern is an array or object constant
    (the other entries as ``_entry`` writes them, array or object constants half the time)."""
    rng = random.Random(seed)
    out: list[tuple[list[Tool], list[list[Entry]], EffectSet]] = []
    while len(out) < n:
        tools = _tools(rng)
        lists = [[_entry(rng, ["path", "mode"], structured=True) for _ in range(rng.randint(1, 2))]
                 for _ in range(2)]
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        if not _in_fragment(lists, "act"):
            out.append((tools, lists, effects))
    return out


def test_lean_writes_array_and_object_resource_constants_as_python_does(oracle: LeanOracle) -> None:
    """40 generated entry lists, each with an array or object resource constant: Lean writes the question
    (``wayQR``), the same as Python's clause for clause, with the same answers as the list grows."""
    steps = 0
    for tools, lists, effects in _res_struct_lists(40, 31):
        n, found = _grow_translations(oracle, effects, lists, tools, "act")
        assert not found, found
        steps += n
    print(f"arg_cover_policy with array/object resource constants: 40 entry lists, {steps} comparisons, "
          f"0 differences")
    assert steps >= 60, steps


def test_a_python_translation_matching_array_resource_constants_always_is_caught(
        oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail there: a Python translation writing an array or object resource constant's
    entry as always matching (no clause) differs from Lean's on every such list."""
    import model.revision.trusted.arg_cover as ac
    original = ac._position

    def position(q: ac._Question, e: Entry, action: str, res: int, keys: Sequence[str]) -> list[ac.Clause] | None:
        if e.action == action and isinstance(e.resource, ConstPat) and isinstance(e.resource.value, list | dict):
            return []
        return original(q, e, action, res, keys)
    monkeypatch.setattr(ac, "_position", position)
    cases = _res_struct_lists(40, 31)
    caught = sum(bool(_grow_translations(oracle, effects, lists, tools, "act")[1]) for tools, lists, effects in cases)
    print(f"arg_cover_policy against a Python translation matching array/object resource constants always: "
          f"{caught} of {len(cases)} entry lists differ")
    assert caught == len(cases), caught


def test_lean_translation_agrees_with_python_on_the_corpus_revision_pairs(oracle: LeanOracle) -> None:
    steps = outside = allowlists = slots = 0
    cases, _ = _corpus_questions()
    for lists, tools, action in cases:
        outside += not _in_fragment(lists, action)
        k, sl = _features([[e for e in xs if e.action == action] for xs in lists])
        allowlists, slots = allowlists + k, slots + sl
        n, found = _grow_translations(oracle, EVERY_EFFECT, lists, tools, action)
        assert not found, found
        steps += n
    print(f"arg_cover_policy corpus: {len(cases)} questions ({len(cases) - outside} inside the fragment, "
          f"{allowlists} with a key allowlist, {slots} with a slot pattern; {outside} outside), {steps} comparisons, "
          f"0 differences")
    assert len(cases) >= 10 and outside < len(cases) and slots >= 10, (len(cases), outside, steps, slots)


def test_a_broken_python_translation_is_caught(oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: with range bounds dropped from the Python translation, it reports a
    difference on the generated entries."""
    import model.revision.trusted.arg_cover as ac
    monkeypatch.setattr(ac, "_bound", lambda x: None)
    rng = random.Random(17)
    caught = 0
    for _ in range(40):
        tools = _tools(rng)
        lists = [[_entry(rng, ["path", "mode"], fragment=True) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        caught += bool(_grow_translations(oracle, effects, lists, tools, "act")[1])
    print(f"arg_cover_policy against a Python translation without range bounds: {caught} of 40 entry lists differ")
    assert caught >= 5, caught


def _caught_without(oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch, drop: str) -> tuple[int, int]:
    """How many of 40 generated entry lists with the feature ``drop`` names (an entry's key allowlist, or a
    slot pattern's empty-string exclusion) tell a Python translation that drops it from Lean's; and how many
    lists had it."""
    import dataclasses

    import model.revision.trusted.arg_cover as ac
    original = ac._position

    def position(q: ac._Question, e: Entry, action: str, res: int, keys: Sequence[str]) -> list[ac.Clause] | None:
        if drop == "allowlist":
            return original(q, dataclasses.replace(e, keys=None), action, res, keys)
        out = original(q, e, action, res, keys)
        empty = q.index.get(ac.canonical_str([res, ["str", ""]])) if isinstance(e.resource, SlotPat) else None
        return out if out is None or empty is None else [c for c in out if c != [(empty, False)]]
    monkeypatch.setattr(ac, "_position", position)
    rng = random.Random(23)
    caught = having = 0
    for _ in range(40):
        tools = _tools(rng)
        lists = [[_entry(rng, ["path", "mode"]) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        has = _features(lists)[0 if drop == "allowlist" else 1]
        having += has
        caught += bool(_grow_translations(oracle, EVERY_EFFECT, lists, tools, "act")[1])
    return caught, having


def test_a_python_translation_without_allowlists_is_caught(oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    caught, having = _caught_without(oracle, monkeypatch, "allowlist")
    print(f"arg_cover_policy against a Python translation without key allowlists: {caught} of 40 entry lists "
          f"differ ({having} have an allowlist)")
    assert caught >= 5 and caught <= having, (caught, having)


def test_a_python_translation_without_the_slot_empty_string_exclusion_is_caught(
        oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    caught, having = _caught_without(oracle, monkeypatch, "slot")
    print(f"arg_cover_policy against a Python translation whose slots may bind the empty string: {caught} of 40 "
          f"entry lists differ ({having} have a slot pattern)")
    assert caught >= 5 and caught <= having, (caught, having)


def test_lean_writes_an_array_resource_constant_as_never_matching(oracle: LeanOracle) -> None:
    """An entry whose resource pattern is an array constant: Lean writes the question itself (``wayQR``, the
    entry never matching), an omitted vector is still found, and a vector with that entry matching is never
    asked for."""
    tools = [Tool("t", "op", "s", "d", frozenset({"path"}), frozenset({"path"}), (EffectDecl("act", ArgRes("path")),))]
    lists = [[Entry(EntryKind.ALLOW, "act", GlobPat("a*")), Entry(EntryKind.ALLOW, "act", ConstPat([1]))],
             [Entry(EntryKind.ALLOW, "act", SlotPat("s"), frozenset({"path"}))]]
    names = ("old P", "new P")
    verdicts = []
    for listed in ([], ["100", "000", "101"], ["100", "000", "101", "001"]):
        written: list[Written] = []
        by_action = {"act": [_unflat(b, lists) for b in listed]}
        verdicts.append(lean_covers(oracle.call, EVERY_EFFECT, by_action, lists, frozenset({"act"}), tools, "P",
                                    written, names))
        if isinstance(verdicts[-1], Valid):
            assert [(w.by, w.judgment(), w.outside) for w in written] == [("lean", "arg_cover_policy", ())], written
    assert [type(v) for v in verdicts] == [Invalid, Invalid, Valid], verdicts


def test_lean_writes_the_null_resource_way_and_finds_its_effect_uncovered(oracle: LeanOracle) -> None:
    """A tool whose resource is the null constant: the monitor emits ``act(null)`` and ``any`` matches it, a
    string constant does not. Lean writes that way's question itself (the resource ``isNull``), so
    ``arg_cover_policy`` has two questions and, with only the vector both entries share listed, finds the
    null effect's vector missing, as Z3 does, until it is listed; ``written`` says Lean wrote it."""
    tools = [Tool("t", "op", "s", "d", frozenset(), frozenset(), (EffectDecl("act", ConstRes("a")),)),
             Tool("n", "op", "s", "d", frozenset(), frozenset(), (EffectDecl("act", ConstRes(None)),))]
    lists = [[Entry(EntryKind.ALLOW, "act", ConstPat("a")), Entry(EntryKind.ALLOW, "act", AnyRes())]]
    shared = ["11"]
    lean_alone = oracle.call("arg_cover_policy", policy_question(EVERY_EFFECT, lists, shared, "act", tools))
    assert lean_alone["answer"] == "uncovered" and lean_alone["vector"] == "01", lean_alone
    assert len(lean_alone["questions"]) == 2, lean_alone
    answers = []
    for listed in (shared, ["11", "01"]):
        by_action = {"act": [_unflat(b, lists) for b in listed]}
        written: list[Written] = []
        lean = lean_covers(oracle.call, EVERY_EFFECT, by_action, lists, frozenset({"act"}), tools, "P", written)
        z = covers(EVERY_EFFECT, by_action, lists, frozenset({"act"}), tools, "P")
        assert _answer(lean) == _answer(z), (listed, lean, z)
        if isinstance(lean, Valid):
            assert [(w.by, w.judgment()) for w in written] == [("lean", "arg_cover_policy")], written
        answers.append((_answer(lean), str(lean)))
        assert _translations_differ(oracle, EVERY_EFFECT, lists, tools, "act", listed) is None
    assert answers[0][0] == "uncovered" and "'resource': None" in answers[0][1], answers
    assert answers[1][0] == "covered", answers


def test_lean_finds_the_lost_purge_of_the_null_resource_revision(oracle: LeanOracle) -> None:
    """The revision of tests/unit/test_revision_null_resource.py loses "delete A, then purge" through the
    purge's null effect: Lean's own question (no Python fallback) finds that effect's vector missing when only
    the vector both entries share on ``"A"`` is listed, as Z3 does, and answers covered once it is listed,
    saying Lean wrote the question."""
    from tests.unit.test_revision_null_resource import NEW, OLD
    lists = [list(OLD.user), list(NEW.user)]
    olds = frozenset({"file.delete"})
    shared = {"file.delete": [((True, True), (True, True))]}
    with_null = {"file.delete": [((True, True), (True, True)), ((False, True), (True, False))]}
    for listed, want in ((shared, "uncovered"), (with_null, "covered")):
        written: list[Written] = []
        lean = lean_covers(oracle.call, EVERY_EFFECT, listed, lists, olds, OLD.tools, "P", written)
        z = covers(EVERY_EFFECT, listed, lists, olds, OLD.tools, "P")
        assert _answer(lean) == _answer(z) == want, (lean, z)
        if want == "uncovered":
            assert "'resource': None" in str(lean), lean
        else:
            assert [(w.action, w.by) for w in written] == [("file.delete", "lean")], written


def _null_tools(rng: random.Random) -> list[Tool]:
    """A generated tool whose resource is the null constant, alone or beside a generated tool of the action."""
    args = frozenset({"path", "mode", "items", "opts"})
    null = Tool("n", "op", "src", "dst", args, frozenset({"mode"}) if rng.random() < 0.5 else frozenset(),
                (EffectDecl("act", ConstRes(None)),))
    return [null] if rng.random() < 0.3 else [*_tools(rng), null]


def test_lean_translation_agrees_with_python_with_null_resource_tools(oracle: LeanOracle) -> None:
    """30 generated entry lists in the fragment (null constants among the entries' values) with a tool whose
    resource is the null constant: Lean's written question against Python's translation, clause for clause
    and answer for answer, and ``lean_covers`` with Z3 at coverage and with each listed vector dropped."""
    rng = random.Random(29)
    steps = null_pats = anys = z3_checked = 0
    for _ in range(30):
        tools = _null_tools(rng)
        lists = [[_entry(rng, ["path", "mode"]) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        entries = [e for xs in lists for e in xs]
        null_pats += any(isinstance(e.resource, ConstPat) and e.resource.value is None for e in entries)
        anys += any(isinstance(e.resource, AnyRes) for e in entries)
        n, found = _grow_translations(oracle, effects, lists, tools, "act")
        assert not found, found
        steps += n
        a, u = _grow(oracle, effects, lists, tools, "act")
        assert u == 0, (lists, tools)
        z3_checked += a
    print(f"arg_cover_policy with null-resource tools: 30 entry lists ({anys} with an any entry, {null_pats} with "
          f"a null constant entry), {steps} translation comparisons, {z3_checked} compared with Z3, 0 differences")
    assert steps >= 60 and anys >= 5 and null_pats >= 2 and z3_checked >= 60, (steps, anys, null_pats, z3_checked)


def test_a_translation_without_the_null_way_is_caught(oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """The null-resource comparison can fail: a Python translation that writes no question for the null way
    (Lean's translation before it wrote one) differs from Lean's on the generated lists."""
    import sys
    here = sys.modules[__name__]
    real = questions

    def without_null(effects: EffectSet, lists: Sequence[Sequence[Entry]], listed: Sequence[str], action: str,
                     tools: Sequence[Tool]) -> object:
        return real(effects, lists, listed, action, [t for t in tools if t.name != "n"])
    monkeypatch.setattr(here, "questions", without_null)
    rng = random.Random(29)
    caught = 0
    for _ in range(30):
        tools = _null_tools(rng)
        lists = [[_entry(rng, ["path", "mode"]) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        _, found = _grow_translations(oracle, effects, lists, tools, "act")
        caught += bool(found)
    print(f"arg_cover_policy against a Python translation without the null way: {caught} of 30 entry lists differ")
    assert caught == 30, caught


def test_the_monitor_binds_only_what_the_slot_clauses_read_as_a_bound_value() -> None:
    """The slot clauses read a bound value as a scalar other than the empty string (``slotConj``); Lean proves
    the Lean monitor binds nothing else (``runFullAddrBindings``), and the Python monitor must agree: a lookup
    answering anything else invalidates the slot, and an undeclared argument is refused before matching
    (``preparedDeclared``), so a call's keys are its tool's."""
    p = load("report")
    p = replace(p, user=tuple(replace(e, quota=None) for e in p.user),
                application=tuple(replace(e, quota=None) for e in p.application))
    seen: dict[str, bool] = {}
    for answer in ("", "x@example.org", 0, -1.5, True, False, None, [], ["x"], {"a": "b"}):
        world = ReportWorld(directory={"Alice": [answer]})
        ad = Adapter(p, world.tools(), "assistant")
        ad.call("Lookup", name="Alice")
        bound = ad.state.is_bound("target")
        reads_as_bound = isinstance(answer, str | int | float | bool) and answer != ""
        assert bound == reads_as_bound and (not bound) == ("target" in ad.state.invalid), (answer, ad.state)
        if bound:
            assert ad.state.binding("target") == answer
        seen[json.dumps(answer)] = bound
        r = ad.call("Lookup", name="Alice", extra=1)
        assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.UNDECLARED_ARGUMENT, r
    print(f"slot bound after a lookup answering: {seen}")
    assert sum(seen.values()) == 5


# Equality against array and object constants (``ALit.eqJson``): Python's translation writes it as the literal
# ``["json", c]``, which Lean's ``arg_cover`` decides over the constants and one fresh value of each kind
# (``eqJsonExact``). Z3's encoding does not take such a constant, so the reference here is the Python monitor's
# own matching (``entry_matches``) on sampled calls and on Lean's witnesses.

STRUCTURED = [[1], [1.0], {"k": 1}, {"k": 1.0}, [], {}, [[1]], {"k": [1], "m": None}]
SAMPLES = [None, True, 1, 1.0, 2.5, "a", "", [], [1], [1.0], [2], [[1]], [[1.0]], [1, 1], {}, {"k": 1},
           {"k": 1.0}, {"k": 2}, {"k": 1, "m": None}, {"m": 1}, {"k": [1], "m": None}, {"k": [1.0], "m": None}]


def _structured_entry(rng: random.Random) -> Entry:
    """An entry with one or two predicates on top-level keys, each against a structured constant half the
    time (the resource pattern scalar: an array or object one is still outside both translations' match)."""
    pick = rng.randrange(3)
    res = AnyRes() if pick == 0 else ConstPat(rng.choice(["a", 2.5])) if pick == 1 else GlobPat(rng.choice(GLOBS))
    where: list[EqPred | OneOfPred | RangePred] = []
    for _ in range(rng.randint(1, 2)):
        path = (rng.choice(["mode", "opts"]),)
        const = rng.choice(STRUCTURED) if rng.random() < 0.6 else rng.choice(VALUES)
        kind = rng.random()
        if kind < 0.5:
            where.append(EqPred(path, const))
        elif kind < 0.85:
            where.append(OneOfPred(path, (const, rng.choice(STRUCTURED + VALUES))))
        else:
            where.append(RangePred(path, rng.choice([None, 0, 1]), rng.choice([None, 1, 3])))
    return Entry(EntryKind.ALLOW, "act", res, None, tuple(where))


def _vectors(lists: Sequence[Sequence[Entry]], tool: Tool, args: dict[str, object],
             effects: EffectSet) -> set[str]:
    """The Python monitor's match vectors (one bit per position) of the call's effects of ``act`` in ``E``."""
    state = initial_state(0, 0)
    made = call_effects(tool, args)  # type: ignore[arg-type]
    if isinstance(made, str):
        return set()
    resources = effects.resources("act")
    return {"".join("1" if entry_matches(e, eff, args, state) else "0"  # type: ignore[arg-type]
                    for xs in lists for e in xs)
            for eff in made if eff.action == "act" and (resources is None or eff.resource in resources)}


def _sample_args(rng: random.Random, tool: Tool) -> dict[str, object]:
    args: dict[str, object] = {}
    for k in sorted(tool.args):
        if k in tool.required or rng.random() < 0.7:
            args[k] = rng.choice(SAMPLES)
    if "path" in args and rng.random() < 0.8:
        args["path"] = rng.choice(["a", "ab", 2.5])
    if "items" in args and rng.random() < 0.8:
        args["items"] = [rng.choice(["a", "ab", 2.5])]
    return args


def _witness_vector_matched(lists: Sequence[Sequence[Entry]], tool: Tool, effects: EffectSet, names: Sequence[str],
                            out: dict[str, object]) -> None:
    """The call Lean's ``uncovered`` witness stands for has the witness's vector among the Python monitor's."""
    w = witness_effect("act", names, out["witness"])
    args = dict(w["args"])  # type: ignore[arg-type]
    if isinstance(tool.effects[0].resource, ListArgRes):
        args["items"] = [w["resource"]]  # the list variable is read by kind only
    vs = _vectors(lists, tool, args, effects)
    assert out["vector"] in vs, (lists, tool, w, out, vs)


def _sampled_calls_listed(rng: random.Random, lists: Sequence[Sequence[Entry]], tool: Tool, effects: EffectSet,
                          listed: list[str]) -> int:
    """Once Lean answers covered, the monitor's vector of every one of 300 sampled calls is listed; how many of
    them matched at least one position."""
    sampled = 0
    for _ in range(300):
        vs = _vectors(lists, tool, _sample_args(rng, tool), effects)
        sampled += bool(vs)
        assert vs <= set(listed), (lists, tool, vs, listed)
    return sampled


def test_lean_decides_array_and_object_constants_as_the_monitor_matches(oracle: LeanOracle) -> None:
    """Entry lists with equality and one-of predicates against array and object constants: Python's questions
    (``["json", c]`` literals) grown to coverage by Lean's witnesses; every witness's vector is the Python
    monitor's on the call it stands for, and once Lean answers covered, every vector of 300 sampled calls
    (values equal to the constants up to number spelling, and near them) is listed."""
    rng = random.Random(29)
    witnesses = sampled = structured = 0
    for _ in range(30):
        tool = _tools(rng)[0]
        lists = [[_structured_entry(rng) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        structured += _has_structured_pred(lists)
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        listed: list[str] = []
        for _ in range(200):
            found = []
            for names, q in questions(effects, lists, listed, "act", [tool]):
                out = oracle.call("arg_cover", q)
                assert out["answer"] in ("covered", "uncovered"), out
                if out["answer"] == "uncovered":
                    _witness_vector_matched(lists, tool, effects, names, out)
                    found.append(out["vector"])
                    witnesses += 1
            if not found:
                break
            listed += [v for v in found if v not in listed]
        else:
            pytest.fail(f"no coverage after 200 vectors: {lists!r}")
        sampled += _sampled_calls_listed(rng, lists, tool, effects, listed)
    print(f"arg_cover with array/object constants: 30 entry lists ({structured} with such a constant), "
          f"{witnesses} witnesses matched by the monitor, {sampled} sampled calls' vectors listed")
    assert structured >= 20 and witnesses >= 60 and sampled >= 3000, (structured, witnesses, sampled)


def test_lean_written_array_resource_constants_match_as_the_monitor_does(oracle: LeanOracle) -> None:
    """Entry lists each with an entry whose resource pattern is an array or object constant (no slot pattern or
    key allowlist, which the Python monitor reads from a state): Lean's own question (``wayQR``, that entry
    never matching) grown to coverage by its witnesses; every witness's vector is the Python monitor's on the
    call it stands for, and once Lean answers covered, every vector of 300 sampled calls is listed."""
    rng = random.Random(37)
    witnesses = sampled = lists_done = 0
    while lists_done < 20:
        tool = _tools(rng)[0]
        lists = [[_entry(rng, ["path", "mode"], fragment=True, structured=True) for _ in range(rng.randint(1, 2))]
                 for _ in range(2)]
        if _in_fragment(lists, "act"):
            continue
        lists_done += 1
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        listed: list[str] = []
        for _ in range(200):
            out = oracle.call("arg_cover_policy", policy_question(effects, lists, listed, "act", [tool]))
            assert out["answer"] in ("covered", "uncovered"), out
            if out["answer"] == "covered":
                break
            _witness_vector_matched(lists, tool, effects, [source_name(n) for n in out["names"]], out)
            listed.append(out["vector"])
            witnesses += 1
        else:
            pytest.fail(f"no coverage after 200 vectors: {lists!r}")
        sampled += _sampled_calls_listed(rng, lists, tool, effects, listed)
    print(f"arg_cover_policy with array/object resource constants against the monitor: 20 entry lists, "
          f"{witnesses} witnesses matched by the monitor, {sampled} sampled calls' vectors listed")
    assert witnesses >= 40 and sampled >= 2000, (witnesses, sampled)


def _read_by_kind_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's translation reading an array or object predicate constant by its kind only (``arr``/``obj``)."""
    import model.revision.trusted.arg_cover as ac
    original = ac._pred_lit

    def kind_only(value: object) -> list[object]:
        if isinstance(value, list | dict):
            return ["arr"] if isinstance(value, list) else ["obj"]
        return original(value)  # type: ignore[arg-type]
    monkeypatch.setattr(ac, "_pred_lit", kind_only)


def test_a_kind_only_reading_of_array_and_object_constants_is_caught(oracle: LeanOracle,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above can fail: with an array or object constant read by its kind only (the literal
    ``arr`` or ``obj``), some witness's vector is not the monitor's."""
    _read_by_kind_only(monkeypatch)
    with pytest.raises(AssertionError):
        test_lean_decides_array_and_object_constants_as_the_monitor_matches(oracle)


def _structured_lists(n: int) -> list[tuple[Tool, list[list[Entry]], EffectSet]]:
    """The entry lists, tools and ``E`` of the test above (the same seed and draws)."""
    rng = random.Random(29)
    cases = []
    for _ in range(n):
        tool = _tools(rng)[0]
        lists = [[_structured_entry(rng) for _ in range(rng.randint(1, 2))] for _ in range(2)]
        effects = EVERY_EFFECT if rng.random() < 0.7 else EffectSet((EffectClass("act", "ab"), EffectClass("act", 2.5)))
        cases.append((tool, lists, effects))
    return cases


def test_lean_writes_array_and_object_predicate_constants_as_python_does(oracle: LeanOracle) -> None:
    """Lean's own translation (``wayQA``: an equality or one-of predicate's array or object constant as
    ``["json", c]``) against Python's, clause for clause and answer for answer, the listed set grown by Lean's
    witnesses, on the 30 entry lists above."""
    steps = structured = 0
    for tool, lists, effects in _structured_lists(30):
        assert _in_fragment(lists, "act"), lists
        structured += _has_structured_pred(lists)
        n, found = _grow_translations(oracle, effects, lists, [tool], "act")
        assert not found, found
        steps += n
    print(f"arg_cover_policy with array/object predicate constants: 30 entry lists ({structured} with such a "
          f"constant), {steps} comparisons, 0 differences")
    assert structured >= 20 and steps >= 60, (structured, steps)


def test_a_kind_only_python_translation_differs_from_lean(oracle: LeanOracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above can fail: Python reading such a constant by its kind only differs from Lean."""
    _read_by_kind_only(monkeypatch)
    differ = sum(bool(_grow_translations(oracle, effects, lists, [tool], "act")[1])
                 for tool, lists, effects in _structured_lists(30))
    print(f"a kind-only Python translation differs from Lean's on {differ} of 30 entry lists")
    assert differ >= 10, differ
