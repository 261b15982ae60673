"""The independent check of a symbolic simulation certificate (linear_certificate.py; Agenra Sections
1 and 7.1: a relation between old and new ledgers, closed under every unit old admits, proves that
every old client survives at every finite length).

``check_linear`` accepts a ``LinearSimulation`` only if, for every group of the certificate's mode:
1. the group relates the lists it must (``P``/``P′`` and ``A``/``A′`` per list, the four together
   jointly), its vectors and constraints fit them, and a constraint names only finite-quota allows;
2. it starts at the revision's counters, and every constraint holds there (exact integers);
3. its match vectors cover every effect of ``E`` the old lists could admit (``checker.covers``, the
   coverage check of the explicit certificates, with the checker's own encoding: trusted/side_conditions.py);
4. closure, one Z3 question per listed vector and set of satisfied requirements: from counters
   satisfying the relation, no unit the old lists charge is refused by a new list or leads to counters
   outside the relation.

Why this is independent of the proposer (linear.py). The proposer writes one formula for all units,
with the match bits, the requirements and first-fit's choice as Z3 terms (if-then-else successors),
and finds the relation by elimination. This checker shares none of it: it takes the certificate's
data, works out in Python, per concrete vector and requirement set, which accounts of each list can
take the unit (a matching deny refuses it; then the matching allows whose requirement holds, in list
order), and writes first-fit as an explicit case split — account ``k`` takes the unit when its counter
is below the quota and every earlier candidate is full (the threshold read off the monitor's own
``ledger.has_capacity``) — with the successor counters written out per case. It asks Z3 only
whether a state in the relation has a case that escapes it. So a fault in the proposer's encoding of
first-fit or in its elimination cannot make this check pass; the coverage question is the explicit
certificates' checker's, written apart from both proposers over its own encoding, and every Z3 term here
lives in that encoding's own context (``trusted.encoding.CTX``), on a solver made for this check.

A Z3 unknown is ``Undecided`` (never a proof). The Lean closure check (``simulation_closure``) reads
explicit relations only; a symbolic certificate is checked here alone, and ``revise`` says so in
``checked_by``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import z3

from model.base.z3guard import exclusive
from model.monitor.decide.ledger import has_capacity
from model.monitor.language.policy import Entry, EntryKind, Policy
from model.revision.carry import Ledgers
from model.revision.certify.certificate_checker import CheckVerdict, Invalid, Undecided, Valid, covers
from model.revision.certify.linear_certificate import Atom, LinearGroup, LinearSimulation
from model.revision.trusted.encoding import CTX
from model.revision.trusted.side_conditions import outside_simulation

CLOSURE_MS = 10000
Case = tuple[z3.BoolRef, dict[int, int]]  # condition over the counters, positions that go up by one


def _expected(old: Policy, new: Policy, lg: Ledgers, mode: str
              ) -> list[tuple[str, tuple[str, ...], int, tuple[tuple[Entry, ...], ...], tuple[tuple[int, ...], ...]]]:
    if mode == "joint":
        return [("joint", ("P", "A", "P′", "A′"), 2, (old.user, old.application, new.user, new.application),
                 (lg.old_user, lg.old_app, lg.new_user, lg.new_app))]
    return [("P", ("P", "P′"), 1, (old.user, new.user), (lg.old_user, lg.new_user)),
            ("A", ("A", "A′"), 1, (old.application, new.application), (lg.old_app, lg.new_app))]


def _threshold(e: Entry) -> int | None:
    """The counter value from which ``e`` has no capacity (``None``: never), as ``has_capacity`` says."""
    if e.quota is None:
        return None
    limit = e.quota
    assert has_capacity(e, limit - 1, 0) and not has_capacity(e, limit, 0)
    return limit


def _cases(entries: Sequence[Entry], bits: tuple[bool, ...], q: frozenset[str],
           x: Sequence[z3.ArithRef]) -> list[Case] | None:
    """How first-fit can take a unit with these bits on one list: ``None`` under a matching deny."""
    if any(b and e.kind is EntryKind.DENY for e, b in zip(entries, bits, strict=True)):
        return None
    out: list[Case] = []
    full: list[z3.BoolRef] = []
    for k, (e, b) in enumerate(zip(entries, bits, strict=True)):
        if not b or e.kind is not EntryKind.ALLOW or (e.requires is not None and e.requires not in q):
            continue
        limit = _threshold(e)
        if limit is None:
            out.append((z3.And(*full) if full else z3.BoolVal(True, CTX), {}))
            break  # an unlimited account always has room: no later account is reached
        out.append((z3.And(*full, x[k] < limit), {k: 1}))
        full.append(x[k] >= limit)
    return out


def _sum(atom: Atom, xs: Sequence[Sequence[z3.ArithRef]]) -> z3.ArithRef:
    return z3.Sum([c * xs[l_][i] for l_, i, c in atom.terms])


def _escapes(atoms: Sequence[tuple[Atom, z3.ArithRef]], up: Sequence[dict[int, int]]) -> list[z3.BoolRef]:
    """The constraints a charge by ``up`` can break from a state that satisfies them all: after it,
    ``Σ c·x`` has grown by ``Σ c·up``, which breaks a constraint only if that is positive."""
    out = []
    for atom, total in atoms:
        grows = sum(c * up[l_].get(i, 0) for l_, i, c in atom.terms)
        if grows > 0:
            out.append(total > atom.at_most - grows)
    return out


def _fits(g: LinearGroup, lists: Sequence[Sequence[Entry]]) -> str | None:
    sizes = tuple(len(xs) for xs in lists)
    if tuple(len(u) for u in g.start) != sizes:
        return "its starting counters do not fit the permission lists"
    if any(tuple(len(b) for b in v) != sizes for _, vs in g.vectors for v in vs):
        return "a vector does not fit the permission lists"
    for a in g.atoms:
        for l_, i, _ in a.terms:
            if not 0 <= l_ < len(lists) or not 0 <= i < len(lists[l_]):
                return "a constraint names a position outside the lists"
            e = lists[l_][i]
            if e.kind is not EntryKind.ALLOW or e.quota is None:
                return f"a constraint names {g.lists[l_]}[{i}], which has no finite quota"
    return None


def _check_group(g: LinearGroup, side: str, names: tuple[str, ...], olds: int, lists: Sequence[Sequence[Entry]],
                 begin: tuple[tuple[int, ...], ...], policy: Policy, proof: LinearSimulation) -> CheckVerdict:
    if (g.side, g.lists, g.old_lists) != (side, names, olds):
        return Invalid(f"{side}: the group does not relate the lists {', '.join(names)}")
    problem = _fits(g, lists)
    if problem is not None:
        return Invalid(f"{side}: {problem}")
    if g.start != begin:
        return Invalid(f"{side}: the relation does not start at the revision's counters")
    broken = [a for a in g.atoms if not a.holds(begin)]
    if broken:
        return Invalid(f"{side}: the starting counters break {broken[0].show(names)}")
    old_actions = frozenset(e.action for xs in lists[:olds] for e in xs if e.kind is EntryKind.ALLOW)
    covered = covers(proof.effects, dict(g.vectors), lists, old_actions, policy.tools, side)
    if not isinstance(covered, Valid):
        return covered
    x = [[z3.Int(f"{names[l_]}.{i}", CTX) for i in range(len(xs))] for l_, xs in enumerate(lists)]
    floor = [x[l_][i] >= 0 for l_, xs in enumerate(lists) for i in range(len(xs))]
    sums = [(a, _sum(a, x)) for a in g.atoms]  # each constraint's left side, written once
    relation = [total <= a.at_most for a, total in sums]
    reqs = sorted({e.requires for xs in lists for e in xs if e.requires is not None})
    solver = z3.SimpleSolver(ctx=CTX)  # the relation is asserted once; each question is pushed and popped
    solver.set("timeout", CLOSURE_MS)
    solver.add(*floor, *relation)
    for (action, vs), mask in itertools.product(g.vectors, range(1 << len(reqs))):
        q = frozenset(r for i, r in enumerate(reqs) if mask >> i & 1)
        for v in vs:
            cases = [_cases(lists[l_], v[l_], q, x[l_]) for l_ in range(len(lists))]
            old_cases, new_cases = cases[:olds], cases[olds:]
            if any(c is None or not c for c in old_cases):
                continue  # the old lists never admit this unit
            admitted = [z3.Or(*[cond for cond, _ in c]) for c in old_cases if c is not None]
            refused = [z3.Not(z3.Or(*[cond for cond, _ in c])) if c else z3.BoolVal(True, CTX) for c in new_cases]
            escapes = []
            for combo in itertools.product(*[c or [] for c in cases]):
                broken = _escapes(sums, [up for _, up in combo])
                if broken:
                    escapes.append(z3.And(*[cond for cond, _ in combo], z3.Or(*broken)))
            solver.push()
            solver.add(*admitted, z3.Or(*refused, *escapes))
            answer = solver.check()
            m = solver.model() if answer == z3.sat else None
            reason = solver.reason_unknown() if answer == z3.unknown else ""
            solver.pop()
            if answer == z3.unknown:
                return Undecided(f"{side}: {action}: z3 answered unknown ({reason})")
            if m is not None:
                at = [[m.eval(c, model_completion=True).as_long() for c in xs] for xs in x]
                return Invalid(f"{side}: from counters {at} a {action} unit old admits is refused after or "
                               "leads outside the relation")
    return Valid()


@exclusive
def check_linear(proof: LinearSimulation, old: Policy, new: Policy, ledgers: Ledgers | None = None,
                 fast: bool = True) -> CheckVerdict:
    """Does the symbolic simulation prove ``Adm_E(P, A) ⊆ Adm_E(P′, A′)`` from these counters?"""
    del fast  # accepted for the callers' sake: the checker has one way to ask each question
    if (why := outside_simulation(old, new, "symbolic simulation")) is not None:
        return Invalid(why)
    if proof.mode not in ("per_list", "joint"):
        return Invalid(f"symbolic simulation: unknown mode {proof.mode!r}")
    expected = _expected(old, new, ledgers or Ledgers.zero(old, new), proof.mode)
    if len(proof.groups) != len(expected):
        return Invalid(f"symbolic simulation: {len(expected)} groups expected for mode {proof.mode}")
    for g, (side, names, olds, lists, begin) in zip(proof.groups, expected, strict=True):
        verdict = _check_group(g, side, names, olds, lists, begin, old, proof)
        if not isinstance(verdict, Valid):
            return verdict
    return Valid()
