"""The worker side of the partitioned breadth-first search: one partition of the visited
set, its parent pointers and its frontier, kept in the worker process between the tasks of one search.

A state belongs to partition ``owner(state, P)``: a stable hash (BLAKE2b of a canonical text of the
compact state, not Python's salted ``hash``) modulo the number of partitions, so every process agrees.

**Order.** A state's *order key* is the tuple of successor indices along the path that first reached it
(the ``i``-th transition ``expand.successors`` yields from its parent, sleep set applied). The
single-process search appends a layer's new states in order of (parent's position, successor index),
and its first parent wins; by induction that is lexicographic order of these keys, and the first parent
is the edge with the least key. So a partition keeps its frontier sorted by key, and a merge keeps, for
each new state, the entry with the least key: the same parent, the same shortest trace, the same
frontier order as ``model/search/explicit.py``.

**A level** is two tasks per partition, pinned to its worker: ``expand`` runs ``expand.successors``
(the real monitor over the compiled policy) over the frontier and returns a small summary (transitions,
the first edge per query that makes it hold, premises seen, new useful completions) and one batch per
destination partition (each new child once, with its least key, its link and its sleep set already
intersected over this partition's edges into it); ``merge`` on the owner drops children visited at an
earlier level, keeps the least key per child, intersects the sleep sets in key order (the single-process
rule: the first edge's set, filtered by every later one) and makes the sorted new frontier.

Sleep sets travel with footprints as tuples (footprint ids are per process: ``por.Independence``).
Choice where the source is silent: ``merge`` is idempotent per level (a task Dask re-runs after losing
its result must not merge twice); the partition does not survive the loss of its worker (the search
fails and is re-run; see README "Scaling out").
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from hashlib import blake2b

from model.canonical import canonical_str
from model.search.compact import Compact, empty
from model.search.completions import completion_key, cone, orders
from model.search.expand import Context, Key, counts, successors, transition
from model.search.explicit import child_sleep_of
from model.search.model import SearchModel
from model.search.por import Footprint
from model.search.space import apply_action
from model.search.states import Transition
from model.search.verdict import Trace
from model.dist.measure import deep_size

OrderKey = tuple[int, ...]
#: what an owner stores per visited state: its key, the parent's partition, the transition's key (the
#: position-wise ``Key`` of ``expand``; the ``Transition`` itself is rebuilt by the parent's partition
#: only for the few traces the driver asks for) and where the new record went (None for the root)
Link = tuple[OrderKey, int, Key, int | None] | None
#: a child sent to its owner: (least key, parent's partition, transition key, position, sleep set or None)
Entry = tuple[OrderKey, int, Key, int | None, dict[Key, Footprint] | None]
#: per query: (edge key, partition, parent's key, transition, position) of the first edge that makes it hold
Hit = tuple[OrderKey, int, OrderKey, Transition, int | None]
#: (completion key, edge key, the cone's orders)
Completion = tuple[str, OrderKey, frozenset[Trace]]


@dataclass(frozen=True, slots=True)
class Summary:
    """What the driver gathers from one ``expand``: counts and query events, never states."""

    transitions: int
    hits: tuple[tuple[int, Hit], ...]  # query index -> first hit in this partition
    premises: frozenset[int]
    completions: tuple[tuple[int, Completion], ...]  # goal query index -> newly seen cone
    complete: bool  # False: stopped at the deadline or transition cap, the level is incomplete
    cpu: float  # process CPU seconds of this expand


def state_text(s: Compact) -> str:
    """A text of the compact state equal in every process (sets sorted, JSON values canonical)."""
    recs, bindings, invalid, used_user, used_app, satisfied, permits = s
    return repr((recs, tuple((sl, canonical_str(v), i) for sl, v, i in bindings), sorted(invalid), used_user,
                 used_app, sorted(satisfied), permits))


#: a text every worker hashes at start: equal hashes mean one string-hash seed across the cluster
PROBE = "agentwarrant partition probe"


def owner(s: Compact, parts: int, seeded: bool = False) -> int:
    """The partition of ``s``. ``seeded``: every process of the search runs with one ``PYTHONHASHSEED``
    (checked with ``PROBE``), so Python's own tuple hash (C, no text built) agrees everywhere; it reads
    the records and the satisfied requirements only, which hold no ``None`` (whose hash is an address
    before Python 3.12). Otherwise BLAKE2b of ``state_text``."""
    if parts == 1:
        return 0
    if seeded:
        return hash((s[0], s[5])) % parts
    return int.from_bytes(blake2b(state_text(s).encode(), digest_size=8).digest(), "big") % parts


@dataclass
class Partition:
    part: int
    parts: int
    ctx: Context
    seeded: bool = False
    visited: dict[Compact, Link] = field(default_factory=dict)
    by_key: dict[OrderKey, Compact] = field(default_factory=dict)
    frontier: list[tuple[OrderKey, Compact]] = field(default_factory=list)
    sleeps: dict[Compact, dict[Key, int]] = field(default_factory=dict)
    seen: dict[int, set[str]] = field(default_factory=dict)  # goal query -> cone keys met here
    merged: dict[int, int] = field(default_factory=dict)  # level -> new states (idempotent merge)


_PARTS: dict[tuple[str, int], Partition] = {}


def probe() -> int:
    return hash(PROBE)


def start(search: str, part: int, parts: int, model: SearchModel, seeded: bool = False) -> int:
    """Create the partition on this worker; the root state lives on its owner."""
    p = Partition(part, parts, Context(model, renaming=not model.policy.histories), seeded)
    p.seen = {i: set() for i in p.ctx.goals}
    root = empty(model.policy)
    if owner(root, parts, seeded) == part:
        p.visited[root] = None
        p.by_key[()] = root
        p.frontier = [((), root)]
        p.sleeps[root] = {}
    _PARTS[(search, part)] = p
    return len(p.visited)


def drop(search: str, part: int) -> int:
    p = _PARTS.pop((search, part), None)
    return 0 if p is None else len(p.visited)


def expand(search: str, part: int, reduction: bool, reduce_here: bool, found: frozenset[int], seconds: float | None,
           cap: int | None) -> tuple[Summary | dict[Compact, Entry], ...]:
    """Expand this partition's frontier: ``(summary, batch for partition 0, ..., batch for P-1)``."""
    clock = time.process_time()
    p = _PARTS[(search, part)]
    ctx, model = p.ctx, p.ctx.model
    indep = ctx.independence
    nq = len(model.queries)
    deadline = None if seconds is None else time.monotonic() + seconds
    out: list[dict[Compact, Entry]] = [{} for _ in range(p.parts)]
    parts, seeded, visited = p.parts, p.seeded, p.visited
    hits: dict[int, Hit] = {}
    premises: set[int] = set()
    comps: list[tuple[int, Completion]] = []
    transitions = 0
    complete = True
    for key, s in p.frontier:
        if (deadline is not None and time.monotonic() > deadline) or (cap is not None and transitions > cap):
            complete = False
            break
        sleep = p.sleeps.get(s, {}) if reduction else {}
        have, have_premise = counts(s, nq)
        done: list[tuple[Key, int]] = []
        for sidx, (tr, new, at, fpi, tkey) in enumerate(successors(ctx, s, sleep)):
            transitions += 1
            rec = new[0][at] if at is not None else None
            if rec is not None:
                for i in rec[11]:
                    if i not in premises and have_premise[i] + 1 >= max(1, model.queries[i].more_than):
                        premises.add(i)
                for i in rec[10]:
                    need = model.queries[i].more_than
                    if have[i] + 1 > need >= have[i]:
                        if i not in hits and i not in found:
                            hits[i] = ((*key, sidx), part, key, transition(tr), at)
                        if i in p.seen:
                            comps += [(i, c) for c in _cone(ctx, s, transition(tr), i, (*key, sidx), p.seen[i])]
            child_sleep: dict[Key, Footprint] | None = None
            if reduce_here:
                child_sleep = {u: indep.prints[f] for u, f in child_sleep_of(indep, sleep, done, fpi, at).items()}
                if not indep.prints[fpi][0]:
                    done.append((tkey, fpi))
            dest = 0 if parts == 1 else owner(new, parts, seeded)
            if dest == part and new in visited:
                continue
            batch = out[dest]
            have_entry = batch.get(new)
            if have_entry is None:  # the frontier is in key order: the first edge into a child is its least
                batch[new] = ((*key, sidx), part, tkey, at, child_sleep)
            elif child_sleep is not None and have_entry[4]:
                mine = have_entry[4]
                batch[new] = (*have_entry[:4], {u: f for u, f in mine.items() if u in child_sleep})
    summary = Summary(transitions, tuple(sorted(hits.items())), frozenset(premises), tuple(comps), complete,
                      time.process_time() - clock)
    return (summary, *out)


def _cone(ctx: Context, s: Compact, tr: Transition, query: int, ekey: OrderKey, seen: set[str]) -> list[Completion]:
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


def merge(search: str, part: int, level: int, *batches: dict[Compact, Entry]) -> tuple[int, float]:
    """Admit this partition's new states of a level (batches from partitions 0..P-1); returns how many,
    and the CPU seconds it took."""
    clock = time.process_time()
    p = _PARTS[(search, part)]
    if level in p.merged:
        return p.merged[level], 0.0
    # Each batch is in key order (its sender's frontier is, and successor indices grow), so the first
    # entry per child is its least unless another batch has it too; those few are settled afterwards.
    visited = p.visited
    cands: dict[Compact, Entry] = {}
    dups: dict[Compact, list[Entry]] = {}
    for batch in batches:
        for child, entry in batch.items():
            if child in visited:
                continue
            have = cands.get(child)
            if have is None:
                cands[child] = entry
            else:
                dups.setdefault(child, [have]).append(entry)
    ids = p.ctx.independence.id
    by_key = p.by_key
    frontier: list[tuple[OrderKey, Compact]] = []
    sleeps: dict[Compact, dict[Key, int]] = {}
    for child, first in cands.items():
        mine = first[4]
        if child in dups:
            entries = sorted(dups[child], key=lambda e: e[0])
            first = entries[0]
            mine = first[4]
            if mine is not None:  # the first edge's set, filtered by every later one
                for e in entries[1:]:
                    if not mine:
                        break
                    other = e[4] or {}
                    mine = {u: f for u, f in mine.items() if u in other}
        okey = first[0]
        visited[child] = (okey, first[1], first[2], first[3])
        by_key[okey] = child
        frontier.append((okey, child))
        if mine is not None:
            sleeps[child] = {u: ids(f) for u, f in mine.items()}
    if len(batches) > 1:
        frontier.sort(key=lambda kv: kv[0])  # P sorted runs: Timsort merges them
    p.frontier, p.sleeps = frontier, sleeps
    p.merged[level] = len(frontier)
    return len(frontier), time.process_time() - clock


def links(search: str, part: int, keys: tuple[OrderKey, ...]) -> tuple[Link, ...]:
    """The stored links of the states with these keys (trace reconstruction walks them to the root)."""
    p = _PARTS[(search, part)]
    return tuple(p.visited[p.by_key[k]] for k in keys)


def steps(search: str, part: int, asks: tuple[tuple[OrderKey, Key], ...]) -> tuple[Transition, ...]:
    """The transitions with these keys out of this partition's states with these order keys. Successors
    without a sleep set: sleeping only hides transitions, it never changes one, and a key names one
    transition of a state (the sleep sets of ``por.py`` rely on that)."""
    p = _PARTS[(search, part)]
    out: list[Transition] = []
    for okey, tkey in asks:
        for tr, _new, _at, _fp, k in successors(p.ctx, p.by_key[okey], {}):
            if k == tkey:
                out.append(transition(tr))
                break
        else:  # pragma: no cover - a stored link names a transition its parent has
            raise AssertionError(f"no transition {tkey!r} out of state {okey!r}")
    return tuple(out)


def memory(search: str, part: int) -> tuple[int, int]:
    """(states, resident bytes) of this partition's visited set, keys, links and frontier."""
    p = _PARTS[(search, part)]
    return len(p.visited), deep_size((p.visited, p.by_key, p.frontier, p.sleeps))
