"""Which partition a class of states lives on (``partition.py``: a class is the states sharing the
projection the decision memo keys on), and handing each owner its batch of a level's children.

``assign`` runs on the driver once per level, over the classes the level's children fall in (the
expands' summaries count them): a class already placed keeps its partition (a state reached again must
meet its visited entry); each new class, largest first, goes to the partition that produced most of its
children (their batch then never crosses the wire) unless that would lift the partition above ``SLACK``
times an even share of the level, and otherwise to the least loaded partition — longest processing time
first, the greedy rule for balancing jobs on machines. Choices where the papers are silent (they say
nothing about distribution): the weight of a class is its count of distinct children, a stand-in for the
CPU of expanding them; a class is never split, so the finest grain is one class (the projection of
``experiments/dask_projection.py`` measures what that costs at many workers).

``batch`` runs on each sender: the first call of a level applies the new placements and sorts the
partition's children into one batch per owner (``expand`` already dropped the ones this partition had
visited before); each of the ``P`` calls returns one batch, which Dask moves to the owner's merge.
"""

from __future__ import annotations

from model.dist.fault_injection import hit
from model.dist.partition import Entry, Summary, get
from model.dist.wire import pack
from model.search.compact import Compact
from model.search.heap import quiet

SLACK = 1.05


def weights(summaries: list[Summary]) -> dict[int, tuple[int, int]]:
    """Per class of a level's children: (weight, partition of its largest producer). The weight is the
    largest sender's count, not the sum: a child two senders produce is one state, and summing made
    classes shared between senders look heavier than they are (one partition ended 15% above the other)."""
    out: dict[int, tuple[int, int]] = {}
    for p, s in enumerate(summaries):
        for c, n in s.classes:
            if c not in out or n > out[c][0]:
                out[c] = (n, p)
    return out


def assign(table: dict[int, int], summaries: list[Summary], parts: int) -> dict[int, int]:
    """Place the classes first seen in this level (``table`` is updated); returns the new placements."""
    home = weights(summaries)
    totals = {c: n for c, (n, _) in home.items()}
    loads = [0] * parts
    for c, n in totals.items():
        if c in table:
            loads[table[c]] += n
    cap = SLACK * sum(totals.values()) / parts
    delta: dict[int, int] = {}
    for c in sorted((c for c in totals if c not in table), key=lambda c: (-totals[c], c)):
        q = home[c][1]
        if loads[q] + totals[c] > cap:
            q = min(range(parts), key=lambda i: (loads[i], i))
        delta[c] = q
        loads[q] += totals[c]
    table.update(delta)
    return delta


def senders(table: dict[int, int], summaries: list[Summary], parts: int) -> list[tuple[int, ...]]:
    """Per owner ``q``, the partitions with children of the level it owns (after ``assign``), ascending;
    ``q`` itself always (its own ``batch`` call applies the level's placements to its table). Only these
    pairs get a routing task: with producer-first placement a sender's children fall in a few classes, so
    the tasks per level grow with the partitions, not with their square."""
    out: list[set[int]] = [{q} for q in range(parts)]
    for p, s in enumerate(summaries):
        for c, _ in s.classes:
            out[table[c]].add(p)
    return [tuple(sorted(q)) for q in out]


def routed(table: dict[int, int], summaries: list[Summary], senders: list[tuple[int, ...]]
           ) -> list[tuple[int, ...]]:
    """Per owner ``q``, the entries each of ``senders[q]`` routes to it: its children (counted per class in
    its summary) whose class ``q`` owns."""
    out: list[dict[int, int]] = [dict.fromkeys(s, 0) for s in senders]
    for p, s in enumerate(summaries):
        for c, n in s.classes:
            out[table[c]][p] += n
    return [tuple(d[p] for p in s) for d, s in zip(out, senders, strict=True)]


@quiet
def batch(search: str, part: int, dest: int, layer: int, delta: dict[int, int], last: bool = False
          ) -> dict[Compact, Entry] | tuple[Compact, ...] | bytes:
    """This partition's children of level ``layer`` that partition ``dest`` owns, packed for the wire when
    they leave (``wire.py``). ``last``: the exact mode's last level, whose merge only counts the states it
    had not met (``partition.merge``): a batch that leaves carries the states alone, without the entries
    (key, link, transition key) no one reads."""
    dropped = hit("route")
    p = get(search, part)
    if p.child_layer != layer:  # the driver's dependencies prevent it; never route another level's children
        raise RuntimeError(f"partition {part} holds the children of level {p.child_layer}, not {layer}")
    if p.routed is None:
        p.table.update(delta)
        out: list[dict[Compact, Entry]] = [{} for _ in range(p.parts)]
        local = out[part] = p.children  # most children stay: only those leaving are moved (and rehashed)
        if p.parts > 1:
            table = p.table
            prints = p.ctx.independence.prints
            gone: list[Compact] = []
            for (child, entry), c in zip(local.items(), p.child_classes, strict=True):
                d = table[c]
                if d != part:
                    if entry[4] is not None:  # footprint ids are per process: footprints cross the wire
                        entry = (*entry[:4], {u: prints[f] for u, f in entry[4].items()}, entry[5])
                    out[d][child] = entry
                    gone.append(child)
            for child in gone:
                del local[child]
        p.routed, p.children, p.child_classes = out, {}, []
    # kept until the next level's expand: a task Dask runs again (its result lost in a transfer) must hand
    # over the same batch, not an empty one
    handed: dict[Compact, Entry] = {} if dropped else p.routed[dest]
    if last and dest != part:
        return pack(tuple(handed), True)
    return pack(handed, dest != part)
