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

from model.base.canonical import canonical_str
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


def monitor_key(p: Policy) -> str:
    """Everything but the name and the two permission lists."""
    doc = policy_to_json(replace(p, user=(), application=()))
    doc.pop("name", None)
    return canonical_str(doc)
