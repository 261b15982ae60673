"""Hypothesis strategies that mutate corpus files for the boundary fuzz campaign.

Four kinds of mutation, mixed: *lexical* (one string or number literal replaced by a nasty one, in a
text policy or in JSON), *structural* (parse the seed as JSON, then replace, delete, duplicate
or retype one node, with values drawn from the nasty cases of the JSON boundary: integers past 2^53,
inexact decimals, lone surrogates, deep nesting, rich markup, control characters), *textual*
(insert a nasty token, delete or duplicate a range, flip a byte, truncate) and *splicing* (a range of
another seed). Structural mutations reach the semantic checks behind the parser; textual ones the
parsers themselves.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from hypothesis import strategies as st

NASTY_TOKENS = [
    b"9007199254740993", b"-9007199254740993", b"18446744073709551616", b"1" * 4400, b"1e400", b"-1e400", b"1e-400",
    b"0.10000000000000000001", b"NaN", b"Infinity", b"-0", b"-0.0", b'"\\ud800"', b'"\\udc00x"', b'"\\ud83d\\ude00"',
    b"\xff", b"\xef\xbb\xbf", b"\x00", b'"[red]x[/red]"', b'"\\n\\r\\t"', b"[" * 3000, b"{" * 50, b"]", b"}",
    b'"', b",", b":", b"null", b"true", b"[]", b"{}", b'""', b'"a"', b"-1", b"0", b"1.5", b"\n", b"#",
    b"allow", b"deny", b"quota", b"unlimited", b"@target", b"like", b"*", b"..", b"where", b"in", b"keys",
    b"requires", b"permit", b"policy", b"levels", b"tool", b"node", b"edge", b"agent", b"user", b"application",
    b'"' + b"x" * 3000 + b'"', "é😀".encode(), b"\\", b"\\u", b"(", b")", b"->", b"<", b">=",
]

_weird_text = st.sampled_from(["", "\ud800", "a\udc00", "[bold]x[/bold]", "x\ny", "\x00", "😀", "é", " ", "*",
                               "@target", "no.such.action", "../../etc/passwd", "A" * 300])
_weird_numbers = st.sampled_from([2**53, 2**53 + 1, -(2**53) - 1, 2**64, 10**30, -1, 0, 1, 3, 1.5, -0.0, 1e308,
                                  5e-324, 0.1])
_scalars = st.one_of(st.none(), st.booleans(), _weird_numbers, st.integers(-5, 70), _weird_text,
                     st.text(max_size=6))
nasty_json = st.recursive(_scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(_weird_text | st.text(
    max_size=4), c, max_size=3), max_leaves=6)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        value = value[p]
    return value


@st.composite
def _structural(draw: st.DrawFn, seed: bytes) -> bytes:
    try:
        doc = json.loads(seed)
    except (ValueError, RecursionError):
        return seed
    paths = _paths(doc)
    path = draw(st.sampled_from(paths))
    op = draw(st.sampled_from(["replace", "delete", "duplicate", "retype", "copy"]))
    if not path:
        doc = draw(nasty_json) if op != "duplicate" else [doc, doc]
    else:
        parent, key = _get(doc, path[:-1]), path[-1]
        if op == "replace":
            parent[key] = draw(nasty_json)
        elif op == "delete":
            del parent[key]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, parent[key])
        elif op == "retype":
            v = parent[key]
            parent[key] = [v] if not isinstance(v, list) else (v[0] if v else {})
        else:  # copy another node of the document here (type confusion with realistic values)
            parent[key] = copy.deepcopy(_get(doc, draw(st.sampled_from(paths))))
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1])))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def _textual(draw: st.DrawFn, seed: bytes, others: list[bytes]) -> bytes:
    data = seed
    for _ in range(draw(st.integers(1, 3))):
        n = len(data)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 64)))
        op = draw(st.sampled_from(["insert", "delete", "flip", "duplicate", "truncate", "splice"]))
        if op == "insert":
            data = data[:i] + draw(st.sampled_from(NASTY_TOKENS)) + data[i:]
        elif op == "delete":
            data = data[:i] + data[j:]
        elif op == "flip" and i < n:
            data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
        elif op == "duplicate":
            data = data[:j] + data[i:j] + data[j:]
        elif op == "truncate":
            data = data[:i]
        elif op == "splice" and others:
            other = draw(st.sampled_from(others))
            k = draw(st.integers(0, len(other)))
            data = data[:i] + other[k:k + 80] + data[j:]
    return data


_LITERAL = re.compile(rb'"(?:[^"\\\n]|\\.)*"|(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])')
NASTY_LITERALS = [t for t in NASTY_TOKENS if t[:1] in (b'"', b"-") or t[:1].isdigit()] + [b"NaN", b"1e400"]


@st.composite
def _lexical(draw: st.DrawFn, seed: bytes) -> bytes:
    """Replace one string or number literal (in a text policy or in JSON) by a nasty literal: the value
    changes while the text stays well formed, so the check behind the parser is reached."""
    spans = [m.span() for m in _LITERAL.finditer(seed)]
    if not spans:
        return seed
    i, j = draw(st.sampled_from(spans))
    return seed[:i] + draw(st.sampled_from(NASTY_LITERALS)) + seed[j:]


def mutated(seeds: list[bytes]) -> st.SearchStrategy[bytes]:
    """A mutated seed: lexical, structural, textual, or structural then textual."""
    seed = st.sampled_from(seeds)
    return seed.flatmap(lambda s: st.one_of(
        _lexical(s),
        _structural(s),
        _textual(s, seeds),
        _structural(s).flatmap(lambda t: _textual(t, seeds)),
    ))
