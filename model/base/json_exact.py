"""Which JSON numbers and strings are kept exactly (the rules of ``jsonio.py``'s docstring, whose choices
follow RFC 8259, RFC 7493 (I-JSON) §§2.1–2.3 and RFC 8785; the papers assume exact JSON values and say
nothing of encodings): numbers within ±(2^53 − 1) whose literal is the exact decimal of its double,
strings without unpaired surrogates, objects without repeated names. ``STRICT`` is the decoder whose
hooks enforce them; ``jsonio.py`` locates the first offending token when a hook objects.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from model.base.errors import printable

SAFE_INTEGER = 2**53 - 1
_MAX_INT_DIGITS = 16  # len(str(2**53 - 1)); longer literals are out of range whatever their value


class Problem(Exception):
    """Raised by a decoding hook; caught in ``decode`` and turned into a located ``InvalidInput``."""


def number_problem(literal: str) -> tuple[str, str] | None:
    """``(expected, found)`` when the JSON number ``literal`` cannot be kept exactly, else ``None``."""
    if not any(c in literal for c in ".eE"):
        digits = literal.lstrip("-")
        if len(digits) > _MAX_INT_DIGITS or int(digits) > SAFE_INTEGER:
            return _RANGE, clip(literal)
        return None
    value = float(literal)  # a float literal of any length parses (no digit limit for floats)
    if not math.isfinite(value) or abs(value) > SAFE_INTEGER:
        return _RANGE, clip(literal)
    shortest = repr(value)
    if shortest != literal and not _same_decimal(literal, shortest):
        return f"a number a double holds exactly (this one would be read as {shortest})", clip(literal)
    return None


_RANGE = "a number within ±(2**53 - 1) (beyond it a double does not hold every integer)"


def _same_decimal(a: str, b: str) -> bool:
    try:
        return Decimal(a) == Decimal(b)
    except InvalidOperation:  # an exponent beyond what decimal represents: certainly not that double
        return False


def exact_number(literal: str) -> int | float:
    """The value of a JSON number literal already accepted by ``number_problem``."""
    return float(literal) if any(c in literal for c in ".eE") else int(literal)


def lone_surrogate(text: str) -> int | None:
    """Index of the first UTF-16 surrogate code point in ``text`` (decoded JSON pairs them up, so
    any that remains is unpaired), else ``None``."""
    m = _SURROGATE.search(text)
    return None if m is None else m.start()


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def clip(text: str, n: int = 40) -> str:
    return printable(text if len(text) <= n else f"{text[:n]}… ({len(text)} characters)")


def _int(literal: str) -> int:
    if len(literal) < _MAX_INT_DIGITS or number_problem(literal) is None:  # 15 digits are always in range
        return int(literal)
    raise Problem()


def _float(literal: str) -> float:
    value = float(literal)
    if (repr(value) == literal and -SAFE_INTEGER <= value <= SAFE_INTEGER) or number_problem(literal) is None:
        return value
    raise Problem()


def _constant(literal: str) -> float:
    raise Problem()


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise Problem()
    return out


STRICT = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant, object_pairs_hook=_pairs)
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def lone_escape(text: str) -> bool:
    """Does ``text`` (JSON text, whose every backslash starts an escape) hold an unpaired surrogate?"""
    if _SURROGATE.search(text):
        return True
    if not _SURROGATE_ESCAPE.search(text):
        return False
    pending_high = -1  # end offset of an unpaired high-surrogate escape
    for m in _ESCAPE.finditer(text):
        code = int(m.group(1), 16) if m.group(1) else -1
        if pending_high >= 0:
            if m.start() == pending_high and 0xDC00 <= code <= 0xDFFF:
                pending_high = -1
                continue
            return True
        if 0xD800 <= code <= 0xDBFF:
            pending_high = m.end()
        elif 0xDC00 <= code <= 0xDFFF:
            return True
    return pending_high >= 0
