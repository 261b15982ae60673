"""Reading the tokens of a policy's parse tree (*Agenra: A Language and Verified Core for Stateful LLM
Agent Authorization*, Sections 4–5; our copy lacks the grammar figure, so ``policy.lark`` is ours):
positions keyed by the JSON-form path of each part, numbers kept exact or refused, strings without
unpaired surrogates, name sets without repeats, and a declaration's fields each given once. The
declarations themselves are built in ``syntax_tree.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from lark import Token

from model.base.canonical import JSON
from model.base.errors import InputKind, InvalidInput, Location
from model.base.json_exact import exact_number, lone_surrogate, number_problem
from model.base.jsonio import printable

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
