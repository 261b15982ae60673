"""The side conditions the certificate checker re-decides (Agenra Section 7.1), asked with the checker's own
encoding (``encoding.py``) on a solver made for the one side condition (each question in a scope of its own)
and dropped after it.

- ``agree(a, b)``: for every effect of ``E``, argument object and binding state, ``a`` matches iff ``b`` does
  (two questions, "``a`` matches and ``b`` fails" and the converse, each a witness search).
- ``independent(a, b)``: no effect of ``E`` is matched by both.
- ``covers(...)``: every effect of ``E`` that the old lists could admit has one of the listed match vectors.
  Decided by splitting on one position at a time: a branch whose partial vector no listed vector extends
  is one question, "an effect whose literals are exactly these", a conjunction of literals; a complete
  listed vector needs none. The branches partition the effects (each position matches or fails), so no
  satisfiable branch is coverage. Every question is such a conjunction, and on the corpus each one is
  answered within its limit: there is no disjunction over every listed vector for Z3 to give up on.
  Positions whose matching fields are equal (``identity.match_key``) are one literal: the split runs over
  distinct entries, and a listed vector that gives two equal entries different bits is dropped, since no
  effect has it. A branch where two entries both match although their resources clash (two different
  constants, a constant the other's glob does not accept, by the monitor's ``fnmatchcase``, or two globs
  whose fixed starts or ends disagree) holds no effect and is not asked.
- ``keeps_position``, ``permit_safe``, ``outside_simulation``: the structural rules' position condition, the
  permit condition on capacity changes, and what a simulation cannot speak for — as in
  ``certify/conditions.py`` (which the proposers use), written here again over this module's questions.

A Z3 unknown (its limit is ``LIMIT_MS`` per question) is ``Undecided``, never a proof.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping, Sequence

import z3

from model.base.canonical import canonical_str
from model.monitor.language.policy import ConstPat, Entry, EntryKind, GlobPat, Policy, Tool
from model.revision.certify.check_verdict import CheckVerdict, Invalid, Undecided, Valid
from model.revision.effects import EffectSet
from model.revision.identity import match_key, same_monitor
from model.revision.trusted.encoding import CTX, Call, SlotAtom, Unsupported

LIMIT_MS = 20000


def _solver() -> z3.Solver:
    s = z3.SimpleSolver(ctx=CTX)
    s.set("timeout", LIMIT_MS)
    return s


def _ask(s: z3.Solver) -> z3.ModelRef | str | None:
    answer = s.check()
    if answer == z3.sat:
        return s.model()
    return None if answer == z3.unsat else f"z3 answered unknown ({s.reason_unknown()})"


Query = Callable[[Call], list[list[z3.BoolRef]]]  # the question as a disjunction of conjunctions


def search(entries: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool],
           query: Query) -> dict[str, object] | str | None:
    """An effect of ``E`` satisfying ``query`` (for some action that ``entries`` name), why it could not be
    decided, or ``None``: there is none."""
    s = _solver()  # one for the search, a scope per question (as in ``covers``)
    for action in effects.actions(frozenset(e.action for e in entries)):
        try:
            call = Call(action, entries, tools)
            base = call.well_formed(effects.resources(action))
            cases = query(call)
        except Unsupported as exc:
            return str(exc)
        for case in cases:
            s.push()
            s.add(base, *case)
            found = _ask(s)
            s.pop()
            if isinstance(found, z3.ModelRef):
                return call.effect(found)
            if found is not None:
                return found
    return None


def agree(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool]) -> CheckVerdict:
    if match_key(a) == match_key(b):
        return Valid()
    if a.kind is not b.kind:
        return Invalid("an allow and a deny never stand for the same account")

    def query(c: Call) -> list[list[z3.BoolRef]]:
        (m_a, f_a), (m_b, f_b) = c.literals(a), c.literals(b)
        return [[m_a, f_b], [f_a, m_b]]

    return _verdict(search((a, b), effects, tools, query), "matched by one entry only")


def independent(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool]) -> CheckVerdict:
    if a.action != b.action:
        return Valid()
    return _verdict(search((a, b), effects, tools, lambda c: [[c.literals(a)[0], c.literals(b)[0]]]),
                    "matched by both entries")


def _verdict(found: dict[str, object] | str | None, what: str) -> CheckVerdict:
    if found is None:
        return Valid()
    if isinstance(found, str):
        return Undecided(found)
    return Invalid(f"{what}: {found}")


def covers(effects: EffectSet, listed: Mapping[str, Sequence[Sequence[tuple[bool, ...]]]],
           lists: Sequence[Sequence[Entry]], old_actions: frozenset[str], tools: Sequence[Tool],
           where: str, atoms: Sequence[SlotAtom] = (), holds: Sequence[bool] = ()) -> CheckVerdict:
    """Every effect of ``E`` of an action the old lists allow has a match vector over ``lists`` (one bit
    string per list) in ``listed[action]``. Positions of another action never match an effect of this one,
    so a listed vector with one of them matching is no vector of this action. With ``atoms``: only under
    bindings where atom ``i`` holds exactly when ``holds[i]`` (each a literal more in every question)."""
    positions = [e for xs in lists for e in xs]
    keys = [match_key(e) for e in positions]
    # One solver for the whole question, a scope per action: making and dropping a solver per action cost
    # more than the action's questions.
    s = _solver()
    for action in effects.actions(old_actions):
        own = [i for i, e in enumerate(positions) if e.action == action]
        # Positions whose matching fields are equal match the same effects: the split is over distinct
        # entries, and a listed vector giving two equal entries different bits describes no effect.
        distinct = sorted({keys[i] for i in own})
        first = [next(i for i in own if keys[i] == k) for k in distinct]
        flats = [[b for side in v for b in side] for v in listed.get(action, ())]
        vectors = sorted({tuple(f[i] for i in first) for f in flats
                          if len(f) == len(positions) and not any(f[i] for i in range(len(f)) if i not in own)
                          and all(f[i] == f[first[distinct.index(keys[i])]] for i in own)})
        try:
            call = Call(action, [positions[i] for i in first], tools, atoms)
            lits = [call.literals(positions[i]) for i in first]
            context = [call.well_formed(effects.resources(action)),
                       *[call.atom(a)[0 if h else 1] for a, h in zip(atoms, holds, strict=True)]]
        except Unsupported as exc:
            return Undecided(f"{where}: {action}: {exc}")
        opened: list[bool] = []
        found = _split(s, context, opened, lits, vectors, [positions[i] for i in first])
        if opened:
            s.pop()
        if isinstance(found, str):
            return Undecided(f"{where}: {action}: {found}")
        if found is not None:
            return Invalid(f"{where}: an effect has a match vector the certificate omits: {call.effect(found)}")
    return Valid()


def _resources_clash(a: Entry, b: Entry) -> bool:
    """No effect is matched by both: two constant resources that differ as JSON (the resource is one value),
    a constant that is not a string (or that the glob does not accept) beside a glob (the monitor's own
    ``fnmatchcase``), or two globs whose fixed ends disagree (``_ends``). Both entries match only with their
    resource conjunct, so this is sound for the conjunction of their match literals; used to answer a branch
    without Z3."""
    ra, rb = a.resource, b.resource
    if isinstance(ra, GlobPat) and isinstance(rb, GlobPat):
        (p, x), (q, y) = _ends(ra.glob), _ends(rb.glob)
        return not (p.startswith(q) or q.startswith(p)) or not (x.endswith(y) or y.endswith(x))
    if isinstance(ra, GlobPat):
        ra, rb = rb, ra
    if isinstance(ra, ConstPat) and isinstance(rb, ConstPat):
        return canonical_str(ra.value) != canonical_str(rb.value) and not _same_number(ra.value, rb.value)
    if isinstance(ra, ConstPat) and isinstance(rb, GlobPat):
        return not isinstance(ra.value, str) or not fnmatch.fnmatchcase(ra.value, rb.glob)
    return False


def _ends(glob: str) -> tuple[str, str]:
    """What every string ``glob`` accepts starts and ends with: the characters before its first ``*``, ``?`` or
    ``[``, and those after its last ``*``, ``?``, ``[`` or ``]`` — ``fnmatchcase``, and the encoding's ``regex``,
    match such characters one for one. Two globs whose starts (ends) are not one a prefix (suffix) of the
    other accept no common string."""
    first = min((i for i, c in enumerate(glob) if c in "*?["), default=len(glob))
    last = max((i for i, c in enumerate(glob) if c in "*?[]"), default=-1)
    return glob[:first], glob[last + 1:]


def _same_number(x: object, y: object) -> bool:
    """JSON numbers compare by value (``1`` is ``1.0``); a boolean is never a number."""
    return isinstance(x, int | float) and isinstance(y, int | float) and not isinstance(x, bool) \
        and not isinstance(y, bool) and x == y


def _split(s: z3.Solver, context: Sequence[z3.BoolRef], opened: list[bool],
           lits: Sequence[tuple[z3.BoolRef, z3.BoolRef]],
           vectors: list[tuple[bool, ...]], entries: Sequence[Entry]) -> z3.ModelRef | str | None:
    """The split; ``context`` (the action's well-formedness and binding facts) is asserted in a scope of its
    own before the first question, and ``opened`` records that it was (most actions need no question)."""
    def go(i: int, on: tuple[int, ...], chosen: tuple[z3.BoolRef, ...],
           candidates: list[tuple[bool, ...]]) -> z3.ModelRef | str | None:
        if not candidates:  # no listed vector extends these literals: any effect here is uncovered
            if not opened:
                s.push()
                s.add(*context)
                opened.append(True)
            s.push()  # one scope per question asked (a scope per branch costs more than the question)
            s.add(*chosen)
            found = _ask(s)
            s.pop()
            return found
        if i == len(lits):
            return None  # a listed vector
        for bit in (True, False):
            if bit and any(_resources_clash(entries[i], entries[j]) for j in on):
                continue  # this branch holds no effect (``_resources_clash``): nothing to ask
            found = go(i + 1, (*on, i) if bit else on, (*chosen, lits[i][0] if bit else lits[i][1]),
                       [v for v in candidates if v[i] == bit])
            if found is not None:
                return found
        return None

    return go(0, (), (), vectors)


def keeps_position(old: Entry, new: Entry, capacity: bool, old_used: int, new_used: int) -> bool:
    """The new position stands for the old account: same kind, requirement and permit flag; for a grant the
    same quota and counter (a prefix extension) or, for a capacity extension, at least the old residual
    ``m′ − u′ ≥ m − u`` (an unlimited quota is ∞)."""
    if (old.kind, old.requires, old.permit) != (new.kind, new.requires, new.permit):
        return False
    if old.kind is EntryKind.DENY:
        return True
    if not capacity:
        return old.quota == new.quota and old_used == new_used
    if new.quota is None:
        return True
    return old.quota is not None and new.quota - new_used >= old.quota - old_used


def permit_safe(entries: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool]) -> CheckVerdict:
    """No two grants with different permit flags overlap on ``E`` (a capacity change may move a unit
    between grants, which must not move it between needing a permit and not)."""
    allows = [e for e in entries if e.kind is EntryKind.ALLOW]
    for i, a in enumerate(allows):
        for b in allows[i + 1:]:
            if a.permit != b.permit:
                verdict = independent(a, b, effects, tools)
                if not isinstance(verdict, Valid):
                    return verdict
    return Valid()


def monitor_unchanged(old: Policy, new: Policy) -> bool:
    """Everything but the name and the two permission lists is the same (as JSON)."""
    return same_monitor(old, new)


def outside_simulation(old: Policy, new: Policy, who: str) -> str | None:
    """Why a simulation (which relates counters only) cannot speak for this revision, or ``None``."""
    if not monitor_unchanged(old, new):
        return "the revision changes more than the two permission lists"
    if any(e.permit for xs in (old.user, old.application, new.user, new.application) for e in xs):
        return f"{who}: exact-call permits are outside the simulation check"
    return None

