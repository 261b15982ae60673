"""Engine 1: explicit-state breadth-first search over canonical monitor states, with the exact visited set
(our design for the missing Section 8 of Agenra). ``baseline.py`` keeps a plain engine without this one's
memo, store or budget, as the reference that the speed tables compare against.

The search loop is ``layered.layered`` (shared with the fingerprint mode, ``fingerprint.py``); this module
holds its exact store: every visited canonical state is a key of one dict mapping it to its parent link
``(parent state, transition, position of the new record)``, the frontier is a list of states and the
sleep sets of the layer being built are a dict keyed by state. States are compact tuples
(``compact.py``) in the canonical form of ``canon.canonical``, maintained incrementally.

With ``reduction`` (the default) sleep sets skip transitions that commute with one already explored
(``por.py``, where the argument is): verdicts, shortest lengths and useful completions are those of the
unreduced search, ``transitions`` counts only the transitions actually explored, and ``states`` may be
lower where the canonical form keeps two renamings of one state apart. ``reduction=False`` is the
search whose counts ``corpus/search/manifest.json`` records, and equals ``baseline.explore_baseline``
(the unoptimized engine, kept as the reference and the speed baseline) state for state.

A level of the search is ``expand.successors`` over each frontier state, a pure function of (model,
state, sleep set); merging the successors of a layer (first parent wins, in frontier order; sleep sets
intersected) is the only sequential step — the shape a partitioned search needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from model.base.budget import Budget, Meter
from model.search.compact import Compact, empty
from model.search.engine import cut_short
from model.search.expand import Context, Key, Raw, transition
from model.search.layered import (
    EMPTY,
    ExplicitRun,
    Link,
    Sleep,
    Tick,
    answers,
    child_sleep_of,
    collect_completions,
    holds,
    layered,
    rebuild,
)
from model.search.model import SearchModel
from model.search.por import Independence


class ExactStore:
    """The exact visited set: a dict from each canonical state to its parent link."""

    mode = "exact"
    __slots__ = ("cur", "indep", "nsleep", "nxt", "parent", "sleeps")

    def __init__(self, root: Compact, indep: Independence) -> None:
        self.parent: dict[Compact, Link | None] = {root: None}
        self.indep = indep
        self.cur: list[Compact] = [root]
        self.sleeps: dict[Compact, Sleep] = {}
        self.nxt: list[Compact] = []
        self.nsleep: dict[Compact, Sleep] = {}

    def __len__(self) -> int:
        return len(self.parent)

    def begin(self, last: bool) -> None:
        self.nxt, self.nsleep = [], {}

    def width(self) -> int:
        return len(self.cur)

    def frontier(self) -> Iterator[tuple[int, Compact, Sleep]]:
        get = self.sleeps.get
        for n, s in enumerate(self.cur):
            yield n, s, get(s, EMPTY)

    def add(self, s: Compact, n: int, raw: Raw, new: Compact, at: int | None, key: Key, sleep: Sleep | None,
            done: list[tuple[Key, int]], fpi: int) -> None:
        parent = self.parent
        if new not in parent:
            parent[new] = (s, transition(raw), at)
            self.nxt.append(new)
            if sleep is not None:
                self.nsleep[new] = child_sleep_of(self.indep, sleep, done, fpi, at)
        elif sleep is not None:
            mine = self.nsleep.get(new)
            if mine:
                child = child_sleep_of(self.indep, sleep, done, fpi, at)
                self.nsleep[new] = {u: f for u, f in mine.items() if u in child}

    def advance(self) -> bool:
        if not self.nxt:
            return False
        self.cur, self.sleeps = self.nxt, self.nsleep
        return True

    def path(self, n: int, s: Compact) -> list[Link]:
        out: list[Link] = []
        link = self.parent[s]
        while link is not None:
            out.append(link)
            link = self.parent[link[0]]
        return out[::-1]

    def collision(self) -> float:
        return 0.0


_UNLIMITED = Budget()


def explore(model: SearchModel, bound: int | None = None, tick: Tick | None = None, budget: Budget = _UNLIMITED,
            reduction: bool = True, meter: Meter | None = None, semantics: Any = None) -> ExplicitRun:
    """The layered search to ``bound`` (default: the model's) over the exact visited set; ``semantics``:
    the monitor's transitions from another implementation (``Context.semantics``)."""
    k = model.bound if bound is None else bound
    ctx = Context(model, renaming=not model.policy.histories, semantics=semantics)
    return layered(ctx, ExactStore(empty(model.policy), ctx.independence), k, tick, budget, reduction, meter)


__all__ = [
    "ExactStore",
    "ExplicitRun",
    "Link",
    "Tick",
    "answers",
    "child_sleep_of",
    "collect_completions",
    "cut_short",
    "explore",
    "holds",
    "rebuild",
]
