"""The tasks a partition of the partitioned search (``partition.py``) runs per level.

Pinned (``step``, one task per partition and level): admit the previous level's batches addressed to it
(``partition.merge``), then expand the new frontier (``partition.expand``) — one round trip between the
driver and each worker per level, besides the routing tasks that move children between workers
(``route.batch``). Fusing the two costs no information the driver needs between them: a merge's only
output is its count of new states, which travels in the next expand's summary; a level that adds no
state makes an empty expand, and the driver stops there.

In chunks (the default with several partitions; ``model/dist/search.py`` says why): ``open_level``
merges and clears the partition's children; ``take`` cuts one run of the new frontier on the owner; and
``chunk`` expands a run on whichever worker the driver sends it to, adding the children to the partition
held there. Choice where the papers are silent (they say nothing about distribution): the budget's
seconds are counted from the start of each expand.
"""

from __future__ import annotations

import time
from dataclasses import replace

from model.dist.fault_injection import hit
from model.dist.frontier import expand, expand_chunk, open_chunks, take_chunk
from model.dist.partition import Entry, Hit, LentFront, Summary, get, merge
from model.dist.wire import pack, unpack
from model.search.compact import Compact
from model.search.heap import quiet

#: what ``open_level`` returns: (new states, CPU seconds, frontier size, entries read per sender)
Opened = tuple[int, float, int, tuple[int, ...]]


@quiet
def step(search: str, part: int, layer: int, reduction: bool, reduce_here: bool, found: frozenset[int],
         seconds: float | None, cap: int | None, after: object, senders: tuple[int, ...],
         *batches: dict[Compact, Entry] | bytes) -> Summary:
    """Merge the batches of level ``layer - 1`` from ``senders`` (none for ``layer`` 0), expand level
    ``layer``; the summary's ``merged`` is the merge's new states, its ``cpu`` both phases'. ``after``
    is unused: the driver passes this partition's own outgoing batches of level ``layer - 1`` there, so
    that Dask runs the step only once they are all cut (``expand`` replaces the children they are cut
    from; without it a routing task to another partition could run after the next expand on a worker
    holding several partitions, and cut the wrong level's children)."""
    hit("step")
    clock = time.process_time()
    new, _, received = merge(search, part, layer - 1, False, senders, *batches) if layer > 0 else (0, 0.0, ())
    out = expand(search, part, reduction, reduce_here, found, seconds, cap)
    get(search, part).child_layer = layer
    return replace(out, merged=new, cpu=time.process_time() - clock, received=received)


@quiet
def open_level(search: str, part: int, layer: int, after: object, senders: tuple[int, ...],
               *batches: dict[Compact, Entry] | bytes) -> Opened:
    """The first half of a level run as chunks (``model/dist/search.py``): merge the batches of level
    ``layer - 1`` and clear the children; (new states, CPU seconds, frontier size, entries read per
    sender)."""
    hit("open")
    clock = time.process_time()
    new, _, received = merge(search, part, layer - 1, False, senders, *batches) if layer > 0 else (0, 0.0, ())
    n = open_chunks(search, part)
    get(search, part).child_layer = layer
    return new, time.process_time() - clock, n, received


def take(search: str, part: int, j: int, count: int, leaves: bool = False) -> list[LentFront] | bytes:
    """Chunk ``j`` of ``count`` of this partition's level: its data lives on the owner's worker, and Dask
    moves it only when another worker runs the chunk. ``leaves``: a chunk another worker is likely to steal
    (the driver's choice: the last quarter of the frontier), pickled for the wire now (``wire.py``):
    packed when the steal comes, it would wait on the owner's worker behind the chunk running there, and
    the thief with it."""
    if hit("take"):
        return []
    return pack(take_chunk(search, part, j, count), leaves)


def packed(items: list[LentFront]) -> list[LentFront] | bytes:
    """A chunk the driver sends to another partition's worker, pickled for the wire (``wire.py``)."""
    return pack(items, True)


@quiet
def chunk(search: str, owner: int, items: list[LentFront] | bytes, reduction: bool, reduce_here: bool,
          found: frozenset[int], seconds: float | None, cap: int | None) -> Summary:
    """Expand a chunk of ``owner``'s frontier on the worker the driver chose (the driver sends chunks only
    once every partition's ``open_level`` of the level has run: no chunk adds children to a partition
    before it is cleared)."""
    hit("chunk")
    return expand_chunk(search, owner, unpack(items), reduction, reduce_here, found, seconds, cap)


@quiet
def finish(search: str, part: int, layer: int, senders: tuple[int, ...], *batches: dict[Compact, Entry] | bytes
           ) -> tuple[int, float, tuple[int, ...]]:
    """Merge the last level (its states are counted, never expanded): (new states, CPU seconds, entries
    read per sender)."""
    hit("finish")
    return merge(search, part, layer, True, senders, *batches)


def by_partition(opened: list[Opened], ran: list[Summary]) -> list[Summary]:
    """Per partition, one summary of a level run as chunks: its merge's count and CPU, and the chunks it
    ran (whoever owned them): the least hit per query, every event, the CPU of all, the classes of the
    children it now holds."""
    out = []
    for q, (new, cpu, _, received) in enumerate(opened):
        hits: dict[int, Hit] = {}
        classes: dict[int, int] = {}
        mine = [s for s in ran if s.where == q]
        for s in mine:
            for i, h in s.hits:
                if i not in hits or h[0] < hits[i][0]:
                    hits[i] = h
            for c, n in s.classes:
                classes[c] = classes.get(c, 0) + n
        out.append(Summary(
            sum(s.transitions for s in mine), tuple(sorted(hits.items())),
            frozenset().union(*(s.premises for s in mine)), tuple(c for s in mine for c in s.completions),
            all(s.complete for s in mine), cpu + sum(s.cpu for s in mine), tuple(classes.items()), new,
            sum(s.lent for s in mine), q, sum(s.expanded for s in mine), received))
    return out
