"""The one JSON boundary: every file or text a user hands us as JSON is decoded here.

``decode(data, source)`` and ``load_file(path)`` return plain JSON values (``None``, ``bool``,
``int``, ``float``, ``str``, ``list``, ``dict``) or raise ``InvalidInput`` naming ``file:line:col``
and the JSON path of the offending token. No other exception leaves this module for any input:
``json``'s own errors, ``int``'s 4,300-digit limit, deep nesting and undecodable bytes all become
``InvalidInput``.

Choices (RFC 8259 leaves number range, duplicate names and unpaired surrogates to the
implementation; RFC 8785, which hashes and signs our documents, reads every number as an IEEE 754
double):

- *Numbers are kept exact or refused — never rounded.* A number must lie within ±(2^53 − 1), the
  range where every integer is a double (RFC 7493, I-JSON, §2.2), so Python's ``int`` and a JCS
  verifier read the same value; a constant 9007199254740993 or a quota of 2^64 is refused rather
  than read as a nearby value. The bound holds for every spelling (``1e20`` too): RFC 8785 writes a
  double that large as an integer literal, which would then be refused on reading back, so
  canonical text of any accepted value decodes again to the same value. A literal with a fraction
  or exponent must be the exact decimal value of the double it reads as, compared as decimals with
  the double's shortest ``repr`` (``0.1`` and ``2.5e-3`` pass, ``0.10000000000000000001`` and
  ``1e-400`` are refused). ``NaN`` and ``Infinity`` (which ``json`` accepts) are refused. Integer
  literals are checked by length before ``int`` is called, so the 4,300-digit ``ValueError``
  cannot occur.
- *Strings are Unicode scalar values* (I-JSON §2.1). A ``\\uD800``-style escape that does not
  form a surrogate pair is refused: it cannot be encoded as UTF-8, so it would fail later, far
  from its file (``monitor check --json`` did, naming no file).
- *Object names are unique* (I-JSON §2.3). A repeated name is refused at its second occurrence,
  with the object's path (``json`` silently keeps the last value, so two readers of one signed
  document could see different values).
- A UTF-8 byte-order mark at the start is ignored (RFC 8259 §8.1 permits this); any other
  non-UTF-8 byte is refused with its offset. Empty input is refused as "empty input".

Cost: the fast path is ``json``'s C scanner with a Python hook per number and per object (about
twice ``json.loads``). Only when a hook objects, or the text holds an unpaired surrogate escape,
does ``_locate`` descend to the first problem for its line, column and JSON path (one C-speed pass
per level of nesting on the way).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.errors import printable as printable  # re-exported: the loaders print user text with it
from model.base.json_exact import STRICT, Problem, clip, lone_escape, number_problem

JSON = Any

_BOM = "\ufeff"


def decode(data: str | bytes, source: str = "<input>") -> JSON:
    """Parse JSON text (or UTF-8 bytes) under the rules of this module's docstring."""
    text = text_of(data, source)
    if not text.strip():
        raise InvalidInput(Location(source, 1, 1), "a JSON value", "empty input", InputKind.SYNTAX)
    try:
        value = STRICT.decode(text)
    except Problem:
        raise _located(text, source) from None
    except json.JSONDecodeError as exc:
        raise _syntax(exc, source) from None
    except RecursionError:
        raise InvalidInput(source, "JSON nested less deeply", "too deep", InputKind.SYNTAX) from None
    if lone_escape(text):
        raise _located(text, source)
    return value


def _syntax(exc: json.JSONDecodeError, source: str) -> InvalidInput:
    return InvalidInput(Location(source, exc.lineno, exc.colno), "valid JSON", exc.msg, InputKind.SYNTAX)


def _located(text: str, source: str) -> InvalidInput:
    try:
        found = _locate(text, source)
    except json.JSONDecodeError as exc:  # the text is also malformed after the problem: report that
        return _syntax(exc, source)
    except RecursionError:
        found = None
    return found or InvalidInput(source, "JSON whose numbers and strings can be kept exactly",
                                 "a value that cannot", InputKind.VALUE)


def text_of(data: str | bytes, source: str) -> str:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(Location(source), "UTF-8 text",
                               f"byte {exc.object[exc.start]:#04x} at offset {exc.start}", InputKind.IO) from None
    return data[1:] if data.startswith(_BOM) else data


MAX_INPUT_BYTES = 256 * 2**20


def read_bytes(path: str | Path, expected: str = "a readable file") -> bytes:
    """The bytes of a user's file; a directory, a missing or unreadable file is ``InvalidInput``.

    At most ``MAX_INPUT_BYTES`` (256 MiB) are read: a path such as ``/dev/zero`` or an endless pipe
    would otherwise be read until the kernel kills the process. Decoding costs about ten times the
    text in memory, so the cap keeps the largest accepted input within a few GiB; the largest inputs
    the validation-scaling experiment builds (10^5 rules, a 10^7-character string) are under 30 MB.
    Reading stops one byte past the cap, so a file is never read whole to learn it is too large."""
    name = str(path)
    try:
        with Path(path).open("rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise InvalidInput(Location(name), expected, exc.strerror or type(exc).__name__, InputKind.IO) from None
    except ValueError as exc:  # e.g. an embedded NUL byte in the path
        raise InvalidInput(Location(name), expected, str(exc), InputKind.IO) from None
    if len(data) > MAX_INPUT_BYTES:
        raise InvalidInput(Location(name), f"{expected} of at most {MAX_INPUT_BYTES:,} bytes",
                           f"more than {MAX_INPUT_BYTES:,} bytes", InputKind.IO)
    return data


def read_text(path: str | Path, expected: str = "a readable UTF-8 file") -> str:
    """A user's text file, decoded as UTF-8 (a leading byte-order mark dropped)."""
    return text_of(read_bytes(path, expected), str(path))


def load_file(path: str | Path) -> JSON:
    """Read and decode a JSON file."""
    return decode(read_bytes(path, "a readable JSON file"), str(path))


# --- locating the first problem (failure path only) ---------------------------------------------
#
# A descent, not a tokenizer: at each container, every child is skipped with json's C scanner
# (``_LOOSE``, which never objects), and the first child that the strict decoder refuses (or whose
# text holds an unpaired surrogate escape) is entered. The cost is one C-speed pass over the text per
# level of nesting on the way to the problem, with Python work per sibling on that way only.

_LOOSE = json.JSONDecoder(parse_int=len, parse_float=len, parse_constant=len)
_WS = re.compile(r"[ \t\n\r]*")
def _bad(text: str) -> bool:
    try:
        STRICT.decode(text)
    except Problem:
        return True
    return lone_escape(text)


def _ws(text: str, i: int) -> int:
    m = _WS.match(text, i)
    return i if m is None else m.end()


def _locate(text: str, source: str) -> InvalidInput | None:
    """The first inexact number, constant, unpaired surrogate or repeated name in ``text`` (which
    ``json`` parses), with line, column and JSON path; ``None`` when there is none."""
    path: list[str | int] = []
    i = _ws(text, 0)
    end = _LOOSE.raw_decode(text, i)[1]
    while True:
        c = text[i]
        if c == "[":
            j, k = _ws(text, i + 1), 0
            while text[j] != "]":
                child_end = _LOOSE.raw_decode(text, j)[1]
                if _bad(text[j:child_end]):
                    break
                j = _ws(text, child_end)
                j = _ws(text, j + 1) if text[j] == "," else j
                k += 1
            else:
                return None
            path.append(k)
        elif c == "{":
            names: set[str] = set()
            j = _ws(text, i + 1)
            while text[j] != "}":
                name, name_end = json.decoder.scanstring(text, j + 1)  # type: ignore[attr-defined]
                if lone_escape(text[j:name_end]):
                    return _at(text, j, source, [*path, printable(name)], _string_problem(text[j:name_end]))
                if name in names:  # reported at the second occurrence, with the object's path
                    return _at(text, j, source, path, ("JSON objects without repeated keys",
                                                       f"key {clip(repr(name))} twice"), InputKind.SYNTAX)
                names.add(name)
                j = _ws(text, _ws(text, name_end) + 1)  # past the colon
                child_end = _LOOSE.raw_decode(text, j)[1]
                if _bad(text[j:child_end]):
                    break
                j = _ws(text, child_end)
                j = _ws(text, j + 1) if text[j] == "," else j
            else:
                return None
            path.append(printable(name))
        else:
            token = text[i:end]
            if c == '"':
                return _at(text, i, source, path, _string_problem(token)) if lone_escape(token) else None
            if token.endswith(("NaN", "Infinity")):
                return _at(text, i, source, path, ("a finite number (NaN and Infinity are not JSON)", token),
                           InputKind.SYNTAX)
            bad = number_problem(token) if c == "-" or c.isdigit() else None
            return None if bad is None else _at(text, i, source, path, bad)
        i, end = j, child_end


def _string_problem(token: str) -> tuple[str, str]:
    return "a string of Unicode characters (an unpaired surrogate cannot be encoded as UTF-8)", clip(token)


def _at(text: str, offset: int, source: str, path: list[str | int], bad: tuple[str, str],
        kind: InputKind = InputKind.VALUE) -> InvalidInput:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return InvalidInput(Location(source, line, col, json_path(tuple(path))), bad[0], bad[1], kind)
