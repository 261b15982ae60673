"""The one task a partition of the partitioned search (``partition.py``) runs per level: admit the
previous level's batches addressed to it (``partition.merge``), then expand the new frontier
(``partition.expand``) — one round trip between the driver and each worker per level, and one task
per partition, besides the routing tasks that move children between workers (``route.batch``).

Fusing the two costs no information the driver needs between them: a merge's only output is its count
of new states, which travels in the next expand's summary; a level that adds no state makes an empty
expand, and the driver stops there. Choice where the papers are silent (they say nothing about
distribution): the budget's seconds are counted from the start of the expand, as before the fusion.
"""

from __future__ import annotations

import time
from dataclasses import replace

from model.dist.partition import Entry, LentFront, Summary, cut, expand, expand_lent, get, merge
from model.search.compact import Compact
from model.search.heap import quiet


@quiet
def step(search: str, part: int, layer: int, reduction: bool, reduce_here: bool, found: frozenset[int],
         seconds: float | None, cap: int | None, after: object, senders: tuple[int, ...],
         *batches: dict[Compact, Entry]) -> Summary:
    """Merge the batches of level ``layer - 1`` from ``senders`` (none for ``layer`` 0), expand level
    ``layer``; the summary's ``merged`` is the merge's new states, its ``cpu`` both phases'. ``after``
    is unused: the driver passes this partition's own outgoing batches of level ``layer - 1`` there, so
    that Dask runs the step only once they are all cut (``expand`` replaces the children they are cut
    from; without it a routing task to another partition could run after the next expand on a worker
    holding several partitions, and cut the wrong level's children)."""
    clock = time.process_time()
    new = merge(search, part, layer - 1, False, senders, *batches)[0] if layer > 0 else 0
    out = expand(search, part, reduction, reduce_here, found, seconds, cap)
    get(search, part).child_layer = layer
    return replace(out, merged=new, cpu=time.process_time() - clock)


#: what ``split`` returns: the merge's new states, its CPU seconds, the states lent to each partition
Cut = tuple[int, float, tuple[list[LentFront], ...]]


@quiet
def split(search: str, part: int, layer: int, shares: tuple[tuple[int, float], ...], after: object,
          senders: tuple[int, ...], *batches: dict[Compact, Entry]) -> Cut:
    """The first half of ``step`` on a partition that lends part of its level (``model/dist/search.py``,
    balance): merge, then cut the shares other partitions expand; ``rest`` expands the remainder."""
    clock = time.process_time()
    new = merge(search, part, layer - 1, False, senders, *batches)[0] if layer > 0 else 0
    return new, time.process_time() - clock, cut(search, part, shares)


@quiet
def rest(search: str, part: int, layer: int, reduction: bool, reduce_here: bool, found: frozenset[int],
         seconds: float | None, cap: int | None, done: Cut) -> Summary:
    """The second half of ``step`` on a lending partition: expand the states it did not lend."""
    clock = time.process_time()
    out = expand(search, part, reduction, reduce_here, found, seconds, cap)
    get(search, part).child_layer = layer
    return replace(out, merged=done[0], cpu=done[1] + time.process_time() - clock)


@quiet
def borrow(search: str, part: int, owner: int, reduction: bool, reduce_here: bool, found: frozenset[int],
           seconds: float | None, cap: int | None, after: object, done: Cut) -> Summary:
    """Expand the states ``owner`` lent this partition, once its own expand of the level (``after``) ran."""
    return expand_lent(search, part, owner, done[2][part], reduction, reduce_here, found, seconds, cap)


@quiet
def finish(search: str, part: int, layer: int, senders: tuple[int, ...], *batches: dict[Compact, Entry]
           ) -> tuple[int, float]:
    """Merge the last level (its states are counted, never expanded): (new states, CPU seconds)."""
    return merge(search, part, layer, True, senders, *batches)
