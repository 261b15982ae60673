"""From the lark parse tree of ``policy.lark`` to a ``Policy`` plus the source position of each part.

Positions are keyed by the JSON-form path of the part (``("tools", 2)``, ``("user", 0)``,
``("tools", 2, "effects", 1)``), so ``model.monitor.language.validate`` reports a text policy's error at
the declaration's ``line:col`` and a JSON policy's at the same path. Checks that need only one
declaration's text (repeated or missing fields, repeated set members, numbers out of range) are
made here; everything that relates declarations to each other is left to ``validate``.

Reading the tokens comes first in this module (*Agenra: A Language and Verified Core for Stateful LLM Agent
Authorization*, Sections 4–5; our copy lacks the grammar figure, so ``policy.lark`` is ours): positions
keyed by the JSON-form path of each part, numbers kept exact or refused, strings without unpaired
surrogates, name sets without repeats, and a declaration's fields each given once; the declarations are
built from them after.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from lark import Token, Tree

from model.base.canonical import JSON
from model.base.errors import InputKind, InvalidInput, Location
from model.base.json_exact import exact_number, lone_surrogate, number_problem
from model.base.jsonio import printable
from model.monitor.language import policy as P
from model.monitor.language.labels import Inherit, Label, Levels, Propagation, Transform

PathKey = tuple[str | int, ...]
ParseNode = Any  # a lark Tree or Token; its shape is fixed by policy.lark


class Pos(NamedTuple):
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class Positions:
    """Where each part of a parsed policy came from; ``locate`` finds the nearest recorded part."""

    source: str
    at: Mapping[PathKey, Pos]

    def locate(self, path: PathKey) -> Location:
        for k in range(len(path), -1, -1):
            hit = self.at.get(path[:k])
            if hit is not None:
                return Location(self.source, hit[0], hit[1])
        return Location(self.source)


def token(node: ParseNode) -> Token:
    assert isinstance(node, Token)
    return node


def pos_of(node: ParseNode) -> Pos:
    if isinstance(node, Token):
        return Pos(node.line or 1, node.column or 1)
    meta = node.meta
    return Pos(getattr(meta, "line", 1), getattr(meta, "column", 1))


class Reader:
    """The lexical reading every declaration shares: tokens, numbers, strings, name sets and fields."""

    def __init__(self, source: str) -> None:
        self.source = source

    def err(self, pos: Pos, expected: str, found: str | None = None,
            kind: InputKind = InputKind.SYNTAX) -> InvalidInput:
        return InvalidInput(Location(self.source, pos.line, pos.col), expected, found, kind)

    # --- leaves ------------------------------------------------------------------------------

    def number(self, tok: Token) -> int | float:
        # The JSON boundary's rule (model.base.jsonio): a number is kept exactly or refused, never rounded.
        text = str(tok)
        bad = number_problem(text)
        if bad is not None:
            raise self.err(pos_of(tok), bad[0], bad[1], InputKind.VALUE)
        return exact_number(text)

    def string(self, tok: ParseNode) -> str:
        value: str = json.loads(str(tok))  # the STRING terminal is JSON string syntax
        if lone_surrogate(value) is not None:
            raise self.err(pos_of(tok), "a string of Unicode characters (an unpaired surrogate cannot be encoded "
                           "as UTF-8)", printable(str(tok))[:60], InputKind.VALUE)
        return value

    def count(self, tok: Token, what: str) -> int:
        value = self.number(tok)
        if not isinstance(value, int) or value < 0:
            raise self.err(pos_of(tok), f"a non-negative integer {what}", str(tok), InputKind.VALUE)
        return value

    def scalar(self, node: ParseNode) -> JSON:
        kind = node.data
        if kind == "s_string":
            return self.string(node.children[0])
        if kind == "s_number":
            tok = node.children[0]
            assert isinstance(tok, Token)
            return self.number(tok)
        return {"s_true": True, "s_false": False, "s_null": None}[str(kind)]

    @staticmethod
    def names(children: Sequence[Any]) -> list[str]:
        return [str(c) for c in children if c is not None]

    def name_set(self, node: ParseNode) -> frozenset[str]:
        seen: set[str] = set()
        for c in node.children:
            if c is None:
                continue
            if str(c) in seen:
                raise self.err(pos_of(c), "distinct members in a set", repr(str(c)), InputKind.VALUE)
            seen.add(str(c))
        return frozenset(seen)

    @staticmethod
    def dotted(node: ParseNode) -> str:
        return ".".join(str(c) for c in node.children)

    @staticmethod
    def trust(node: ParseNode) -> bool:
        return bool(node.data == "trusted")

    # --- field blocks ------------------------------------------------------------------------

    def fields(self, nodes: Sequence[Any], what: str, required: Sequence[str], at: Pos,
               read: Callable[[ParseNode], tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for n in nodes:
            if n is None:
                continue
            key, value = read(n)
            if key in out:
                raise self.err(pos_of(n), f"each field of {what} at most once", f"a second '{key}:'")
            out[key] = value
        for key in required:
            if key not in out:
                raise self.err(at, f"the field '{key}:' in {what}", None)
        return out


class _Builder(Reader):
    def transform(self, node: ParseNode) -> Propagation:
        if node.data == "inherit":
            return Inherit()

        def read(f: ParseNode) -> tuple[str, Any]:
            if f.data == "tf_remove":
                return "remove", self.name_set(f.children[0])
            if f.data == "tf_decrement":
                return "decrement", self.count(f.children[0], "decrement")
            sets = self.fields(f.children, "set", (), pos_of(f), lambda s: (
                ("sensitivity", str(s.children[0])) if s.data == "set_sensitivity"
                else ("trust", self.trust(s.children[0]))))
            return "set", sets

        got = self.fields(node.children, "transform", (), pos_of(node), read)
        sets = got.get("set", {})
        return Transform(got.get("remove", frozenset()), got.get("decrement", 0),
                         sets.get("sensitivity"), sets.get("trust"))

    # --- declarations ------------------------------------------------------------------------

    def node_decl(self, d: ParseNode) -> P.Node:
        name, kind, label = d.children
        assert isinstance(kind, Tree) and isinstance(label, Tree)
        sens, cats, trust = label.children
        node_kind = {"kind_source": P.NodeKind.SOURCE, "kind_memory": P.NodeKind.MEMORY}.get(
            str(kind.data), P.NodeKind.SINK)
        return P.Node(str(name), node_kind, Label(str(sens), self.name_set(cats), self.trust(trust)))

    def edge_decl(self, d: ParseNode) -> P.Edge:
        name, *rest = d.children
        eps = tuple((str(e.children[0]), str(e.children[1])) for e in rest[:-1])
        return P.Edge(str(name), eps, self.transform(rest[-1]))

    def agent_decl(self, d: ParseNode) -> P.Agent:
        got = self.fields(d.children[1:], f"agent {d.children[0]}", ("operations", "ceiling"), pos_of(d),
                          lambda f: ("operations", self.name_set(f.children[0])) if f.data == "ag_operations"
                          else ("ceiling", str(f.children[0])))
        return P.Agent(str(d.children[0]), got["operations"], got["ceiling"])

    def effect(self, e: ParseNode) -> P.EffectDecl:
        action, ref = e.children
        assert isinstance(action, Tree) and isinstance(ref, Tree)
        res: P.ResourceRef
        if ref.data == "r_const":
            res = P.ConstRes(self.scalar(ref.children[0]))
        elif ref.data == "r_arg":
            res = P.ArgRes(str(ref.children[0]))
        else:
            res = P.ListArgRes(str(ref.children[0]))
        return P.EffectDecl(self.dotted(action), res)

    def tool_decl(self, d: ParseNode, sub: dict[PathKey, Pos]) -> P.Tool:
        name = str(d.children[0])

        def read(f: ParseNode) -> tuple[str, Any]:
            kind = str(f.data)[2:]
            if kind == "operation":
                return kind, str(f.children[0])
            if kind == "endpoints":
                ep = f.children[0]
                return kind, (str(ep.children[0]), str(ep.children[1]))
            if kind == "effects":
                effects = [e for e in f.children if e is not None]
                for i, e in enumerate(effects):
                    sub[("effects", i)] = pos_of(e)
                return kind, tuple(self.effect(e) for e in effects)
            if kind == "authoritative":
                paths = [self.dotted(p) for p in f.children if p is not None]
                if len(set(paths)) != len(paths):
                    raise self.err(pos_of(f), "distinct members in a set", "a repeated path", InputKind.VALUE)
                return kind, frozenset(paths)
            return kind, self.name_set(f.children[0])

        got = self.fields(d.children[1:], f"tool {name}", ("endpoints", "effects"), pos_of(d), read)
        src, dst = got["endpoints"]
        return P.Tool(name, got.get("operation", name), src, dst, got.get("args", frozenset()),
                      got.get("required", frozenset()), got["effects"], got.get("authoritative", frozenset()))

    def resolve_decl(self, d: ParseNode) -> P.Resolver:
        slot, tool, *rest = d.children
        args: dict[str, JSON] = {}
        for a in rest[:-1]:
            if a is None:
                continue
            key = str(a.children[0])
            if key in args:
                raise self.err(pos_of(a), "each argument of a resolver at most once", repr(key), InputKind.VALUE)
            args[key] = self.scalar(a.children[1])
        return P.Resolver(str(slot), str(tool), tuple(sorted(args.items())), self.dotted(rest[-1]))

    def origin_decl(self, d: ParseNode) -> P.OriginRule:
        name = str(d.children[0])
        got = self.fields(d.children[1:], f"origin {name}", ("via", "argument", "producer"), pos_of(d),
                          lambda f: (str(f.data)[2:], self.name_set(f.children[0]) if f.data == "o_preserving"
                                     else str(f.children[0])))
        return P.OriginRule(name, got["via"], got["argument"], got["producer"], got.get("preserving", frozenset()))

    def flow_decl(self, d: ParseNode) -> P.FlowRule:
        eff, op, dst, *conds = d.children
        assert isinstance(eff, Tree) and isinstance(op, Tree) and isinstance(dst, Tree)
        keys = {"c_max": "max_sensitivity", "c_min": "min_sensitivity", "c_any": "any_category",
                "c_none": "no_category", "c_trusted": "trusted", "c_untrusted": "trusted"}

        def read(c: ParseNode) -> tuple[str, Any]:
            key = keys[str(c.data)]
            if key == "trusted":
                return key, c.data == "c_trusted"
            if key.endswith("category"):
                return key, self.name_set(c.children[0])
            return key, str(c.children[0])

        got = self.fields(conds, "a flow condition", (), pos_of(d), read)

        def pat(t: ParseNode) -> str:
            return "*" if t.data == "any_name" else str(t.children[0])

        effect = {"flow_allow": P.FlowEffect.ALLOW, "flow_deny": P.FlowEffect.DENY}.get(
            str(eff.data), P.FlowEffect.PAUSE)
        if dst.data == "request_dest":  # a request sink: TOOL(ARG) or TOOL(*)
            return P.FlowRule(effect, pat(op), str(dst.children[0]), P.LabelGuard(**got), pat(dst.children[1]))
        return P.FlowRule(effect, pat(op), pat(dst.children[0]), P.LabelGuard(**got))

    def audience_decl(self, d: ParseNode) -> P.Audience:
        node, *effects = d.children
        return P.Audience(str(node), tuple(P.AudienceEffect(self.dotted(e.children[0]), self.pattern(e.children[1]))
                                           for e in effects))

    def history_decl(self, d: ParseNode) -> P.HistoryRule:
        name = str(d.children[0])
        got = self.fields(d.children[1:], f"history {name}", ("scope", "after", "require", "before"), pos_of(d),
                          lambda f: (str(f.data)[2:], P.HistoryScope(str(f.children[0].data))
                                     if f.data == "h_scope" else str(f.children[0])))
        return P.HistoryRule(name, got["scope"], got["after"], got["require"], got["before"])

    # --- permission entries ------------------------------------------------------------------

    def pattern(self, p: ParseNode) -> P.ResourcePattern:
        if p.data == "p_any":
            return P.AnyRes()
        if p.data == "p_slot":
            return P.SlotPat(str(p.children[0])[1:])
        if p.data == "p_like":
            return P.GlobPat(self.string(p.children[0]))
        return P.ConstPat(self.scalar(p.children[0]))

    def predicate(self, p: ParseNode) -> P.ArgPredicate:
        path = tuple(str(c) for c in p.children[0].children)
        rest = p.children[1:]
        if p.data == "pr_eq":
            return P.EqPred(path, self.scalar(rest[0]))
        if p.data == "pr_one_of":
            return P.OneOfPred(path, tuple(self.scalar(v) for v in rest))
        low, high = (None if b is None else self.number(b) for b in rest)
        if low is None and high is None:
            raise self.err(pos_of(p), "a range with at least one bound, such as 0..10", "'..'")
        return P.RangePred(path, low, high)

    def entry(self, e: ParseNode) -> P.Entry:
        kind_t, action, pat, keys, where, quota, requires, permit = e.children
        assert isinstance(kind_t, Tree) and isinstance(action, Tree) and isinstance(pat, Tree)
        kind = P.EntryKind.ALLOW if kind_t.data == "e_allow" else P.EntryKind.DENY
        if kind is P.EntryKind.DENY:
            for clause, word in ((quota, "quota"), (requires, "requires"), (permit, "permit")):
                if clause is not None:
                    raise self.err(pos_of(clause), "a deny entry without quota, requires or permit", repr(word))
        count: int | None = 1
        if isinstance(quota, Tree):
            count = None if quota.data == "q_unlimited" else self.count(token(quota.children[0]), "quota")
        return P.Entry(
            kind, self.dotted(action), self.pattern(pat),
            keys=None if keys is None else self.name_set(keys.children[0]),
            where=() if where is None else tuple(self.predicate(p) for p in where.children),
            quota=count,
            requires=None if requires is None else str(requires.children[0]),
            permit=permit is not None,
        )

    # --- the whole policy --------------------------------------------------------------------

    def build(self, tree: ParseNode) -> tuple[P.Policy, Positions]:
        at: dict[PathKey, Pos] = {}
        lists: dict[str, list[Any]] = {k: [] for k in ("nodes", "edges", "agents", "tools", "resolvers", "origins",
                                                       "flows", "histories", "user", "application", "audiences")}
        once: dict[str, Pos] = {}
        levels: tuple[str, ...] = ()
        categories: frozenset[str] = frozenset()
        requirements: dict[str, Pos] = {}
        head = tree.children[0]
        assert isinstance(head, Tree)
        name = str(head.children[0])
        at[()] = pos_of(head)
        simple = {"node_decl": ("nodes", self.node_decl), "edge_decl": ("edges", self.edge_decl),
                  "agent_decl": ("agents", self.agent_decl), "resolve_decl": ("resolvers", self.resolve_decl),
                  "origin_decl": ("origins", self.origin_decl), "flow_decl": ("flows", self.flow_decl),
                  "history_decl": ("histories", self.history_decl),
                  "audience_decl": ("audiences", self.audience_decl)}
        for d in tree.children[1:]:
            assert isinstance(d, Tree)
            kind, pos = str(d.data), pos_of(d)
            if kind in ("levels_decl", "categories_decl", "user_decl", "application_decl"):
                word = kind.removesuffix("_decl")
                if word in once:
                    first = once[word]
                    raise self.err(pos, f"one '{word}' declaration (the first is at line {first.line})",
                                   f"a second '{word}'")
                once[word] = pos
            if kind in simple:
                key, make = simple[kind]
                at[(key, len(lists[key]))] = pos
                lists[key].append(make(d))
            elif kind == "tool_decl":
                index = len(lists["tools"])
                sub: dict[PathKey, Pos] = {}
                lists["tools"].append(self.tool_decl(d, sub))
                at[("tools", index)] = pos
                for k, p in sub.items():
                    at[("tools", index, *k)] = p
            elif kind == "levels_decl":
                levels = tuple(self.names(d.children))
                at[("levels",)] = pos
            elif kind == "categories_decl":
                categories = self.name_set(d)
                at[("categories",)] = pos
            elif kind == "requirement_decl":
                req = str(d.children[0])
                if req in requirements:
                    raise self.err(pos, f"requirement {req} declared once", "a second declaration",
                                   InputKind.REFERENCE)
                requirements[req] = pos
            else:
                side = kind.removesuffix("_decl")
                for e in d.children:
                    assert isinstance(e, Tree)
                    at[(side, len(lists[side]))] = pos_of(e)
                    lists[side].append(self.entry(e))
        if "levels" not in once:
            raise self.err(pos_of(head), "a 'levels' declaration such as 'levels Public < Confidential'", None)
        for i, req in enumerate(sorted(requirements)):
            at[("requirements", i)] = requirements[req]
        policy = P.Policy(
            name=name, levels=Levels(levels), categories=categories, nodes=tuple(lists["nodes"]),
            edges=tuple(lists["edges"]), agents=tuple(lists["agents"]), tools=tuple(lists["tools"]),
            resolvers=tuple(lists["resolvers"]), origins=tuple(lists["origins"]), flows=tuple(lists["flows"]),
            histories=tuple(lists["histories"]), requirements=frozenset(requirements), user=tuple(lists["user"]),
            application=tuple(lists["application"]), audiences=tuple(lists["audiences"]))
        return policy, Positions(self.source, at)


def build_policy(tree: ParseNode, source: str) -> tuple[P.Policy, Positions]:
    return _Builder(source).build(tree)
