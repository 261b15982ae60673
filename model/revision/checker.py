"""The independent certificate checker: does a ``Certificate`` prove ``P ⤳_E P′`` and
``A ⤳_E A′`` for this old and new policy? (Agenra Section 7.1.)

It shares no code with the search in ``structural.py``: it walks the derivation tree, checks that
each step's lists chain up to the policies' lists, and re-decides every side condition — matching
agreement with Z3 (``agreement.agree``), independence with Z3 (``independence.independent``), the
position and permit conditions of ``conditions.py``, and that nothing outside the two lists
changed. The recorded justifications are not trusted. Answers ``Valid`` or ``Invalid(reason)``.

Usage (mid-task revisions): each step's usage vectors must chain up to the old state's counters and
the counters carried onto the new lists (``ledgers``; ``None`` is task start, every counter zero):
``PREFIX`` keeps quota and counter at every old position, ``CAPACITY`` needs ``m′ − u′ ≥ m − u`` (or
∞), ``SWAP`` moves the two counters with their accounts, ``LIFT`` keeps the head's counter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from model.monitor.policy import Entry, EntryKind, Policy, Tool
from model.revision.agreement import Agree, agree
from model.revision.carry import Ledgers
from model.revision.certificate import Certificate, Rule, Step
from model.revision.conditions import keeps_position, monitor_unchanged, permit_safe
from model.revision.effects import EffectSet
from model.revision.identity import same_entries
from model.revision.independence import Independent, independent


@dataclass(frozen=True, slots=True)
class Valid:
    pass


@dataclass(frozen=True, slots=True)
class Invalid:
    reason: str


CheckVerdict = Valid | Invalid


Used = tuple[int, ...]


def _step(s: Step, source: tuple[Entry, ...], target: tuple[Entry, ...], effects: EffectSet,
          tools: Sequence[Tool], where: str, su: Used, tu: Used) -> CheckVerdict:
    if not same_entries(s.source, source) or not same_entries(s.target, target):
        return Invalid(f"{where}: the step does not relate the lists it must relate")
    if s.used() != (su, tu):
        return Invalid(f"{where}: the step's counters are not the counters of the lists it relates")
    if s.rule in (Rule.PREFIX, Rule.CAPACITY):
        capacity = s.rule is Rule.CAPACITY
        if s.subs or len(target) < len(source):
            return Invalid(f"{where}: an extension keeps every old position and has no sub-steps")
        for i, (a, b) in enumerate(zip(source, target, strict=False)):
            if not keeps_position(a, b, capacity, su[i], tu[i]):
                return Invalid(f"{where}: position {i} does not keep its account")
            if not isinstance(agree(a, b, effects, tools), Agree):
                return Invalid(f"{where}: position {i} does not keep its matching on E")
        if any(e.kind is not EntryKind.ALLOW for e in target[len(source):]):
            return Invalid(f"{where}: only grants may be appended")
        changed = any(a.quota != b.quota or su[i] != tu[i]
                      for i, (a, b) in enumerate(zip(source, target, strict=False)))
        if capacity and changed and not permit_safe(source, effects, tools):
            return Invalid(f"{where}: a capacity change where grants with and without permits overlap")
        return Valid()
    if s.rule is Rule.SWAP:
        if s.subs or len(source) < 2 or not same_entries(target, (source[1], source[0], *source[2:])) \
                or tu != (su[1], su[0], *su[2:]):
            return Invalid(f"{where}: a swap exchanges the first two accounts and their counters, and nothing else")
        if not isinstance(independent(source[0], source[1], effects, tools), Independent):
            return Invalid(f"{where}: the swapped accounts are not independent on E")
        return Valid()
    if s.rule is Rule.LIFT:
        if len(s.subs) != 1 or not source or not target or not same_entries(source[:1], target[:1]) \
                or su[:1] != tu[:1]:
            return Invalid(f"{where}: a lift keeps the head and its counter and has one sub-step")
        return _step(s.subs[0], source[1:], target[1:], effects, tools, f"{where}.lift", su[1:], tu[1:])
    if not s.subs:
        return Invalid(f"{where}: an empty composition")
    cur, cur_used = source, su
    for k, sub in enumerate(s.subs):
        last = k == len(s.subs) - 1
        nxt, nxt_used = (target, tu) if last else (sub.target, sub.used()[1])
        verdict = _step(sub, cur, nxt, effects, tools, f"{where}.{k}", cur_used, nxt_used)
        if isinstance(verdict, Invalid):
            return verdict
        cur, cur_used = nxt, nxt_used
    return Valid()


def check(cert: Certificate, old: Policy, new: Policy, ledgers: Ledgers | None = None) -> CheckVerdict:
    """Does ``cert`` prove the revision from these counters (``None``: task start)?"""
    if not monitor_unchanged(old, new):
        return Invalid("the revision changes more than the two permission lists")
    lg = ledgers or Ledgers.zero(old, new)
    if (len(lg.old_user), len(lg.old_app), len(lg.new_user), len(lg.new_app)) != \
            (len(old.user), len(old.application), len(new.user), len(new.application)):
        return Invalid("the counters do not fit the permission lists")
    verdict = _step(cert.user, old.user, new.user, cert.effects, old.tools, "P", lg.old_user, lg.new_user)
    if isinstance(verdict, Invalid):
        return verdict
    return _step(cert.application, old.application, new.application, cert.effects, old.tools, "A",
                 lg.old_app, lg.new_app)
