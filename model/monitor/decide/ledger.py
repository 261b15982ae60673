"""First-fit allocation over ordered permission lists (Agenra Section 5.2).

For each effect in order, scan the list in declaration order and reserve one unit of the first
*ready* matching allow that still has capacity (``quota is None`` or ``used + reserved < quota``).
Both lists must succeed for every effect before anything is charged: ``allocate`` is pure and
returns the tentative charge vector; ``commit`` adds it, and only ``step`` on Allow calls it.
Deny entries never carry capacity and are skipped here (they were handled by ``Denied``).
No search for another feasible assignment is made: first-fit *is* the semantics (the paper
explains why, and the online obstruction of Barth and Mitchell shows no prefix-based allocator
completes every feasible client).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from model.base.canonical import JSON
from model.base.fastinit import fast_init
from model.monitor.decide.matching import Effect, entry_matches, ready
from model.monitor.decide.state import State
from model.monitor.language.policy import Entry, EntryKind


@fast_init
@dataclass(frozen=True, slots=True)
class Allocation:
    """The positions chosen, one per effect, on a list of ``size`` entries; ``charge`` is the resulting
    charge vector (derived, so a decision on a long list does not build one)."""

    positions: tuple[int, ...]
    size: int

    @property
    def charge(self) -> tuple[int, ...]:
        out = [0] * self.size
        for k in self.positions:
            out[k] += 1
        return tuple(out)


def has_capacity(entry: Entry, used: int, reserved: int) -> bool:
    return entry.quota is None or used + reserved < entry.quota


def allocate(entries: Sequence[Entry], used: Sequence[int], effects: Sequence[Effect],
             args: Mapping[str, JSON], state: State) -> Allocation | None:
    """First-fit with tentative reservations; ``None`` if some effect finds no account."""
    reserved = [0] * len(entries)
    positions: list[int] = []
    for eff in effects:
        for k, entry in enumerate(entries):
            if entry.kind is not EntryKind.ALLOW or not ready(entry, state):
                continue
            if not entry_matches(entry, eff, args, state):
                continue
            if has_capacity(entry, used[k], reserved[k]):
                reserved[k] += 1
                positions.append(k)
                break
        else:
            return None
    return Allocation(tuple(positions), len(entries))


def commit(used: Sequence[int], charge: Sequence[int]) -> tuple[int, ...]:
    return tuple(u + q for u, q in zip(used, charge, strict=True))


def within_limits(entries: Sequence[Entry], used: Sequence[int]) -> bool:
    """Well-formedness clause: counters stay within their finite limits."""
    return len(entries) == len(used) and all(
        e.quota is None or u <= e.quota for e, u in zip(entries, used, strict=True)
    )
