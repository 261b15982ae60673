"""The part of a call plan's proof of Allow that depends on the arguments (Agenra Section 6.2's checks
for explicit denies, matching and ready allows, and first-fit, over the compiled policy): no explicit
deny matches, a matching allow is ready for every effect on both permission lists, and first-fit's
positions on both. Anything less and the plan gives up, so
``decide`` gives the verdict and its reason (``plan.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from model.base.canonical import JSON
from model.monitor.adapter.live_state import Session
from model.monitor.decide.compiled import NOKEY, Compiled, CompiledEntry, scalar_key
from model.monitor.decide.compiled_decide import first_fit
from model.monitor.decide.matching import Effect


def matched_first_fit(c: Compiled, s: Session, effects: tuple[Effect, ...],
                      args: Mapping[str, JSON]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """No explicit deny, a matching and ready allow per (effect, list), and first-fit's positions on both
    lists; ``None`` when any of them fails."""
    # no explicit deny on either list
    for side in c.deny_sides:
        for eff in effects:
            act = side.actions.get(eff.action)
            if act is None or not act.deny_all:
                continue
            k = scalar_key(eff.resource)
            if k is NOKEY:
                return None
            for e in act.deny_by.get(k, act.deny_other):
                if e.matches(eff.resource, True, args, s):
                    return None
    # a matching allow per (effect, list), one of them ready (else Deny or Pause)
    satisfied = s.satisfied
    matched: list[list[CompiledEntry]] = []
    for side in c.sides:
        for eff in effects:
            act = side.actions.get(eff.action)
            if act is None:
                return None
            resource = eff.resource
            k = scalar_key(resource)
            if k is NOKEY:
                return None
            allows = [e for e in act.allow_by.get(k, act.allow_other) if e.matches(resource, True, args, s)]
            if not allows:
                return None
            for e in allows:
                if e.requires is None or e.requires in satisfied:
                    break
            else:
                return None
            matched.append(allows)
    # first-fit on both lists (compiled_decide's step 7 over the session's counters)
    chosen = first_fit(matched, len(effects), (s.user.counts, s.app.counts), satisfied)
    return None if isinstance(chosen, int) else chosen
