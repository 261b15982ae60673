"""Simulation relations between old and new ledgers (Agenra Sections 1 and 7.1): "if every
successful charge under the old permissions can be matched by a successful charge under the new
ones, with their usage counters staying related, then every old client survives at every finite
length". For finite-quota revisions the structural rules do not cover.

Abstraction. One effect unit is charged at a time (first-fit with tentative reservations is the
same as charging a call's units one after another). What first-fit does with a unit depends only
on its *signature*: which entries of the old and the new list match it (under its arguments and
binding state) and which structured requirements are satisfied. The realizable signatures for each
action of ``E`` are enumerated with Z3 over arbitrary JSON arguments and every binding state
(``symbolic.Encoder``, depth first over match/fail literals); requirement sets are enumerated
explicitly. A ledger is the usage vector of the finite-quota allows (unlimited ones never run out).

Proposal and check. ``propose`` computes the reachable pairs of (old ledger, new ledger) from the
starting pair — ``(0, 0)`` at task start; for a revision installed after a prefix, the old state's
counters and the counters carried onto the new lists (carry.py) — under every signature for
which the old list charges; it fails as soon as the new list cannot charge such a unit (an
explicit deny or first-fit failure) and reports the signature path. ``closed`` then checks the
proposed relation independently: for every related pair and every signature, an old successful
charge is matched by a new one whose successor pair is related.
Letting each unit choose its signature freely over-approximates real runs (where bindings and
arguments are shared within a call), so a closed relation is a proof for both lists.

Choices where the source is silent: a policy whose lists carry exact-call permits is not handled
here (a different chosen grant could demand a permit the old one did not); it stays undecided.
The enumeration is capped at ``MAX_SIGNATURES`` per action and ``MAX_PAIRS`` related pairs (a caller may
ask for fewer: ``revise`` first probes with a small cap, then tries a symbolic relation, linear.py).

Speed: with a ``Memo`` (what ``revise`` passes by default) the same enumeration asks Z3
only what no kept answer or sample decides (memo.py, leaves.py, samples.py) and first-fit walks a plan
per signature (``charger``); ``memo=None`` is the unmemoized path, kept as the speed baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import z3

from model.base.budget import Meter
from model.monitor.language.policy import Entry, EntryKind, Policy, Tool
from model.revision.carry import Ledgers
from model.revision.certify.conditions import outside_simulation
from model.revision.certify.leaves import leaves, timeout_ms, unsupported
from model.revision.certify.simulation_certificate import Ledger, Relation, Signature
from model.revision.certify.simulation_certificate import NoSimulation as NoSimulation
from model.revision.certify.simulation_certificate import SimulationProof as SimulationProof
from model.revision.certify.simulation_certificate import requirement_sets as requirement_sets
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.identity import match_key
from model.revision.smt.z3_matching import Encoder, Unsupported

MAX_SIGNATURES = 512
MAX_PAIRS = 20000

def signatures(old: Sequence[Entry], new: Sequence[Entry], effects: EffectSet,
               tools: Sequence[Tool], meter: Meter | None = None,
               memo: Memo | None = None) -> tuple[Signature, ...] | str:
    """Every realizable signature, or why they could not be enumerated."""
    found = vectors((old, new), effects, tools, meter, memo)
    if isinstance(found, str):
        return found
    return tuple((m_old, m_new, q) for _, vs in found for m_old, m_new in vs
                 for q in requirement_sets((*old, *new)))


def vectors(lists: Sequence[Sequence[Entry]], effects: EffectSet, tools: Sequence[Tool],
            meter: Meter | None = None,
            memo: Memo | None = None) -> tuple[tuple[str, tuple[tuple[tuple[bool, ...], ...], ...]], ...] | str:
    """Per action of ``E``, every realizable match vector over ``lists`` (one bit per position of each
    list, all for one effect, one argument object and one binding state), or why they could not be
    enumerated.

    Depth first over the distinct entries, one match-or-fail literal at a time, pruning
    unsatisfiable prefixes: every query is a conjunction of literals, which Z3 decides quickly
    (``Encoder.fails`` keeps glob failures in complement form). With a ``memo`` the same enumeration
    asks Z3 less (``leaves.py``); without one, a fresh solver per node (the unmemoized baseline)."""
    everything = [e for xs in lists for e in xs]
    key = match_key if memo is None else memo.match_key
    out: list[tuple[str, tuple[tuple[tuple[bool, ...], ...], ...]]] = []
    for action in effects.actions(frozenset(e.action for e in everything)):
        by_key = {key(e): e for e in everything if e.action == action}
        distinct = list(by_key.values())
        found_leaves: list[tuple[bool, ...]] | str
        if memo is None:
            try:
                enc = Encoder(action, distinct, tools)
                base = enc.base(effects.resources(action))
                lits = [(enc.matches(e), enc.fails(e)) for e in distinct]
            except Unsupported as exc:
                return str(exc)
            found_leaves = leaves_of(base, lits, meter)
        else:
            problem = unsupported(memo, action, distinct, effects, tools)
            if problem is not None:
                return problem
            found_leaves = leaves(memo, action, distinct, effects, tools, MAX_SIGNATURES, meter)
        if isinstance(found_leaves, str):
            return f"{action}: {found_leaves}"
        found = []
        for bits in found_leaves:
            value = dict(zip(by_key, bits, strict=True))
            found.append(tuple(tuple(value.get(key(e), False) for e in xs) for xs in lists))
        out.append((action, tuple(found)))
    return tuple(out)


def leaves_of(base: z3.BoolRef, lits: Sequence[tuple[z3.BoolRef, z3.BoolRef]],
            meter: Meter | None = None) -> list[tuple[bool, ...]] | str:
    """Every satisfiable assignment of the literals (each entry matches or fails) under ``base``."""
    leaves: list[tuple[bool, ...]] = []

    def go(i: int, bits: tuple[bool, ...], chosen: tuple[z3.BoolRef, ...]) -> str | None:
        if i == len(lits):
            leaves.append(bits)
            return None if len(leaves) <= MAX_SIGNATURES else f"more than {MAX_SIGNATURES} signatures"
        for b in (True, False):
            lit = lits[i][0] if b else lits[i][1]
            # a fresh solver per query: Z3's incremental mode (push/pop) is far slower on strings
            solver = z3.Solver()
            solver.set("timeout", timeout_ms(meter))
            solver.add(base, *chosen, lit)
            answer = solver.check()
            if meter is not None:
                meter.tick()
                meter.check_time()  # a query may take seconds: check the clock after each one
            if answer == z3.unknown:
                return f"z3 answered unknown: {solver.reason_unknown()}"
            if answer == z3.sat:
                problem = go(i + 1, (*bits, b), (*chosen, lit))
                if problem is not None:
                    return problem
        return None

    problem = go(0, (), ())
    return leaves if problem is None else problem


def charge(entries: Sequence[Entry], usage: Ledger, matches: tuple[bool, ...], q: frozenset[str]) -> Ledger | None:
    """The ledger after first-fit charges one unit with this signature, or ``None`` if it cannot."""
    if any(e.kind is EntryKind.DENY and m for e, m in zip(entries, matches, strict=True)):
        return None
    for k, (e, m) in enumerate(zip(entries, matches, strict=True)):
        if e.kind is not EntryKind.ALLOW or not m or (e.requires is not None and e.requires not in q):
            continue
        if e.quota is None:
            return usage
        if usage[k] < e.quota:
            return (*usage[:k], usage[k] + 1, *usage[k + 1:])
    return None


Charger = Callable[[Ledger, tuple[bool, ...], frozenset[str]], Ledger | None]


def charger(entries: Sequence[Entry], planned: bool) -> Charger:
    """``charge`` over ``entries``. ``planned``: the accounts a signature can charge (matching, ready
    allows in list order, or none at all under a matching deny) are worked out once per signature and
    requirement set, and a charge only walks them (the same first-fit); else ``charge``
    itself, the unmemoized baseline."""
    if not planned:
        return lambda usage, m, q: charge(entries, usage, m, q)
    plans: dict[tuple[tuple[bool, ...], frozenset[str]], tuple[tuple[int, int | None], ...] | None] = {}

    def planned_charge(usage: Ledger, m: tuple[bool, ...], q: frozenset[str]) -> Ledger | None:
        try:
            plan = plans[(m, q)]
        except KeyError:
            denied = any(e.kind is EntryKind.DENY and b for e, b in zip(entries, m, strict=True))
            plan = plans[(m, q)] = None if denied else \
                tuple((k, e.quota) for k, (e, b) in enumerate(zip(entries, m, strict=True))
                      if b and e.kind is EntryKind.ALLOW and (e.requires is None or e.requires in q))
        if plan is None:
            return None
        for k, quota in plan:
            if quota is None:
                return usage
            if usage[k] < quota:
                return (*usage[:k], usage[k] + 1, *usage[k + 1:])
        return None

    return planned_charge


def _start(old: Sequence[Entry], new: Sequence[Entry], start: tuple[Ledger, Ledger] | None) -> tuple[Ledger, Ledger]:
    return start if start is not None else ((0,) * len(old), (0,) * len(new))


def propose(old: Sequence[Entry], new: Sequence[Entry], sigs: Sequence[Signature], side: str,
            begin: tuple[Ledger, Ledger] | None = None, meter: Meter | None = None,
            planned: bool = False, cap: int = MAX_PAIRS) -> Relation | NoSimulation | str:
    start = _start(old, new, begin)
    charge_old, charge_new = charger(old, planned), charger(new, planned)
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for u, v in frontier:
            for m_old, m_new, q in sigs:
                u2 = charge_old(u, m_old, q)
                if u2 is None:
                    continue
                v2 = charge_new(v, m_new, q)
                if v2 is None:
                    return (f"{side}: old usage {list(u)} charges a unit matching old {_on(m_old)} "
                            f"that new usage {list(v)} cannot charge (new matches {_on(m_new)}, satisfied {sorted(q)})")
                if (u2, v2) not in seen:
                    if meter is not None:
                        meter.tick()
                    seen.add((u2, v2))
                    nxt.append((u2, v2))
                    if len(seen) > cap:
                        return NoSimulation(f"{side}: more than {cap} reachable ledger pairs", True)
        frontier = nxt
    return Relation(side, frozenset(seen), len(sigs), start)


def _on(bits: tuple[bool, ...]) -> list[int]:
    return [i for i, b in enumerate(bits) if b]


def closed(rel: Relation, old: Sequence[Entry], new: Sequence[Entry], sigs: Sequence[Signature],
           begin: tuple[Ledger, Ledger] | None = None, planned: bool = False) -> bool:
    """The closure check: the starting pair is related, and every old charge from a related pair is
    matched, into a related pair."""
    start = _start(old, new, begin)
    charge_old, charge_new = charger(old, planned), charger(new, planned)
    if start not in rel.pairs:
        return False
    for u, v in rel.pairs:
        for m_old, m_new, q in sigs:
            u2 = charge_old(u, m_old, q)
            if u2 is None:
                continue
            v2 = charge_new(v, m_new, q)
            if v2 is None or (u2, v2) not in rel.pairs:
                return False
    return True


def simulate(old: Policy, new: Policy, effects: EffectSet, ledgers: Ledgers | None = None,
             meter: Meter | None = None, memo: Memo | None = None,
             cap: int = MAX_PAIRS) -> SimulationProof | NoSimulation:
    """A closed simulation per permission list; ``meter`` ticks per Z3 query and per related pair and
    raises ``BudgetExhausted`` (the caller, ``revise``, turns it into ``Unknown``); at most ``cap`` related
    pairs per list (past it: ``NoSimulation`` with ``capped``)."""
    if (why := outside_simulation(old, new, memo)) is not None:
        return NoSimulation(why)
    relations: list[Relation] = []
    lg = ledgers or Ledgers.zero(old, new)
    for side, a, b, begin in (("P", old.user, new.user, (lg.old_user, lg.new_user)),
                              ("A", old.application, new.application, (lg.old_app, lg.new_app))):
        found = vectors((a, b), effects, old.tools, meter, memo)
        if isinstance(found, str):
            return NoSimulation(f"{side}: {found}")
        sigs = tuple((m_old, m_new, q) for _, vs in found for m_old, m_new in vs for q in requirement_sets((*a, *b)))
        rel = propose(a, b, sigs, side, begin, meter, memo is not None, cap)
        if isinstance(rel, NoSimulation):
            return rel
        if isinstance(rel, str):
            return NoSimulation(rel)
        if not closed(rel, a, b, sigs, begin, memo is not None):
            return NoSimulation(f"{side}: the proposed relation is not closed")
        relations.append(replace(rel, vectors=tuple((act, tuple((v[0], v[1]) for v in vs)) for act, vs in found)))
    return SimulationProof(relations[0], relations[1], effects)
