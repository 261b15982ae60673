"""Explicit outcome families: orders from Hasse pairs, their JSON form, and their residual
(*Exact Checking for Execution Edits*, Sections IV-A, IV-B1 and V-C; Appendix A-A).

A family is written ``{"family": ID, "outcomes": [{"name": n, "calls": [...], "order": [[a, b], ...]}]}``:
each outcome lists its calls and the pairs ``a < b`` of its strict order. The pairs need not be the
covering ones — the order is their transitive closure — but they must name calls of that outcome and
be acyclic; otherwise loading fails with the JSON path of the offending pair (an unknown call) or of
the outcome's ``order`` with one cycle spelled out. The canonical spelling (``family_to_json``) lists
outcomes by name, calls sorted, and only the covering pairs, so equal families have equal digests.

Choices where the source is silent:
- Outcome names are unique within a family (a repeated name is a loading error, not a merge).
- The residual ``F / χ`` (a family inside a runtime leaf after the calls ``χ`` were processed) keeps
  the outcomes whose order admits ``χ`` restricted to the family's calls as a prefix of one of its
  linearizations, each restricted to its unprocessed calls. The *sequence* matters, not only the
  set: with ``x < y`` in one outcome and ``y < x`` in another, ``x·y`` keeps only the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from model.base.canonical import JSON
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.edits.check.contract import CallId, Family, Pomset, hasse


def find_cycle(calls: Sequence[CallId], pairs: Sequence[tuple[CallId, CallId]]) -> list[CallId] | None:
    """One cycle ``[a, b, …, a]`` of the relation, or ``None`` when it is acyclic."""
    succ: dict[CallId, list[CallId]] = {c: [] for c in calls}
    for a, b in pairs:
        succ[a].append(b)
    colour: dict[CallId, int] = {c: 0 for c in calls}  # 0 new, 1 on the stack, 2 finished
    for root in sorted(calls):
        if colour[root]:
            continue
        stack: list[tuple[CallId, int]] = [(root, 0)]
        path: list[CallId] = [root]
        colour[root] = 1
        while stack:
            c, i = stack[-1]
            if i < len(succ[c]):
                stack[-1] = (c, i + 1)
                d = succ[c][i]
                if colour[d] == 1:
                    return [*path[path.index(d):], d]
                if colour[d] == 0:
                    colour[d] = 1
                    stack.append((d, 0))
                    path.append(d)
            else:
                colour[c] = 2
                stack.pop()
                path.pop()
    return None


def pomset_of(calls: Sequence[CallId], pairs: Sequence[tuple[CallId, CallId]]) -> Pomset:
    """The pomset whose order is the transitive closure of ``pairs`` (which must be acyclic)."""
    direct: dict[CallId, set[CallId]] = {c: set() for c in calls}
    for a, b in pairs:
        direct[b].add(a)
    closed: dict[CallId, frozenset[CallId]] = {}

    def preds(c: CallId) -> frozenset[CallId]:
        got = closed.get(c)
        if got is None:
            acc: set[CallId] = set()
            for a in direct[c]:
                acc.add(a)
                acc |= preds(a)
            got = closed[c] = frozenset(acc)
        return got

    return Pomset(tuple(sorted((c, preds(c)) for c in direct)))


def family_from_doc(doc: dict[str, Any], source: str, path: tuple[str | int, ...]) -> Family:
    """A family from its (schema-checked) JSON, refusing repeated names or calls, unknown calls and cycles."""
    def at(*more: str | int) -> Location:
        return Location(source=source, json_path=json_path((*path, *more)))

    members: dict[str, Pomset] = {}
    for i, out in enumerate(doc["outcomes"]):
        name = out["name"]
        if name in members:
            raise InvalidInput(at("outcomes", i, "name"), "outcome names unique within the family",
                               f"a second outcome {name}", InputKind.VALUE)
        calls: list[str] = out["calls"]
        if len(set(calls)) != len(calls):
            dup = sorted(c for c in set(calls) if calls.count(c) > 1)[0]
            raise InvalidInput(at("outcomes", i, "calls"), "each call once per outcome", f"{dup} twice",
                               InputKind.VALUE)
        known = set(calls)
        pairs: list[tuple[str, str]] = []
        for j, (a, b) in enumerate(out.get("order", [])):
            for c in (a, b):
                if c not in known:
                    raise InvalidInput(at("outcomes", i, "order", j), f"calls of outcome {name} ({', '.join(calls)})",
                                       f"unknown call {c}", InputKind.REFERENCE)
            pairs.append((a, b))
        cycle = find_cycle(calls, pairs)
        if cycle is not None:
            raise InvalidInput(at("outcomes", i, "order"), "an acyclic order (a strict partial order)",
                               "the cycle " + " < ".join(cycle), InputKind.VALUE)
        members[name] = pomset_of(calls, pairs)
    return Family(doc["family"], tuple(sorted(members.items())))


def family_to_json(f: Family) -> JSON:
    return {"family": f.group, "outcomes": [
        {"name": n, "calls": sorted(p.calls), "order": [list(pair) for pair in hasse(p)]} for n, p in f.members]}


def family_residual(f: Family, done: Sequence[CallId]) -> Family:
    """``F / χ``: the outcomes that admit ``χ`` (restricted to ``F``'s calls), each without its processed calls."""
    mine = set(f.calls)
    seq = [c for c in done if c in mine]
    if not seq:
        return f
    gone = frozenset(seq)
    kept = []
    for n, p in f.members:
        preds = p.pred_map()
        seen: set[CallId] = set()
        ok = True
        for c in seq:
            if c not in preds or not preds[c] <= seen:
                ok = False
                break
            seen.add(c)
        if ok:
            kept.append((n, Pomset(tuple((c, pr - gone) for c, pr in p.preds if c not in gone))))
    return Family(f.group, tuple(kept))


def rename_family(f: Family, calls: dict[CallId, CallId], group: str) -> Family:
    """The family with every call ``c`` renamed ``calls.get(c, c)`` and the ID ``group`` (clones)."""
    def ren(c: CallId) -> CallId:
        return calls.get(c, c)

    return Family(group, tuple(
        (n, Pomset(tuple(sorted((ren(c), frozenset(ren(d) for d in pr)) for c, pr in p.preds))))
        for n, p in f.members))
