"""Parent links of the partitioned search's fingerprint mode (``partition.py``) as arrays: per level, in
frontier order, the parent's partition, the parent's index in that partition's frontier, the id of the
transition's position-wise key and the new record's position (-1: none) — about 14 bytes a state, against
a dict entry per state in the exact mode. A trace is replayed from the initial state by key, as in
``model/search/fingerprint.py`` (the single-process fingerprint search of Agenra's missing Section 8)."""

from __future__ import annotations

from array import array
from typing import Any

from model.search.expand import Key

Links = tuple["array[int]", "array[int]", "array[int]", "array[int]"]


def store_links(keys: dict[Key, int], key_list: list[Key], firsts: list[Any], frontier: list[Any]) -> Links:
    """Sort ``frontier`` (``(order key, state)``) by key in place and return the links of its entries
    (``firsts[i]`` is the kept ``partition.Entry`` of ``frontier[i]``) in the sorted order."""
    order = sorted(range(len(frontier)), key=lambda i: frontier[i][0])
    frontier[:] = [frontier[i] for i in order]
    pp, pidx, kid, pos = array("H"), array("I"), array("I"), array("i")
    for i in order:
        e = firsts[i]
        t = keys.get(e[2])
        if t is None:
            t = keys[e[2]] = len(key_list)
            key_list.append(e[2])
        pp.append(e[1])
        pidx.append(e[5])
        kid.append(t)
        pos.append(-1 if e[3] is None else e[3])
    return pp, pidx, kid, pos
