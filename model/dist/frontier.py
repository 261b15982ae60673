"""Expanding a partition's frontier (``partition.py`` holds the partition and argues the order): whole,
on the partition's worker (``expand``, the pinned level), or in chunks any worker may run
(``open_chunks``, ``take_chunk``, ``expand_chunk``; ``model/dist/search.py`` says why).

With ``chunks`` (``model/dist/search.py``, balance) a level's frontier is cut into runs of
consecutive states (``take_chunk``) that any worker may expand (``expand_chunk``): the children go to the
partition held by that worker, named by their owner and index (so links and traces still lead to the
owner's frontier), and the ``visited`` check there stays sound (a state visited by any partition is
visited). Chunks run in any order, so a child already met keeps the lesser key, sleep sets intersected
as ``merge`` does, each chunk's cones are kept apart (the driver keeps the least edge's), and the next
merge sorts the exact mode's frontier.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace

from model.dist.cones import Completion, cone_of
from model.dist.partition import ALONE, NONE, PARTS, Entry, Front, Hit, LentFront, Partition, Summary, class_of, get
from model.search.compact import Compact
from model.search.engine import Level, bfs
from model.search.expand import Key, counts, successors, transition
from model.search.explicit import child_sleep_of, holds

__all__ = ["cut", "expand", "expand_chunk", "local", "open_chunks", "take_chunk"]


def expand(search: str, part: int, reduction: bool, reduce_here: bool, found: frozenset[int], seconds: float | None,
           cap: int | None) -> Summary:
    """Expand this partition's frontier; its distinct children wait in the partition for ``route.batch``."""
    clock = time.process_time()
    p = get(search, part)
    out: dict[Compact, Entry] = {}
    s = _walk(p, enumerate(p.frontier), part, p.seen, reduction, reduce_here, found, seconds, cap, out, [])
    ids = [class_of(child, p.seeded) for child in out] if p.parts > 1 else []
    p.children, p.child_classes, p.routed, p.mixed = out, ids, None, False
    classes = tuple(Counter(ids).items()) if p.parts > 1 else ((ALONE, len(out)),) if out else ()
    return replace(s, cpu=time.process_time() - clock, classes=classes, where=part)


def open_chunks(search: str, part: int) -> int:
    """Start a level run as chunks: clear the children (``expand_chunk`` adds to them); returns the size of
    the new frontier, which ``take_chunk`` cuts. The owner keeps the frontier itself (traces and links
    find its states there)."""
    p = get(search, part)
    p.children, p.child_classes, p.routed, p.mixed = {}, [], None, True
    return len(p.frontier)


def cut(n: int, j: int, count: int) -> tuple[int, int]:
    """Where the ``j``-th of ``count`` chunks of a frontier of ``n`` states starts and ends: equal runs
    (within one state). Chunks shrinking along the frontier (guided self-scheduling) were tried: the owner
    runs its chunks first to last and a thief takes the last, so the two meet where the chunks are largest
    when one partition costs more than the other (``experiments/dask_timeline.py`` on the banking model:
    one worker idle for most of the last expanded level)."""
    return n * j // count, n * (j + 1) // count


def take_chunk(search: str, part: int, j: int, count: int) -> list[LentFront]:
    """The ``j``-th of ``count`` runs of consecutive states of this partition's frontier (``cut``; key
    order kept within each), sleep sets as footprints: any worker may expand it."""
    p = get(search, part)
    prints = p.ctx.independence.prints
    lo, hi = cut(len(p.frontier), j, count)
    return [(i, key, s, {k: prints[f] for k, f in sleep.items()})
            for i, (key, s, sleep) in enumerate(p.frontier[lo:hi], start=lo)]


def local(search: str) -> Partition:
    """A partition of ``search`` held by this worker (the lowest-numbered when it holds several)."""
    return PARTS[min(k for k in PARTS if k[0] == search)]


def expand_chunk(search: str, owner: int, items: list[LentFront], reduction: bool, reduce_here: bool,
                 found: frozenset[int], seconds: float | None, cap: int | None, holder: int | None = None
                 ) -> Summary:
    """Expand a chunk of ``owner``'s frontier on whichever partition this worker holds (``holder``, when
    given: that partition, for a process holding several, as ``experiments/dask_partition_cost.py`` does):
    the children join its ``children`` (the least key kept per child, sleep sets intersected as ``merge``
    does), links and events name the owner and the state's index in its frontier. The summary's ``classes``
    count the children this chunk added; ``where`` names the partition that now holds them."""
    clock = time.process_time()
    p = local(search) if holder is None else get(search, holder)
    ids = p.ctx.independence.id
    own = ((n, (key, s, {k: ids(f) for k, f in sleep.items()})) for n, key, s, sleep in items)
    fresh_seen: dict[int, set[str]] = {i: set() for i in p.seen}  # cones: the driver keeps the least edge's
    added: list[Compact] = []
    try:
        s = _walk(p, own, owner, fresh_seen, reduction, reduce_here, found, seconds, cap, p.children, added)
    except BaseException:
        # leave the children as they were, so that the driver may run the chunk again: what it added goes
        # (its classes were never counted); what it changed in children met before (a lesser key, a
        # smaller sleep set) a second run changes the same way
        for child in added:
            del p.children[child]
        raise
    born = [class_of(child, p.seeded) for child in added]
    p.child_classes.extend(born)
    return replace(s, cpu=time.process_time() - clock, classes=tuple(Counter(born).items()), where=p.part)


def _walk(p: Partition, items: Iterable[tuple[int, Front]], owner: int, seen: dict[int, set[str]], reduction: bool,
          reduce_here: bool, found: frozenset[int], seconds: float | None, cap: int | None,
          out: dict[Compact, Entry], added: list[Compact]) -> Summary:
    """Expand ``items`` (index in ``owner``'s frontier, frontier state) in key order into ``out``. A child
    already in ``out`` keeps the least key; when ``out`` is the partition's ``children`` (a chunk, run in
    any order with the level's other chunks), each child new to it is appended to ``added``."""
    ctx, model = p.ctx, p.ctx.model
    indep = ctx.independence
    nq = len(model.queries)
    hits: dict[int, Hit] = {}
    premise = [False] * nq
    comps: list[tuple[int, Completion]] = []
    prints = indep.prints
    lending = out is p.children
    # a child already in this partition's visited set is visited for the whole search (a state is stored
    # by one partition only): dropped here, as the single process drops it, with no entry, sleep set or class
    visited = p.visited if not p.fingerprints else NONE

    def expand_one(_layer: int, _last: bool, n: int, front: Front, _x: None) -> Iterator[int]:
        key, s, sleep = front
        if not reduction:
            sleep = NONE
        have, have_premise = counts(s, nq)
        done: list[tuple[Key, int]] = []
        for sidx, (tr, new, at, fpi, tkey) in enumerate(successors(ctx, s, sleep)):
            yield 1
            ekey = (*key, sidx)
            for i in holds(model, new, at, have, have_premise, premise):
                if i not in hits and i not in found:
                    hits[i] = (ekey, owner, key, transition(tr), at, n)
                if i in seen:
                    comps.extend((i, c) for c in cone_of(ctx, s, transition(tr), i, ekey, seen[i]))
            if new not in visited:
                have_entry = out.get(new)
                if have_entry is None:  # the frontier is in key order: the first edge into a child is its least
                    out[new] = (ekey, owner, tkey, at, child_sleep_of(indep, sleep, done, fpi, at) if reduce_here
                                else None, n)
                    if lending:
                        added.append(new)
                elif lending and ekey < have_entry[0]:  # chunks run in any order: an earlier chunk's edge
                    mine = child_sleep_of(indep, sleep, done, fpi, at) if reduce_here else None
                    if mine is not None and have_entry[4] is not None:  # the least edge's set, filtered
                        mine = {u: f for u, f in mine.items() if u in have_entry[4]}
                    out[new] = (ekey, owner, tkey, at, mine, n)
                elif reduce_here and have_entry[4]:
                    mine, child_sleep = have_entry[4], child_sleep_of(indep, sleep, done, fpi, at)
                    out[new] = (*have_entry[:4], {u: f for u, f in mine.items() if u in child_sleep}, have_entry[5])
            if reduce_here and not prints[fpi][0]:
                done.append((tkey, fpi))

    # one layer of ``engine.bfs``: the engine counts the transitions and the ``Level`` cuts the run at the
    # deadline or the cap; the visited check is this partition's own (above)
    level: Level[Front, None] = Level(((n, front, None) for n, front in items), seconds, cap)
    bfs(level, expand_one, 1, None, step=level.step)
    transitions, complete, expanded = level.transitions, level.complete, level.expanded
    premises = {i for i in range(nq) if premise[i]}
    return Summary(transitions, tuple(sorted(hits.items())), frozenset(premises), tuple(comps), complete, 0.0,
                   lent=expanded if owner != p.part else 0, expanded=expanded)
