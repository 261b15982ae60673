"""Side conditions of the structural rules (Agenra Section 7.1), shared by the search
(``structural.py``) and the certificate checker (``checker.py``) so both read one definition.

- ``keeps_position(old, new, capacity, old_used, new_used)``: the new position stands for the old
  account: same kind, requirement and permit flag, and the same quota and usage (``PREFIX``) or at
  least the old residual capacity (``CAPACITY``): ``m′ − u′ ≥ m − u``, or ``m′ = ∞`` (``None``); an
  unlimited old account needs an unlimited new one. At task start both usages are zero, so the
  residual is the quota; mid-task the usages are the old state's and the carried ones (carry.py).
- ``permit_safe(entries)``: a capacity extension can change which grant first-fit charges (new
  picks ``k ≤ j`` where old picked ``j``). The source's base correspondence excludes exact-call
  permits (Section 9); we keep capacity extensions sound with them by requiring that two old
  allows with different permit flags never overlap on ``E`` — otherwise a call charged to a
  permit-free grant before could need a permit after. This condition is our addition.
- ``monitor_unchanged(old, new)``: everything but the two permission lists (and the name) is equal,
  so flow, origin, history, resolver and tool behaviour coincide (the theorem's hypotheses).
"""

from __future__ import annotations

from collections.abc import Sequence

from model.monitor.language.policy import Entry, EntryKind, Policy, Tool
from model.revision.certify.independence import Independent, independent
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.identity import same_monitor


def residual(e: Entry, used: int) -> int | None:
    """Remaining capacity ``m − u``; ``None`` is ∞ (an unlimited quota)."""
    return None if e.quota is None else e.quota - used


def keeps_position(old: Entry, new: Entry, capacity: bool, old_used: int = 0, new_used: int = 0) -> bool:
    if (old.kind, old.requires, old.permit) != (new.kind, new.requires, new.permit):
        return False
    if old.kind is EntryKind.DENY:
        return True
    if not capacity:
        return old.quota == new.quota and old_used == new_used
    r_old, r_new = residual(old, old_used), residual(new, new_used)
    return r_new is None or (r_old is not None and r_new >= r_old)


def permit_safe(entries: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool]) -> bool:
    allows = [e for e in entries if e.kind is EntryKind.ALLOW]
    for i, a in enumerate(allows):
        for b in allows[i + 1:]:
            if a.permit != b.permit and not isinstance(independent(a, b, effects, tools), Independent):
                return False
    return True


def monitor_unchanged(old: Policy, new: Policy, memo: Memo | None = None) -> bool:
    """``memo``: answered once per pair of policy objects (``memo.py``)."""
    if memo is None:
        return same_monitor(old, new)
    return memo.same_monitor(old, new)


def outside_simulation(old: Policy, new: Policy, memo: Memo | None = None, who: str = "") -> str | None:
    """Why a simulation (per list, joint, explicit or symbolic) cannot speak for this revision, or
    ``None``: it relates counters only, so the rest of the monitor must be unchanged, and it has no
    place for exact-call permits. Shared by every proposer and checker so that they refuse alike;
    ``who`` names the checker in the permit refusal."""
    if not monitor_unchanged(old, new, memo):
        return "the revision changes more than the two permission lists"
    if any(e.permit for xs in (old.user, old.application, new.user, new.application) for e in xs):
        return f"{who + ': ' if who else ''}exact-call permits are outside the simulation check"
    return None
