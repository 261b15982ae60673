"""Proposing a symbolic simulation: a relation over old and new usage counters written as linear
constraints, found whatever the size of the quotas (Agenra Sections 1 and 7.1, the simulation between
old and new ledgers; the certificate is linear_certificate.py, its checker linear_check.py).

The explicit proposers (simulation.py, joint.py) enumerate related ledger pairs or quadruples, which
grow with the quotas (a quota of 10^6 exceeds any cap). Here the counters are integer variables and
one unit's charge is a formula: the unit's match vector (one of those ``simulation.vectors``
enumerates, chosen freely, as in the explicit abstraction) and satisfied requirements are Boolean
variables; first-fit on a list charges its first matching, ready allow whose counter is below its
quota, and refuses under a matching deny. The old policy admits a unit when every old list of the
group charges it; the new one must then charge it on every new list.

The relation is found by Houdini (Flanagan and Leino's candidate-elimination): start from every
candidate constraint that holds at the starting counters, and drop, one model at a time, those a
step of both policies from a state satisfying all the others can break, until the conjunction is
inductive (Z3 decides each step, linear integer arithmetic). The result is the strongest inductive
conjunction of candidates; it is a simulation if no state in it has a unit the old lists charge and
a new list refuses — one more Z3 question. Candidates, per action (accounts of different actions
never see the same unit): for each finite-quota allow, ``start ≤ x ≤ quota``; for a set ``S`` of one
list's accounts and a set ``T`` of another's, ``Σ_S x − Σ_T y`` bounded above and below by its value
at the start (equal consumption) and by ``Σ_S quota − Σ_T quota`` (residual dominance: what is left
on ``T`` is at least what is left on ``S``). Sets range over every subset of an action's accounts in a
list up to ``MAX_SUBSET`` accounts, else over single accounts and the whole set.

Choices where the source is silent: the candidate family is this one; a revision whose simulation
needs another constraint gets ``NoSimulation`` here (and ``revise`` goes on to the next engine), never
a wrong proof — the certificate is only a proposal until linear_check.py accepts it. A Z3 unknown is
``NoSimulation``. Exact-call permits stay outside, as in the explicit engines.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import z3

from model.base.budget import Meter
from model.monitor.language.policy import Entry, EntryKind, Policy
from model.revision.carry import Ledgers
from model.revision.certify.conditions import outside_simulation
from model.revision.certify.leaves import timeout_ms
from model.revision.certify.linear_certificate import Atom, GroupVector, LinearGroup, LinearSimulation
from model.revision.certify.simulation import vectors
from model.revision.certify.simulation_certificate import NoSimulation
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo

MAX_SUBSET = 4
Counters = tuple[tuple[int, ...], ...]


def groups_of(old: Policy, new: Policy, ledgers: Ledgers | None, joint: bool
              ) -> list[tuple[str, tuple[str, ...], int, tuple[tuple[Entry, ...], ...], Counters]]:
    """(side, list names, how many old, the lists, their starting counters) for each group of the mode."""
    lg = ledgers or Ledgers.zero(old, new)
    if joint:
        return [("joint", ("P", "A", "P′", "A′"), 2, (old.user, old.application, new.user, new.application),
                 (lg.old_user, lg.old_app, lg.new_user, lg.new_app))]
    return [("P", ("P", "P′"), 1, (old.user, new.user), (lg.old_user, lg.new_user)),
            ("A", ("A", "A′"), 1, (old.application, new.application), (lg.old_app, lg.new_app))]


def _finite(e: Entry) -> bool:
    return e.kind is EntryKind.ALLOW and e.quota is not None


def _subsets(xs: list[int]) -> list[tuple[int, ...]]:
    if len(xs) <= MAX_SUBSET:
        return [c for r in range(1, len(xs) + 1) for c in itertools.combinations(xs, r)]
    return [(x,) for x in xs] + [tuple(xs)]


def candidates(lists: Sequence[Sequence[Entry]], start: Counters) -> list[Atom]:
    """Every candidate constraint (module docstring) that holds at ``start``."""
    out: dict[tuple[tuple[tuple[int, int, int], ...], int], Atom] = {}

    def add(terms: list[tuple[int, int, int]], at_most: int) -> None:
        atom = Atom(tuple(sorted(terms)), at_most)
        if atom.holds(start):
            out[(atom.terms, atom.at_most)] = atom

    for l_, xs in enumerate(lists):
        for i, e in enumerate(xs):
            if _finite(e):
                assert e.quota is not None
                add([(l_, i, 1)], e.quota)
                add([(l_, i, -1)], -start[l_][i])
    actions = sorted({e.action for xs in lists for e in xs if _finite(e)})
    for action in actions:
        accounts = [[i for i, e in enumerate(xs) if _finite(e) and e.action == action] for xs in lists]
        for a, b in itertools.combinations(range(len(lists)), 2):
            for s in _subsets(accounts[a]):
                for t in _subsets(accounts[b]):
                    terms = [(a, i, 1) for i in s] + [(b, j, -1) for j in t]
                    here = sum(start[a][i] for i in s) - sum(start[b][j] for j in t)
                    room = sum(_quota(lists[a][i]) for i in s) - sum(_quota(lists[b][j]) for j in t)
                    for c in {here, room}:
                        add(terms, c)
                        add([(x, i, -k) for x, i, k in terms], -c)
    return list(out.values())


def _quota(e: Entry) -> int:
    assert e.quota is not None
    return e.quota


class _Step:
    """One unit's charge on every list of a group, as Z3 terms over the counters ``x`` (see docstring)."""

    def __init__(self, lists: Sequence[Sequence[Entry]], olds: int, vectors: Sequence[GroupVector]) -> None:
        self.x = [[z3.Int(f"x{l_}_{i}") for i in range(len(xs))] for l_, xs in enumerate(lists)]
        bits = [[z3.Bool(f"b{l_}_{i}") for i in range(len(xs))] for l_, xs in enumerate(lists)]
        reqs = sorted({e.requires for xs in lists for e in xs if e.requires is not None})
        q = {r: z3.Bool(f"q_{r}") for r in reqs}
        self.chosen = z3.Or(*[z3.And(*[b if bit else z3.Not(b) for side, bs in zip(v, bits, strict=True)
                                       for bit, b in zip(side, bs, strict=True)]) for v in vectors]) \
            if vectors else z3.BoolVal(False)
        charges: list[z3.BoolRef] = []
        self.post: list[list[z3.ArithRef]] = []
        for l_, xs in enumerate(lists):
            denied = z3.Or(z3.BoolVal(False), *[bits[l_][i] for i, e in enumerate(xs) if e.kind is EntryKind.DENY])
            ready = [z3.And(bits[l_][i], q[e.requires] if e.requires is not None else z3.BoolVal(True),
                            self.x[l_][i] < e.quota if e.quota is not None else z3.BoolVal(True))
                     if e.kind is EntryKind.ALLOW else z3.BoolVal(False) for i, e in enumerate(xs)]
            charges.append(z3.And(z3.Not(denied), z3.Or(z3.BoolVal(False), *ready)))
            post = []
            for i, e in enumerate(xs):
                first = z3.And(ready[i], *[z3.Not(r) for r in ready[:i]])
                post.append(self.x[l_][i] + z3.If(first, 1, 0) if _finite(e) else self.x[l_][i])
            self.post.append(post)
        self.old_admits = z3.And(*charges[:olds])
        self.new_admits = z3.And(*charges[olds:])

        self._terms: dict[tuple[Atom, bool], z3.BoolRef] = {}

    def term(self, atom: Atom, post: bool) -> z3.BoolRef:
        """The constraint on the counters before (``post=False``) or after the unit; built once."""
        key = (atom, post)
        if key not in self._terms:
            xs = self.post if post else self.x
            self._terms[key] = z3.Sum([c * xs[l_][i] for l_, i, c in atom.terms]) <= atom.at_most
        return self._terms[key]


def _ask(solver: z3.Solver, meter: Meter | None) -> z3.ModelRef | str | None:
    solver.set("timeout", timeout_ms(meter))
    answer = solver.check()
    if meter is not None:
        meter.tick()
        meter.check_time()
    if answer == z3.unknown:
        return f"z3 answered unknown: {solver.reason_unknown()}"
    return solver.model() if answer == z3.sat else None


def houdini(lists: Sequence[Sequence[Entry]], olds: int, start: Counters, vectors: Sequence[GroupVector],
            meter: Meter | None = None) -> list[Atom] | str:
    """The strongest inductive conjunction of candidates, if no state in it lets old admit a unit a new
    list refuses; else why not."""
    step = _Step(lists, olds, vectors)
    atoms = candidates(lists, start)
    while True:
        solver = z3.Solver()
        solver.add(step.chosen, step.old_admits, step.new_admits, *[step.term(a, False) for a in atoms])
        solver.add(z3.Or(z3.BoolVal(False), *[z3.Not(step.term(a, True)) for a in atoms]))
        found = _ask(solver, meter)
        if isinstance(found, str):
            return found
        if found is None:
            break
        model = found
        atoms = [a for a in atoms if z3.is_true(model.eval(step.term(a, True), model_completion=True))]
    solver = z3.Solver()
    solver.add(step.chosen, step.old_admits, z3.Not(step.new_admits), *[step.term(a, False) for a in atoms])
    found = _ask(solver, meter)
    if isinstance(found, str):
        return found
    if found is not None:
        model = found
        at = [[model.eval(v, model_completion=True).as_long() for v in xs] for xs in step.x]
        return f"from counters {at} (within the strongest inductive relation of the template) a unit old " \
               "admits is refused after"
    return atoms


def propose_linear(old: Policy, new: Policy, effects: EffectSet, ledgers: Ledgers | None = None,
                   meter: Meter | None = None, memo: Memo | None = None, joint: bool = False
                   ) -> LinearSimulation | NoSimulation:
    """A symbolic simulation per permission list (``joint=False``) or over both at once, or why none
    was found; ``meter`` ticks per Z3 question and may raise ``BudgetExhausted``."""
    if (why := outside_simulation(old, new, memo)) is not None:
        return NoSimulation(why)
    groups = []
    for side, names, olds, lists, start in groups_of(old, new, ledgers, joint):
        found = vectors(lists, effects, old.tools, meter, memo)
        if isinstance(found, str):
            return NoSimulation(f"{side}: {found}")
        flat = [v for _, vs in found for v in vs]
        atoms = houdini(lists, olds, start, flat, meter)
        if isinstance(atoms, str):
            return NoSimulation(f"symbolic {side}: {atoms}")
        groups.append(LinearGroup(side, names, olds, start, tuple(found), tuple(atoms)))
    return LinearSimulation("joint" if joint else "per_list", effects, tuple(groups))
