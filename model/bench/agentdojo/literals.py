"""Values the user typed: typed whole-token matching of an argument against the user's prompt.

A deployed monitor knows the user's prompt; a value in it was written by the user, so an argument
made only of such values carries no result's label (Agenra Section 2: a literal has no parents). The
question is what "in it" means. A substring test is wrong both ways: ``"13"`` occurs in "June 13", and
a standing order's id occurs among the digits of an IBAN. Here both the prompt and every scalar of
an argument are cut into *typed tokens* and compared token by token:

- ``email``: an address, lower-cased;
- ``url``: a link, lower-cased, without ``http(s)://`` and without a trailing ``/``;
- ``iban``: two letters, two digits and 10-30 letters or digits, written with or without spaces in
  groups; normalised to upper case without spaces;
- ``date``: ``YYYY-MM-DD``, ``Month D[st|nd|rd|th][, YYYY]``, ``D[st|...] [of] Month[, YYYY]``; kept as
  year, month, day (the year may be missing in the prompt);
- ``time``: ``HH:MM`` or ``H am/pm``, as hours and minutes on a 24-hour clock;
- ``number``: an amount or an id, with an optional currency sign and thousands commas, as a decimal
  without trailing zeros (``1,000.00`` and ``1000`` are one number);
- ``word``: any other run of letters and digits, lower-cased;
- ``marker``: a list item's number (``1.``, ``2)``) at the start of a line or after the end of a
  sentence or a colon, before a capitalised word: it numbers the user's requests, it is not a value,
  so it never matches a number (a file id ``1`` is not typed by a prompt that says "in the order
  they are given: 1. How many appointments ... 2. Please get me ...").

A scalar is the user's when every token of it is a token of the prompt of the same kind (a date with
a year matches a prompt date without one if month and day agree). Choices where nothing dictates one:
the comparison is a bag of tokens, not a contiguous run, so a date-time argument ``2024-05-19 10:00``
matches a prompt that says "on 2024-05-19 at 10:00"; a scalar with no token (punctuation only) says
nothing about provenance and counts as typed; booleans and nulls are ignored. A value the user typed
in other words (a month written as a number when the prompt spells it) is not recognised: the
comparison fails closed, so the argument is treated as computed.

AgentDojo's ground truths write some computed text as a placeholder (``<summary>``, ``<feedback>``):
the text a real agent puts there is computed from what it read, so a placeholder is never the
user's, whatever words the prompt shares with it.

One computation is recognised: a time of day that is a prompt time plus a duration the prompt states
(``12:00 for one hour`` gives ``13:00``; durations ``N hour(s)``, ``N-hour``, ``one``..``twelve hours``,
``an hour``, ``N minutes``). An event's end is almost always written this way, and its value is a
function of what the user typed alone, so whoever computes it (the agent or a planner's program)
could not have put anything else there without departing from the prompt; any other arithmetic
(sums of amounts, a date a week later) is not recognised and fails closed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from model.base.canonical import JSON

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_ORD = r"(?:st|nd|rd|th)?"

_TOKEN = re.compile(
    r"(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"|(?P<url>(?:https?://)?(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:/[^\s'\"<>)\]]*)?)"
    r"|(?P<iban>\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b)"
    r"|(?P<marker>(?:(?m:^)[ \t]*|(?<=[:.;!?]) )\d{1,2}[.)](?= (?-i:[A-Z])))"
    r"|(?P<iso>\b\d{4}-\d{2}-\d{2}\b)"
    rf"|(?P<mdy>\b{_MONTH}\.? \d{{1,2}}{_ORD}\b(?:,? \d{{4}}\b)?)"
    rf"|(?P<dmy>\b\d{{1,2}}{_ORD} (?:of )?{_MONTH}\b(?:,? \d{{4}}\b)?)"
    r"|(?P<clock>\b\d{1,2}:\d{2}(?: ?[ap]\.?m\b\.?)?)"
    r"|(?P<ampm>\b\d{1,2} ?[ap]\.?m\b\.?)"
    r"|(?P<number>[$€£]?(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|[$€£]?(?<![\w.])\d+(?:\.\d+)?(?![\w]))"
    r"|(?P<word>\w+)",
    re.IGNORECASE)


@dataclass(frozen=True, slots=True, order=True)
class Token:
    kind: str  # email | url | iban | date | time | number | word
    text: str  # the normalised form; a date is "YYYY-MM-DD" or "----MM-DD" without a year


_NUMBER_WORDS = {"a": 1, "an": 1, **{w: i for i, w in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"), start=1)}}
_DURATION = re.compile(r"\b(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[ -]"
                       r"(hours?|minutes?|mins?)\b", re.IGNORECASE)


def durations(text: str) -> frozenset[int]:
    """The durations ``text`` states, in minutes."""
    out = set()
    for m in _DURATION.finditer(text):
        n = m.group(1).lower()
        k = int(n) if n.isdigit() else _NUMBER_WORDS[n]
        out.add(k * 60 if m.group(2).lower().startswith("hour") else k)
    return frozenset(out)


def _month(name: str) -> int:
    n = name.lower().rstrip(".")
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(n[:3]))


def _date(year: str | None, month: int, day: str) -> Token:
    return Token("date", f"{year or '----'}-{month:02d}-{int(re.sub(r'[a-z]', '', day.lower())):02d}")


def _clock(hour: int, minute: int, half: str) -> Token:
    half = half.lower().replace(".", "").strip()
    if half == "pm" and hour < 12:
        hour += 12
    if half == "am" and hour == 12:
        hour = 0
    return Token("time", f"{hour:02d}:{minute:02d}")


def _number(text: str) -> Token:
    try:
        d = Decimal(text.lstrip("$€£").replace(",", ""))
    except InvalidOperation:  # the pattern admits only digits, commas and one point: unreachable
        return Token("word", text.lower())
    norm = format(d.normalize(), "f")
    return Token("number", norm.rstrip("0").rstrip(".") if "." in norm else norm)


def tokens(text: str) -> tuple[Token, ...]:
    """The typed tokens of ``text``, left to right (the first kind that matches at a place wins)."""
    out: list[Token] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        s = m.group(0)
        if kind == "email":
            out.append(Token("email", s.lower()))
        elif kind == "url":
            out.append(Token("url", re.sub(r"^https?://", "", s.lower()).rstrip("/.,;:!?")))
        elif kind == "iban":
            out.append(Token("iban", s.replace(" ", "").upper()))
        elif kind == "marker":
            out.append(Token("marker", s.strip()))
        elif kind == "iso":
            y, mo, d = s.split("-")
            out.append(Token("date", f"{y}-{mo}-{d}"))
        elif kind in ("mdy", "dmy"):
            words = re.findall(r"\w+", s)
            year = words[-1] if len(words[-1]) == 4 and words[-1].isdigit() else None
            name = next(w for w in words if w[0].isalpha() and w.lower() != "of")
            day = next(w for w in words if w[0].isdigit() and w != year)
            out.append(_date(year, _month(name), day))
        elif kind in ("clock", "ampm"):
            parts = re.findall(r"\d+", s)
            minute = int(parts[1]) if len(parts) > 1 else 0
            out.append(_clock(int(parts[0]), minute, re.sub(r"[\d:\s]", "", s)))
        elif kind == "number":
            out.append(_number(s))
        else:
            out.append(Token("word", s.lower()))
    return tuple(out)


_PLACEHOLDER = re.compile(r"<[a-z][a-z _-]*>")


def placeholder(text: str) -> bool:
    """``text`` is a ground truth's stand-in for text computed from what was read (``<summary>``)."""
    return _PLACEHOLDER.fullmatch(text.strip()) is not None


def scalars(value: JSON) -> Iterator[str]:
    """The scalar leaves of a JSON value as text (booleans and nulls say nothing about provenance)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from scalars(v)
    elif isinstance(value, list):
        for v in value:
            yield from scalars(v)
    elif isinstance(value, str):
        if value.strip():
            yield value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield json.dumps(value)


class Typed:
    """The typed tokens of one text (the user's prompt, or a result) and membership tests against them."""

    __slots__ = ("_dates", "_ends", "_set")

    def __init__(self, text: str) -> None:
        self._set = frozenset(tokens(text))
        self._dates = frozenset(t.text[4:] for t in self._set if t.kind == "date" and t.text.startswith("----"))
        starts = [int(t.text[:2]) * 60 + int(t.text[3:]) for t in self._set if t.kind == "time"]
        self._ends = frozenset(Token("time", f"{(m + d) // 60 % 24:02d}:{(m + d) % 60:02d}")
                               for m in starts for d in durations(text))

    def has(self, token: Token) -> bool:
        if token in self._set or token in self._ends:
            return True
        return token.kind == "date" and token.text[4:] in self._dates

    def of_kind(self, kind: str) -> frozenset[Token]:
        """The tokens of one kind (``email``, ``url``, ...)."""
        return frozenset(t for t in self._set if t.kind == kind)

    def holds(self, text: str) -> bool:
        """Every token of ``text`` is one of these (a text of no token holds trivially); a placeholder
        for computed text never holds."""
        return not placeholder(text) and all(self.has(t) for t in tokens(text))

    def holds_value(self, value: JSON) -> bool:
        """Every scalar of ``value`` is made of these tokens."""
        return all(self.holds(s) for s in scalars(value))
