"""Compact search states: plain tuples that hash and compare in C, canonical by construction
(state interning and hashing with no JSON round trip per transition).

A compact state is ``(recs, bindings, invalid, used_user, used_app, satisfied, permits)``:

- ``recs``: one tuple per admitted record, ``(height, tool, args_json, sensitivity, categories,
  trusted, succeeded, result, outcome, refs, matched, premise)`` — everything ``canon.canonical`` orders
  by, with the record's height in the parent DAG first. Its position in ``recs`` is its ID; ``refs``
  are ``(argument, position, path)``; parents, operation, endpoints and agent are derived (the search
  has one agent; a tool fixes the rest), so nothing is stored twice.
- ``bindings`` ``(slot, value, lookup position)`` sorted by slot, ``invalid``, the two counter vectors,
  ``satisfied`` as in the monitor's ``State``; ``permits`` as ``(id, tool, identity, consumed, evidence)``.

**The canonical form is ``canon.canonical``'s, kept incrementally.** That form sorts records level by
level by exactly the tuple above (height first), ties in their earlier order. Every state the engine
stores is sorted; a successor appends one record to a sorted state, so its canonical form inserts that
record at ``bisect_right`` (after equal ones: the tie rule) and shifts every later position by one in
the records' refs, the bindings and the permits. The shift is monotone, so the later records stay
sorted; no full re-sort is needed. Counts of states therefore equal the baseline engine's
(``baseline.py``), which canonicalizes from scratch — the unreduced differential test checks it.
With history rules the baseline does not rename (the admitted order matters); neither do we: the record
is appended.

``materialize`` turns a compact state back into the monitor's ``State`` and the search's ``SearchState``
(records, labels and extras are memoized per process, so this is cheap after warm-up); decisions are
then made by the real (compiled) monitor on that ``State``.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from model.monitor.decide.state import ArgIdentity, Permit, Record, State
from model.monitor.language.labels import Label
from model.monitor.language.policy import Policy
from model.search.states import AgentCall, Approve, Extra, Ref, SearchState, Transition

# (height, tool, args_json, sensitivity, categories, trusted, succeeded, result, outcome, refs, matched, premise);
# typed loosely: a heterogeneous tuple is what makes hashing and ordering run in C
Rec = tuple[Any, ...]
PermitT = tuple[int, str, tuple[tuple[str, ArgIdentity], ...], bool, str | None]
Compact = tuple[tuple[Rec, ...], tuple[tuple[str, object, int], ...], frozenset[str], tuple[int, ...],
                tuple[int, ...], frozenset[str], tuple[PermitT, ...]]
H, TOOL, ARGS, SENS, CATS, TRUSTED, OK, RESULT, OUTCOME, REFS, MATCHED, PREMISE = range(12)


def empty(policy: Policy) -> Compact:
    return ((), (), frozenset(), (0,) * len(policy.user), (0,) * len(policy.application), frozenset(), ())


def parents_of(refs: tuple[tuple[str, int, str], ...]) -> tuple[int, ...]:
    """``Call.parents``: distinct referenced positions, by argument name, first occurrence wins."""
    out: list[int] = []
    for _, d, _p in sorted(refs):
        if d not in out:
            out.append(d)
    return tuple(out)


def _shift_ident(ident: ArgIdentity, at: int) -> ArgIdentity:
    kind, val = ident
    if kind == "h" and isinstance(val, int) and val >= at:
        return (kind, val + 1)
    if kind == "p" and isinstance(val, str):
        rid, _, path = val.partition(":")
        if int(rid) >= at:
            return (kind, f"{int(rid) + 1}:{path}")
    return ident


def retarget(ident: ArgIdentity, n: int, at: int) -> ArgIdentity:
    """Map an identity of the appended state (new record at ``n``) to the canonical one (new at ``at``)."""
    kind, val = ident
    if kind == "h" and val == n:
        return (kind, at)
    if kind == "p" and isinstance(val, str) and val.partition(":")[0] == str(n):
        return (kind, f"{at}:{val.partition(':')[2]}")
    return _shift_ident(ident, at)


def insert(recs: tuple[Rec, ...], rec: Rec, bindings: tuple[tuple[str, object, int], ...],
           permits: tuple[PermitT, ...], renaming: bool) -> tuple[tuple[Rec, ...], tuple[tuple[str, object, int], ...],
                                                               tuple[PermitT, ...], int]:
    """The canonical records, bindings and permits after appending ``rec`` (bindings and permits name it
    by the appended position ``len(recs)``), and the position it gets."""
    n = len(recs)
    at = bisect_right(recs, rec) if renaming else n
    if at == n:
        return (*recs, rec), bindings, permits, n
    tail = []
    for r in recs[at:]:
        refs = r[REFS]
        for _, d, _p in refs:
            if d >= at:
                r = (*r[:REFS], tuple((a, d + 1 if d >= at else d, p) for a, d, p in refs), *r[REFS + 1:])
                break
        tail.append(r)
    new_recs = (*recs[:at], rec, *tail)
    if bindings:
        bindings = tuple((s, v, at if i == n else i + 1 if i >= at else i) for s, v, i in bindings)
    if permits:
        permits = tuple((pid, tool, tuple((a, retarget(x, n, at)) for a, x in ident), used, ev)
                        for pid, tool, ident, used, ev in permits)
    return new_recs, bindings, permits, at


def shift_action(action: AgentCall | Approve, at: int) -> AgentCall | Approve:
    """The same action after a record was inserted at ``at`` (every later position moves up by one)."""
    if isinstance(action, Approve):
        inner = shift_action(action.call, at)
        assert isinstance(inner, AgentCall)
        return Approve(inner)
    if not any(isinstance(s, Ref) and s.record >= at for _, s in action.args):
        return action
    return AgentCall(action.tool, tuple((n, Ref(s.record + 1, s.path) if isinstance(s, Ref) and s.record >= at else s)
                                        for n, s in action.args))


@dataclass
class Materializer:
    """Per-process memo tables from compact values to the monitor's and the search's objects."""

    agent: str
    policy: Policy
    labels: dict[tuple[str, tuple[str, ...], bool], Label] = field(default_factory=dict)
    records: dict[tuple[int, Rec], Record] = field(default_factory=dict)
    extras: dict[Rec, Extra] = field(default_factory=dict)
    permits: dict[PermitT, Permit] = field(default_factory=dict)

    def label(self, sens: str, cats: tuple[str, ...], trusted: bool) -> Label:
        key = (sens, cats, trusted)
        lab = self.labels.get(key)
        if lab is None:
            lab = self.labels[key] = Label(sens, frozenset(cats), trusted)
        return lab

    def record(self, pos: int, rec: Rec) -> Record:
        key = (pos, rec)
        out = self.records.get(key)
        if out is None:
            tool = self.policy.tool(rec[TOOL])
            assert tool is not None
            out = Record(pos, self.agent, tool.name, tool.operation, tool.source, tool.destination,
                         parents_of(rec[REFS]), rec[ARGS], self.label(rec[SENS], rec[CATS], rec[TRUSTED]), rec[OK])
            self.records[key] = out
        return out

    def extra(self, rec: Rec) -> Extra:
        out = self.extras.get(rec)
        if out is None:
            out = Extra(rec[REFS], rec[RESULT] if rec[OK] else None, rec[OUTCOME], frozenset(rec[MATCHED]),
                        frozenset(rec[PREMISE]))
            self.extras[rec] = out
        return out

    def permit(self, p: PermitT) -> Permit:
        out = self.permits.get(p)
        if out is None:
            out = self.permits[p] = Permit(*p)
        return out

    def monitor(self, s: Compact) -> State:
        recs, bindings, invalid, used_user, used_app, satisfied, permits = s
        return State(tuple(self.record(i, r) for i, r in enumerate(recs)), bindings, invalid, used_user, used_app,
                     satisfied, tuple(self.permit(p) for p in permits))

    def search_state(self, s: Compact, monitor: State | None = None) -> SearchState:
        return SearchState(self.monitor(s) if monitor is None else monitor, tuple(self.extra(r) for r in s[0]))


def permit_tuple(p: Permit) -> PermitT:
    return (p.id, p.tool, p.identity, p.consumed, p.evidence)


def record_of(monitor_rec: Record, height: int, extra: Extra) -> Rec:
    lab = monitor_rec.label
    return (height, monitor_rec.tool, monitor_rec.args_json, lab.sensitivity, tuple(sorted(lab.categories)),
            lab.trusted, monitor_rec.succeeded, extra.result or "", extra.outcome, extra.refs,
            tuple(sorted(extra.matched)), tuple(sorted(extra.premise)))


__all__ = ["Compact", "Materializer", "Rec", "Transition", "empty", "insert", "shift_action"]
