"""A tool whose effect resource is the null constant (Agenra Sections 5 and 7.1): the monitor emits that effect
(``call_effects``) and an ``any`` entry matches it while a string constant does not, so the certificate
checker's questions (agreement, coverage) must count it. The revision swaps ``allow file.delete("A")`` and
``allow file.delete(*)``: on the effect ``file.delete("A")`` both entries match, so every scalar effect keeps
its match vector, but "delete A, then purge" is lost (A takes the ``*`` grant first-fit, and the purge's
null effect then finds no grant). The checker must refuse every certificate for it.

The certificate proposers (``smt/z3_matching.py``, ``smt/refute.py``, ``smt/synth.py``, ``smt/support.py``) read
the null resource as the checker does, so a revision that keeps every client (swapping ``"A"`` and ``null``,
widening ``null`` to ``*``) is certified by the same certificate kind as its analogue where the purge's
resource is the string ``"B"``; and on every match vector over one entry of each pattern kind, the proposers'
encoding, ``refuted`` and ``synthesize`` agree with the checker's encoding."""

from __future__ import annotations

import itertools

import pytest
import z3

from model.base.canonical import JSON
from model.monitor.adapter.shell import Adapter, Refusal
from model.monitor.decide.matching import Effect, entry_matches
from model.monitor.decide.state import State
from model.monitor.language.policy import (
    AnyRes,
    ArgRes,
    ConstPat,
    ConstRes,
    EffectDecl,
    Entry,
    EntryKind,
    GlobPat,
    ListArgRes,
    Policy,
    SlotPat,
    Tool,
)
from model.monitor.language.syntax import parse_policy
from model.revision.certify.check_verdict import Invalid, Valid
from model.revision.effects import EVERY_EFFECT, EffectClass, EffectSet
from model.revision.explore.counterexample import Searched, lost_client
from model.revision.explore.workload import workload_from_json
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise
from model.revision.smt.refute import refuted
from model.revision.smt.synth import synthesize, well_formed
from model.revision.smt.z3_matching import Encoder, Witness
from model.revision.trusted import encoding
from model.revision.trusted.arg_cover import Written, lean_covers
from model.revision.trusted.side_conditions import agree, covers

_HEAD = """policy nullres

levels Public
categories

node agent_memory: memory (Public, {}, trusted)
node files: sink (Public, {}, trusted)

edge Delete: agent_memory -> files inherit

agent cleaner {operations: {Delete}, ceiling: Public}

tool Delete {endpoints: agent_memory -> files, args: {}, required: {}, effects: [file.delete("A")]}
"""
_PURGE = """tool Purge {operation: Delete, endpoints: agent_memory -> files, args: {}, required: {},
            effects: [file.delete(null)]}
"""
_TAIL = """
flow allow * -> files

user {
  allow file.delete(%s) quota 1
  allow file.delete(%s) quota 1
}

application {
  allow file.delete(*) quota unlimited
}
"""


def _policy(first: str, second: str, purge: bool = True) -> Policy:
    return parse_policy(_HEAD + (_PURGE if purge else "") + _TAIL % (first, second))


OLD, NEW = _policy('"A"', "*"), _policy("*", '"A"')
CONST_A = Entry(EntryKind.ALLOW, "file.delete", ConstPat("A"))
ANY = Entry(EntryKind.ALLOW, "file.delete", AnyRes())
WORKLOAD = workload_from_json({"description": "delete A, then purge", "agent": "cleaner", "forbidden": [],
                               "calls": [{"name": "delete A", "tool": "Delete", "args": {}},
                                         {"name": "purge", "tool": "Purge", "args": {}}]})


def _admitted(policy: Policy) -> list[bool]:
    adapter = Adapter(policy, {"Delete": lambda **_: {}, "Purge": lambda **_: {}}, "cleaner")
    return [not isinstance(adapter.call(tool), Refusal) for tool in ("Delete", "Purge")]


def test_the_monitor_loses_delete_a_then_purge() -> None:
    assert _admitted(OLD) == [True, True]
    assert _admitted(NEW) == [True, False]


def test_a_null_resource_makes_a_constant_and_any_disagree() -> None:
    """Without the purge tool the two entries agree on every effect; with it, the null effect tells them
    apart, and the witness is that effect."""
    assert isinstance(agree(CONST_A, ANY, EVERY_EFFECT, _policy('"A"', "*", purge=False).tools), Valid)
    verdict = agree(CONST_A, ANY, EVERY_EFFECT, OLD.tools)
    assert isinstance(verdict, Invalid) and "'resource': None" in verdict.reason, verdict
    # an effect set naming only resource "A" leaves the null effect out
    only_a = EffectSet((EffectClass("file.delete", "A"),))
    assert isinstance(agree(CONST_A, ANY, only_a, OLD.tools), Valid)


def test_coverage_counts_the_null_effect() -> None:
    lists = [list(OLD.user), list(NEW.user)]
    both = {"file.delete": [((True, True), (True, True))]}
    verdict = covers(EVERY_EFFECT, both, lists, frozenset({"file.delete"}), OLD.tools, "P")
    assert isinstance(verdict, Invalid) and "'resource': None" in verdict.reason, verdict
    with_null = {"file.delete": [((True, True), (True, True)), ((False, True), (True, False))]}
    assert isinstance(covers(EVERY_EFFECT, with_null, lists, frozenset({"file.delete"}), OLD.tools, "P"), Valid)


def test_revise_refuses_every_certificate_and_reports_the_lost_client() -> None:
    report = revise(OLD, NEW, EVERY_EFFECT, WORKLOAD, 2)
    assert isinstance(report.preservation, NotPreserved), report.preservation
    assert report.preservation.lost.names == ("delete A", "purge")


def test_lean_writes_the_question_of_a_null_way() -> None:
    """Lean's translation writes the null way's question too (the resource ``isNull``), so ``lean_covers``
    asks only ``arg_cover_policy`` here, once for the action, and ``written`` says Lean wrote it."""
    asked: list[tuple[str, object]] = []

    def call(judgment: str, question: object) -> object:
        asked.append((judgment, question))
        return {"answer": "covered"}

    written: list[Written] = []
    listed = {"file.delete": [((True, True), (True, True))]}
    lists = [list(OLD.user), list(NEW.user)]
    assert isinstance(lean_covers(call, EVERY_EFFECT, listed, lists, frozenset({"file.delete"}), OLD.tools, "P",
                                  written), Valid)
    assert [j for j, _ in asked] == ["arg_cover_policy"]
    sent = asked[0][1]
    assert isinstance(sent, dict) and "Purge" in [t["name"] for t in sent["tools"]], sent
    assert [(w.action, w.by, w.judgment()) for w in written] == [("file.delete", "lean", "arg_cover_policy")]


def _pair(first: str, second: str, purge: str) -> Policy:
    """``_policy`` with the purge's resource ``purge`` (``null`` or a string standing in for it)."""
    return parse_policy(_HEAD + _PURGE.replace("null", purge) + _TAIL % (first, second))


# revisions that keep every client, written with the purge's resource as ``{P}``
KEEPING = [(('"A"', "{P}"), ("{P}", '"A"')),  # reorder two entries no effect both match
           (('"A"', "{P}"), ('"A"', "*")),  # widen the purge's grant to every resource
           (("*", "{P}"), ("*", "*"))]


@pytest.mark.parametrize(("old", "new"), KEEPING, ids=["reorder", "widen", "widen behind any"])
def test_a_revision_that_keeps_every_client_is_certified_as_its_non_null_analogue(
        old: tuple[str, str], new: tuple[str, str]) -> None:
    kinds, checkers = [], []
    for purge in ("null", '"B"'):
        o = _pair(*(x.replace("{P}", purge) for x in old), purge=purge)
        n = _pair(*(x.replace("{P}", purge) for x in new), purge=purge)
        assert isinstance(lost_client(o, n, WORKLOAD, 3), Searched)
        report = revise(o, n, EVERY_EFFECT, WORKLOAD, 3)
        assert isinstance(report.preservation, Certified), (purge, report.preservation)
        kinds.append(type(report.preservation.evidence))
        checkers.append(report.preservation.checked_by)
    # and by the same checkers: where Lean is built, its closure and coverage checks accept both
    assert kinds[0] is kinds[1] and checkers[0] == checkers[1], (kinds, checkers)


def test_widening_the_first_grant_still_loses_the_purge() -> None:
    """``"A"`` then ``null`` widened to ``*`` then ``null``: the purge now takes ``*``'s single use first-fit, so
    delete A after it is lost; with ``"B"`` for null the same holds, and both reports name the trace."""
    for purge in ("null", '"B"'):
        report = revise(_pair('"A"', purge, purge), _pair("*", purge, purge), EVERY_EFFECT, WORKLOAD, 3)
        assert isinstance(report.preservation, NotPreserved), (purge, report.preservation)
        assert report.preservation.lost.names == ("purge", "delete A")


# one entry of each resource pattern kind, and tools reading a resource each way (a null constant among them)
PATTERNS = [AnyRes(), ConstPat(None), ConstPat("A"), GlobPat("*"), SlotPat("s")]
_NULL, _CONST_A = EffectDecl("file.delete", ConstRes(None)), EffectDecl("file.delete", ConstRes("A"))
_ARG, _LIST = EffectDecl("file.delete", ArgRes("target")), EffectDecl("file.delete", ListArgRes("targets"))
TOOL_SETS = {
    "null only": [Tool("Purge", "Delete", "m", "f", frozenset(), frozenset(), (_NULL,))],
    "null and A": [Tool("Purge", "Delete", "m", "f", frozenset(), frozenset(), (_NULL,)),
                   Tool("Del", "Delete", "m", "f", frozenset(), frozenset(), (_CONST_A,))],
    "null and argument": [Tool("Purge", "Delete", "m", "f", frozenset(), frozenset(), (_NULL, _CONST_A)),
                          Tool("Del", "Delete", "m", "f", frozenset({"target"}), frozenset({"target"}), (_ARG,))],
    "list": [Tool("Batch", "Delete", "m", "f", frozenset({"targets"}), frozenset({"targets"}), (_LIST,))],
    "argument": [Tool("Del", "Delete", "m", "f", frozenset({"target"}), frozenset({"target"}), (_ARG,))],
}


def _checker_sat(entries: list[Entry], tools: list[Tool], resources: tuple[JSON, ...] | None,
                 vector: tuple[bool, ...]) -> bool:
    call = encoding.Call("file.delete", entries, tools)
    solver = z3.Solver(ctx=encoding.CTX)
    solver.add(call.well_formed(resources))
    for e, b in zip(entries, vector, strict=True):
        matches, fails = call.literals(e)
        solver.add(matches if b else fails)
    got = solver.check()
    assert got != z3.unknown
    return bool(got == z3.sat)


@pytest.mark.parametrize("tools", list(TOOL_SETS.values()), ids=list(TOOL_SETS))
@pytest.mark.parametrize("resources", [None, ("A",)], ids=["every resource", "resource A"])
def test_the_proposers_read_a_null_resource_as_the_checker_does(tools: list[Tool],
                                                                resources: tuple[JSON, ...] | None) -> None:
    """For every match vector over ``PATTERNS``: the proposers' encoding is satisfiable exactly when the
    checker's is; ``refuted`` only says unsatisfiable when it is; a point ``synthesize`` makes is well formed
    and matches the vector by the monitor's matcher. The null effect must be a witness where it can be one."""
    entries = [Entry(EntryKind.ALLOW, "file.delete", p) for p in PATTERNS]
    enc = Encoder("file.delete", entries, tools)
    base = enc.base(resources)
    seen_null = False
    for vector in itertools.product((True, False), repeat=len(entries)):
        literals = list(zip(entries, vector, strict=True))
        solver = z3.Solver()
        solver.add(base, *[enc.matches(e) if b else enc.fails(e) for e, b in literals])
        ours = solver.check()
        assert ours != z3.unknown
        theirs = _checker_sat(entries, tools, resources, vector)
        assert (ours == z3.sat) == theirs, (vector, ours, theirs)
        if ours == z3.sat:
            w = enc.witness(solver.model())
            seen_null |= w.resource is None
            assert well_formed(w, resources, tools), w
            assert _matches(entries, w) == list(vector), (vector, w)
        if refuted("file.delete", resources, literals):
            assert not theirs, vector
        made = synthesize("file.delete", resources, tools, literals)
        if made is not None:
            assert theirs and well_formed(made, resources, tools), (vector, made)
            assert _matches(entries, made) == list(vector), (vector, made)
    null_tool = any(d.resource == ConstRes(None) for t in tools for d in t.effects)
    # the vector "any and null match, nothing else does" is only the null effect's
    assert _checker_sat(entries, tools, resources, (True, True, False, False, False)) == \
        (null_tool and resources is None)
    assert seen_null or not (null_tool and resources is None)


def _matches(entries: list[Entry], w: Witness) -> list[bool]:
    state = State(bindings=tuple((s, v, 0) for s, v in w.bindings))
    return [entry_matches(e, Effect(w.action, w.resource), w.args, state) for e in entries]


def test_synthesis_makes_the_null_effect_and_refutation_keeps_it() -> None:
    """The smallest cases by name: a null constant entry that must match gets the purge's null effect, not a
    refutation; a null and a string constant cannot both match; ``E`` never names null."""
    tools = TOOL_SETS["null and A"]
    null, const_a = Entry(EntryKind.ALLOW, "file.delete", ConstPat(None)), ENTRY_A
    made = synthesize("file.delete", None, tools, [(null, True)])
    assert made is not None and made.resource is None and made.args == {}
    assert not refuted("file.delete", None, [(null, True)])
    assert refuted("file.delete", None, [(null, True), (const_a, True)])
    assert refuted("file.delete", ("A",), [(null, True)])
    assert not well_formed(Witness("file.delete", None, {}, ()), None, TOOL_SETS["argument"])
    assert not well_formed(Witness("file.delete", None, {"targets": [None]}, ()), None, TOOL_SETS["list"])
    assert well_formed(Witness("file.delete", None, {}, ()), None, tools)


ENTRY_A = Entry(EntryKind.ALLOW, "file.delete", ConstPat("A"))
