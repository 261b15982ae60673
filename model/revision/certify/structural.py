"""Searching for a structural certificate of ``P ⤳_E P′`` (Agenra Section 7.1).

Every derivation the rules generate can be normalised to: one prefix or capacity extension
``P ⤳ M`` (each old account keeps its position, its content replaced by the new entry that stands
for it, new grants appended), followed by adjacent swaps that sort ``M`` into ``P′`` — each swap at
depth ``d`` lifted ``d`` times under the unchanged heads. Only accounts that cross are swapped,
so only they must be independent ("overlapping grants can retain their relative order").

The search therefore looks for an injective assignment ``π`` of old positions to new positions
whose entries keep the account (``conditions.keeps_position``, matching agreement by
``agreement.agree``), such that the unassigned new positions are allows and every pair of
entries that ``π`` puts in inverted order is independent on ``E``. Assignments are tried in
lexicographic order of new positions (the identity first), at most ``MAX_ASSIGNMENTS`` of them.
Mid-task (a revision installed after a prefix, prefix.py) the old list has the old state's counters
and the new list the carried ones (carry.py): a position is kept when its residual capacity under
the carried counter is at least the old one (``conditions.keeps_position``), and each step records
both usage vectors, counters moving with their accounts through swaps. Choice: the search covers
normal-form derivations only; a revision outside that shape gets
``NoCertificate`` with the first obstacle met, and the bounded search takes over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from model.base.budget import Meter
from model.base.canonical import canonical_str
from model.monitor.language.policy import Entry, EntryKind, Policy, Tool
from model.revision.carry import Ledgers
from model.revision.certify.agreement import Agree, Disagree, agree, same_match
from model.revision.certify.certificate import Certificate, Rule, Step
from model.revision.certify.conditions import keeps_position, monitor_unchanged, permit_safe
from model.revision.certify.independence import Independent, Overlap, independent
from model.revision.certify.leaves import keep_sample, pair_witness
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.identity import entry_key
from model.revision.smt.z3_matching import Witness

MAX_ASSIGNMENTS = 200
_V = TypeVar("_V")


@dataclass(frozen=True, slots=True)
class NoCertificate:
    reason: str


class _Search:
    def __init__(self, old: Sequence[Entry], new: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool],
                 used_old: Sequence[int], used_new: Sequence[int], meter: Meter | None = None,
                 memo: Memo | None = None):
        self.meter, self.memo = meter, memo
        self.old, self.new, self.effects, self.tools = tuple(old), tuple(new), effects, tuple(tools)
        self.used_old = tuple(used_old) or (0,) * len(self.old)
        self.used_new = tuple(used_new) or (0,) * len(self.new)
        self.at_start = not any(self.used_old) and not any(self.used_new)
        self._agree: dict[tuple[int, int], str | None] = {}
        self._indep: dict[tuple[str, str], bool] = {}
        self.obstacle = "no assignment of old accounts to new positions"

    def stands_for(self, i: int, j: int) -> str | None:
        """How new position ``j`` is shown to keep old account ``i`` (``None``: it does not)."""
        if (i, j) not in self._agree:
            a, b = self.old[i], self.new[j]
            how: str | None = None
            if keeps_position(a, b, True, self.used_old[i], self.used_new[j]):
                verdict = self._asked("agree", a, b, lambda: agree(a, b, self.effects, self.tools, self.memo),
                                      lambda m: None if a.kind is not b.kind or same_match(a, b, self.memo) else
                                      _maybe(Disagree, pair_witness(m, False, a, b, self.effects, self.tools)))
                if isinstance(verdict, Agree):
                    how = verdict.by
                elif isinstance(verdict, Disagree) and i == j:
                    self.obstacle = f"position {i}: matching differs on {canonical_str(verdict.witness.to_json())}"
            elif i == j:
                self.obstacle = f"position {i}: kind, residual capacity, requirement or permit not kept"
            self._agree[(i, j)] = how
        return self._agree[(i, j)]

    def _asked(self, kind: str, a: Entry, b: Entry, decide: Callable[[], _V],
               sampled: Callable[[Memo], _V | None]) -> _V:
        """``decide()``, or its answer kept in the memo, or the one a kept sample proves (leaves.py; a
        tick only for a question Z3 is asked)."""
        if self.memo is None:
            self._tick()
            return decide()
        key = self.memo.question(kind, a, b, self.effects, self.tools)
        if key in self.memo.verdicts:
            return cast(_V, self.memo.verdicts[key])
        verdict = sampled(self.memo)
        if verdict is None:
            self._tick()
            verdict = decide()
            if isinstance(verdict, Disagree | Overlap):  # Z3's model: a sample for later questions too
                keep_sample(self.memo, verdict.witness, self.effects, self.tools)
        if "z3 answered unknown" not in str(verdict):  # a time-out may go otherwise with more time
            self.memo.verdicts[key] = verdict
            self.memo.grow()
        return verdict

    def _tick(self) -> None:
        """One Z3 question: a tick, and a look at the clock (a question may take seconds)."""
        if self.meter is not None:
            self.meter.tick()
            self.meter.check_time()

    def indep(self, a: Entry, b: Entry) -> bool:
        key = (entry_key(a), entry_key(b))
        if key not in self._indep:
            verdict = self._asked("independent", a, b, lambda: independent(a, b, self.effects, self.tools, self.memo),
                                  lambda m: None if a.action != b.action else
                                  _maybe(Overlap, pair_witness(m, True, a, b, self.effects, self.tools)))
            self._indep[key] = isinstance(verdict, Independent)
        return self._indep[key]

    def assignments(self) -> Iterator[tuple[int, ...]]:
        n, m = len(self.old), len(self.new)

        def go(i: int, used: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if i == n:
                yield used
                return
            for j in range(m):
                if j not in used and self.stands_for(i, j) is not None:
                    yield from go(i + 1, (*used, j))

        return go(0, ())

    def derive(self) -> Step | NoCertificate:
        for count, pi in enumerate(self.assignments()):
            if count >= MAX_ASSIGNMENTS:
                break
            step = self._from_assignment(pi)
            if step is not None:
                return step
        return NoCertificate(self.obstacle)

    def _from_assignment(self, pi: tuple[int, ...]) -> Step | None:
        extras = [j for j in range(len(self.new)) if j not in pi]
        if any(self.new[j].kind is not EntryKind.ALLOW for j in extras):
            self.obstacle = "an explicit deny is added"
            return None
        order = [*pi, *extras]  # new positions, in the order of M
        mid = tuple(self.new[j] for j in order)
        mid_used = tuple(self.used_new[j] for j in order)
        capacity = any(self.old[i].quota != mid[i].quota or self.used_old[i] != mid_used[i]
                       for i in range(len(self.old)))
        if capacity and not permit_safe(self.old, self.effects, self.tools):
            self.obstacle = "a capacity change where grants with and without permits overlap"
            return None
        just = tuple(f"{i}: {self.stands_for(i, j)}" for i, j in enumerate(pi))
        first = Step(Rule.CAPACITY if capacity else Rule.PREFIX, self.old, mid, (), just,
                     *self._u(self.used_old, mid_used))
        swaps: list[Step] = []
        cur = list(order)
        for end in range(len(cur) - 1, 0, -1):  # bubble sort by new position
            for p in range(end):
                if cur[p] > cur[p + 1]:
                    a, b = self.new[cur[p]], self.new[cur[p + 1]]
                    if not self.indep(a, b):
                        self.obstacle = f"new positions {cur[p + 1]} and {cur[p]} cross but overlap on E"
                        return None
                    before = tuple(self.new[j] for j in cur)
                    used_before = tuple(self.used_new[j] for j in cur)
                    cur[p], cur[p + 1] = cur[p + 1], cur[p]
                    swaps.append(_lifted(before, tuple(self.new[j] for j in cur), p,
                                         *self._u(used_before, tuple(self.used_new[j] for j in cur))))
        steps = [first, *swaps]
        return steps[0] if len(steps) == 1 else Step(Rule.COMPOSE, self.old, self.new, tuple(steps), (),
                                                     *self._u(self.used_old, self.used_new))

    def _u(self, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Usage vectors as a step records them: ``()`` at task start, as before mid-task support."""
        return ((), ()) if self.at_start else (a, b)


def _maybe(make: Callable[[Witness], _V], w: Witness | None) -> _V | None:
    return None if w is None else make(w)


def _lifted(before: tuple[Entry, ...], after: tuple[Entry, ...], depth: int,
            used_before: tuple[int, ...], used_after: tuple[int, ...]) -> Step:
    if depth == 0:
        return Step(Rule.SWAP, before, after, (), ("independent",), used_before, used_after)
    return Step(Rule.LIFT, before, after,
                (_lifted(before[1:], after[1:], depth - 1, used_before[1:], used_after[1:]),), (),
                used_before, used_after)


def derive_list(old: Sequence[Entry], new: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool],
                used_old: Sequence[int] = (), used_new: Sequence[int] = (),
                meter: Meter | None = None, memo: Memo | None = None) -> Step | NoCertificate:
    """A derivation of ``old ⤳_E new`` for one permission list (with these counters; ``()`` is task
    start), or the obstacle met."""
    return _Search(old, new, effects, tools, used_old, used_new, meter, memo).derive()


def certify(old: Policy, new: Policy, effects: EffectSet, ledgers: Ledgers | None = None,
            meter: Meter | None = None, memo: Memo | None = None) -> Certificate | NoCertificate:
    """A structural certificate for both permission lists, or why none was found; ``ledgers`` are
    the old and carried counters of a mid-task revision (``None``: task start); ``memo`` keeps the
    agreement and independence answers (``memo.py``; ``None``: every question asked afresh)."""
    if not monitor_unchanged(old, new, memo):
        return NoCertificate("the revision changes more than the two permission lists")
    lg = ledgers or Ledgers.zero(old, new)
    user = derive_list(old.user, new.user, effects, old.tools, lg.old_user, lg.new_user, meter, memo)
    if isinstance(user, NoCertificate):
        return NoCertificate(f"user list: {user.reason}")
    app = derive_list(old.application, new.application, effects, old.tools, lg.old_app, lg.new_app, meter, memo)
    if isinstance(app, NoCertificate):
        return NoCertificate(f"application list: {app.reason}")
    return Certificate(effects, user, app)
