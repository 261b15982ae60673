"""Symmetry reduction for the generic search (our design; the papers are silent; the technique is the
classic one of explicit-state model checkers such as Murphi and TLC: store one state per orbit of a
permutation group that maps transitions to transitions and query bits to themselves).

A system *declares* its symmetry by implementing ``Symmetric``: ``orbit_key(state)`` is equal for two
states exactly when a permutation of the declared group maps one to the other (the admission model
declares its requesters interchangeable: a state's orbit key is its policy version and the multiset of
per-requester (grant, local state) pairs). ``reduced(sys)`` is the same system keyed by orbits, so the
engine's visited set (exact or fingerprint) keeps one state per orbit; nothing else changes.

Why the answers are the unreduced search's: if ``g`` is a symmetry, ``g(s)`` has the transitions of
``s`` mapped by ``g``, with the same query bits; so the orbits reachable within ``d`` steps are the
orbits of the states reachable within ``d`` steps, and a query is hit within ``d`` steps in one search
exactly when it is in the other. Hence verdicts, shortest lengths and ``states`` modulo symmetry agree
(``states`` of the reduced run = distinct orbits of the unreduced run's states), while
``transitions`` drop with the states expanded.

Witnesses need no de-canonicalisation: the frontier keeps the *state* that first reached an orbit (not
a canonical representative), so each stored state was reached by a real transition from a stored
parent, and a trace of labels (or of successor positions, replayed) is a path of the unreduced system.
A test replays every reduced witness on the unreduced system and checks the orbit counts.

Choice: the declared group is trusted as a claim about the system, as ``key`` is; the test checks it on
the corpus models by comparing against the unreduced search.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Generic, Protocol, TypeVar, runtime_checkable

from model.search.system.compact_layer import Splits
from model.search.system.protocol import Query, System, Transition

S = TypeVar("S")


@runtime_checkable
class Symmetric(Protocol[S]):
    """The optional half of ``protocol.System`` that declares a symmetry group (module docstring)."""

    def orbit_key(self, state: S) -> Hashable: ...


class Reduced(Generic[S]):
    """``sys`` with its visited-set key replaced by its orbit key (``protocol.System``, and ``Splits``
    when ``sys`` splits its states)."""

    def __init__(self, sys: System[S]) -> None:
        if not isinstance(sys, Symmetric):
            raise TypeError(f"system {sys.name} declares no symmetry (no orbit_key)")
        self.sys = sys
        self.orbit = sys.orbit_key
        self.name = sys.name
        self.queries: tuple[Query, ...] = sys.queries

    def initial(self) -> S:
        return self.sys.initial()

    def successors(self, state: S) -> Iterable[Transition[S]]:
        return self.sys.successors(state)

    def key(self, state: S) -> Hashable:
        return self.orbit(state)


class ReducedSplits(Reduced[S]):
    def parts(self, state: S) -> tuple[Hashable, ...]:
        assert isinstance(self.sys, Splits)
        return self.sys.parts(state)

    def whole(self, parts: tuple[Hashable, ...]) -> S:
        assert isinstance(self.sys, Splits)
        return self.sys.whole(parts)


def reduced(sys: System[S]) -> Reduced[S]:
    """``sys`` reduced by its declared symmetry (``TypeError`` when it declares none)."""
    return ReducedSplits(sys) if isinstance(sys, Splits) else Reduced(sys)


def symmetric(sys: object) -> bool:
    return isinstance(sys, Symmetric)


__all__ = ["Reduced", "Symmetric", "reduced", "symmetric"]
