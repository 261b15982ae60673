"""Partial-order reduction for the explicit search: sleep sets over statically independent calls
(Godefroid, *Partial-Order Methods for the Verification of Concurrent Systems*, LNCS 1032,
ch. 5, adapted to a level-synchronous breadth-first search).

**Footprint.** An explored transition (an admitted call with one outcome) has a footprint: its tool, the
effect actions it performs, the actions of the *limited* grants first-fit charged for it (quota not
unlimited), the goal queries its record counts for, and whether it is *special*: a reviewer or approver
action, a call some resolver reads (its result binds or invalidates a slot), a call that consumes a
permit, or any call under a policy with history rules (which read the admitted order).

**Independence** of two transitions ``t, u`` enabled in a state ``p``: neither is special; they are not
two calls of one capped tool (``max_calls``); neither charges a limited grant whose action is one of the
other's effects; they count for no common goal. Then each stays enabled after the other with the same
decision and the same record, and both orders reach the same state up to the renaming of record IDs:

- the decision of ``u`` reads, of what ``t`` changes, only (a) the counters of grants matching ``u``'s
  effects — ``t`` raises only counters of unlimited grants (capacity unchanged) or of limited ones of
  other actions (never scanned for ``u``: matching requires the action); (b) slots, ``Q`` and permits —
  untouched (no resolver, no reviewer, no permit consumed); (c) the trace — only the records ``u``
  names (labels, producers), which ``t`` does not change, and no history rule reads the rest;
- the outcome guards and the query events of ``u``'s record read slots and the records it names: same;
- counters add, so both orders give the same vectors; the new records and their refs are the same.

**Sleep sets in BFS.** A state ``s`` first reached at depth ``d`` gets the *intersection*, over every
explored edge ``(p, t)`` into it from depth ``d - 1`` (all of them are seen while layer ``d - 1`` is
expanded, before ``s`` is), of ``{u ∈ Z(p) ∪ explored-before-t(p) : u independent of t}``; the members of
``Z(s)`` are not explored from ``s``. If ``u ∈ Z(s)`` then for an edge ``(p, t)``, ``u`` was explored from
``p`` before ``t`` (or slept there for the same reason one level up), so ``u(s) = t(u(p))`` is reached
through ``u(p)`` at the same depth ``d + 1`` — commuting squares keep lengths. Hence every state within the
bound is reached at its least depth (up to renaming: when a state holds two records with identical content
the canonical form may keep two renamings of one class apart, and the reduced search may visit only one),
so **verdicts and shortest lengths are unchanged**: a query holds on a state by its counts, and counts only
grow along a path. **Useful completions** are unchanged too: a goal crossing ``u`` slept at ``s`` crosses
at ``p`` already (the edge ``t`` into ``s`` does not count for the goal, else the two would be dependent),
and ``t``'s record is outside the goal's cone (not named by it, not counted, no binding, no permit), so the
cone found from ``u(p)`` is the same.

``tests/property/test_search_por.py`` checks all three against the unreduced search on the corpus models
and generated variants; state *counts* may be lower with the reduction (fewer transitions always).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: (special, tool, capped, effect actions, actions of limited grants charged, goal queries counted)
Footprint = tuple[bool, str, bool, frozenset[str], frozenset[str], frozenset[int]]

SPECIAL: Footprint = (True, "", False, frozenset(), frozenset(), frozenset())


def independent(f: Footprint, g: Footprint) -> bool:
    if f[0] or g[0]:
        return False
    if f[1] == g[1] and f[2]:
        return False
    if f[4] & g[3] or g[4] & f[3]:
        return False
    return not f[5] & g[5]


@dataclass
class Independence:
    """``independent`` over interned footprints (a search meets few distinct ones), memoized per pair."""

    ids: dict[Footprint, int] = field(default_factory=dict)
    prints: list[Footprint] = field(default_factory=list)
    memo: dict[tuple[int, int], bool] = field(default_factory=dict)

    def id(self, f: Footprint) -> int:
        n = self.ids.get(f)
        if n is None:
            n = self.ids[f] = len(self.prints)
            self.prints.append(f)
        return n

    def __call__(self, f: int, g: int) -> bool:
        key = (f, g)
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = independent(self.prints[f], self.prints[g])
        return hit
