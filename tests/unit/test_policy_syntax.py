"""The policy text syntax, printer and JSON form (model/monitor/language/syntax.py, printer.py, policy_json.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.base.canonical import canonical_str
from model.monitor.language import policy as P
from model.monitor.language.labels import Inherit, Label, Transform
from model.monitor.language.policy_json import policy_from_json, policy_from_json_text, policy_to_json
from model.monitor.language.syntax import load_policy, parse_policy, print_policy

POLICIES = Path(__file__).resolve().parents[2] / "corpus" / "policies"

EVERY_FORM = """
# every syntax form at least once
policy every
levels Public < Internal < Secret
categories pii, credentials
requirement manager_review
node a: source (Public, {}, trusted)
node b: sink (Secret, {pii, credentials}, untrusted)
node memory: memory (Internal, {pii}, trusted)
edge X: a -> b, a -> memory transform {remove: {pii}, decrement: 1, set: {sensitivity: Public, trust: untrusted}}
edge Review: memory -> memory transform {}
edge Read: a -> memory inherit
history reviewed {scope: lineage, after: Read, require: Review, before: X}
history anywhere {before: X, after: Read, scope: session, require: Review}
tool T {operation: X, endpoints: a -> b, args: {x, ys, quota}, required: {x},
        effects: [act.one("const"), act.two(x), act.three(ys[*]), act.n(42), act.f(-1.5e3), act.z(null)],
        authoritative: {destination, meta.addr}}
tool Lookup {authoritative: {destination} effects: [dir.lookup(name)] args: {name, n} endpoints: a -> memory
             operation: Read}
resolve target: Lookup(n: 2, name: "Al\\u0069ce") -> destination
resolve any_t: T(x: true) -> meta.addr
origin copy_body {via: T argument: x producer: Lookup preserving: {Review}}
origin commas {via: T, argument: ys, producer: X}
flow deny * -> b when category {credentials}
flow allow X -> b when sensitivity <= Public and sensitivity >= Public and no category {pii} and trusted
flow allow * -> * when untrusted
user {
  allow payment.pay(like "acct-*") keys {amount, to} where amount in 0..100 and currency == "EUR"
    and priority in {"low", "high"} and meta.kind == "x" quota 3 requires manager_review permit
  allow x.y(*) quota unlimited
  allow x.y(@target) keys {} where a in ..1.5 and b in -5..
  deny file.delete("prod") where x == true
  allow act.n(42)
}
application {
  allow act.one(false) quota 0
}
"""


def test_report_policy_fields() -> None:
    p = load_policy(POLICIES / "report.policy")
    assert p.name == "report"
    assert p.levels.order == ("Public", "Internal", "Confidential")
    assert p.categories == frozenset({"pii", "credentials"})
    assert p.node("report") == P.Node("report", P.NodeKind.SOURCE, Label("Confidential", frozenset({"pii"}), True))
    assert p.node("inbox") is not None and p.node("inbox").label.trusted is False  # type: ignore[union-attr]
    assert p.edge("Sanitize") == P.Edge("Sanitize", (("memory", "memory"),),
                                        Transform(remove=frozenset({"pii"}), set_sensitivity="Public"))
    assert p.edge("Send") == P.Edge("Send", (("memory", "mail"),), Inherit())
    assert p.agent("assistant") == P.Agent("assistant", frozenset({"Read", "Other", "Sanitize", "Lookup", "Send"}),
                                           "Confidential")
    send = p.tool("Send")
    assert send is not None and send.operation == "Send" and (send.source, send.destination) == ("memory", "mail")
    assert send.required == frozenset({"body", "recipient"})
    assert send.effects == (P.EffectDecl("message.send", P.ArgRes("recipient")),)
    assert p.tool("Lookup") is not None and p.tool("Lookup").authoritative == {"destination"}  # type: ignore[union-attr]
    assert p.resolvers == (P.Resolver("target", "Lookup", (("name", "Alice"),), "destination"),)
    assert p.origins == (P.OriginRule("report_body", "Send", "body", "Sanitize"),)
    assert p.flows[1] == P.FlowRule(P.FlowEffect.ALLOW, "*", "mail", P.LabelGuard(max_sensitivity="Public"))
    assert [e.quota for e in p.user] == [None, None, 1, 1, 1]
    assert p.user[4] == P.Entry(P.EntryKind.ALLOW, "message.send", P.SlotPat("target"),
                                keys=frozenset({"body", "recipient"}), quota=1)
    assert p.application[3].resource == P.AnyRes() and p.application[3].quota == 2


def test_delete_ab_policy_fields() -> None:
    p = load_policy(POLICIES / "delete_ab.policy")
    assert p.categories == frozenset() and p.levels.order == ("Public",)
    assert [(e.resource, e.quota) for e in p.user] == [(P.ConstPat("B"), 1), (P.ConstPat("A"), 1)]
    batch = p.tool("DeleteBatch")
    assert batch is not None and batch.operation == "Delete"
    assert batch.effects == (P.EffectDecl("file.delete", P.ListArgRes("targets")),)


def test_every_form_parses_to_the_intended_values() -> None:
    p = parse_policy(EVERY_FORM)
    assert p.edge("X") == P.Edge("X", (("a", "b"), ("a", "memory")),
                                 Transform(frozenset({"pii"}), 1, "Public", False))
    assert p.edge("Review") is not None and p.edge("Review").propagation == Transform()  # type: ignore[union-attr]
    assert p.histories[1] == P.HistoryRule("anywhere", P.HistoryScope.SESSION, "Read", "Review", "X")
    t = p.tool("T")
    assert t is not None and t.operation == "X"
    assert [e.resource for e in t.effects] == [P.ConstRes("const"), P.ArgRes("x"), P.ListArgRes("ys"),
                                               P.ConstRes(42), P.ConstRes(-1500.0), P.ConstRes(None)]
    assert isinstance(t.effects[4].resource, P.ConstRes) and isinstance(t.effects[4].resource.value, float)
    assert t.authoritative == frozenset({"destination", "meta.addr"})
    lookup = p.tool("Lookup")
    assert lookup is not None and lookup.operation == "Read" and lookup.required == frozenset()
    assert p.resolvers[0] == P.Resolver("target", "Lookup", (("n", 2), ("name", "Alice")), "destination")
    assert p.origins == (P.OriginRule("copy_body", "T", "x", "Lookup", frozenset({"Review"})),
                         P.OriginRule("commas", "T", "ys", "X"))
    assert p.flows[0].guard == P.LabelGuard(any_category=frozenset({"credentials"}))
    assert p.flows[1].guard == P.LabelGuard("Public", "Public", frozenset(), frozenset({"pii"}), True)
    assert p.flows[2] == P.FlowRule(P.FlowEffect.ALLOW, "*", "*", P.LabelGuard(trusted=False))
    pay = p.user[0]
    assert pay.resource == P.GlobPat("acct-*") and pay.keys == frozenset({"amount", "to"})
    assert pay.where == (P.RangePred(("amount",), 0, 100), P.EqPred(("currency",), "EUR"),
                         P.OneOfPred(("priority",), ("low", "high")), P.EqPred(("meta", "kind"), "x"))
    assert (pay.quota, pay.requires, pay.permit) == (3, "manager_review", True)
    assert p.user[1].quota is None
    assert p.user[2].where == (P.RangePred(("a",), None, 1.5), P.RangePred(("b",), -5, None))
    assert p.user[2].keys == frozenset() and p.user[1].keys is None
    assert p.user[3] == P.Entry(P.EntryKind.DENY, "file.delete", P.ConstPat("prod"), where=(P.EqPred(("x",), True),))
    assert p.user[4].quota == 1 and p.application[0].quota == 0
    assert p.requirements == frozenset({"manager_review"})


@pytest.mark.parametrize("name", ["report.policy", "delete_ab.policy", "every"])
def test_print_then_parse_is_identity_and_printing_is_canonical(name: str) -> None:
    p = parse_policy(EVERY_FORM) if name == "every" else load_policy(POLICIES / name)
    text = print_policy(p)
    assert parse_policy(text) == p
    assert print_policy(parse_policy(text)) == text


@pytest.mark.parametrize("name", ["report.policy", "delete_ab.policy", "every"])
def test_json_round_trip_and_text_json_agreement(name: str) -> None:
    p = parse_policy(EVERY_FORM) if name == "every" else load_policy(POLICIES / name)
    doc = policy_to_json(p)
    assert policy_from_json(doc) == p
    assert policy_from_json_text(canonical_str(doc)) == p
    assert policy_to_json(parse_policy(print_policy(p))) == doc


def test_load_policy_dispatches_on_extension(tmp_path: Path) -> None:
    p = load_policy(POLICIES / "report.policy")
    as_json = tmp_path / "r.json"
    as_json.write_text(json.dumps(policy_to_json(p)), encoding="utf-8")
    as_text = tmp_path / "r.txt"
    as_text.write_text(print_policy(p), encoding="utf-8")
    assert load_policy(as_json) == p
    assert load_policy(str(as_text)) == p


def test_comments_whitespace_and_field_order_do_not_matter() -> None:
    a = parse_policy("policy p levels L node n: sink (L, {}, trusted) edge E: n -> n inherit "
                     "tool T {endpoints: n -> n, args: {x}, effects: [a.b(x)], operation: E}")
    b = parse_policy("""policy p   # the name
        levels L
        node n: sink (L, {}, trusted)   # one node
        edge E: n -> n inherit
        tool T {operation: E args: {x} effects: [a.b(x)] endpoints: n -> n}""")
    assert a == b and a.tool("T") is not None and a.tool("T").operation == "E"  # type: ignore[union-attr]


def test_keywords_of_other_positions_are_ordinary_names() -> None:
    p = parse_policy("policy quota levels in < memory categories and, like\n"
                     "node memory: memory (memory, {like}, trusted)\n"
                     "edge allow: memory -> memory inherit\n"
                     "tool deny {operation: allow, endpoints: memory -> memory, args: {quota, where},\n"
                     "           effects: [in.like(quota), permit.x(where[*])]}\n"
                     "user { allow in.like(*) where quota == 1 and in.where in 1.. quota 1 }\n")
    assert p.name == "quota" and p.levels.order == ("in", "memory")
    assert p.node("memory") == P.Node("memory", P.NodeKind.MEMORY, Label("memory", frozenset({"like"}), True))
    deny = p.tool("deny")
    assert deny is not None and deny.effects[1].resource == P.ListArgRes("where")
    assert p.user[0].where == (P.EqPred(("quota",), 1), P.RangePred(("in", "where"), 1, None))


def test_bytes_input_is_decoded_as_utf8() -> None:
    text = 'policy p levels L user { allow a.b("Zoë ☃") quota 1 }'
    p = parse_policy(text.encode("utf-8"))
    assert p.user[0].resource == P.ConstPat("Zoë ☃")
    assert parse_policy(print_policy(p)) == p
