"""The generic successor interface of the bounded search (our design, in the spirit of the missing Section 8
of Agenra: forbidden executions and useful completions, now over any finite transition system).

A ``System`` gives an initial state, the labelled transitions of a state, a canonical key per state (the
visited set's key and, hashed, its 64-bit fingerprint) and named queries. A transition is a tuple
``(label, target, hits, meets)``: ``hits`` and ``meets`` are bit masks over the system's queries — bit ``i``
of ``hits`` says the transition makes query ``i`` hold (a forbidden execution or a goal reached), bit ``i``
of ``meets`` that it meets the query's premise. Choices:
- Queries are observed on transitions, not states: the system computes them where it knows what changed,
  which is cheaper than re-reading a whole state and says *which step* did it.
- A query's verdict follows the monitor engine's: ``Found`` (with a shortest trace of labels) when some
  transition within the bound hits it, else ``Vacuous`` when no transition met its premise, else
  ``Exhausted``. ``kind`` (forbidden or goal) only says which verdict passes: ``Exhausted`` for a
  forbidden query, ``Found`` for a goal.
- The order of ``successors`` is part of the system: the first parent (in frontier order) of a state wins,
  so traces are reproducible; the fingerprint mode rebuilds a trace by the position of each transition in
  that order, so ``successors`` must be deterministic.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

S = TypeVar("S")

#: (label, target state, query bits it makes hold, query bits whose premise it meets)
Transition = tuple[str, S, int, int]


class QueryKind(enum.Enum):
    FORBIDDEN = "forbidden"  # passes when Exhausted: no execution within the bound reaches it
    GOAL = "goal"  # passes when Found


@dataclass(frozen=True, slots=True)
class Query:
    name: str
    kind: QueryKind
    description: str = ""


class System(Protocol[S]):
    """A finite transition system the generic search explores (module docstring)."""

    @property
    def name(self) -> str: ...

    @property
    def queries(self) -> tuple[Query, ...]: ...

    def initial(self) -> S: ...

    def successors(self, state: S) -> Iterable[Transition[S]]: ...

    def key(self, state: S) -> Hashable: ...  # canonical: equal keys are one state


@runtime_checkable
class SharedMemo(Protocol):
    """The optional half of ``System`` for a system whose successors are memoized in shares that several
    processes can build once between them (the partitioned search, ``model/dist/system.py``): share ``s`` of
    ``memo_shares()`` is built by one process, exported, and adopted by the others, each of which verifies it
    (and refuses it, then computing those entries itself, when it cannot). ``memo_build`` stops building after
``seconds`` (the search's time budget) and exports what it built."""

    def memo_shares(self) -> int: ...

    def memo_build(self, shares: tuple[int, ...], bound: int, key: bytes, seconds: float | None = None) -> bytes: ...

    def memo_adopt(self, blob: object, shares: tuple[int, ...], bound: int, key: bytes) -> tuple[int, str]: ...


@runtime_checkable
class Interns(Protocol[S]):
    """The optional half of ``System`` that maps a state equal to one this process made (a copy, e.g. unpickled
    from another process) to a state built of this process's own parts, which compares by identity."""

    def canonical(self, state: S) -> S: ...
