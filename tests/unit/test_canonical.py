"""Canonical JSON (RFC 8785) and digests: the byte form everything hashed or signed goes through."""

from __future__ import annotations

import hashlib
import json

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from model.base.canonical import (
    canonical_bytes,
    canonical_str,
    digest,
    is_exact_json,
    json_equal,
    loads,
    normalize,
    plain_value,
)
from model.base.errors import InputKind, InvalidInput
from model.base.json_exact import lone_surrogate


def test_keys_are_sorted_by_utf16_code_units_and_whitespace_removed() -> None:
    # RFC 8785 §3.2.3: "\u20ac" (€, U+20AC) sorts before "\ud83d\ude00" (😀, a surrogate pair, 0xD83D)
    # although the code point of 😀 (U+1F600) is larger; plain code-point order would get this wrong.
    assert canonical_str({"b": 1, "a": [1, 2], "😀": 0, "€": 0}) == '{"a":[1,2],"b":1,"€":0,"😀":0}'


def test_numbers_use_the_ecmascript_form() -> None:
    assert canonical_str([1.0, -0.0, 1e21, 1e-7, 100, 0.1]) == "[1,0,1e+21,1e-7,100,0.1]"


def test_strings_escape_only_what_json_requires() -> None:
    assert canonical_str("a\"\\\n\u0001é") == '"a\\"\\\\\\n\\u0001é"'


def test_digest_is_sha256_of_the_canonical_bytes_and_ignores_key_order() -> None:
    a, b = {"x": 1, "y": [True, None]}, {"y": [True, None], "x": 1.0}
    assert digest(a) == digest(b) == hashlib.sha256(b'{"x":1,"y":[true,null]}').hexdigest()
    assert digest(a) != digest({"x": 2, "y": [True, None]})


def test_large_integers_mean_the_nearest_double_as_in_jcs() -> None:
    assert canonical_str(2**53) == canonical_str(float(2**53)) == canonical_str(2**53 + 1) == "9007199254740992"
    assert json_equal(2**53 + 1, 2**53)
    with pytest.raises(InvalidInput):
        canonical_bytes(10**400)  # beyond any double


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), {1: "non-string key"}, {"s": {1, 2}}, b"bytes"])
def test_values_with_no_json_form_are_invalid_input(bad: object) -> None:
    with pytest.raises(InvalidInput) as info:
        canonical_bytes(bad)
    assert info.value.kind is InputKind.VALUE


def test_json_equal_is_canonical_equality() -> None:
    assert json_equal(1, 1.0) and json_equal({"a": [1]}, {"a": [1.0]})
    assert not json_equal(1, True) and not json_equal(0, False) and not json_equal(None, False)
    assert not json_equal("1", 1) and not json_equal([1], [1, 1])


def test_loads_reports_line_and_column() -> None:
    with pytest.raises(InvalidInput) as info:
        loads('{\n  "a": 1,\n  "b": }', "x.json")
    loc = info.value.location
    assert (loc.source, loc.line, info.value.kind) == ("x.json", 3, InputKind.SYNTAX)
    assert loc.column is not None and loc.column > 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(), lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=4), c, max_size=4),
    max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_canonical_form_is_a_fixed_point_and_agrees_with_json_equal(v: object) -> None:
    text = canonical_str(v)
    assert canonical_str(json.loads(text)) == text
    assert json_equal(v, json.loads(text))
    # The user boundary (model.base.jsonio) reads canonical text back exactly when every number is within
    # ±(2**53 - 1) and every string is free of lone surrogates; otherwise it refuses, never rounds.
    if is_exact_json(v) and _in_boundary_domain(v):
        assert json_equal(v, loads(text)) and canonical_str(loads(text)) == text
    else:
        with pytest.raises(InvalidInput):
            loads(text)


def _in_boundary_domain(v: object) -> bool:
    if isinstance(v, float):
        return abs(v) <= 2**53 - 1
    if isinstance(v, str):
        return lone_surrogate(v) is None
    if isinstance(v, list):
        return all(_in_boundary_domain(x) for x in v)
    if isinstance(v, dict):
        return all(_in_boundary_domain(k) and _in_boundary_domain(x) for k, x in v.items())
    return True


plain_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=4), c, max_size=4), max_leaves=12)


@settings(max_examples=500, deadline=None)
@given(plain_values | json_values)
def test_fast_path_agrees_with_the_reference_library(v: object) -> None:
    reference = bytes(rfc8785.dumps(normalize(v, ())))
    assert canonical_bytes(v) == reference
    if plain_value(v):
        assert isinstance(v, dict | list | str | int | bool) or v is None


@pytest.mark.parametrize(("bad", "where"), [
    ({"amount": 2**53}, "$.amount"), ({"a": [1, float("nan")]}, "$.a[1]"), ({"a": {1: 2}}, "$.a"), ([b"x"], "$[0]"),
])
def test_check_exact_json_refuses_what_would_be_rounded_or_is_not_json(bad: object, where: str) -> None:
    from model.base.canonical import check_exact_json, is_exact_json

    with pytest.raises(InvalidInput) as info:
        check_exact_json(bad, "doc.json")
    assert str(info.value.location) == f"doc.json at {where}"
    assert not is_exact_json(bad) and is_exact_json({"amount": 2**53 - 1, "x": [1.5, None, "s"]})
