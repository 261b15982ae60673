"""The Adapter's own monitor state, kept mutable, with the public ``State`` built only when asked (Agenra
Section 6.1's ``S``; so that a mediated call need not rebuild frozen states and records per call).

``State`` is immutable, so the reference Adapter makes a new trace tuple, two records and two states
per admitted call. Nobody reads most of them: the Adapter is the only writer of its state. A
``Session`` holds the same information as mutable lists and dictionaries that only the Adapter
changes; ``snapshot`` builds the ``State`` the reference path would hold at that point, equal field by
field (the same records, the same binding tuple, counters of the same type and values).

Representation, and why it stays equal to the reference:
- ``rows[d]`` is record ``d`` as a mutable ``Row`` (the ``Record`` fields); its ``succeeded`` flips
  once, when ``observe`` would replace the record. ``snapshot`` turns rows into ``Record``s and keeps
  each built one while its flag is unchanged, so a later snapshot reuses it.
- ``used`` per list maps charged positions to their counts (zero elsewhere): a commit touches one
  entry per chosen grant, whatever the list's length (the flat scaling ``counters.py`` gave the frozen
  state). ``snapshot`` writes a tuple where the reference holds a tuple and ``Counters`` where it
  holds those (``counters.zeros``: lists longer than ``SHARED_FROM``), with the same values.
- ``bindings``, ``invalid``, ``satisfied`` and ``permits`` are the frozen values themselves (they
  change rarely): ``commit.bind`` computes a new binding tuple exactly as ``observe`` does.
- ``load`` takes any ``State`` (an application that installs a carried state, revision replay).
"""

from __future__ import annotations

from dataclasses import replace

from model.base.canonical import JSON
from model.monitor.decide.commit import bind
from model.monitor.decide.counters import SHARED_FROM, Counters, Usage
from model.monitor.decide.state import Permit, Record, State
from model.monitor.language.labels import Label
from model.monitor.language.policy import Resolver, Tool


class Row:
    """One admitted attempt, mutable in ``succeeded`` only; ``built`` caches its ``Record``."""

    __slots__ = ("agent", "args_json", "built", "destination", "label", "operation", "parents", "source",
                 "succeeded", "tool")

    def __init__(self, agent: str, tool: Tool, parents: tuple[int, ...], args_json: str, label: Label) -> None:
        self.agent = agent
        self.tool = tool.name
        self.operation = tool.operation
        self.source = tool.source
        self.destination = tool.destination
        self.parents = parents
        self.args_json = args_json
        self.label = label
        self.succeeded = False
        self.built: Record | None = None

    @classmethod
    def of(cls, rec: Record) -> Row:
        row = cls.__new__(cls)
        row.agent, row.tool, row.operation, row.source, row.destination = (
            rec.agent, rec.tool, rec.operation, rec.source, rec.destination)
        row.parents, row.args_json, row.label, row.succeeded, row.built = (
            rec.parents, rec.args_json, rec.label, rec.succeeded, rec)
        return row

    def record(self, d: int) -> Record:
        rec = self.built
        if rec is None or rec.succeeded is not self.succeeded:
            rec = self.built = Record(d, self.agent, self.tool, self.operation, self.source, self.destination,
                                      self.parents, self.args_json, self.label, self.succeeded)
        return rec


class Counts(dict[int, int]):
    """Charged positions and their counts; any other position reads 0 (``first_fit`` indexes it like a
    counter vector)."""

    def __missing__(self, k: int) -> int:
        return 0


class _Used:
    """One list's counters: charged positions and counts, and the shape its snapshot takes."""

    __slots__ = ("counts", "shared", "size")

    def __init__(self, size: int, shared: bool, counts: Counts) -> None:
        self.size = size
        self.shared = shared  # the reference holds ``Counters`` (else a tuple)
        self.counts = counts

    @classmethod
    def of(cls, used: Usage) -> _Used:
        return cls(len(used), isinstance(used, Counters), Counts({k: v for k, v in enumerate(used) if v}))

    def usage(self) -> Usage:
        if self.shared:
            return Counters(self.size, None, dict(self.counts))
        out = [0] * self.size
        for k, v in self.counts.items():
            out[k] = v
        return tuple(out)


class Session:
    __slots__ = ("app", "bindings", "invalid", "permits", "rows", "satisfied", "user")

    def __init__(self, n_user: int, n_app: int) -> None:
        # the reference's ``counters.zeros``: shared counters on lists longer than SHARED_FROM
        self.rows: list[Row] = []
        self.bindings: tuple[tuple[str, JSON, int], ...] = ()
        self.invalid: frozenset[str] = frozenset()
        self.satisfied: frozenset[str] = frozenset()
        self.permits: tuple[Permit, ...] = ()
        self.user = _Used(n_user, n_user > SHARED_FROM, Counts())
        self.app = _Used(n_app, n_app > SHARED_FROM, Counts())

    def load(self, state: State) -> None:
        self.rows = [Row.of(rec) for rec in state.trace]
        self.bindings, self.invalid, self.satisfied, self.permits = (
            state.bindings, state.invalid, state.satisfied, state.permits)
        self.user, self.app = _Used.of(state.used_user), _Used.of(state.used_app)

    def snapshot(self) -> State:
        return State(tuple(row.record(d) for d, row in enumerate(self.rows)), self.bindings, self.invalid,
                     self.user.usage(), self.app.usage(), self.satisfied, self.permits)

    def record(self, d: int) -> Row | None:
        """``State.record`` (what ``origins.produced_by`` reads)."""
        return self.rows[d] if 0 <= d < len(self.rows) else None

    def commit(self, row: Row, user: tuple[int, ...], app: tuple[int, ...], permit: int | None) -> int:
        """``commit.commit_in`` for an Allow: the record appended, both charges added, the permit consumed."""
        d = len(self.rows)
        self.rows.append(row)
        counts = self.user.counts
        for k in user:
            counts[k] = counts.get(k, 0) + 1
        counts = self.app.counts
        for k in app:
            counts[k] = counts.get(k, 0) + 1
        if permit is not None:
            self.permits = tuple(replace(p, consumed=True) if p.id == permit else p for p in self.permits)
        return d

    def succeed(self, d: int, applicable: list[Resolver] | None, value: JSON) -> None:
        """``commit.observe_in`` for a successful outcome ``value`` of record ``d`` and the resolvers that
        apply to it (a failed outcome changes nothing)."""
        self.rows[d].succeeded = True
        if applicable:
            self.bindings, self.invalid = bind(self.bindings, self.invalid, applicable, value, d)
