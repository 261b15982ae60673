"""Useful completions met by one partition of the partitioned search (``partition.py``): for each edge
that makes a goal hold, the goal's cone in the successor as ``model/search/explicit.py`` builds it (the
completions of Agenra Section 6), kept with the edge's order key so the driver can keep, per cone, the
orders of the least edge — what the single-process search, which meets edges in key order, keeps."""

from __future__ import annotations

from model.search.compact import Compact
from model.search.completions import completion_key, cone, orders
from model.search.expand import Context
from model.search.search_verdict import Trace
from model.search.space import apply_action
from model.search.states import Transition

OrderKey = tuple[int, ...]
#: (completion key, edge key, the cone's orders)
Completion = tuple[str, OrderKey, frozenset[Trace]]


def cone_of(ctx: Context, s: Compact, tr: Transition, query: int, ekey: OrderKey, seen: set[str]) -> list[Completion]:
    """``explicit._completions`` for one edge, keeping the cone's key and the edge's key: the driver keeps,
    per cone, the orders of the least edge (what the single-process search, which meets edges in key
    order, keeps)."""
    model = ctx.model
    _, new = apply_action(model, ctx.mat.search_state(s), tr.action, tr.outcome)
    assert new is not None, "an explored transition must apply"
    steps, goal = cone(model, new, len(new.monitor.trace) - 1, query)
    ckey = completion_key(steps)
    if ckey in seen:
        return []
    seen.add(ckey)
    return [(ckey, ekey, frozenset(orders(model, steps, goal, query)))]
