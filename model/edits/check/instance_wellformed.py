"""Well-formedness of a check instance (Sections IV-A, IV-B2, IV-B3).

Returns an ``Invalid`` reason or ``None``. Checked: call and choice IDs unique, choices non-empty,
every call mapped to an action and every action labelled, the log repeats no action and
``lab(Δ) ∈ 𝒜``, and the contract condition of Section IV-A: *no complete sequence properly
extends another* (``v, w ∈ CL(𝒞) ∧ v ⪯ w ⟹ v = w``), which also forces "all outcome pomsets
empty or none".

The prefix condition without the quadratic comparison: explore the raw states ``(S, K)``
(``model.edits.check.outcome_bits``) reachable from ``(∅, O)``. A complete sequence of ``o`` reaches a
state with ``o ∈ K`` and ``S = X_{p_o}``; it properly extends into a complete sequence of ``o'``
iff ``o' ∈ K`` at that state and ``|X_{p_o'}| > |S|`` (all of ``p_o'``'s remaining calls can then be
appended in a topological order). So one visit per reachable state decides the condition —
at most ``2^calls`` states for ``w`` unordered calls instead of ``(w!)²`` word pairs. A proper
extension is strictly longer, so when every outcome has the same number of calls there is nothing
to explore (one outcome, or the artifact's shared families): the search is skipped, and so are its
budget ticks.

Order: when several conditions fail, the reason is the *first class* in ``InvalidReason``'s order
(duplicate-call, duplicate-group, empty-choice, unmapped-call, unlabelled-action, log-repeats-action,
log-outside-policy, complete-prefixes-another) whose condition holds — a property of the instance,
not of the order in which the term's calls are visited: every call is checked for an action before
any is checked for a label. The Lean oracle's well-formedness judgment
(``lean/AgentWarrant/Spec/Edits/WellFormed.lean``) follows the same order and is compared with this
one by the DRT.

The other conditions take one walk of the term (``_scan``) and one look-up per call and logged
action: they run on every check, and on tiny families they were a sizeable part of it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from model.base.budget import Meter
from model.edits.check.answer import InvalidReason
from model.edits.check.contract import Call as CallT
from model.edits.check.contract import CallId, Term, outcomes, show_outcome
from model.edits.check.contract import Choice as ChoiceT
from model.edits.check.contract import Family as FamilyT
from model.edits.check.contract import Par as ParT
from model.edits.check.contract import Seq as SeqT
from model.edits.check.instance import Instance
from model.edits.check.outcome_bits import Compiled, bits, compile_outcomes


def check_wellformed(inst: Instance, meter: Meter | None = None, comp: Compiled | None = None,
                     q_act: dict[CallId, str] | None = None,
                     labels: dict[str, str] | None = None) -> tuple[InvalidReason, str] | None:
    """The first problem found, or ``None``; ``meter`` (one tick per raw state of the prefix check)
    lets a budgeted check stop here too, since that check alone can visit ``2^calls`` states; ``comp``
    is the compiled contract, ``q_act`` and ``labels`` the instance's maps, when the caller already
    has them."""
    root = inst.contract
    calls: Sequence[CallId]
    if comp is not None and isinstance(root, FamilyT):
        # A family as the whole contract is one leaf with one ID: no call or ID can repeat, and its
        # calls (sorted, once each) are the compiled ones — a repeated outcome name, the one case
        # where compiling drops a member, is refused here before any call is looked at. Compiling keeps
        # one outcome per distinct name, so the names repeat exactly when it kept fewer outcomes than
        # there are members: no list or set of names is built.
        calls = comp.calls
        n_members = len(root.members)
        if not n_members or len(comp.outcomes) != n_members:
            return _EMPTY
    else:
        calls = []
        groups: list[str] = []
        empty = _scan(root, calls, groups)
        dup = _repeated(calls)
        if dup:
            return InvalidReason.DUPLICATE_CALL, f"call {dup[0]} occurs more than once in the contract"
        dupg = _repeated(groups)
        if dupg:
            return InvalidReason.DUPLICATE_GROUP, f"choice ID {dupg[0]} is used more than once"
        if empty:
            return _EMPTY
    if q_act is None:
        q_act = inst.action_map()
    if labels is None:
        labels = inst.label_map()
    for c in calls:
        if c not in q_act:
            return InvalidReason.UNMAPPED_CALL, f"call {c} has no action"
    for c in calls:
        d = q_act[c]
        if d not in labels:
            return InvalidReason.UNLABELLED_ACTION, f"action {d} (of call {c}) has no label"
    for d in inst.log:
        if d not in labels:
            return InvalidReason.UNLABELLED_ACTION, f"logged action {d} has no label"
    if inst.log:
        rep = _repeated(list(inst.log))
        if rep:
            return InvalidReason.LOG_REPEATS_ACTION, f"action {rep[0]} has two authorization records"
        if inst.policy.run(labels[d] for d in inst.log) is None:
            return InvalidReason.LOG_OUTSIDE_POLICY, (f"lab(Δ) = {' '.join(inst.log_labels()) or 'ε'} "
                                                      "is not in the policy")
    witness = prefix_violation(comp if comp is not None else compile_outcomes(outcomes(inst.contract)), meter)
    if witness is not None:
        return InvalidReason.COMPLETE_PREFIXES_ANOTHER, witness
    return None


_EMPTY = (InvalidReason.EMPTY_CHOICE,
          "a choice (or an explicit family) needs at least one arm (outcome), with distinct names")


def _repeated(xs: list[str]) -> list[str]:
    """The items occurring more than once, sorted (empty for the usual, duplicate-free case)."""
    if len(set(xs)) == len(xs):
        return []
    seen: set[str] = set()
    return sorted({x for x in xs if x in seen or seen.add(x)})  # type: ignore[func-returns-value]


def _scan(t: Term, calls: list[CallId], groups: list[str]) -> bool:
    """One walk of the term: append its call leaves (a family's calls once each, sorted) and its
    choice and family IDs in left-to-right order; true when some choice or family has no arm or
    repeats an arm name."""
    if isinstance(t, CallT):
        calls.append(t.call)
        return False
    if isinstance(t, FamilyT):
        groups.append(t.group)
        calls.extend(t.calls)
        names = [n for n, _ in t.members]
        return not names or len(set(names)) != len(names)
    if isinstance(t, ChoiceT):
        groups.append(t.group)
        names = [a for a, _ in t.arms]
        bad = not names or len(set(names)) != len(names)
        for _, sub in t.arms:
            bad = _scan(sub, calls, groups) or bad
        return bad
    if isinstance(t, ParT | SeqT):
        bad = False
        for sub in t.parts:
            bad = _scan(sub, calls, groups) or bad
        return bad
    return False


def prefix_violation(comp: Compiled, meter: Meter | None = None) -> str | None:
    """A description of a complete sequence that properly prefixes another, or ``None``."""
    if len(comp.by_size) <= 1:
        return None  # a proper extension is longer: with one outcome size there is none to find
    steps = comp.steps()
    start = (0, comp.all_outcomes)
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    todo = deque([start])
    while todo:
        s, k = todo.popleft()
        if meter is not None:
            meter.tick()
        done = comp.done(s, k)
        if done and done != k:
            longer = [o for o in bits(k & ~done)]
            return (f"{_word(comp, parent, (s, k))} completes outcome {show_outcome(comp.outcomes[bits(done)[0]])} "
                    f"and properly prefixes a complete sequence of {show_outcome(comp.outcomes[longer[0]])}")
        for c, k2 in comp.successors(steps, s, k).items():
            nxt = (s | (1 << c), k2)
            if nxt not in parent:
                parent[nxt] = ((s, k), c)
                todo.append(nxt)
    return None


def _word(comp: Compiled, parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None],
          state: tuple[int, int]) -> str:
    calls: list[CallId] = []
    cur = parent[state]
    while cur is not None:
        prev, c = cur
        calls.append(comp.calls[c])
        cur = parent[prev]
    return "·".join(reversed(calls)) or "ε"
