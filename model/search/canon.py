"""Canonical search states: one representative per class of states equal up to a consistent renaming
of record IDs (Agenra Section 6.3: the next decision and state are unique "up to consistent renaming of
fresh IDs"), so the explicit engine can hash states and visit each class once.

IDs are trace positions in the monitor. Two executions that perform the same calls on the same handles
in different orders (Read then Lookup, or Lookup then Read) reach states that differ only in these
positions; every monitor judgment except history rules reads IDs only through the records they name
(labels, parents, producers, bindings, permit identities), never through their numeric order. So:

- Without history rules the canonical form renumbers records level by level (height in the parent
  DAG first, so parents still precede children), ordering each level by the record's content: tool,
  arguments, label, success, result, the *canonical* positions of its parents, and the queries it
  matched. Bindings and permit identities are renamed with the same permutation.
- History rules read the admitted order (``session``) or the ID order of a lineage, so with any
  history rule the state is its own canonical form (no merging, still hashed).

Records with identical content on one level keep their relative order; the form is therefore
canonical for all states this search produces except some with interchangeable duplicate records,
where two equivalent states may stay distinct (fewer merges, never a wrong one).
"""

from __future__ import annotations

from dataclasses import replace

from model.monitor.decide.state import ArgIdentity, Permit
from model.search.states import Extra, SearchState


def _rename_identity(ident: ArgIdentity, perm: tuple[int, ...]) -> ArgIdentity:
    kind, val = ident
    if kind == "h" and isinstance(val, int) and 0 <= val < len(perm):
        return (kind, perm[val])
    if kind == "p" and isinstance(val, str):
        rid, _, path = val.partition(":")
        return (kind, f"{perm[int(rid)]}:{path}")
    return ident


def renumber(state: SearchState, perm: tuple[int, ...]) -> SearchState:
    """Apply the renaming ``old id -> perm[old id]`` (a permutation of trace positions)."""
    mon = state.monitor
    n = len(mon.trace)
    records = [mon.trace[0]] * n
    extras = [state.extras[0]] * n if n else []
    for old, rec in enumerate(mon.trace):
        new = perm[old]
        records[new] = replace(rec, id=new, parents=tuple(perm[p] for p in rec.parents))
        ex = state.extras[old]
        extras[new] = Extra(tuple((a, perm[d], p) for a, d, p in ex.refs), ex.result, ex.outcome, ex.matched,
                             ex.premise)
    permits = tuple(Permit(p.id, p.tool, tuple((a, _rename_identity(i, perm)) for a, i in p.identity), p.consumed,
                           p.evidence) for p in mon.permits)
    monitor = replace(mon, trace=tuple(records), bindings=tuple((s, v, perm[i]) for s, v, i in mon.bindings),
                      permits=permits)
    return SearchState(monitor, tuple(extras))


def canonical(state: SearchState, renaming: bool = True) -> tuple[SearchState, tuple[int, ...]]:
    """The canonical representative and the permutation that maps this state's IDs onto it."""
    n = len(state.monitor.trace)
    if not renaming or n < 2:
        return state, tuple(range(n))
    height = [0] * n
    for rec in state.monitor.trace:  # parents precede children, so one pass suffices
        height[rec.id] = 1 + max((height[p] for p in rec.parents), default=-1)
    perm = [0] * n
    position = 0
    for h in range(max(height) + 1):
        level = [d for d in range(n) if height[d] == h]

        def key(d: int) -> tuple[object, ...]:
            rec, ex = state.monitor.trace[d], state.extras[d]
            lab = rec.label
            return (rec.tool, rec.args_json, lab.sensitivity, tuple(sorted(lab.categories)), lab.trusted,
                    rec.succeeded, ex.result or "", ex.outcome, tuple((a, perm[p], path) for a, p, path in ex.refs),
                    tuple(sorted(ex.matched)), tuple(sorted(ex.premise)))

        for d in sorted(level, key=key):
            perm[d] = position
            position += 1
    p = tuple(perm)
    return (state, p) if p == tuple(range(n)) else (renumber(state, p), p)
