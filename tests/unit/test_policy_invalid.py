"""Malformed policies, text and JSON: each raises InvalidInput of the right kind at the right place.

Text cases mutate one valid policy (``BASE``) and name the expected location by a snippet of the
mutated text: the error must point at the line and column where that snippet starts.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from model.base.errors import InputKind, InvalidInput
from model.monitor.language.policy_json import policy_from_json, policy_from_json_text, policy_to_json
from model.monitor.language.syntax import load_policy, parse_policy

BASE = """policy p
levels Low < High
categories pii
requirement review
node src: source (High, {pii}, trusted)
node mem: memory (Low, {}, trusted)
node out: sink (Low, {}, trusted)
edge Read: src -> mem inherit
edge Send: mem -> out transform {remove: {pii}}
agent bot {operations: {Read, Send}, ceiling: High}
tool Read {endpoints: src -> mem, effects: [doc.read("r")]}
tool Lookup {operation: Read, endpoints: src -> mem, args: {name}, required: {name},
             effects: [dir.lookup(name)], authoritative: {addr}}
tool Send {endpoints: mem -> out, args: {body, to}, required: {body, to}, effects: [msg.send(to)]}
resolve target: Lookup(name: "Alice") -> addr
origin body_src {via: Send argument: body producer: Read}
flow allow * -> mem
flow allow Send -> out when sensitivity <= Low
history reviewed {scope: session, after: Read, require: Send, before: Send}
user {
  allow doc.read(*) quota unlimited
  allow msg.send(@target) where size in 0..10 quota 1 requires review
}
application {
  allow doc.read(*) quota unlimited
  allow msg.send(*) quota 1
}
"""

S, R, V = InputKind.SYNTAX, InputKind.REFERENCE, InputKind.VALUE

# (id, replace this, by this, kind, the error points where this snippet starts; "END" = end of text)
TEXT_CASES: list[tuple[str, str, str, InputKind, str]] = [
    ("no-header", "policy p\n", "", S, "levels Low"),
    ("unclosed-label", "node out: sink (Low, {}, trusted)", "node out: sink (Low, {}, trusted", S, "edge Read: src"),
    ("stray-character", "edge Read: src -> mem inherit", "edge Read: src -> mem $ inherit", S, "$"),
    ("keyword-runs-into-name", "categories pii", "categoriespii", S, "categoriespii"),
    ("bad-string-escape", 'doc.read("r")', 'doc.read("\\q")', S, '"\\q'),
    ("tool-without-effects", 'tool Read {endpoints: src -> mem, effects: [doc.read("r")]}',
     "tool Read {endpoints: src -> mem}", S, "tool Read"),
    ("field-twice", "args: {body, to}, required", "args: {body, to}, args: {to}, required", S, "args: {to}"),
    ("deny-with-quota", "allow msg.send(*) quota 1", "deny msg.send(*) quota 1", S, "quota 1\n}"),
    ("range-without-bounds", "size in 0..10", "size in ..", S, "size in .."),
    ("levels-twice", "categories pii\n", "categories pii\nlevels A\n", S, "levels A"),
    ("no-levels", "levels Low < High\n", "", S, "policy p"),
    ("unclosed-list", "  allow msg.send(*) quota 1\n}\n", "  allow msg.send(*) quota 1\n", S, "END"),
    ("undeclared-node", "edge Read: src -> mem inherit", "edge Read: src -> disk inherit", R, "edge Read"),
    ("tool-endpoints-not-of-edge", "tool Read {endpoints: src -> mem", "tool Read {endpoints: mem -> out", R,
     "tool Read"),
    ("required-not-an-arg", "required: {body, to}", "required: {body, to, cc}", R, "tool Send"),
    ("effect-on-undeclared-list-arg", "effects: [msg.send(to)]", "effects: [msg.send(tos[*])]", R, "msg.send(tos"),
    ("empty-effects", "effects: [msg.send(to)]", "effects: []", V, "tool Send"),
    ("slot-without-resolver", "msg.send(@target) where", "msg.send(@nobody) where", R, "allow msg.send(@nobody"),
    ("resolver-path-not-authoritative", "-> addr", "-> address", R, "resolve target"),
    ("resolver-arg-not-declared", 'Lookup(name: "Alice")', 'Lookup(name: "Alice", n: 1)', R, "resolve target"),
    ("resolver-misses-required-arg", 'Lookup(name: "Alice")', "Lookup()", R, "resolve target"),
    ("origin-argument-not-of-via", "argument: body", "argument: subject", R, "origin body_src"),
    ("undeclared-level", "node mem: memory (Low,", "node mem: memory (Medium,", R, "node mem"),
    ("undeclared-category", "transform {remove: {pii}}", "transform {remove: {phi}}", R, "edge Send"),
    ("undeclared-requirement", "requires review", "requires approval", R, "allow msg.send(@target)"),
    ("undeclared-history-op", "require: Send,", "require: Review,", R, "history reviewed"),
    ("undeclared-agent-operation", "{operations: {Read, Send}", "{operations: {Read, Mail}", R, "agent bot"),
    ("undeclared-flow-destination", "flow allow * -> mem", "flow allow * -> disk", R, "flow allow * -> disk"),
    ("range-low-above-high", "size in 0..10", "size in 10..0", V, "allow msg.send(@target)"),
    ("duplicate-node", "node out: sink", "node mem: sink", R, "node mem: sink"),
    ("reserved-word-as-name", "node out: sink (Low, {}, trusted)", "node out: sink (Low, {}, trusted)\n"
     "node user: sink (Low, {}, trusted)", V, "node user"),
    ("repeated-set-member", "args: {body, to}", "args: {body, to, body}", V, "body}"),
    ("negative-quota", "unlimited\n  allow msg.send(@", "-1\n  allow msg.send(@", V, "-1"),
    ("float-overflow", 'doc.read("r")', "doc.read(1e999)", V, "1e999"),
    ("requirement-twice", "requirement review\n", "requirement review\nrequirement review\n", R,
     "requirement review\nnode"),
]


def _where(text: str, snippet: str) -> tuple[int, int]:
    index = len(text) if snippet == "END" else text.index(snippet)
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def test_base_policy_is_valid() -> None:
    assert parse_policy(BASE).name == "p"


@pytest.mark.parametrize(("old", "new", "kind", "at"), [c[1:] for c in TEXT_CASES], ids=[c[0] for c in TEXT_CASES])
def test_malformed_text(old: str, new: str, kind: InputKind, at: str) -> None:
    assert BASE.count(old) == 1, "the mutation must be unambiguous"
    text = BASE.replace(old, new)
    if at == "END":
        text = text.rstrip("\n")
    with pytest.raises(InvalidInput) as info:
        parse_policy(text, source="bad.policy")
    err = info.value
    assert err.kind is kind, str(err)
    assert (err.location.source, err.location.line, err.location.column) == ("bad.policy", *_where(text, at)), str(err)
    assert err.expected


def test_syntax_errors_name_the_expected_tokens_in_words() -> None:
    with pytest.raises(InvalidInput) as info:
        parse_policy(BASE.replace("flow allow * -> mem", "flow allow * mem"))
    assert "'->'" in info.value.expected and "found 'mem'" in str(info.value)
    with pytest.raises(InvalidInput) as info:
        parse_policy("policy")
    assert info.value.expected == "a name" and (info.value.location.line, info.value.location.column) == (1, 7)


@pytest.mark.parametrize("data", [b"", b"   \n# only a comment\n", b"\xff\xfepolicy", b"policy p levels \x00"])
def test_empty_binary_and_control_input(data: bytes) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_policy(data, source="blob")
    assert info.value.location.source == "blob"
    assert info.value.kind in ({InputKind.IO} if data.startswith(b"\xff") else {InputKind.SYNTAX})


def test_unreadable_file(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.policy", tmp_path):
        with pytest.raises(InvalidInput) as info:
            load_policy(path)
        assert info.value.kind is InputKind.IO and info.value.location.source == str(path)


# --- JSON form ------------------------------------------------------------------------------

REPORT = Path(__file__).resolve().parents[2] / "corpus" / "policies" / "report.policy"


def _set(path: tuple[str | int, ...], value: Any) -> Callable[[Any], None]:
    def mutate(doc: Any) -> None:
        for p in path[:-1]:
            doc = doc[p]
        doc[path[-1]] = value
    return mutate


def _drop(key: str) -> Callable[[Any], None]:
    return lambda doc: doc.pop(key)


JSON_CASES: list[tuple[str, Callable[[Any], None], InputKind, str]] = [
    ("missing-name", _drop("name"), InputKind.SCHEMA, "$"),
    ("bad-resource-kind", _set(("tools", 2, "effects", 0, "resource", "kind"), "nope"), InputKind.SCHEMA,
     "$.tools[2].effects[0].resource.kind"),
    ("negative-quota", _set(("user", 1, "quota"), -1), InputKind.SCHEMA, "$.user[1].quota"),
    ("deny-with-quota", _set(("user", 1, "kind"), "deny"), InputKind.SCHEMA, "$.user[1]"),
    ("name-not-identifier", _set(("nodes", 0, "name"), "1x"), InputKind.SCHEMA, "$.nodes[0].name"),
    ("empty-levels", _set(("levels",), []), InputKind.SCHEMA, "$.levels"),
    ("resolver-tool-undeclared", _set(("resolvers", 0, "tool"), "Fetch"), InputKind.REFERENCE,
     "$.resolvers[0].tool"),
    ("edge-endpoint-undeclared", _set(("edges", 1, "endpoints", 0, 0), "outbox"), InputKind.REFERENCE,
     "$.edges[1].endpoints[0]"),
    ("reserved-name", _set(("nodes", 1, "name"), "application"), InputKind.VALUE, "$.nodes[1]"),
    ("range-low-above-high", _set(("user", 0, "where"), [{"kind": "range", "path": ["n"], "low": 3, "high": 1}]),
     InputKind.VALUE, "$.user[0].where[0]"),
    ("slot-without-resolver", _set(("application", 4, "resource", "slot"), "nobody"), InputKind.REFERENCE,
     "$.application[4].resource"),
    # refused before the schema, as the text reader refuses its escape: not a name error
    ("lone-surrogate", _set(("nodes", 0, "name"), "n\udc00"), InputKind.VALUE, "$.nodes[0].name"),
]


@pytest.mark.parametrize(("mutate", "kind", "path"), [c[1:] for c in JSON_CASES], ids=[c[0] for c in JSON_CASES])
def test_malformed_json(mutate: Callable[[Any], None], kind: InputKind, path: str) -> None:
    doc = copy.deepcopy(policy_to_json(load_policy(REPORT)))
    mutate(doc)
    with pytest.raises(InvalidInput) as info:
        policy_from_json(doc, source="bad.json")
    assert info.value.kind is kind, str(info.value)
    assert (info.value.location.source, info.value.location.json_path) == ("bad.json", path), str(info.value)


@pytest.mark.parametrize(("text", "found", "where"), [
    ('{"name": "a", "name": "b", "levels": ["L"]}', "key 'name' twice", "$"),
    ('{"name": "a", "levels": ["L"], "nodes": [{"name": "n", "kind": "sink", "name": "m"}]}', "key 'name' twice",
     "$.nodes[0]"),
    ('{"name": "a", "levels": ["L"], "user": [{"kind": "allow", "action": "a", "resource": {"kind": "const", '
     '"value": NaN}}]}', "NaN", None),
    ('{"name": "a",\n  "levels": ["L"]', "delimiter", (2, 18)),
    ("", "empty input", (1, 1)),
])
def test_malformed_json_text(text: str, found: str, where: tuple[int, int] | str | None) -> None:
    with pytest.raises(InvalidInput) as info:
        policy_from_json_text(text, source="t.json")
    err = info.value
    assert err.kind is InputKind.SYNTAX and found in (err.found or "")
    assert err.location.source == "t.json"
    if isinstance(where, str):
        assert err.location.json_path == where
    elif where is not None:
        assert (err.location.line, err.location.column) == where


def test_json_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(b'{"name": "\xff"}')
    with pytest.raises(InvalidInput) as info:
        load_policy(path)
    assert info.value.kind is InputKind.IO


def test_json_text_errors_do_not_leak_other_exceptions() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InvalidInput):
        policy_from_json_text(deep)
    with pytest.raises(InvalidInput):
        policy_from_json_text(json.dumps({"name": "a", "levels": ["L"], "extra": 1}))
