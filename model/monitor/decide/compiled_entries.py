"""The matchers of the compiled monitor (``compiled.py``): the equality key of a JSON scalar, a permission
entry with its pattern and predicates pre-resolved, and the per-action index of a permission list. Each
decides exactly what ``matching.entry_matches`` decides for the entries the index hands it.
"""

from __future__ import annotations

import fnmatch
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from model.base.canonical import JSON, json_equal
from model.monitor.language.policy import (
    AnyRes,
    ArgPredicate,
    ConstPat,
    Entry,
    EntryKind,
    EqPred,
    GlobPat,
    OneOfPred,
    RangePred,
    SlotPat,
)


class Slots(Protocol):
    """What matching reads of a state: a ``State``, or the Adapter's live ``session.Session``."""

    @property
    def invalid(self) -> frozenset[str]: ...
    @property
    def bindings(self) -> tuple[tuple[str, JSON, int], ...]: ...

_SAFE = 2**53 - 1
NOKEY = object()  # the value has no equality key: use the source matcher
_TRUE, _FALSE, _NULL = object(), object(), object()  # keys of true, false, null, distinct from 1, 0, ...


def scalar_key(v: JSON) -> object:
    """A hashable key with ``scalar_key(a) == scalar_key(b)`` iff ``json_equal(a, b)`` for JSON scalars
    (``NOKEY`` for anything else: containers, non-finite or out-of-range numbers)."""
    t = type(v)
    if t is str:
        return v
    if t is bool:
        return _TRUE if v else _FALSE
    if v is None:
        return _NULL
    if (t is int and -_SAFE <= v <= _SAFE) or (t is float and math.isfinite(v) and abs(v) <= _SAFE):
        return v  # Python's 1 == 1.0 (and equal hashes) is RFC 8785 number equality in the safe range
    return NOKEY


_ANY, _CONST, SLOT, _GLOB, _CONSTX = range(5)
_MISSING = object()


class _Pred:
    __slots__ = ("first", "high", "keys", "kind", "low", "rest", "value", "values")

    def __init__(self, p: ArgPredicate) -> None:
        self.first = p.path[0] if p.path else None
        self.rest = p.path[1:]
        self.kind = 0 if isinstance(p, EqPred) else 1 if isinstance(p, OneOfPred) else 2
        self.value: JSON = p.value if isinstance(p, EqPred) else None
        self.values: tuple[JSON, ...] = p.values if isinstance(p, OneOfPred) else ()
        keys = [scalar_key(v) for v in self.values]
        self.keys = None if any(k is NOKEY for k in keys) else frozenset(keys)
        self.low = p.low if isinstance(p, RangePred) else None
        self.high = p.high if isinstance(p, RangePred) else None

    def holds(self, args: Mapping[str, JSON]) -> bool:
        if self.first is None:
            v: Any = dict(args)
        elif self.first in args:
            v = args[self.first]
        else:
            return False
        for step in self.rest:
            if not isinstance(v, dict) or step not in v:
                return False
            v = v[step]
        if self.kind == 0:
            return json_equal(v, self.value)
        if self.kind == 1:
            if self.keys is not None:
                k = scalar_key(v)
                if k is not NOKEY:
                    return k in self.keys
            return any(json_equal(v, c) for c in self.values)
        if not isinstance(v, int | float) or isinstance(v, bool):
            return False
        return (self.low is None or self.low <= v) and (self.high is None or v <= self.high)


class CompiledEntry:
    """One permission entry with its pattern pre-resolved; ``pos`` is its first-fit position."""

    __slots__ = ("allow", "glob", "keys", "pos", "preds", "quota", "requires", "res", "slot", "value")

    def __init__(self, pos: int, e: Entry) -> None:
        self.pos = pos
        self.allow = e.kind is EntryKind.ALLOW
        self.keys = e.keys
        self.preds = tuple(_Pred(p) for p in e.where)
        self.quota = e.quota
        self.requires = e.requires
        r = e.resource
        self.value: JSON = None
        self.slot = ""
        self.glob: Callable[[str], object] | None = None
        if isinstance(r, AnyRes):
            self.res = _ANY
        elif isinstance(r, ConstPat):
            self.value = r.value
            self.res = _CONST if scalar_key(r.value) is not NOKEY else _CONSTX
        elif isinstance(r, SlotPat):
            self.res, self.slot = SLOT, r.slot
        else:
            assert isinstance(r, GlobPat)
            self.res, self.glob = _GLOB, re.compile(fnmatch.translate(r.glob)).match

    def matches(self, resource: JSON, indexed: bool, args: Mapping[str, JSON], state: Slots) -> bool:
        """The matching predicate; ``indexed``: the index already established a constant's equality."""
        res = self.res
        if res == SLOT:
            if self.slot in state.invalid:
                return False
            for s, v, _ in state.bindings:
                if s == self.slot:
                    if type(v) is str and type(resource) is str:  # json_equal's own first case, inlined
                        if v != resource:
                            return False
                    elif not json_equal(v, resource):
                        return False
                    break
            else:
                return False
        elif res == _GLOB:
            assert self.glob is not None
            if not isinstance(resource, str) or self.glob(resource) is None:
                return False
        elif res == _CONSTX or (res == _CONST and not indexed):
            if not json_equal(self.value, resource):
                return False
        if self.keys is not None and not self.keys.issuperset(args):
            return False
        if self.preds:
            for p in self.preds:
                if not p.holds(args):
                    return False
        return True


class Action:
    """The entries of one action on one list: allows and denies, each by constant key and in order."""

    __slots__ = ("allow_all", "allow_by", "allow_other", "deny_all", "deny_by", "deny_other", "slot_allows")

    def __init__(self, entries: list[CompiledEntry]) -> None:
        self.allow_all = tuple(e for e in entries if e.allow)
        self.deny_all = tuple(e for e in entries if not e.allow)
        self.allow_other, self.allow_by = _index(self.allow_all)
        self.deny_other, self.deny_by = _index(self.deny_all)
        self.slot_allows = tuple(e for e in self.allow_all if e.res == SLOT)


def _index(entries: tuple[CompiledEntry, ...]
           ) -> tuple[tuple[CompiledEntry, ...], dict[object, tuple[CompiledEntry, ...]]]:
    other = tuple(e for e in entries if e.res != _CONST)
    by: dict[object, list[CompiledEntry]] = {}
    for e in entries:
        if e.res == _CONST:
            by.setdefault(scalar_key(e.value), []).append(e)
    merged = {k: tuple(sorted((*v, *other), key=lambda e: e.pos)) for k, v in by.items()}
    return other, merged
