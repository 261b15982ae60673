"""Budgets for every computation that can grow, and the ``Unknown`` answer when one runs out.

No source document speaks of budgets; they are ours. A long computation — a bounded
search, an edit check, a revision check, an exploration — takes a ``Budget`` (wall-clock seconds
and/or states), starts a ``Meter`` from it, and calls ``meter.tick()`` once per unit of work (a state
visited, a transition stepped, a candidate examined: each engine's docstring says which). When the
budget is spent, ``tick`` raises ``BudgetExhausted``; the engine catches it *at its own boundary* and
answers ``Unknown`` — a third verdict beside "holds" and "fails", never a wrong one and never a hang.

Choices where nothing is given:
- The clock is checked once every ``_CLOCK_EVERY`` ticks, so a tick costs an integer increment; a
  budget may therefore overrun by at most that many ticks' worth of time.
- ``Budget()`` (no limits) is allowed for library callers; every CLI command has a finite default
  (``DEFAULT_CLI``, 60 s: long enough for every corpus row, short enough to wait for) and
  ``--budget none`` must be asked for explicitly. An Unknown under that default says so.
- ``BudgetExhausted`` is an exception only *inside* an engine; it never crosses a public function
  (those return ``Unknown``) and the CLI never prints it as a traceback.
- Memory: ``memory`` bytes of this process's resident set, read (``resident_bytes``) with the clock; a
  budget may overrun it by what ``_CLOCK_EVERY`` ticks allocate. It limits the process running the
  engine (a Dask worker's memory is bounded by Dask's own worker limit).
- An interrupt (Ctrl-C) inside an engine that catches it answers ``Unknown`` with limit ``interrupt``.
- Progress: the meter calls an optional ``on_progress(spent)`` at most every ``_PROGRESS_EVERY``
  seconds, so a terminal bar can follow work whose total is not known in advance.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from model.base.errors import InputKind, InvalidInput, found

_CLOCK_EVERY = 256
_PROGRESS_EVERY = 0.1


@dataclass(frozen=True, slots=True)
class Spent:
    """What a computation used: wall-clock seconds and ticks (states, transitions, ...)."""

    seconds: float
    states: int

    def to_json(self) -> dict[str, float | int]:
        return {"seconds": round(self.seconds, 3), "states": self.states}


@dataclass(frozen=True, slots=True)
class Budget:
    """At most ``seconds`` of wall-clock time, ``states`` ticks and ``memory`` resident bytes; ``None``
    means no limit."""

    seconds: float | None = None
    states: int | None = None
    memory: int | None = None

    def __post_init__(self) -> None:
        # every argument error names the field and what it takes: a string, a bool, a float where a count is
        # asked, or an integer past float range would otherwise surface as a TypeError or OverflowError
        # from deep inside a meter
        seconds, states, memory = self.seconds, self.states, self.memory
        if seconds is not None and not (isinstance(seconds, int | float) and not isinstance(seconds, bool)
                                        and _finite(seconds) and seconds > 0):
            raise InvalidInput("budget: seconds", "a positive, finite number of seconds", _shown(seconds),
                               InputKind.VALUE)
        if states is not None and not (isinstance(states, int) and not isinstance(states, bool) and states > 0):
            raise InvalidInput("budget: states", "a positive whole number of states", _shown(states), InputKind.VALUE)
        if memory is not None and not (isinstance(memory, int) and not isinstance(memory, bool) and memory > 0):
            raise InvalidInput("budget: memory", "a positive whole number of bytes", _shown(memory), InputKind.VALUE)

    @property
    def unlimited(self) -> bool:
        return self.seconds is None and self.states is None and self.memory is None

    def start(self, on_progress: Callable[[Spent], None] | None = None) -> Meter:
        return Meter(self, on_progress)

    def __str__(self) -> str:
        return "unlimited" if self.unlimited else self.spec().replace(",", ", ").replace("states", " states")

    def spec(self) -> str:
        """The text ``Budget.parse`` reads back to this budget (``none`` when unlimited)."""
        parts = []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        if self.states is not None:
            parts.append(f"{self.states}states")
        if self.memory is not None:
            parts.append(f"{self.memory // 2**20}mb" if self.memory % 2**20 == 0 else f"{self.memory}b")
        return ",".join(parts) if parts else "none"

    def to_json(self) -> dict[str, float | int | None]:
        return {"seconds": self.seconds, "states": self.states, "memory": self.memory}

    @staticmethod
    def parse(text: str, where: str = "--budget") -> Budget:
        """Read ``30s``, ``5m``, ``200000states``, ``2gb``, ``30s,200000states,2gb`` or ``none``.

        Units: ``s``, ``m``, ``h`` for time; ``states`` (or ``st``) for ticks; ``b``, ``kb``, ``mb``, ``gb``
        (powers of 1024) for resident memory. Each kind at most once.
        """
        t = text.strip().lower()
        if t in ("none", "unlimited"):
            return Budget()
        seconds: float | None = None
        states: int | None = None
        memory: int | None = None
        for item in t.split(","):
            m = _ITEM.fullmatch(item.strip())
            if m is None:
                raise InvalidInput(where, "a budget such as 30s, 5m, 200000states, 2gb, 30s,200000states or none",
                                   repr(text)[:60], InputKind.VALUE)
            num, unit = m.group(1), m.group(2)
            if len(num) > _MAX_DIGITS:  # int() refuses past 4,300 digits; no real budget needs 19
                raise InvalidInput(where, f"a budget of at most {_MAX_DIGITS} digits per number",
                                   f"a number of {len(num)} characters", InputKind.VALUE)
            if unit in ("states", "state", "st"):
                if states is not None or not num.isdigit():
                    raise InvalidInput(where, "one whole number of states", repr(text)[:60], InputKind.VALUE)
                states = int(num)
            elif unit in _BYTES:
                if memory is not None:
                    raise InvalidInput(where, "one memory limit", repr(text)[:60], InputKind.VALUE)
                memory = int(float(num) * _BYTES[unit])
            else:
                if seconds is not None:
                    raise InvalidInput(where, "one time limit", repr(text)[:60], InputKind.VALUE)
                seconds = float(num) * {"s": 1, "m": 60, "h": 3600}[unit]
        return Budget(seconds, states, memory)


_MAX_DIGITS = 18


def _finite(x: float) -> bool:
    try:
        return math.isfinite(x)
    except OverflowError:  # an int beyond float range
        return False


def _shown(value: object) -> str:
    return found(value)
_BYTES = {"b": 1, "kb": 2**10, "mb": 2**20, "gb": 2**30}
_ITEM = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(states|state|st|s|m|h|b|kb|mb|gb)")


def resident_bytes() -> int:
    """This process's resident set size now (Linux ``/proc``; elsewhere its peak, from ``resource``)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:  # pragma: no cover - not Linux
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


try:
    import os as _os

    _PAGE = _os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
    _PAGE = 4096

#: What a CLI command uses when ``--budget`` is not given: interactive-sized (a person waits for it), so an
#: unbounded question such as ``search --bound 64`` answers Unknown in a minute rather than after ten; the
#: answer then says how to ask for more (``Unknown.describe``).
DEFAULT_CLI = Budget(seconds=60.0)
#: The sentence an Unknown under the default budget ends with.
MORE = "the default budget; ask for more with --budget 10m, or --budget none"


class BudgetExhausted(Exception):
    """Raised by ``Meter.tick`` inside an engine; the engine turns it into ``Unknown``."""

    def __init__(self, budget: Budget, spent: Spent, limit: str) -> None:
        self.budget = budget
        self.spent = spent
        self.limit = limit  # "time", "states" or "memory"
        super().__init__(f"budget exhausted ({limit}): {budget}")


class Meter:
    """A running budget: ``tick()`` per unit of work; raises ``BudgetExhausted`` when it runs out."""

    __slots__ = ("_deadline", "_last_progress", "_on_progress", "_start", "_until_clock", "budget", "states")

    def __init__(self, budget: Budget, on_progress: Callable[[Spent], None] | None = None) -> None:
        self.budget = budget
        self.states = 0
        self._start = time.monotonic()
        self._deadline = None if budget.seconds is None else self._start + budget.seconds
        self._on_progress = on_progress
        self._last_progress = self._start
        self._until_clock = _CLOCK_EVERY

    @property
    def spent(self) -> Spent:
        return Spent(time.monotonic() - self._start, self.states)

    def tick(self, n: int = 1) -> None:
        self.states += n
        limit = self.budget.states
        if limit is not None and self.states > limit:
            raise BudgetExhausted(self.budget, self.spent, "states")
        self._until_clock -= n
        if self._until_clock <= 0:
            self._until_clock = _CLOCK_EVERY
            self.check_time()

    def room(self) -> int:
        """How many ticks of one unit from now would only count: none could pass the state limit or
        reach a clock check. A hot loop may count up to that many itself and hand them over with one
        ``tick(n)`` — the same effect as ``n`` calls — before ticking again one by one."""
        r = self._until_clock - 1
        limit = self.budget.states
        if limit is not None and limit - self.states < r:
            r = limit - self.states
        return r if r > 0 else 0

    def check_time(self) -> None:
        """Check the clock now (call between expensive steps that tick rarely, e.g. an SMT query)."""
        now = time.monotonic()
        if self._deadline is not None and now > self._deadline:
            raise BudgetExhausted(self.budget, Spent(now - self._start, self.states), "time")
        if self.budget.memory is not None and resident_bytes() > self.budget.memory:
            raise BudgetExhausted(self.budget, Spent(now - self._start, self.states), "memory")
        if self._on_progress is not None and now - self._last_progress >= _PROGRESS_EVERY:
            self._last_progress = now
            self._on_progress(Spent(now - self._start, self.states))

    def remaining_seconds(self) -> float | None:
        """Seconds left (for handing a timeout to a solver such as Z3); ``None`` when unlimited."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.monotonic())


@dataclass(frozen=True, slots=True)
class Unknown:
    """The third verdict: the budget ran out before the property was proved or refuted.

    ``limit`` says which limit ran out ("time", "states", "memory", or "interrupt" for Ctrl-C); ``spent``
    what was used; ``reason`` a sentence for humans (e.g. "explored 200000 states up to bound 7 of 12").
    """

    budget: Budget
    spent: Spent
    limit: str
    reason: str = ""

    @staticmethod
    def of(exc: BudgetExhausted, reason: str = "") -> Unknown:
        return Unknown(exc.budget, exc.spent, exc.limit, reason)

    def describe(self) -> str:
        what = f"budget exhausted ({self.limit}) after {self.spent.seconds:.1f}s and {self.spent.states} states"
        if self.budget == DEFAULT_CLI:
            what += f" ({MORE})"
        return f"{what}: {self.reason}" if self.reason else what

    def to_json(self) -> dict[str, object]:
        return {"verdict": "unknown", "limit": self.limit, "budget": self.budget.to_json(),
                "spent": self.spent.to_json(), "reason": self.reason}
