"""What the precise adapter hands out and records (Agenra Sections 2 and 3): opaque handles on stored
results, the outcome of a call (a handle, a refusal with the core's verdict, or a failure after the
charge), and the log line of each proposed call. ``adapter.py`` re-exports every name.

Choice where the source is silent: a handle is honoured only if it is the very object the adapter issued
(process-local object identity, as in the source); ``at`` derives field handles with the same producer.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.canonical import JSON
from model.monitor.decide.verdict import Decision, Verdict


class Handle:
    """An opaque reference to one immutable stored result (or a field of it); only an
    ``Adapter`` makes base handles, and ``at`` derives field handles with the same producer."""

    __slots__ = ("_base", "_id", "_path")

    def __init__(self, record_id: int, path: tuple[str, ...] = (), base: Handle | None = None) -> None:
        self._id = record_id
        self._path = path
        self._base = self if base is None else base

    @property
    def id(self) -> int:
        return self._id

    @property
    def path(self) -> tuple[str, ...]:
        return self._path

    def at(self, *path: str) -> Handle:
        """A handle on a field of this result: same producer, a sub-value as the argument."""
        return Handle(self._id, (*self._path, *path), self._base)

    def __repr__(self) -> str:
        return f"<handle #{self._id}{''.join('.' + p for p in self._path)}>"


@dataclass(frozen=True, slots=True)
class Refusal:
    """The call did not reach the tool: Deny or Pause, with the core's verdict."""

    verdict: Verdict

    @property
    def decision(self) -> Decision:
        return self.verdict.decision


@dataclass(frozen=True, slots=True)
class Failure:
    """The call was admitted and charged, but the tool failed; no handle is issued."""

    record_id: int
    error: str


CallResult = Handle | Refusal | Failure


@dataclass
class Event:
    """One line of the adapter's log: what was proposed and what happened."""

    tool: str
    args: dict[str, JSON]
    verdict: Verdict
    result: str
    record_id: int | None = None
