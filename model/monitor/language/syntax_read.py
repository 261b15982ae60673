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

from model.canonical import JSON
from model.errors import InputKind, InvalidInput, Location
from model.json_exact import exact_number, lone_surrogate, number_problem
from model.jsonio import printable

PathKey = tuple[str | int, ...]
_N = Any  # a lark Tree or Token; its shape is fixed by policy.lark


class _Pos(NamedTuple):
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class Positions:
    """Where each part of a parsed policy came from; ``locate`` finds the nearest recorded part."""

    source: str
    at: Mapping[PathKey, _Pos]

    def locate(self, path: PathKey) -> Location:
        for k in range(len(path), -1, -1):
            hit = self.at.get(path[:k])
            if hit is not None:
                return Location(self.source, hit[0], hit[1])
        return Location(self.source)


def _token(node: _N) -> Token:
    assert isinstance(node, Token)
    return node


def _pos(node: _N) -> _Pos:
    if isinstance(node, Token):
        return _Pos(node.line or 1, node.column or 1)
    meta = node.meta
    return _Pos(getattr(meta, "line", 1), getattr(meta, "column", 1))


class _Reader:
    """The lexical reading every declaration shares: tokens, numbers, strings, name sets and fields."""

    def __init__(self, source: str) -> None:
        self.source = source

    def err(self, pos: _Pos, expected: str, found: str | None = None,
            kind: InputKind = InputKind.SYNTAX) -> InvalidInput:
        return InvalidInput(Location(self.source, pos.line, pos.col), expected, found, kind)

    # --- leaves ------------------------------------------------------------------------------

    def number(self, tok: Token) -> int | float:
        # The JSON boundary's rule (model.jsonio): a number is kept exactly or refused, never rounded.
        text = str(tok)
        bad = number_problem(text)
        if bad is not None:
            raise self.err(_pos(tok), bad[0], bad[1], InputKind.VALUE)
        return exact_number(text)

    def string(self, tok: _N) -> str:
        value: str = json.loads(str(tok))  # the STRING terminal is JSON string syntax
        if lone_surrogate(value) is not None:
            raise self.err(_pos(tok), "a string of Unicode characters (an unpaired surrogate cannot be encoded "
                           "as UTF-8)", printable(str(tok))[:60], InputKind.VALUE)
        return value

    def count(self, tok: Token, what: str) -> int:
        value = self.number(tok)
        if not isinstance(value, int) or value < 0:
            raise self.err(_pos(tok), f"a non-negative integer {what}", str(tok), InputKind.VALUE)
        return value

    def scalar(self, node: _N) -> JSON:
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

    def name_set(self, node: _N) -> frozenset[str]:
        seen: set[str] = set()
        for c in node.children:
            if c is None:
                continue
            if str(c) in seen:
                raise self.err(_pos(c), "distinct members in a set", repr(str(c)), InputKind.VALUE)
            seen.add(str(c))
        return frozenset(seen)

    @staticmethod
    def dotted(node: _N) -> str:
        return ".".join(str(c) for c in node.children)

    @staticmethod
    def trust(node: _N) -> bool:
        return bool(node.data == "trusted")

    # --- field blocks ------------------------------------------------------------------------

    def fields(self, nodes: Sequence[Any], what: str, required: Sequence[str], at: _Pos,
               read: Callable[[_N], tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for n in nodes:
            if n is None:
                continue
            key, value = read(n)
            if key in out:
                raise self.err(_pos(n), f"each field of {what} at most once", f"a second '{key}:'")
            out[key] = value
        for key in required:
            if key not in out:
                raise self.err(at, f"the field '{key}:' in {what}", None)
        return out
