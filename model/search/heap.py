"""The cycle collector during a bounded search, a choice the papers are silent on: it is paused while the
single-process search (``layered.layered``, ``system.bfs.search``) runs, and while a task of the
partitioned search (``model/dist/partition.py``) runs, after which everything the task left alive is
moved out of the collector's sight (``gc.freeze``).

Why: a search holds hundreds of thousands of long-lived tuples (states, links, frontier entries) and a
level allocates as many again. With the collector on, each full collection walks every tracked object,
and the walks grow with the visited set: measured in-process on the report model at bound 7, the
single-process loop spent about 40% of its CPU in the collector. The search's own values are acyclic
tuples, dicts and strings, freed by reference counting; what the pause keeps from the collector is only
cyclic garbage made during the search (none in the search's code; the monitor's decisions build acyclic
values too), which the first collection after the pause frees. Both engines get the same treatment so
that a comparison between them (``experiments/dask_scaling.py``) measures the search, not the collector.

On a worker, frozen objects are still freed when their count drops to zero (a dropped partition's tables
go when ``drop`` releases them). When a search ends, ``release`` hands the frozen objects back to the
collector, so cyclic garbage of other code frozen along the way (the worker's own) is collected in the
next full collection instead of living as long as the worker.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

A = ParamSpec("A")
R = TypeVar("R")


def release() -> None:
    """Give everything frozen by ``quiet`` back to the collector (a search has ended on this worker)."""
    gc.unfreeze()


def quiet(fn: Callable[A, R]) -> Callable[A, R]:
    """``fn`` with the cycle collector paused while it runs and its survivors frozen afterwards."""

    @wraps(fn)
    def run(*args: A.args, **kwargs: A.kwargs) -> R:
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.freeze()
            if was:
                gc.enable()

    return run


@contextmanager
def paused() -> Iterator[None]:
    """The cycle collector off for the ``with`` body (a single-process search), as it was afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
