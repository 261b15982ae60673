"""Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) and SHA-256 digests.

Everything the project hashes or signs goes through ``canonical_bytes`` so that two equal JSON
values always have one byte form, whatever key order or number spelling they arrived with.
Choice where RFC 8785 is silent for Python values: tuples serialize as arrays and frozensets are
rejected (their order is not canonical; callers sort them first). Non-finite floats, non-str
keys and integers beyond double range are rejected as ``InvalidInput``; integers beyond ±(2^53−1)
mean the nearest double, exactly as RFC 8785 (numbers are IEEE 754 doubles) and every JCS parser
read them, so ``2**53``, ``2**53 + 1`` and ``9007199254740992.0`` share one canonical form.
User input never reaches that rounding: ``loads`` and ``load_file`` are the JSON boundary of
``model.base.jsonio``, which refuses such numbers with their location.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import rfc8785

from model.base import jsonio
from model.base.errors import InputKind, InvalidInput, json_path

_SAFE = 2**53 - 1
JSON = Any  # JSON values: None | bool | int | float | str | list[JSON] | dict[str, JSON]


def normalize(value: object, path: tuple[str | int, ...]) -> JSON:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        if -_SAFE <= value <= _SAFE:
            return value
        # RFC 8785 numbers are IEEE 754 doubles: a larger integer means the nearest double, as any
        # JCS parser reads its text (so the canonical text of a double re-reads to the same value).
        try:
            return float(value)
        except OverflowError:
            raise InvalidInput(json_path(path), "a number within double range", str(value)[:40],
                               InputKind.VALUE) from None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidInput(json_path(path), "a finite number", repr(value), InputKind.VALUE)
        return value
    if isinstance(value, Mapping):
        out: dict[str, JSON] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise InvalidInput(json_path(path), "string object keys", repr(k), InputKind.VALUE)
            out[k] = normalize(v, (*path, k))
        return out
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return [normalize(v, (*path, i)) for i, v in enumerate(value)]
    raise InvalidInput(json_path(path), "a JSON value", type(value).__name__, InputKind.VALUE)


_SURROGATE = re.compile("[\ud800-\udfff]")


def plain_value(value: object) -> bool:
    """True when ``json.dumps`` already writes the RFC 8785 form: no floats (ECMAScript number
    formatting differs from Python's), integers in the safe range, ASCII keys (so code-point order
    is UTF-16 order) and no lone surrogates. Most of what the model hashes is plain.

    Dispatches on exact types (a subclass takes the reference path, which is never wrong) and checks
    scalars inline: this runs on every canonicalization the monitor makes."""
    t = type(value)
    if t is dict:
        assert isinstance(value, dict)
        for k, v in value.items():
            if type(k) is not str or not k.isascii():
                return False
            tv = type(v)
            if tv is str:
                if not v.isascii() and _SURROGATE.search(v):
                    return False
            elif tv is int:
                if not -_SAFE <= v <= _SAFE:
                    return False
            elif v is not None and tv is not bool and not plain_value(v):
                return False
        return True
    if t is list or t is tuple:
        assert isinstance(value, list | tuple)
        return all(plain_value(v) for v in value)
    if t is str:
        assert isinstance(value, str)
        return value.isascii() or not _SURROGATE.search(value)
    if t is int:
        assert isinstance(value, int)
        return -_SAFE <= value <= _SAFE
    return value is None or t is bool


def _plain_dumps() -> Callable[[object], str]:
    """``json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))``, its C encoder built
    once (``dumps`` builds an encoder per call). Without a circular-reference check: a value reaches it
    only after ``plain_value`` walked it, which a cycle never survives."""
    py = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: the library's own encoder
        return py.encode
    enc = make(None, py.default, json.encoder.encode_basestring, None, ":", ",", True, False, True)

    def dumps(value: object) -> str:
        return "".join(enc(value, 0))

    return dumps


_PLAIN_DUMPS = _plain_dumps()


def _too_deep() -> InvalidInput:
    return InvalidInput("$", "JSON nested less deeply", "too deep", InputKind.VALUE)


def canonical_bytes(value: object) -> bytes:
    """The RFC 8785 byte form of ``value``. Every pass over a container recurses once per level, so a
    value nested deeper than the interpreter's recursion limit allows (a few hundred levels: the JSON
    boundary accepts texts up to about a thousand) is ``InvalidInput``, never a ``RecursionError``."""
    try:
        if plain_value(value):  # fast path; tests/unit/test_canonical.py checks it against the reference library
            return _PLAIN_DUMPS(value).encode("utf-8")
        return bytes(rfc8785.dumps(normalize(value, ())))
    except rfc8785.CanonicalizationError as exc:  # defence in depth: normalize should have caught it
        raise InvalidInput("$", "a value RFC 8785 can canonicalize", str(exc), InputKind.VALUE) from None
    except RecursionError:
        raise _too_deep() from None


def canonical_str(value: object) -> str:
    try:
        if plain_value(value):  # the text itself, without a round trip through bytes
            return _PLAIN_DUMPS(value)
    except RecursionError:
        raise _too_deep() from None
    return canonical_bytes(value).decode("utf-8")


def digest(value: object) -> str:
    """Hex SHA-256 of the canonical form: the identity of a JSON value."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def json_equal(a: JSON, b: JSON) -> bool:
    """JSON equality as RFC 8785 sees it (so ``1`` equals ``1.0`` but never ``true``)."""
    # Fast paths for scalars (the common case in matching); containers go through the canonical form.
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float) and abs(a) <= _SAFE and abs(b) <= _SAFE:
        return a == b
    return canonical_bytes(a) == canonical_bytes(b)


def loads(text: str | bytes, source: str = "<input>") -> JSON:
    """Parse user JSON: the one decoder of ``model.base.jsonio`` (exact numbers, no lone surrogates, no
    repeated names; every failure ``InvalidInput`` at line:col and JSON path)."""
    return jsonio.decode(text, source)


def check_exact_json(value: object, source: str, path: tuple[str | int, ...] = ()) -> None:
    """Raise ``InvalidInput`` at the JSON path of the first value canonical JSON cannot hold *exactly*.

    Stricter than ``canonical_bytes``, which reads a large integer as the nearest double: loaders of
    signed or hashed documents (amounts, nonces, counters) call this first, so such an integer is
    refused rather than silently rounded. Also refuses NaN/infinities (``json.loads`` yields them),
    non-string keys and non-JSON types.
    """
    stack: list[tuple[object, tuple[str | int, ...]]] = [(value, path)]
    while stack:
        v, p = stack.pop()
        where = f"{source} at {json_path(p)}"
        if v is None or isinstance(v, bool | str):
            continue
        if isinstance(v, int):
            if abs(v) > _SAFE:
                raise InvalidInput(where, "an integer within ±(2**53 - 1)", str(v)[:40], InputKind.VALUE)
        elif isinstance(v, float):
            if v != v or v in (float("inf"), float("-inf")):
                raise InvalidInput(where, "a finite number", repr(v), InputKind.VALUE)
        elif isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise InvalidInput(where, "string keys", repr(k)[:40], InputKind.VALUE)
                stack.append((x, (*p, k)))
        elif isinstance(v, list | tuple):
            stack.extend((x, (*p, i)) for i, x in enumerate(v))
        else:
            raise InvalidInput(where, "a JSON value", type(v).__name__, InputKind.VALUE)


def canonical_str_exact(value: object, source: str) -> str:
    """``canonical_str``, refusing (``InvalidInput`` at ``source`` and the JSON path) what it would round:
    for values that arrive from Python rather than through ``jsonio`` (a tool's result, a library
    caller's input), where an integer beyond ±(2^53−1) would otherwise become another number. The
    common, plain value costs what ``canonical_str`` costs."""
    if plain_value(value):
        return _PLAIN_DUMPS(value)
    check_exact_json(value, source)
    return canonical_bytes(value).decode("utf-8")


def is_exact_json(value: object) -> bool:
    try:
        check_exact_json(value, "<value>")
    except InvalidInput:
        return False
    return True


def load_file(path: str | Path) -> JSON:
    """Read and parse a user's JSON file (``model.base.jsonio.load_file``)."""
    return jsonio.load_file(path)
