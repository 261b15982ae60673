"""Injected faults for the partitioned searches (``search.py``, ``system_search.py``): a task that raises
or stalls at its start, so that tests and ``experiments/dist_faults.py`` can check that a lost, failed or
slow task never makes a search report a shorter run as complete. Our design; the papers say nothing about
distribution.

The driver installs a ``Faults`` on every worker for the duration of one search (``install`` through
``Client.run``) and removes it at the end; the worker tasks call ``hit(site)`` first thing, before they
touch their partition, so an injected failure leaves the partition as it was (the driver may re-run the
task). Choices: a fault fires at task entry only (a failure half-way through a task is a different fault,
which the driver's accounting catches instead); ``first`` fires deterministically on the first calls of a
site on each worker, the probabilities draw from a generator seeded by ``seed`` and the worker's address,
so a run's faults are reproducible for a given cluster.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

#: the task kinds a fault can hit (the ``site`` each task passes to ``hit``)
SITES = frozenset({"step", "open", "take", "chunk", "route", "finish", "cut"})


class InjectedFault(RuntimeError):
    """Raised by a task that ``Faults`` told to fail (a stand-in for a transient failure of a worker)."""


@dataclass(frozen=True, slots=True)
class Faults:
    """What to inject: ``fail`` and ``stall`` are per-task probabilities (a stall sleeps ``seconds``),
    limited to ``sites`` (all when empty); ``first`` lists (site, "fail" or "stall") faults that fire on the
    first calls of that site on each worker, one call each, in order."""

    fail: float = 0.0
    stall: float = 0.0
    seconds: float = 0.2
    seed: int = 0
    sites: frozenset[str] = frozenset()
    first: tuple[tuple[str, str], ...] = ()


@dataclass
class _Active:
    faults: Faults
    rng: random.Random
    pending: list[tuple[str, str]] = field(default_factory=list)
    fired: dict[str, int] = field(default_factory=dict)  # "fail"/"stall" -> count on this worker


_ACTIVE: _Active | None = None


def install(faults: Faults | None, where: str = "") -> int:
    """Put ``faults`` in force in this process (``None`` removes them); ``where`` seeds the generator (the
    worker's address). Returns 0 (``Client.run`` wants a value)."""
    global _ACTIVE
    _ACTIVE = None if faults is None else _Active(faults, random.Random(f"{faults.seed}/{where}"),
                                                  list(faults.first))
    return 0


def install_on_worker(faults: Faults | None, dask_worker: Any = None) -> int:
    """``install`` as ``Client.run`` calls it on a worker (which passes the worker: its address seeds the
    generator)."""
    return install(faults, "" if dask_worker is None else str(dask_worker.address))


def fired() -> dict[str, int]:
    """The faults fired in this process since ``install``."""
    return {} if _ACTIVE is None else dict(_ACTIVE.fired)


def hit(site: str) -> None:
    """Called by a task of kind ``site`` before it does anything: stall or raise when told to."""
    a = _ACTIVE
    if a is None:
        return
    f = a.faults
    kind = ""
    for i, (s, k) in enumerate(a.pending):
        if s == site:
            kind = k
            del a.pending[i]
            break
    if not kind and (not f.sites or site in f.sites):
        r = a.rng.random()
        kind = "fail" if r < f.fail else "stall" if r < f.fail + f.stall else ""
    if not kind:
        return
    a.fired[kind] = a.fired.get(kind, 0) + 1
    if kind == "stall":
        time.sleep(f.seconds)
        return
    raise InjectedFault(f"injected failure of a {site} task")
