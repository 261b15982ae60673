"""A tool whose effect resource is the null constant (Agenra Sections 5 and 7.1): the monitor emits that effect
(``call_effects``) and an ``any`` entry matches it while a string constant does not, so the certificate
checker's questions (agreement, coverage) must count it. The revision swaps ``allow file.delete("A")`` and
``allow file.delete(*)``: on the effect ``file.delete("A")`` both entries match, so every scalar effect keeps
its match vector, but "delete A, then purge" is lost (A takes the ``*`` grant first-fit, and the purge's
null effect then finds no grant). The checker must refuse every certificate for it."""

from __future__ import annotations

from model.monitor.adapter.shell import Adapter, Refusal
from model.monitor.language.policy import AnyRes, ConstPat, Entry, EntryKind, Policy
from model.monitor.language.syntax import parse_policy
from model.revision.certify.check_verdict import Invalid, Valid
from model.revision.effects import EVERY_EFFECT, EffectClass, EffectSet
from model.revision.explore.workload import workload_from_json
from model.revision.report import NotPreserved
from model.revision.revise import revise
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
