"""The one exception type users see for bad input.

Every loader, parser and CLI entry point converts malformed input into ``InvalidInput``
naming *where* (``file:line:col`` for text, a JSON path such as ``$.tools[2].effects`` for JSON)
and *what was expected*. Verdicts (Deny, Rejected, NotPreserved, ...) are never exceptions; this
type is only for input that cannot be given a meaning at all.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class InputKind(enum.Enum):
    """What layer rejected the input; lets tests assert *why* without parsing messages."""

    SYNTAX = "syntax"  # text that does not parse
    SCHEMA = "schema"  # JSON whose shape is wrong
    REFERENCE = "reference"  # a name that is not declared, declared twice, or of the wrong kind
    VALUE = "value"  # a well-shaped value outside its domain (negative quota, bad level, ...)
    IO = "io"  # a file that cannot be read


@dataclass(frozen=True, slots=True)
class Location:
    """A place in the input: a file with optional line/column, or a JSON path."""

    source: str = "<input>"
    line: int | None = None
    column: int | None = None
    json_path: str | None = None

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if self.json_path is not None:
            where += f" at {self.json_path}"
        return where


def json_path(parts: tuple[str | int, ...]) -> str:
    """Render a path such as ``("tools", 2, "effects")`` as ``$.tools[2].effects``."""
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def printable(text: str) -> str:
    """``text`` safe to print on one line: control characters and lone surrogates as backslash escapes."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
                   for c in text)


class InvalidInput(Exception):
    """Input that has no meaning: carries its location, what was expected, and what was found."""

    def __init__(
        self,
        location: Location | str,
        expected: str,
        found: str | None = None,
        kind: InputKind = InputKind.VALUE,
    ) -> None:
        self.location = location if isinstance(location, Location) else Location(source=location)
        self.expected = expected
        self.found = found
        self.kind = kind
        msg = f"{self.location}: expected {expected}"
        if found is not None:
            msg += f", found {found}"
        super().__init__(printable(msg))  # one printable line, whatever the file name or the value holds

    def at(self, location: Location) -> InvalidInput:
        """Re-anchor an error raised deep inside a value to the file/path it came from."""
        return InvalidInput(location, self.expected, self.found, self.kind)


def found(value: object) -> str:
    """``value`` as an error quotes it: its type and the start of its text (a huge integer by its size:
    Python refuses to print one of more than 4,300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}{'...' if len(text) > 40 else ''}"
