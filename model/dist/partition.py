"""The worker side of the partitioned breadth-first search: one partition of the visited set, its parent
links and its frontier, kept in the worker process between the tasks of one search.

**Where a state lives.** The decision memo of ``expand.Context`` keys a proposal on the call's content and
the state's *projection* — everything but its records (slots, invalid set, counters, satisfied
requirements, permits). States are therefore grouped into *classes* by a hash of that projection
(``class_of``), and a class lives on one partition: every state that can reuse a decision another state
of its class made is expanded in the same process, so no worker re-decides what another decided (with a
plain state hash, every worker meets every kind of call and decides it again). Which partition a class
lives on is the driver's choice, made when the class first appears and kept for the rest of the search
(``route.assign``): a state reached again later lands where it was first admitted, so the visited check
stays local. Class ids are Python's hash of the projection when every worker runs with one
``PYTHONHASHSEED`` (checked with ``PROBE``), else BLAKE2b of a canonical text of it.

**Order.** A state's *order key* is the tuple of successor indices along the path that first reached it
(the ``i``-th transition ``expand.successors`` yields from its parent, sleep set applied). The
single-process search appends a layer's new states in order of (parent's position, successor index),
and its first parent wins; by induction that is lexicographic order of these keys, and the first parent
is the edge with the least key. So a partition keeps its frontier sorted by key, and a merge keeps, for
each new state, the entry with the least key: the same parent, the same shortest trace, the same
frontier order as ``model/search/explicit.py``.

**A level** on a partition (one ``level.step`` task: the previous level's ``merge``, then ``expand``):
``expand`` runs ``expand.successors`` (the real monitor over the compiled policy) over the frontier, drops
children this partition visited before, keeps the other distinct children (least key, link, sleep set
intersected over this partition's edges into it) and returns a summary (transitions, the first edge per
query that makes it hold, premises, new useful completions, children per class); ``route.batch`` hands
each owner its batch; ``merge`` on the owner drops the other partitions' children it visited before,
keeps the least key per child, intersects the sleep sets in key order (the single-process rule: the
first edge's set, filtered by every later one) and makes the sorted new frontier, each state with its
sleep set. Exact mode keeps every level's sorted frontier: traces find a state by key by bisection.

**Visited set.** Exact (state -> link) or, with ``fingerprints``, the 64-bit fingerprints of
``model/search/fingerprint.py`` in a ``FingerprintSet`` per partition with the links in per-level arrays
(parent's partition, parent's index in its frontier, transition key id, record position). In both
modes the last level's states are counted, never stored: none is expanded, and none is the parent of a
trace's edge (the exact single process stores them in its parent dict; here that was a second hash, a
link, a frontier entry and a sort per state on the level that holds most of the states). Sleep sets
travel with footprints as tuples (footprint ids are per process: ``por.Independence``). Choice where the
source is silent: ``merge`` is idempotent per level (a task Dask re-runs after losing its result must not
merge twice); the partition does not survive the
loss of its worker (the search fails and is re-run).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

from model.base.canonical import canonical_str
from model.dist.arrays import Links, store_links
from model.dist.cones import Completion, OrderKey
from model.dist.wire import unpack
from model.search.compact import Compact, empty
from model.search.expand import Context, Key
from model.search.fingerprint import FingerprintSet, fingerprint
from model.search.heap import quiet, release
from model.search.model import SearchModel
from model.search.states import Transition

__all__ = ["Completion", "Entry", "Front", "Hit", "LentFront", "Link", "OrderKey", "Partition", "Summary", "class_of",
           "get", "merge", "start"]

#: what an owner stores per visited state (exact mode): its key, the parent's partition, the transition's
#: key (the position-wise ``Key`` of ``expand``; the ``Transition`` itself is rebuilt by the parent's
#: partition only for the few traces the driver asks for) and where the new record went (None for the root)
Link = tuple[OrderKey, int, Key, int | None] | None
#: a child sent to its owner: (least key, parent's partition, transition key, position, sleep set or None —
#: footprint ids while it stays on its worker, footprints once routed away —, parent's index in its frontier)
Entry = tuple[OrderKey, int, Key, int | None, dict[Key, Any] | None, int]
#: per query: (edge key, partition, parent's key, transition, position, parent's index in the frontier)
Hit = tuple[OrderKey, int, OrderKey, Transition, int | None, int]
#: a frontier state: (order key, state, sleep set as footprint ids)
Front = tuple[OrderKey, Compact, dict[Key, int]]
#: a frontier state in a chunk (``open_chunks``): (index in its owner's frontier, order key, state, sleep set
#: as footprints — footprint ids are per process, and a chunk may run in another)
LentFront = tuple[int, OrderKey, Compact, dict[Key, Any]]


@dataclass(frozen=True, slots=True)
class Summary:
    """What the driver gathers from one ``expand``: counts and query events, never states."""

    transitions: int
    hits: tuple[tuple[int, Hit], ...]  # query index -> first hit in this partition
    premises: frozenset[int]
    completions: tuple[tuple[int, Completion], ...]  # goal query index -> newly seen cone
    complete: bool  # False: stopped at the deadline or transition cap, the level is incomplete
    cpu: float  # process CPU seconds of this expand
    classes: tuple[tuple[int, int], ...] = ()  # (class id, distinct children) of this level's children
    merged: int = 0  # new states the merge before this expand admitted (``level.step``)
    lent: int = 0  # frontier states of another partition expanded here (a stolen chunk)
    where: int = -1  # the partition that ran it (the driver may send a chunk to another partition's worker)
    expanded: int = 0  # frontier states expanded (the driver matches it against the states it sent)
    received: tuple[int, ...] = ()  # entries of each sender's batch the merge before this expand read


def proj_text(s: Compact) -> str:
    """A text of the state's projection equal in every process (sets sorted, JSON values canonical)."""
    _, bindings, invalid, used_user, used_app, satisfied, permits = s
    return repr((tuple((sl, canonical_str(v), i) for sl, v, i in bindings), sorted(invalid), used_user,
                 used_app, sorted(satisfied), permits))


#: a text every worker hashes at start: equal hashes mean one string-hash seed across the cluster
PROBE = "agentwarrant partition probe"


# The class every child is counted in when one partition holds the whole search: its children are not
# hashed (nothing is routed), but the driver's accounting of entries sent against entries merged still
# needs their number. No class is -1: CPython's hash never returns it and the BLAKE2b class is unsigned.
ALONE = -1


def class_of(s: Compact, seeded: bool = False) -> int:
    """The class of ``s`` (module docstring). ``seeded``: Python's own hash (C, no text built) agrees in
    every process; the projection holds no ``None`` (whose hash is an address before Python 3.12)."""
    if seeded:
        return hash(s[1:])
    return int.from_bytes(blake2b(proj_text(s).encode(), digest_size=8).digest(), "big")


@dataclass
class Partition:
    part: int
    parts: int
    ctx: Context
    seeded: bool = False
    fingerprints: bool = False
    visited: dict[Compact, Link] = field(default_factory=dict)  # exact mode
    fps: FingerprintSet = field(default_factory=FingerprintSet)  # fingerprint mode
    frontier: list[Front] = field(default_factory=list)
    levels: list[list[Front]] = field(default_factory=list)  # exact mode: every level's frontier, for traces
    seen: dict[int, set[str]] = field(default_factory=dict)  # goal query -> cone keys met here
    merged: dict[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)  # level -> (new states,
    # entries read per sender): the merge is idempotent
    table: dict[int, int] = field(default_factory=dict)  # class id -> its partition
    children: dict[Compact, Entry] = field(default_factory=dict)  # this level's, until routed
    child_classes: list[int] = field(default_factory=list)  # the class of each of ``children``, in order
    routed: list[dict[Compact, Entry]] | None = None
    child_layer: int = -1  # the level whose expand made ``children`` (``route.batch`` checks it)
    mixed: bool = False  # ``children`` came from chunks run in any order: not in key order
    # fingerprint mode, per level >= 1 in frontier order: parent's partition, its index, key id, position
    back: list[Links] = field(default_factory=list)
    keys: dict[Key, int] = field(default_factory=dict)
    key_list: list[Key] = field(default_factory=list)
    counted: int = 0  # exact mode: the last level's new states, counted and not stored (``merge``)

    @property
    def stored(self) -> int:
        return len(self.fps) if self.fingerprints else len(self.visited) + self.counted


PARTS: dict[tuple[str, int], Partition] = {}
NONE: dict[Any, Any] = {}  # shared, never written

def probe() -> int:
    return hash(PROBE)


def root_class(model: SearchModel, seeded: bool) -> int:
    return class_of(empty(model.policy), seeded)


@quiet
def start(search: str, part: int, parts: int, model: SearchModel, seeded: bool = False,
          fingerprints: bool = False) -> int:
    """Create the partition on this worker; the root state (its class on partition 0) lives on partition 0."""
    p = Partition(part, parts, Context(model, renaming=not model.policy.histories), seeded, fingerprints)
    p.seen = {i: set() for i in p.ctx.goals}
    root = empty(model.policy)
    p.table[class_of(root, seeded)] = 0
    if part == 0:
        if fingerprints:
            p.fps.add(fingerprint(root))
        else:
            p.visited[root] = None
        p.frontier = [((), root, NONE)]
    if not fingerprints:
        p.levels.append(p.frontier)
    PARTS[(search, part)] = p
    return p.stored


def drop(search: str, part: int) -> int:
    p = PARTS.pop((search, part), None)
    release()
    return 0 if p is None else p.stored


def get(search: str, part: int) -> Partition:  # the partition of a search on this worker
    return PARTS[(search, part)]


def _count_last(p: Partition, level: int, own: dict[Compact, Entry], others: list[Any],
                received: tuple[int, ...], clock: float) -> tuple[int, float, tuple[int, ...]]:
    """The exact mode's last merge. The last level's states are never expanded, and never the parent of a
    trace's edge (a hit names its parent, a state of an earlier level): each is counted once, with no link,
    frontier or sort — ``own`` (this partition's children, checked against its visited set by ``expand``)
    and the states of the other senders' batches met neither there nor in the visited set."""
    visited = p.visited
    fresh: set[Compact] = set()
    for batch in others:
        for child in batch:  # a dict's keys, or the states alone
            if child not in own and child not in visited:
                fresh.add(child)
    n = p.counted = len(own) + len(fresh)
    p.frontier = []
    p.merged[level] = n, received
    return n, time.process_time() - clock, received


def merge(search: str, part: int, level: int, last: bool, senders: tuple[int, ...],
          *sent: dict[Compact, Entry] | tuple[Compact, ...] | bytes) -> tuple[int, float, tuple[int, ...]]:
    """Admit this partition's new states of a level (the batch from each of ``senders``, in order);
    returns how many, the CPU seconds it took and the entries read from each sender (the driver matches
    them against what the senders said they sent). ``last``: the final level, whose states are never
    expanded (the fingerprint mode counts them without keeping them; in the exact mode another sender's
    batch may then be its states alone, ``route.batch``)."""
    clock = time.process_time()
    p = PARTS[(search, part)]
    if level in p.merged:
        return p.merged[level][0], 0.0, p.merged[level][1]
    batches = [unpack(b) for b in sent]
    received = tuple(len(b) for b in batches)
    # Each batch is in key order (its sender's frontier is, and successor indices grow), so the first
    # entry per child is its least unless another batch has it too; those few are settled afterwards.
    fpmode, visited, fps = p.fingerprints, p.visited, p.fps
    ids = p.ctx.independence.id
    cands: dict[Compact, Entry] = {}
    dups: dict[Compact, list[Entry]] = {}
    todo = list(zip(senders, batches, strict=True))
    if not fpmode and part in senders:  # exact mode: ``expand`` checked its own children against visited
        own = todo.pop(senders.index(part))[1]
        assert isinstance(own, dict)
        if last:
            return _count_last(p, level, own, [b for _, b in todo], received, clock)
        cands = dict(own) if todo else own  # copying a dict reuses its stored hashes
    elif not fpmode and last:
        return _count_last(p, level, {}, [b for _, b in todo], received, clock)
    for sender, batch in todo:
        assert isinstance(batch, dict)
        if sender != part:
            batch = {c: e if e[4] is None else (*e[:4], {u: ids(f) for u, f in e[4].items()}, e[5])
                     for c, e in batch.items()}
        for child, entry in batch.items():
            have = cands.get(child)
            if have is None:
                if fps.add(fingerprint(child)) if fpmode else child not in visited:
                    cands[child] = entry
            else:
                dups.setdefault(child, [have]).append(entry)
    frontier: list[Front] = []
    firsts: list[Entry] = []
    for child, first in cands.items():
        mine = first[4]
        if dups and child in dups:
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
        if fpmode:
            firsts.append(first)
        else:
            visited[child] = (okey, first[1], first[2], first[3])
        frontier.append((okey, child, NONE if mine is None else mine))
    n = len(frontier)
    if fpmode:
        if not last:
            p.back.append(store_links(p.keys, p.key_list, firsts, frontier))
    else:
        if len(batches) > 1 or p.mixed:
            frontier.sort(key=lambda kv: kv[0])  # sorted runs (P, and lent states' children): Timsort merges them
        p.levels.append(frontier)
    p.frontier = [] if fpmode and last else frontier
    p.merged[level] = n, received
    return n, time.process_time() - clock, received
