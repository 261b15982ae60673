"""When two entries, lists or policies are the same, as JSON (RFC 8785) sees them.

Python equality of the frozen policy values is not the monitor's equality: ``ConstPat(0) ==
ConstPat(False)`` and ``hash(1) == hash(True)`` in Python, while the monitor's ``json_equal``
never equates a boolean with a number. Everything in model/revision that asks "is this the same
entry / the same list / the same monitor configuration" therefore compares canonical JSON texts of
the monitor's own JSON form (model/monitor/language/policy_json.py), never ``==`` on the dataclasses.
(Found by the differential test: a grant for resource ``0`` was taken to match like one for ``false``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from model.base.canonical import JSON, canonical_str
from model.monitor.language.policy import Entry, EntryKind, Policy
from model.monitor.language.policy_json import entry_to_json, policy_to_json


def entry_key(e: Entry) -> str:
    return canonical_str(entry_to_json(e))


def match_key(e: Entry) -> str:
    """The fields the matching predicate reads (kind, action, resource, keys, predicates): the JSON form of
    the entry with quota 1, no requirement and no permit (written into the dict rather than through
    ``dataclasses.replace``, the larger part of this function's cost)."""
    doc = entry_to_json(e)
    if e.kind is EntryKind.ALLOW:
        doc["quota"], doc["permit"] = 1, False
        doc.pop("requires", None)
    return canonical_str(doc)


def same_entries(xs: Sequence[Entry], ys: Sequence[Entry]) -> bool:
    return len(xs) == len(ys) and all(entry_key(x) == entry_key(y) for x, y in zip(xs, ys, strict=True))


def monitor_json(p: Policy) -> dict[str, JSON]:
    """Everything but the name and the two permission lists, in the monitor's JSON form."""
    doc = policy_to_json(replace(p, user=(), application=()))
    doc.pop("name", None)
    return doc


def monitor_key(p: Policy) -> str:
    return canonical_str(monitor_json(p))


def same_json(a: JSON, b: JSON) -> bool:
    """``a`` and ``b`` are the same JSON value, compared in place rather than through two canonical texts
    (which cost more than the comparison): a boolean never equals a number, numbers compare by value
    (``1`` is ``1.0``), arrays (lists or tuples) element by element, objects by their key sets and values.
    Choice: integers beyond ±(2^53−1), which the canonical text would round to a double, compare exactly,
    so two values that differ only there are not the same (the stricter answer)."""
    ta, tb = type(a), type(b)
    if ta is dict:
        return tb is dict and len(a) == len(b) and all(k in b and same_json(v, b[k]) for k, v in a.items())
    if ta is list or ta is tuple:
        return (tb is list or tb is tuple) and len(a) == len(b) and all(map(same_json, a, b))
    if tb is dict or tb is list or tb is tuple:
        return False
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return ta is tb and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return canonical_str(a) == canonical_str(b)  # (another type: as its canonical text says)


def same_monitor(old: Policy, new: Policy) -> bool:
    """``monitor_key(old) == monitor_key(new)``, without writing either text."""
    return same_json(monitor_json(old), monitor_json(new))
