"""The revision judgment: client preservation and the safety delta, reported separately
(Agenra Sections 1 and 7.1: "neither property implies the other. Report both, always").

Preservation is decided in this order:
1. a structural certificate (``structural.certify``), accepted only if the independent checker
   (``checker.check``) validates it → ``Certified``;
2. otherwise a simulation relation per permission list (``simulation.simulate``), accepted only if
   the independent checker (``simulation_certificate.check_simulation``) validates it → ``Certified``;
3. otherwise a joint simulation over both lists at once (``joint.propose``), accepted only if the
   independent checker (``checker.check_joint``) validates it → ``Certified`` (the per-list rules
   stay first: they are cheaper, and a per-list proof is a joint one);
   in steps 2 and 3, when the reachable ledgers outgrow a small explicit relation (large
   quotas), a symbolic relation of linear constraints over the counters (``linear.propose_linear``,
   checked by ``linear_check.check_linear``) is tried first, so the verdict does not depend on the
   quotas' size;
4. otherwise the bounded search for the shortest lost client → ``NotPreserved`` with it;
5. otherwise a per-list simulation for every class of bindings (``binding_classes.propose_binding``: which
   facts about bound values hold, e.g. whether Bob's address is a corp one), accepted only if
   ``binding_certificate.check_binding`` validates it → ``Certified`` (after the search, so that a
   regression the search refutes does not pay for enumerating every class);
6. otherwise (at task start, when some finite quota exceeds the bound: ``accelerate.beyond``) a lost
   client of any length through the counters, in compressed form
   (``accelerate.long_lost_client``, ``A^Q · B``), kept only if the exact compressed replay confirms it →
   ``NotPreserved``; else ``Unknown`` within the bound.
An explicit simulation certificate (per list, joint or per binding class) is also checked for closure by
Lean whenever the compiled core is present, in-process first, else the oracle executable (lean_closure.py;
a symbolic one is not: the Lean judgment reads listed relations), and its coverage of the effects is asked of
Lean as well when every question can be written for it (``arg_cover``; otherwise coverage rests on Z3 alone);
``Certified.checked_by`` names every checker that accepted it, and Lean's route. A certificate the Python
checker cannot decide (Z3 unknown), or Lean refuses or faults on (fail closed), is not a proof: the next kind
is tried, and if none is checked the verdict comes from the bounded search (``Unknown`` within the
bound, exit 3, unless a lost client is found).
The safety delta is always the bounded search for the shortest newly admitted forbidden trace
under the workload's declared budgets (``NewlyForbidden`` / ``NoNewForbidden`` within the bound,
or ``NoForbiddenDeclared``); when it finds none, a newly admitted forbidden trace of any length is looked
for through the counters (``accelerate.long_new_forbidden``, confirmed by the exact compressed replay).
Choice: a lost client from the bounded search is reported as ``NotPreserved`` even when the
Adapter replay does not confirm it; the ``confirmed`` flag says so, and the tests require it true.

Origin and flow changes: when the revision changes origin or flow rules (and nothing else outside the
lists), the engines relate ``relaxed(old, new)`` — the old lists under the new rules — to the new policy,
after ``guards.check_guards`` checked that the new rules let through every call the old ones do (then the
identity relates the old policy to the relaxed one); ``Certified.guards`` says so. Otherwise such a
revision is judged by the searches alone.

Starting point: at task start (every counter zero) by default; with a ``prefix`` (prefix.py) the
revision is installed mid-task — the prefix runs under the old policy to a state S, the counters
are carried onto the new lists by a checked account correspondence (carry.py), and all three
engines (and the safety search) start from that pair of states. The report says which.

Budget: one ``Meter`` runs over the whole judgment — a tick per Z3 question, related
ledger pair or quadruple, and explored sequence. When it runs out the verdict still open becomes
``OutOfBudget`` (the shared ``budget.Unknown``): preservation, and the safety delta if it had not
started yet; a verdict reached before is kept. Never a wrong verdict, never a hang (each Z3 query is
limited by what is left of the budget). Choice: the certificate checkers are not metered; they
re-decide what the search already decided within the budget, so they cost about as much again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from model.base import budget as _budget
from model.base.budget import Budget, BudgetExhausted, Meter, Spent
from model.base.z3guard import exclusive
from model.monitor.language.policy import Policy
from model.revision.carry import Ledgers, check_correspondence
from model.revision.certify.binding_certificate import BindingSimulation, check_binding
from model.revision.certify.binding_classes import propose_binding
from model.revision.certify.certificate_checker import CheckVerdict, Invalid, Undecided, Valid, check, check_joint
from model.revision.certify.joint import MAX_QUADS
from model.revision.certify.joint import propose as propose_joint
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.certify.lean_closure import (
    LEAN_CHECKER,
    LEAN_COVERAGE,
    PYTHON_CHECKER,
    LeanAbsent,
    LeanClosed,
    LeanFault,
    lean_closure,
)
from model.revision.certify.linear import propose_linear
from model.revision.certify.linear_certificate import LinearSimulation
from model.revision.certify.linear_check import check_linear
from model.revision.certify.simulation import MAX_PAIRS, NoSimulation, SimulationProof, simulate
from model.revision.certify.simulation_certificate import check_simulation
from model.revision.certify.structural import NoCertificate, certify
from model.revision.effects import EffectSet
from model.revision.explore.accelerate import beyond, long_lost_client, long_new_forbidden
from model.revision.explore.counterexample import Searched, compressed, lost_client, new_forbidden
from model.revision.explore.memo import SHARED, Memo
from model.revision.explore.prefix import Prefix, StartingPoint, starting_point
from model.revision.explore.workload import Workload
from model.revision.report import (
    Certified,
    NewlyForbidden,
    NoForbiddenDeclared,
    NoNewForbidden,
    NotPreserved,
    OutOfBudget,
    Preservation,
    RevisionReport,
    SafetyDelta,
    Unknown,
)
from model.revision.trusted.guards import check_guards, relaxed

GUARDED = ("origin or flow rules changed: every new origin rule implied by an old one and every flow the old "
           "rules allow on every label a record can carry allowed by the new ones, checked (trusted/guards.py); the "
           "certificate relates the old lists under the new rules to the new policy")
PROBE = 2000  # related pairs or quadruples an explicit relation may list before the symbolic one is tried
_NO_LIMIT = Budget()  # library default: no limit (the CLI's default is finite)


@exclusive
def revise(old: Policy, new: Policy, effects: EffectSet, workload: Workload, bound: int,
           prefix: Prefix | None = None, *, budget: Budget = _NO_LIMIT, merge: bool = True, fast: bool = True,
           on_progress: Callable[[Spent], None] | None = None, prune: bool = True,
           memo: Memo | None = None) -> RevisionReport:
    """Judge the revision at task start, or after ``prefix`` (InvalidInput if the old policy refuses it),
    within ``budget`` (``on_progress`` is called with what was spent, for a progress display).

    ``merge=False`` and ``fast=False`` are the unmemoized paths, kept as speed baselines: the sequence
    enumeration for the searches; a fresh Z3 solver per question, nothing memoized, for the engines;
    ``prune=False`` decides every last call of the forbidden-trace search (``new_forbidden``). ``memo``: the
    memo of the fast path (default: the process's, ``SHARED``; a fresh ``Memo()`` is a cold check)."""
    clock = time.perf_counter()
    point = None if prefix is None else starting_point(old, new, prefix)
    if point is not None:
        problem = check_correspondence(point.correspondence, old, new)
        assert problem is None, problem  # correspond() builds only what check_correspondence accepts
    meter = budget.start(on_progress)
    notes = _Notes()
    kept = (memo if memo is not None else SHARED) if fast else None
    mid = relaxed(old, new)
    guards = None if mid is None else check_guards(old, mid)
    try:
        preservation = _preservation(old, new, effects, workload, bound, point, meter, notes, merge,
                                     kept,
                                     mid if mid is not None and isinstance(guards, Valid) else None)
        if isinstance(preservation, Certified) and mid is not None:
            preservation = replace(preservation, guards=GUARDED)
        elif isinstance(guards, Invalid):
            notes.structural = f"{notes.structural}; {guards.reason}"
    except BudgetExhausted as exc:
        out = OutOfBudget(_budget.Unknown.of(exc, f"preservation: {notes.phase}"))
        never = OutOfBudget(_budget.Unknown.of(exc, "safety delta: not started, the budget ran out before"))
        return RevisionReport(out, never if workload.forbidden else NoForbiddenDeclared(), notes.structural,
                              notes.simulation, time.perf_counter() - clock, point, notes.joint)
    safety: SafetyDelta
    if not workload.forbidden:
        safety = NoForbiddenDeclared()
    else:
        try:
            found = new_forbidden(old, new, workload, bound, point, meter, merge=merge,
                                  memo=kept, prune=prune)
            safety = NoNewForbidden(bound, found.visited) if isinstance(found, Searched) else NewlyForbidden(found)
            long = None if point is not None or not isinstance(found, Searched) or not beyond(old, new, bound) \
                else long_new_forbidden(old, new, workload)
            if long is not None:
                example = compressed(old, new, workload, long, False)
                if example.confirmed:
                    safety = NewlyForbidden(example)
        except BudgetExhausted as exc:
            safety = OutOfBudget(_budget.Unknown.of(exc, f"safety delta: forbidden-trace search up to bound {bound}"))
    return RevisionReport(preservation, safety, notes.structural, notes.simulation, time.perf_counter() - clock,
                          point, notes.joint)


class _Notes:
    """What each engine said, kept when the budget interrupts a later one."""

    def __init__(self) -> None:
        self.phase = "structural certificate search"
        self.structural = "not tried"
        self.simulation = "not tried"
        self.joint = "not tried"
        self.binding = "not tried"


def _preservation(old: Policy, new: Policy, effects: EffectSet, workload: Workload, bound: int,
                  point: StartingPoint | None, meter: Meter, notes: _Notes, merge: bool,
                  memo: Memo | None, mid: Policy | None = None) -> Preservation:
    """``mid``: the old lists under the new origin and flow rules, already checked to admit every call the
    old policy admits (trusted/guards.py): the certificate engines then relate ``mid`` to ``new``, while
    the lost-client search still runs the old policy itself."""
    ledgers = None if point is None else point.ledgers()
    searched = old
    old = old if mid is None else mid
    meter.check_time()  # kept answers may spare every Z3 question, and with them every look at the clock
    cert = certify(old, new, effects, ledgers, meter, memo)
    if isinstance(cert, NoCertificate):
        notes.structural = cert.reason
    else:
        verdict = check(cert, old, new, ledgers, memo is not None)
        notes.structural = "found" if isinstance(verdict, Valid) else f"found but refused by the checker: {verdict}"
        if isinstance(verdict, Valid):
            return Certified(cert, (PYTHON_CHECKER,))
    notes.phase = "simulation per permission list"
    meter.check_time()
    found = _simulation(old, new, effects, ledgers, meter, memo, False)
    notes.simulation = found if isinstance(found, str) else "found"
    if not isinstance(found, str):
        return found
    notes.phase = "joint simulation over both permission lists"
    meter.check_time()
    found = _simulation(old, new, effects, ledgers, meter, memo, True)
    notes.joint = found if isinstance(found, str) else "found"
    if not isinstance(found, str):
        return found
    notes.phase = f"lost-client search up to bound {bound}"
    meter.check_time()
    relaxed_old, old = old, searched
    lost = lost_client(old, new, workload, bound, point, meter, merge=merge, memo=memo)
    if isinstance(lost, Searched):
        # after the search: a regression it refutes never pays for the classes' enumeration
        notes.phase = "simulation per binding class"
        meter.check_time()
        split = propose_binding(relaxed_old, new, effects, ledgers, meter, memo)
        if isinstance(split, NoSimulation):
            notes.binding = split.reason
        else:
            checked = checked_report(split, check_binding(split, relaxed_old, new, ledgers, memo is not None),
                                     relaxed_old, new)
            if not isinstance(checked, str):
                return checked
            notes.binding = checked
        long = None if point is not None or not beyond(old, new, bound) else long_lost_client(old, new, workload)
        if long is not None:
            example = compressed(old, new, workload, long, True)
            if example.confirmed:
                return NotPreserved(example)
        return Unknown(bound, lost.visited,
                       f"{notes.structural}; {notes.simulation}; {notes.joint}; binding classes: {notes.binding}")
    return NotPreserved(lost)


def _simulation(old: Policy, new: Policy, effects: EffectSet, ledgers: Ledgers | None, meter: Meter,
                memo: Memo | None, joint: bool) -> Certified | str:
    """A checked simulation per list (``joint=False``) or over both lists, or why none.

    The explicit relation is tried first with a small cap (``PROBE`` related pairs or quadruples): if the
    reachable set fits, it is exact, and when it fails so does any relation. Past the probe the symbolic
    relation (linear.py) comes next, its size independent of the quotas, and last the explicit one up
    to its full cap (a relation the symbolic template cannot state may still be listed)."""
    fast = memo is not None
    reasons: list[str] = []
    for attempt in ("probe", "symbolic", "explicit"):
        if attempt == "symbolic":
            proof: SimulationProof | JointSimulation | LinearSimulation | NoSimulation = \
                propose_linear(old, new, effects, ledgers, meter, memo, joint)
        else:
            cap = PROBE if attempt == "probe" else MAX_QUADS if joint else MAX_PAIRS
            proof = propose_joint(old, new, effects, ledgers, meter, memo, cap) if joint else \
                simulate(old, new, effects, ledgers, meter, memo, cap)
        if isinstance(proof, NoSimulation):
            reasons.append(proof.reason)
            if attempt == "probe" and not proof.capped:
                break  # the whole reachable set was explored: no relation of any shape can be closed
            continue
        verdict = check_linear(proof, old, new, ledgers, fast) if isinstance(proof, LinearSimulation) else \
            check_joint(proof, old, new, ledgers, fast) if isinstance(proof, JointSimulation) else \
            check_simulation(proof, old, new, ledgers, fast)
        checked = checked_report(proof, verdict, old, new)
        if not isinstance(checked, str):
            return checked
        reasons.append(checked)
        if attempt == "probe":
            break
    return "; ".join(reasons)


def checked_report(proof: SimulationProof | JointSimulation | LinearSimulation | BindingSimulation,
                   verdict: CheckVerdict, old: Policy, new: Policy) -> Certified | str:
    """The certificate, certified by the checkers that accept it; or why it is not a proof. Lean's
    closure check reads explicit relations only: a symbolic one is certified by the Python checker alone."""
    if isinstance(verdict, Undecided):
        return f"found but the independent checker could not decide it, not counted: {verdict.reason}"
    if isinstance(verdict, Invalid):
        return f"found but refused by the checker: {verdict.reason}"
    if isinstance(proof, LinearSimulation):
        return Certified(proof, (PYTHON_CHECKER,))
    lean = lean_closure(proof, old, new)
    if isinstance(lean, LeanClosed):
        coverage = (f"{LEAN_COVERAGE} ({lean.route})",) if lean.coverage is None else ()
        return Certified(proof, (PYTHON_CHECKER, f"{LEAN_CHECKER} ({lean.route})", *coverage),
                         lean_coverage=lean.coverage or "", coverage_questions=lean.questions)
    if isinstance(lean, LeanAbsent):
        return Certified(proof, (PYTHON_CHECKER,))
    if isinstance(lean, LeanFault):
        return (f"found and accepted by the {PYTHON_CHECKER}, but the {LEAN_CHECKER} faulted (not counted): "
                f"{lean.reason}")
    return f"found and accepted by the {PYTHON_CHECKER}, but refused by the {LEAN_CHECKER}: {lean.reason}"
