"""The worker side of trace reconstruction and memory accounting for the partitioned search
(``partition.py``): the driver walks a found edge's parent links back to the initial state, one round of
lookups per level for all traces at once, through the partitions holding them. Exact mode: links by
order key, and the transitions named by key rebuilt by the parent's partition. Fingerprint mode: links
by (level, index in the frontier) from ``arrays.py``; the driver replays the keys from the initial state."""

from __future__ import annotations

from bisect import bisect_left

from model.dist.measure import deep_size
from model.dist.partition import Link, OrderKey, Partition, get
from model.search.compact import Compact
from model.search.expand import Key, successors, transition
from model.search.states import Transition

#: fingerprint mode: (parent's partition, parent's index in its frontier, transition key, position)
Back = tuple[int, int, Key, int | None]


def state_at(p: Partition, okey: OrderKey) -> Compact:
    """The state with this order key (exact mode): each level's frontier is sorted by key."""
    level = p.levels[len(okey)]
    i = bisect_left(level, okey, key=lambda f: f[0])
    assert i < len(level) and level[i][0] == okey, f"no state with key {okey!r} here"
    return level[i][1]


def links(search: str, part: int, keys: tuple[OrderKey, ...]) -> tuple[Link, ...]:
    """The stored links of the states with these keys (exact mode)."""
    p = get(search, part)
    return tuple(p.visited[state_at(p, k)] for k in keys)


def backs(search: str, part: int, asks: tuple[tuple[int, int], ...]) -> tuple[Back, ...]:
    """The links of the states at these (level >= 1, index in the level's frontier) (fingerprint mode)."""
    p = get(search, part)
    out: list[Back] = []
    for level, i in asks:
        pp, pidx, kid, pos = p.back[level - 1]
        out.append((pp[i], pidx[i], p.key_list[kid[i]], None if pos[i] < 0 else pos[i]))
    return tuple(out)


def steps(search: str, part: int, asks: tuple[tuple[OrderKey, Key], ...]) -> tuple[Transition, ...]:
    """The transitions with these keys out of this partition's states with these order keys. Successors
    without a sleep set: sleeping only hides transitions, it never changes one, and a key names one
    transition of a state (the sleep sets of ``por.py`` rely on that)."""
    p = get(search, part)
    out: list[Transition] = []
    for okey, tkey in asks:
        for tr, _new, _at, _fp, k in successors(p.ctx, state_at(p, okey), {}):
            if k == tkey:
                out.append(transition(tr))
                break
        else:  # pragma: no cover - a stored link names a transition its parent has
            raise AssertionError(f"no transition {tkey!r} out of state {okey!r}")
    return tuple(out)


def memory(search: str, part: int) -> tuple[int, int]:
    """(states, resident bytes) of this partition's visited set, links and frontier."""
    p = get(search, part)
    if p.fingerprints:
        arrays = sum(a.itemsize * len(a) for lv in p.back for a in lv)
        return len(p.fps), p.fps.nbytes + arrays + deep_size((p.frontier, p.key_list))
    return p.stored, deep_size((p.visited, p.levels))  # the last level's states are counted, not stored
