"""What both drivers of the partitioned search (``search.py`` for the monitor engine, ``system_search.py``
for a generic system) do alike: place the partitions on the workers, count states, depth and CPU as
levels complete, stop when a partition's expand ran out of budget, and say what the complete levels
covered when the search is cut short (the papers say nothing about distribution; the choice is
``search.py``'s: a level that did not complete is discarded)."""

from __future__ import annotations

import uuid
from asyncio import CancelledError
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from model.base.budget import BudgetExhausted, Meter, Spent, Unknown
from model.dist.cluster import WorkerLost, gather, workers
from model.dist.fault_injection import Faults, InjectedFault, install_on_worker
from model.dist.measure import Measure
from model.search.fpset import collision_probability

if TYPE_CHECKING:
    from distributed import Client


def workers_of(client: Client) -> list[str]:
    """The cluster's worker addresses, sorted: partition ``p`` lives on the ``p``-th (``cluster.workers``:
    asked of the scheduler, never the client's cached view, which may list no worker)."""
    addrs = workers(client)
    if not addrs:
        raise WorkerLost("the cluster has no worker to run the search on")
    return addrs


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
        try:
            return gather(self.client, futures, self.addrs)
        except BaseException as exc:
            if transient(exc):
                raise Lost(f"a task of the search failed ({type(exc).__name__}: {exc})") from exc
            raise

    def on(self, p: int, fn: Callable[..., Any], *args: Any, retries: int = 0, priority: int = 0) -> Any:
        return self.client.submit(fn, *args, workers=self.where[p], pure=False, retries=retries or None,
                                  priority=priority)

    def faults(self, faults: Faults | None) -> None:
        """Put ``faults`` in force on every worker of the search (``None``: remove them)."""
        self.client.run(install_on_worker, faults, workers=self.addrs)

    def alive(self) -> list[int]:
        """The partitions whose worker is still in the cluster (a lost worker's partition is gone with it)."""
        up = set(workers(self.client))
        return [p for p in range(self.parts) if self.where[p][0] in up]


class Lost(Exception):
    """A level of the search cannot be trusted: one of its tasks failed or was cancelled, or its results do
    not account for what it was sent (states expanded against the frontier, entries merged against the
    entries routed)."""


#: how often Dask runs a task again that failed (only tasks that leave their partition as they found it
#: when they fail: cutting a chunk, expanding one)
RETRIES = 2


def transient(exc: BaseException) -> bool:
    """Whether a task's exception is the cluster's (a failure, a cancellation, a lost worker), not the
    search's own (bad input in a system's successors is reported as it is)."""
    from distributed.client import FutureCancelledError, FuturesCancelledError
    from distributed.scheduler import KilledWorker

    return isinstance(exc, (InjectedFault, OSError, MemoryError, KilledWorker, FutureCancelledError,
                            FuturesCancelledError, CancelledError))


def account(what: str, sent: Sequence[object], got: Sequence[object]) -> None:
    """Raise ``Lost`` unless a level's tasks report ``got`` for what the driver ``sent`` them."""
    if list(sent) != list(got):
        raise Lost(f"{what}: sent {list(sent)}, the tasks report {list(got)}")


STEPS = 100  # progress units per level


class Tally:
    """A search's counts as its levels complete: states (in all, and per partition, whose fingerprint
    collision bounds add up), the deepest level with states, the workers' CPU (with ``measure``, also its
    critical path: per level the slowest partition), and the progress ``tick`` in hundredths of levels."""

    def __init__(self, held: list[int], bound: int, tick: Callable[[int, int], None] | None,
                 measure: Measure | None) -> None:
        self.held, self.bound, self.tick, self.measure = held, bound, tick, measure
        self.states, self.depth, self.cpu = sum(held), 0, 0.0

    def level(self, new: list[int], depth: int) -> bool:
        """Count the states each partition admitted at ``depth``; False when there were none (the end)."""
        if not sum(new):
            return False
        self.states += sum(new)
        self.held = [a + b for a, b in zip(self.held, new, strict=True)]
        self.depth = depth
        if self.tick is not None:
            self.tick(depth * STEPS, self.bound * STEPS)
        return True

    def worked(self, cpus: list[float]) -> None:
        """Add one round of tasks' CPU seconds, one per partition."""
        self.cpu += sum(cpus)
        if self.measure is not None:
            self.measure.critical_cpu += max(cpus)

    def collision(self) -> float:
        return sum(collision_probability(n) for n in self.held)


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


def cut_short(run: Meter, exc: BudgetExhausted | Lost | None, states: int, transitions: int, depth: int,
              k: int) -> Unknown:
    """``Unknown`` for a partitioned search stopped by its budget (``exc``), by a level that cannot be
    trusted (``Lost``: limit "lost") or by Ctrl-C (``None``)."""
    if isinstance(exc, Lost):
        return Unknown(run.budget, run.spent, "lost", f"{exc}; explored {states} states and {transitions} "
                       f"transitions in complete levels; level {depth + 1} of bound {k} incomplete")
    if exc is not None:
        return Unknown.of(exc, f"explored {states} states and {transitions} transitions in complete levels; "
                               f"level {depth + 1} of bound {k} incomplete")
    return Unknown(run.budget, run.spent, "interrupt", f"interrupted after {states} states and {transitions} "
                   f"transitions in complete levels; level {depth + 1} of bound {k} incomplete")
