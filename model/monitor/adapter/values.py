"""The precise adapter's store of results, canonicalized once when they enter (Agenra Section 2: immutable
stored results behind handles; so that a mediated call need not re-serialize what it already holds).

A result enters as its canonical JSON text (RFC 8785), a snapshot: later changes to the object the tool
returned, or to any copy handed out, never reach the store. From that text the store derives, once and
on first use, a private parsed value and, per field path a handle names, the sub-value with its own
canonical text. Private values never leave this module except through ``fresh``.

Why this gives exactly what the adapter computed before (parse the stored text on every use, then
canonicalize the whole argument object per call, then parse that text again for the tool):

- ``fresh(v, text)`` is ``json.loads(text)`` — a new object every time — except for values that come back
  from it identical and of the same type (strings, booleans, null, integers within ±(2^53−1): their
  canonical text is their own JSON text), which are returned as they are: they are immutable. When ``v``
  is itself an untouched ``json.loads(text)`` (a stored value), ``copy`` makes the new object with
  ``marshal`` instead: exact for every type ``json.loads`` yields (dict order, int, float bits, str,
  bool, None) and faster than parsing again.
- A field's canonical text is ``canonical_str`` of the sub-value of the parsed result, which is what the
  whole-object canonicalization wrote for that member; a whole result's text is the stored text itself
  (canonical JSON re-parsed and re-canonicalized is the same text: RFC 8785 is idempotent).
- ``arguments`` composes the canonical text of the argument object: RFC 8785 writes an object as its
  members sorted by the UTF-16 code units of their names, each ``"name":value`` in canonical form. For
  ASCII names Python's string order is that order; any other name makes it fall back to
  ``canonical_str`` of the whole object and ``json.loads`` of that text, the former computation.
  tests/property/test_monitor_values.py checks both texts and values against the former computation.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable, Mapping

from model.base.canonical import JSON, canonical_str
from model.monitor.decide.matching import Missing, lookup_path

_SAFE = 2**53 - 1

# one argument: its value and canonical text; the text is None for the agent's literal (not canonicalized
# yet), and given for a stored value, which is then an untouched parse of that text
Member = tuple[JSON, str | None]


def _immutable(value: JSON) -> bool:
    """Whether ``json.loads(canonical_str(value))`` is ``value`` itself (same type, same value)."""
    t = type(value)
    return t is str or t is bool or value is None or (t is int and -_SAFE <= value <= _SAFE)


_SCAN: Callable[[str, int], tuple[JSON, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_string = json.encoder.encode_basestring  # (the string encoder of ``canonical._plain_dumps``)


def parse(text: str) -> JSON:
    """``json.loads(text)`` for a canonical text: the decoder's scanner, without ``loads``' checks for
    surrounding whitespace (canonical text has none) and extra data (the stored text is one value)."""
    return _SCAN(text, 0)[0]


def fresh(value: JSON, text: str) -> JSON:
    """``json.loads(text)`` for ``text == canonical_str(value)``, without parsing when that is ``value``."""
    return value if _immutable(value) else parse(text)


def copy(parsed: JSON) -> JSON:
    """A new ``json.loads(t)`` from an untouched ``parsed = json.loads(t)`` (``marshal`` is exact on those types)."""
    return parsed if _immutable(parsed) else marshal.loads(marshal.dumps(parsed))


_NAMES: dict[str, str] = {}  # canonical text of argument names (tools declare few; bounded below)


def _name_text(name: str) -> str:
    text = _NAMES.get(name)
    if text is None:
        text = canonical_str(name)
        if len(_NAMES) < 4096:
            _NAMES[name] = text
    return text


def arguments(members: Mapping[str, Member]) -> tuple[str, dict[str, JSON]]:
    """The canonical text of the argument object and fresh arguments for the tool (in that text's order).

    Raises ``InvalidInput`` for a literal that is not JSON, as ``canonical_str`` of the object does."""
    if not members:
        return "{}", {}
    names = sorted(members)
    if not "".join(names).isascii():  # (every name ASCII)
        text = canonical_str({n: v for n, (v, _) in members.items()})
        return text, json.loads(text)
    parts: list[str] = []
    tool_args: dict[str, JSON] = {}
    for n in names:
        value, vtext = members[n]
        if vtext is not None:
            tool_args[n] = copy(value)
        else:
            try:
                # a string's canonical text is what the canonical encoder writes for it (canonical._plain)
                vtext = _string(value) if type(value) is str and value.isascii() else canonical_str(value)
            except Exception:  # the whole object's canonicalization names the failing place, as before
                canonical_str({m: v for m, (v, _) in members.items()})
                raise
            tool_args[n] = fresh(value, vtext)
        parts.append(f"{_name_text(n)}:{vtext}")
    return "{" + ",".join(parts) + "}", tool_args


class Store:
    """Canonical texts of results by record ID, with parsed results and fields derived on demand."""

    __slots__ = ("_fields", "_parsed", "_texts")

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._parsed: dict[int, JSON] = {}
        self._fields: dict[tuple[int, tuple[str, ...]], tuple[JSON, str] | None] = {}

    def put(self, record_id: int, text: str, parsed: JSON = None) -> None:
        """Store the canonical ``text`` of a result; ``parsed``, if given, must be a private ``json.loads(text)``."""
        self._texts[record_id] = text
        if parsed is not None:
            self._parsed[record_id] = parsed

    def fresh(self, record_id: int, path: tuple[str, ...]) -> Member | None:
        """A fresh copy of the value at ``path`` of a stored result, with its canonical text; ``None`` if
        the result has no such field. The copy is an untouched parse of the text (a ``Member``)."""
        if not path:  # the whole result: its stored text, parsed once for this caller
            text = self._texts[record_id]
            return parse(text), text
        key = (record_id, path)
        if key in self._fields:
            found = self._fields[key]
        else:
            whole = self._parsed.get(record_id)
            if whole is None:
                whole = self._parsed[record_id] = parse(self._texts[record_id])
            sub = lookup_path(whole, path)
            found = self._fields[key] = None if isinstance(sub, Missing) else (sub, canonical_str(sub))
        return None if found is None else (copy(found[0]), found[1])
