"""Glob patterns as Z3 regular expressions, for the symbolic matching of ``like "..."`` resources.

The monitor matches globs with ``fnmatch.fnmatchcase`` (model/monitor/decide/matching.py). We translate
the same pattern language to a Z3 regex over strings: ``*`` is any string, ``?`` any one
character, ``[set]`` and ``[!set]`` one character in / not in the set, every other character
itself. Bracket parsing follows CPython's ``fnmatch.translate`` (the closing ``]`` search, a
leading ``]`` taken literally, an unclosed ``[`` read as a literal). Choice where fnmatch's
bracket grammar is intricate: a set containing ``-`` or ``\\`` is translated only when every ``-``
forms a plain ``lo-hi`` range between two other characters; otherwise ``translate`` returns
``None`` and callers treat the glob as undecidable here (they fail to certify, which is safe).
Differentially tested against ``fnmatchcase`` in tests/unit/test_revision_symbolic.py.

Z3's strings hold code points up to ``LAST_CHAR`` (0x2FFFF) only; a character past it would be read as its
escape's own characters, aliasing another string. A glob or constant with such a character is not
translated (``beyond_alphabet``); the checker's encoding (model/revision/trusted/encoding.py) argues when
argument values past the alphabet need no character of their own.
"""

from __future__ import annotations

from typing import cast

import z3

LAST_CHAR = 0x2FFFF  # the last code point of Z3's string alphabet (its default ``unicode`` encoding)


def beyond_alphabet(text: str) -> bool:
    """Whether ``text`` holds a character Z3's strings cannot."""
    return any(ord(c) > LAST_CHAR for c in text)


def zstring(text: str) -> z3.SeqRef:
    """A Z3 string constant of exactly ``text``: ``StringVal`` reads ``\\u{..}`` escapes, so a
    backslash is passed as the escape of itself."""
    return z3.StringVal(text.replace("\\", "\\u{5c}"))


def _set_items(stuff: str) -> list[tuple[str, str]] | None:
    """``[(lo, hi), ...]`` for a bracket body (after any leading ``!``), or ``None`` if unsupported."""
    if "\\" in stuff:
        return None
    items: list[tuple[str, str]] = []
    k = 0
    while k < len(stuff):
        if k + 2 < len(stuff) and stuff[k + 1] == "-":
            lo, hi = stuff[k], stuff[k + 2]
            if "-" in (lo, hi):
                return None
            if lo <= hi:  # an empty range (lo > hi) matches nothing, as in fnmatch
                items.append((lo, hi))
            k += 3
        elif stuff[k] == "-":
            return None
        else:
            items.append((stuff[k], stuff[k]))
            k += 1
    return items


def _char_class(items: list[tuple[str, str]], negate: bool) -> z3.ReRef:
    if not items:
        return z3.AllChar(z3.ReSort(z3.StringSort())) if negate else z3.Empty(z3.ReSort(z3.StringSort()))
    ranges = [z3.Range(lo, hi) for lo, hi in items]
    union = ranges[0] if len(ranges) == 1 else z3.Union(*ranges)
    if negate:
        return z3.Intersect(z3.AllChar(z3.ReSort(z3.StringSort())), z3.Complement(union))
    return union


# A glob's parts: ("*",), ("?",), ("set", items, negate) or ("char", c)
Part = tuple[object, ...]


def parts(glob: str) -> list[Part] | None:
    """The parts of ``glob`` under ``fnmatchcase`` semantics, or ``None`` if unsupported (``translate``'s
    parse, without building Z3 terms: ``translatable`` asks only this)."""
    if beyond_alphabet(glob):
        return None
    out: list[Part] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        i += 1
        if c in "*?":
            out.append((c,))
        elif c == "[":
            j = i
            if j < n and glob[j] == "!":
                j += 1
            if j < n and glob[j] == "]":
                j += 1
            while j < n and glob[j] != "]":
                j += 1
            if j >= n:
                out.append(("char", "["))
                continue
            stuff = glob[i:j]
            i = j + 1
            negate = stuff.startswith("!")
            items = _set_items(stuff[1:] if negate else stuff)
            if items is None:
                return None
            out.append(("set", items, negate))
        else:
            out.append(("char", c))
    return out


def translatable(glob: str) -> bool:
    """Whether ``translate(glob)`` is not ``None``."""
    return parts(glob) is not None


def translate(glob: str) -> z3.ReRef | None:
    """The Z3 regex of ``glob`` under ``fnmatchcase`` semantics, or ``None`` if unsupported."""
    parsed = parts(glob)
    if parsed is None:
        return None
    any_char = z3.AllChar(z3.ReSort(z3.StringSort()))
    res: list[z3.ReRef] = []
    for part in parsed:
        if part[0] == "*":
            res.append(z3.Star(any_char))
        elif part[0] == "?":
            res.append(any_char)
        elif part[0] == "set":
            res.append(_char_class(cast(list[tuple[str, str]], part[1]), bool(part[2])))
        else:
            res.append(z3.Re(zstring(str(part[1]))))
    if not res:
        return z3.Re(zstring(""))
    return res[0] if len(res) == 1 else z3.Concat(*res)
