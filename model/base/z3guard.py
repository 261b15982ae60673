"""Z3 use that is safe beside other threads: no cyclic garbage collection while Z3 works.

Every Z3 call here runs on Z3's one global context, which is not thread-safe. A Z3 object's
finalizer decrements a reference count in that context (``Z3_dec_ref``). Our code leaves Z3 objects
in reference cycles (a recursive closure over a solver is one), and Python's cyclic collector runs
in whichever thread happens to allocate when a generation fills up. In a Dask worker, or in a
process that is a Dask client, that is often the event-loop thread, so a finalizer would run
concurrently with a solver call in the working thread. Both the worker processes and the driver of
``revision-corpus --workers 2`` died with SIGSEGV inside ``Z3_solver_check_assumptions`` this way.

``z3_section()`` (also usable as the decorator ``@exclusive``) makes a stretch of Z3 work exclusive
of every collection another thread might run:

- a collection that another thread starts while a section is active waits, in a ``gc.callbacks``
  hook, until the section ends (the hook runs before the collector touches anything); a section
  waits for a collection already under way in another thread to finish;
- sections in other threads wait too, so two threads never drive the global context at once;
- automatic collection is disabled for the section's duration (process-wide), so the hook only ever
  waits for an explicit ``gc.collect()`` (Dask's memory monitor makes one). That matters because a
  thread held in the hook may hold a lock of its own, such as an import lock the section then
  needs; an allocation-triggered collection can happen anywhere, an explicit one rarely does;
- the last exit collects the youngest generation in its own thread (everything the section
  allocated is there, since nothing collected meanwhile), then restores the collector's state.

Collections in the section's own thread are never held: their finalizers run in turn with its Z3
calls. Sections nest within a thread. Z3 objects that outlive their section must be dropped inside one:
the revision memo (``model/revision/explore/memo.py``) keeps Z3 terms across checks and clears them only in a
section; no result type holds a Z3 object.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_cond = threading.Condition()
_owner: int | None = None
_depth = 0
_was_enabled = True
_collecting_in: int | None = None


def _on_gc(phase: str, info: dict[str, int]) -> None:
    global _collecting_in
    me = threading.get_ident()
    with _cond:
        if phase == "start":
            while _owner is not None and _owner != me:
                _cond.wait()
            _collecting_in = me
        else:
            _collecting_in = None
            _cond.notify_all()


gc.callbacks.append(_on_gc)


def _enter() -> None:
    global _owner, _depth, _was_enabled
    me = threading.get_ident()
    with _cond:
        while (_owner is not None and _owner != me) or (_collecting_in is not None and _collecting_in != me):
            _cond.wait()
        if _owner is None:
            _owner, _was_enabled = me, gc.isenabled()
            gc.disable()
        _depth += 1


def _exit() -> None:
    global _owner, _depth
    with _cond:
        _depth -= 1
        last = _depth == 0
    if not last:
        return
    gc.collect(0)
    with _cond:
        _owner = None
        if _was_enabled:
            gc.enable()
        _cond.notify_all()


@contextmanager
def z3_section() -> Iterator[None]:
    _enter()
    try:
        yield
    finally:
        _exit()


def exclusive(f: Callable[P, R]) -> Callable[P, R]:
    """Run ``f`` inside ``z3_section()``."""

    @functools.wraps(f)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with z3_section():
            return f(*args, **kwargs)

    return run
