"""Glob patterns as Z3 regular expressions, for the symbolic matching of ``like "..."`` resources.

The monitor matches globs with ``fnmatch.fnmatchcase`` (model/monitor/matching.py). We translate
the same pattern language to a Z3 regex over strings: ``*`` is any string, ``?`` any one
character, ``[set]`` and ``[!set]`` one character in / not in the set, every other character
itself. Bracket parsing follows CPython's ``fnmatch.translate`` (the closing ``]`` search, a
leading ``]`` taken literally, an unclosed ``[`` read as a literal). Choice where fnmatch's
bracket grammar is intricate: a set containing ``-`` or ``\\`` is translated only when every ``-``
forms a plain ``lo-hi`` range between two other characters; otherwise ``translate`` returns
``None`` and callers treat the glob as undecidable here (they fail to certify, which is safe).
Differentially tested against ``fnmatchcase`` in tests/property/test_revision_symbolic.py.
"""

from __future__ import annotations

import z3


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


def translate(glob: str) -> z3.ReRef | None:
    """The Z3 regex of ``glob`` under ``fnmatchcase`` semantics, or ``None`` if unsupported."""
    parts: list[z3.ReRef] = []
    any_char = z3.AllChar(z3.ReSort(z3.StringSort()))
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        i += 1
        if c == "*":
            parts.append(z3.Star(any_char))
        elif c == "?":
            parts.append(any_char)
        elif c == "[":
            j = i
            if j < n and glob[j] == "!":
                j += 1
            if j < n and glob[j] == "]":
                j += 1
            while j < n and glob[j] != "]":
                j += 1
            if j >= n:
                parts.append(z3.Re(zstring("[")))
                continue
            stuff = glob[i:j]
            i = j + 1
            negate = stuff.startswith("!")
            items = _set_items(stuff[1:] if negate else stuff)
            if items is None:
                return None
            parts.append(_char_class(items, negate))
        else:
            parts.append(z3.Re(zstring(c)))
    if not parts:
        return z3.Re(zstring(""))
    return parts[0] if len(parts) == 1 else z3.Concat(*parts)
