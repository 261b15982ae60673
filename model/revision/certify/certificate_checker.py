"""The independent certificate checker: does a ``Certificate`` prove ``P ⤳_E P′`` and
``A ⤳_E A′`` for this old and new policy? (Agenra Section 7.1.)

It shares no code with the proposers (``structural.py``, ``simulation.py``, ``joint.py``, ``linear.py``)
nor with their Z3 encoding, memo or solvers: every Z3 question is written with the checker's own
encoding of the policies (``model/revision/trusted/encoding.py``, in its own Z3 context) and asked on a
solver made for it (``model/revision/trusted/side_conditions.py``). It walks the derivation tree, checks that
each step's lists chain up to the policies' lists, and re-decides every side condition — matching
agreement, independence, the position and permit conditions, and that nothing outside the two lists
changed. The recorded justifications are not trusted. Answers ``Valid``, ``Invalid(reason)``, or
``Undecided(reason)`` when Z3 answers unknown on a question it needs (never read as a proof). Its trusted
base, the modules it imports, is named in docs/revisions.md and kept so by
tests/whole_repo/test_checker_closure.py.

Usage (mid-task revisions): each step's usage vectors must chain up to the old state's counters and
the counters carried onto the new lists (``ledgers``; ``None`` is task start, every counter zero):
``PREFIX`` keeps quota and counter at every old position, ``CAPACITY`` needs ``m′ − u′ ≥ m − u`` (or
∞), ``SWAP`` moves the two counters with their accounts, ``LIFT`` keeps the head's counter.

Joint simulations (``check_joint``, joint_certificate.py): completeness of the match vectors is decided by
``questions.covers`` (a split on one position at a time, every question a conjunction of literals)
rather than the proposer's depth-first enumeration, and first-fit is re-implemented here over the
monitor's own ``ledger.has_capacity``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from model.base.z3guard import exclusive
from model.monitor.decide.ledger import has_capacity
from model.monitor.language.policy import Entry, EntryKind, Policy, Tool
from model.revision.carry import Ledgers
from model.revision.certify.certificate import Certificate, Rule, Step
from model.revision.certify.check_verdict import CheckVerdict as CheckVerdict
from model.revision.certify.check_verdict import Invalid as Invalid
from model.revision.certify.check_verdict import Undecided as Undecided
from model.revision.certify.check_verdict import Valid as Valid
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.effects import EffectSet
from model.revision.identity import same_entries
from model.revision.trusted import side_conditions as questions
from model.revision.trusted.side_conditions import (
    agree,
    independent,
    keeps_position,
    monitor_unchanged,
    outside_simulation,
)

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
            agreed = agree(a, b, effects, tools)
            if isinstance(agreed, Undecided):
                return Undecided(f"{where}: position {i}: {agreed.reason}")
            if not isinstance(agreed, Valid):
                return Invalid(f"{where}: position {i} does not keep its matching on E")
        if any(e.kind is not EntryKind.ALLOW for e in target[len(source):]):
            return Invalid(f"{where}: only grants may be appended")
        changed = any(a.quota != b.quota or su[i] != tu[i]
                      for i, (a, b) in enumerate(zip(source, target, strict=False)))
        safe = questions.permit_safe(source, effects, tools) if capacity and changed else Valid()
        if isinstance(safe, Undecided):
            return Undecided(f"{where}: {safe.reason}")
        if not isinstance(safe, Valid):
            return Invalid(f"{where}: a capacity change where grants with and without permits overlap")
        return Valid()
    if s.rule is Rule.SWAP:
        if s.subs or len(source) < 2 or not same_entries(target, (source[1], source[0], *source[2:])) \
                or tu != (su[1], su[0], *su[2:]):
            return Invalid(f"{where}: a swap exchanges the first two accounts and their counters, and nothing else")
        apart = independent(source[0], source[1], effects, tools)
        if isinstance(apart, Undecided):
            return Undecided(f"{where}: {apart.reason}")
        if not isinstance(apart, Valid):
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
        if not isinstance(verdict, Valid):
            return verdict
        cur, cur_used = nxt, nxt_used
    return Valid()


@exclusive
def check(cert: Certificate, old: Policy, new: Policy, ledgers: Ledgers | None = None,
          fast: bool = False) -> CheckVerdict:
    """Does ``cert`` prove the revision from these counters (``None``: task start)? ``fast`` is accepted
    for the callers' sake and changes nothing: the checker has one way to ask each question."""
    del fast
    if not monitor_unchanged(old, new):
        return Invalid("the revision changes more than the two permission lists")
    lg = ledgers or Ledgers.zero(old, new)
    if (len(lg.old_user), len(lg.old_app), len(lg.new_user), len(lg.new_app)) != \
            (len(old.user), len(old.application), len(new.user), len(new.application)):
        return Invalid("the counters do not fit the permission lists")
    verdict = _step(cert.user, old.user, new.user, cert.effects, old.tools, "P", lg.old_user, lg.new_user)
    if not isinstance(verdict, Valid):
        return verdict
    return _step(cert.application, old.application, new.application, cert.effects, old.tools, "A",
                 lg.old_app, lg.new_app)


# --- joint simulation certificates (joint_certificate.py) -------------------------------------------

def _first_fit(entries: Sequence[Entry], used: Used, bits: tuple[bool, ...], q: frozenset[str]) -> Used | None:
    """One unit with match vector ``bits`` under the monitor's rules: any matching deny refuses it;
    else the first matching, ready allow with capacity (``ledger.has_capacity``) takes it. An
    unlimited account's counter is not tracked: it never limits first-fit."""
    if any(b and e.kind is EntryKind.DENY for e, b in zip(entries, bits, strict=True)):
        return None
    for k, (e, b) in enumerate(zip(entries, bits, strict=True)):
        if b and e.kind is EntryKind.ALLOW and (e.requires is None or e.requires in q) \
                and has_capacity(e, used[k], 0):
            return used if e.quota is None else (*used[:k], used[k] + 1, *used[k + 1:])
    return None


Fit = Callable[[int, Used, tuple[bool, ...], frozenset[str]], Used | None]


def fitter(lists: Sequence[Sequence[Entry]], planned: bool) -> Fit:
    """``_first_fit`` on list ``i``. ``planned``: which positions a vector can charge (no matching deny;
    matching allows whose requirement holds, in order) is worked out once per list, vector and
    requirement set; capacity is still asked of ``has_capacity`` per charge (the same first-fit)."""
    if not planned:
        return lambda i, used, bits, q: _first_fit(lists[i], used, bits, q)
    plans: dict[tuple[int, tuple[bool, ...], frozenset[str]], tuple[int, ...] | None] = {}

    def fit(i: int, used: Used, bits: tuple[bool, ...], q: frozenset[str]) -> Used | None:
        key = (i, bits, q)
        if key not in plans:
            entries = lists[i]
            plans[key] = None if any(b and e.kind is EntryKind.DENY for e, b in zip(entries, bits, strict=True)) \
                else tuple(k for k, (e, b) in enumerate(zip(entries, bits, strict=True))
                           if b and e.kind is EntryKind.ALLOW and (e.requires is None or e.requires in q))
        plan = plans[key]
        if plan is None:
            return None
        for k in plan:
            e = lists[i][k]
            if has_capacity(e, used[k], 0):
                return used if e.quota is None else (*used[:k], used[k] + 1, *used[k + 1:])
        return None

    return fit


def _covers(cert: JointSimulation, lists: Sequence[Sequence[Entry]], old_actions: frozenset[str],
            tools: Sequence[Tool]) -> CheckVerdict:
    return covers(cert.effects, {a.action: a.vectors for a in cert.vectors}, lists, old_actions, tools, "joint")


def covers(effects: EffectSet, listed: Mapping[str, Sequence[Sequence[tuple[bool, ...]]]],
           lists: Sequence[Sequence[Entry]], old_actions: frozenset[str], tools: Sequence[Tool],
           where: str) -> CheckVerdict:
    """No effect of ``E`` that the old lists could admit has a match vector outside the certificate's
    (``questions.covers``: split on one position at a time, each question a conjunction of literals)."""
    return questions.covers(effects, listed, lists, old_actions, tools, where)


@exclusive
def check_joint(cert: JointSimulation, old: Policy, new: Policy, ledgers: Ledgers | None = None,
                fast: bool = True) -> CheckVerdict:
    """Does the joint simulation prove ``Adm_E(P, A) ⊆ Adm_E(P′, A′)`` from these counters? Re-decides
    that its vectors cover every effect of ``E`` (Z3), that it starts at the counters, and closure:
    from every related quadruple, every unit both old lists charge is charged by both new lists into
    a related quadruple, for every set of satisfied requirements."""
    if (why := outside_simulation(old, new, "joint")) is not None:
        return Invalid(why)
    lists = (old.user, old.application, new.user, new.application)
    lg = ledgers or Ledgers.zero(old, new)
    if cert.start != (lg.old_user, lg.old_app, lg.new_user, lg.new_app) or cert.start not in cert.related:
        return Invalid("joint: the relation does not start at the revision's counters")
    sizes = tuple(len(xs) for xs in lists)
    if any(tuple(len(u) for u in quad) != sizes for quad in cert.related) or \
            any(tuple(len(side) for side in v) != sizes for a in cert.vectors for v in a.vectors):
        return Invalid("joint: a vector does not fit the four permission lists")
    old_actions = frozenset(e.action for xs in lists[:2] for e in xs if e.kind is EntryKind.ALLOW)
    covered = _covers(cert, lists, old_actions, old.tools)
    if not isinstance(covered, Valid):
        return covered
    reqs = sorted({e.requires for xs in lists for e in xs if e.requires is not None})
    subsets = [frozenset(r for i, r in enumerate(reqs) if mask >> i & 1) for mask in range(1 << len(reqs))]
    fit = fitter(lists, fast)
    for u_p, u_a, v_p, v_a in cert.related:
        for a in cert.vectors:
            for v in a.vectors:
                for q in subsets:
                    o_p = fit(0, u_p, v[0], q)
                    o_a = None if o_p is None else fit(1, u_a, v[1], q)
                    if o_p is None or o_a is None:
                        continue
                    n_p, n_a = fit(2, v_p, v[2], q), fit(3, v_a, v[3], q)
                    if n_p is None or n_a is None or (o_p, o_a, n_p, n_a) not in cert.related:
                        where = f"joint: from {[u_p, u_a, v_p, v_a]} a {a.action} unit old admits"
                        if n_p is None or n_a is None:
                            return Invalid(f"{where} is refused after")
                        return Invalid(f"{where} leads outside the relation")
    return Valid()
