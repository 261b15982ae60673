"""Injected faults for the partitioned searches (``search.py``, ``system_search.py``): a task that raises
or stalls at its start, or hands over an empty result (what a task run a second time after its result
was lost would hand over if it were not idempotent), so that tests and ``experiments/dist_faults.py`` can
check that a lost, failed or slow task never makes a search report a shorter run as complete. Our
design; the papers say nothing about distribution.

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
_HANDS = frozenset({"take", "route", "cut", "warm"})  # the tasks that hand states (or a memo) on to another task


class InjectedFault(RuntimeError):
    """Raised by a task that ``Faults`` told to fail (a stand-in for a transient failure of a worker)."""


@dataclass(frozen=True, slots=True)
class Faults:
    """What to inject: ``fail``, ``stall`` and ``drop`` are per-task probabilities (a stall sleeps
    ``seconds``; a dropped task hands over nothing: only the tasks that hand states on, ``take``, ``route``
    and ``cut``, heed it), limited to ``sites`` (all when empty); ``first`` lists (site, kind) faults that
    fire on the first calls of that site on each worker, one call each, in order."""

    fail: float = 0.0
    stall: float = 0.0
    drop: float = 0.0
    seconds: float = 0.2
    seed: int = 0
    sites: frozenset[str] = frozenset()
    first: tuple[tuple[str, str], ...] = ()


@dataclass
class _Active:
    faults: Faults
    rng: random.Random
    pending: list[tuple[str, str]] = field(default_factory=list)


_ACTIVE: _Active | None = None
_FIRED: dict[str, int] = {}  # kind -> faults fired in this process, over every search


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
    """The faults fired in this process so far, per kind ("fail", "stall", "drop")."""
    return dict(_FIRED)


def hit(site: str) -> bool:
    """Called by a task of kind ``site`` before it does anything: stall or raise when told to; True when
    the task is to hand over an empty result."""
    a = _ACTIVE
    if a is None:
        return False
    f = a.faults
    kind = ""
    for i, (s, k) in enumerate(a.pending):
        if s == site:
            kind = k
            del a.pending[i]
            break
    if not kind and (not f.sites or site in f.sites):
        r = a.rng.random()
        kind = ("fail" if r < f.fail else "stall" if r < f.fail + f.stall
                else "drop" if r < f.fail + f.stall + f.drop and site in _HANDS else "")
    if not kind:
        return False
    _FIRED[kind] = _FIRED.get(kind, 0) + 1
    if kind == "stall":
        time.sleep(f.seconds)
        return False
    if kind == "drop":
        return True
    raise InjectedFault(f"injected failure of a {site} task")
