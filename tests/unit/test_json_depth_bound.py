"""How deep JSON may nest on the Python side, against the Lean monitor's nesting fuel.

The Lean monitor's JSON equality (``jeq``) recurses on a nesting fuel, ``jsonFuel`` in
lean/AgentWarrant/Spec/Monitor/Json.lean, and is exact for every value nesting less deep than it
(``jeqIff``; ``jeqExactOrDeep`` says it is exact at every depth except a left value nesting the fuel or
deeper). These tests pin the Python half of why that case never arises on a deployed path: the JSON
boundary (``model.base.jsonio``) refuses texts nesting far shallower than the fuel, and JSON equality
on values nested beyond what the interpreter's recursion allows is ``InvalidInput``, not a
``RecursionError``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from model.base import jsonio
from model.base.canonical import canonical_bytes, canonical_str, digest, json_equal
from model.base.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[2]


def _json_fuel() -> int:
    text = (ROOT / "lean/AgentWarrant/Spec/Monitor/Json.lean").read_text(encoding="utf-8")
    m = re.search(r"^def jsonFuel : Nat := (\d+)$", text, re.MULTILINE)
    assert m, "jsonFuel's definition not found"
    return int(m.group(1))


def _text(depth: int, kind: str) -> str:
    if kind == "arr":
        return "[" * depth + "]" * depth
    return '{"k":' * depth + "0" + "}" * depth


def _value(depth: int, leaf: object = 0) -> object:
    v = leaf
    for i in range(depth):
        v = [v] if i % 2 else {"k": v}
    return v


@pytest.mark.parametrize("kind", ["arr", "obj"])
def test_the_boundary_refuses_nesting_far_below_the_lean_fuel(kind: str) -> None:
    fuel = _json_fuel()
    assert fuel >= 10000  # the margin below is meaningful only if the fuel is this deep
    for depth in (2000, fuel - 1, fuel):
        with pytest.raises(InvalidInput, match="too deep"):
            jsonio.decode(_text(depth, kind))
    assert jsonio.decode(_text(50, kind)) is not None


def test_equality_of_deep_values_is_invalid_input_not_a_crash() -> None:
    deep = _value(5000)
    for f in (canonical_bytes, canonical_str, digest):
        with pytest.raises(InvalidInput, match="too deep"):
            f(deep)
    with pytest.raises(InvalidInput, match="too deep"):
        json_equal(deep, _value(5000))
    # a float leaf takes the reference (rfc8785) path rather than the plain fast path
    with pytest.raises(InvalidInput, match="too deep"):
        canonical_bytes(_value(5000, 0.5))


def test_equality_below_the_recursion_limit_still_compares_values() -> None:
    assert json_equal(_value(100), _value(100))
    assert json_equal(_value(100, 1), _value(100, 1.0))
    assert not json_equal(_value(100, 1), _value(100, 2))
    assert not json_equal(_value(100), _value(101))
