"""What both drivers of the partitioned search (``search.py`` for the monitor engine, ``system_search.py``
for a generic system) do alike at a level's end: stop when a partition's expand ran out of budget, and
say what the complete levels covered when the search is cut short (the papers say nothing about
distribution; the choice is ``search.py``'s: a level that did not complete is discarded)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from model.budget import BudgetExhausted, Meter, Spent, Unknown
from model.dist.cluster import gather

if TYPE_CHECKING:
    from distributed import Client


def workers_of(client: Client) -> list[str]:
    """The cluster's worker addresses, sorted: partition ``p`` lives on the ``p``-th."""
    return sorted(client.scheduler_info(n_workers=-1)["workers"])


class Placed:
    """A search's partitions on the cluster: partition ``p`` on the ``p``-th worker (modulo their number),
    a fresh search id, ``on`` to submit a task to a partition's worker and ``g`` to gather (raising
    ``WorkerLost`` when a worker holding a partition leaves)."""

    def __init__(self, client: Client, partitions: int | None) -> None:
        self.client = client
        self.addrs = workers_of(client)
        self.parts = partitions if partitions is not None else len(self.addrs)
        self.where = [[self.addrs[p % len(self.addrs)]] for p in range(self.parts)]
        self.sid = uuid.uuid4().hex

    def g(self, futures: Any) -> Any:
        return gather(self.client, futures, self.addrs)

    def on(self, p: int, fn: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(fn, *args, workers=self.where[p], pure=False)

    def alive(self) -> list[int]:
        """The partitions whose worker is still in the cluster (a lost worker's partition is gone with it)."""
        up = set(workers_of(self.client))
        return [p for p in range(self.parts) if self.where[p][0] in up]


class _Level(Protocol):
    @property
    def complete(self) -> bool: ...

    @property
    def transitions(self) -> int: ...


def cap_of(run: Meter) -> int | None:
    """The transitions the budget has left (an expand stops when it runs past them)."""
    return None if run.budget.states is None else max(0, run.budget.states - run.states)


def check_complete(run: Meter, summaries: Sequence[_Level]) -> None:
    """Raise ``BudgetExhausted`` when some partition stopped its expand early (time or transitions)."""
    if not all(s.complete for s in summaries):
        n = sum(s.transitions for s in summaries)
        raise BudgetExhausted(run.budget, Spent(run.spent.seconds, run.states + n),
                              "time" if run.remaining_seconds() == 0.0 else "states")


def cut_short(run: Meter, exc: BudgetExhausted | None, states: int, transitions: int, depth: int, k: int) -> Unknown:
    """``Unknown`` for a partitioned search stopped by its budget (``exc``) or by Ctrl-C (``None``)."""
    if exc is not None:
        return Unknown.of(exc, f"explored {states} states and {transitions} transitions in complete levels; "
                               f"level {depth + 1} of bound {k} incomplete")
    return Unknown(run.budget, run.spent, "interrupt", f"interrupted after {states} states and {transitions} "
                   f"transitions in complete levels; level {depth + 1} of bound {k} incomplete")
