"""The generated revision families judged by ``revise`` (Agenra Sections 1 and 7.1), every answer checked apart
from the engine that found it.

Families: binding-dependent swaps (model/revision/binding_swap.py, four shapes at five quota pairs), origin
and flow changes (model/revision/guard_family.py, nine edits of the report task) and long lost clients
(model/revision/long_loss.py, four members at Q = 10^3, 10^6, 10^9). Per member: the verdict, what the
member is built to show (``expected``, used here to score, never by the judgment), how the answer was
checked, and the wall time of the ``revise``. Checks: a certificate is re-checked by its independent checker
after a JSON round trip (structural, per-list, joint, per binding class; a symbolic relation by
``check_linear``) and ``checked_by`` lists every checker ``revise`` itself had accept it (the Lean closure
check where the compiled core is present); a lost client or newly admitted forbidden trace must be confirmed
by replay (the Adapter, or the exact compressed replay for one found through the counters).

Writes paper_figures/tables/revision_families.csv and .md.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from model.base.tables import write_table
from model.monitor.language.policy import Policy
from model.revision import binding_swap, guard_family, long_loss
from model.revision.certify.binding_certificate import BindingSimulation, binding_from_json, check_binding
from model.revision.certify.certificate import Certificate, certificate_from_json, certificate_to_json
from model.revision.certify.certificate_checker import Valid, check, check_joint
from model.revision.certify.joint_certificate import JointSimulation, joint_from_json, joint_to_json
from model.revision.certify.linear_certificate import LinearSimulation, linear_from_json, linear_to_json
from model.revision.certify.linear_check import check_linear
from model.revision.certify.simulation_certificate import SimulationProof, check_simulation, simulation_from_json
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.workload import Workload
from model.revision.report import Certified, NewlyForbidden, NotPreserved, RevisionReport
from model.revision.revise import revise
from model.revision.trusted.guards import relaxed

Case = tuple[str, str, Policy, Policy, Workload, int, str]  # family, member, old, new, workload, bound, expected


def cases() -> list[Case]:
    out: list[Case] = []
    for shape in binding_swap.SHAPES:
        for g, s in binding_swap.QUOTAS:
            old, new, w, bound = binding_swap.member(shape, g, s)
            out.append(("binding swap", f"{shape} g={g} s={s}", old, new, w, bound, binding_swap.expected(shape)))
    for name in guard_family.EDITS:
        old, new, w = guard_family.member(name)
        out.append(("origin/flow", name, old, new, w, guard_family.BOUND, guard_family.expected(name)))
    for name in long_loss.MEMBERS:
        for q in long_loss.QUOTAS:
            old, new, w = long_loss.member(name, q)
            out.append(("long loss", f"{name} Q=10^{len(str(q)) - 1}", old, new, w, long_loss.BOUND,
                        long_loss.expected(name)[0]))
    return out


def recheck(p: Certified, old: Policy, new: Policy) -> bool:
    """The certificate, read back from its JSON form, passes its independent checker."""
    ev, start = p.evidence, relaxed(old, new) if p.guards else old
    assert start is not None
    if isinstance(ev, Certificate):
        return isinstance(check(certificate_from_json(certificate_to_json(ev)), start, new), Valid)
    if isinstance(ev, BindingSimulation):
        return isinstance(check_binding(binding_from_json(ev.to_json()), start, new), Valid)
    if isinstance(ev, JointSimulation):
        return isinstance(check_joint(joint_from_json(joint_to_json(ev)), start, new), Valid)
    if isinstance(ev, LinearSimulation):
        return isinstance(check_linear(linear_from_json(linear_to_json(ev)), start, new), Valid)
    assert isinstance(ev, SimulationProof)
    return isinstance(check_simulation(simulation_from_json(ev.to_json()), start, new), Valid)


def _verdict(r: RevisionReport) -> str:
    p = r.preservation
    return "certified" if isinstance(p, Certified) else "not_preserved" if isinstance(p, NotPreserved) else "unknown"


def _checked(r: RevisionReport, old: Policy, new: Policy) -> str:
    p = r.preservation
    if isinstance(p, Certified):
        head = "re-checked after JSON; " if recheck(p, old, new) else "REFUSED on re-check; "
        return head + " + ".join(p.checked_by)
    if isinstance(p, NotPreserved):
        how = "compressed replay" if p.lost.blocks else "Adapter replay"
        return f"lost client [{p.lost.show()}] confirmed by {how}" if p.lost.confirmed else "NOT confirmed"
    return "-"


def _evidence(r: RevisionReport) -> str:
    p = r.preservation
    if isinstance(p, Certified):
        return type(p.evidence).__name__ + (" (after the guard step)" if p.guards else "")
    return "lost client" if isinstance(p, NotPreserved) else "none"


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    plan = cases()
    rows: list[list[object]] = []
    for i, (family, name, old, new, w, bound, want) in enumerate(plan):
        tick(i, len(plan))
        start = time.perf_counter()
        r = revise(old, new, EVERY_EFFECT, w, bound)
        ms = (time.perf_counter() - start) * 1000
        safety = "newly_forbidden (confirmed)" if isinstance(r.safety, NewlyForbidden) and r.safety.trace.confirmed \
            else type(r.safety).__name__
        rows.append([family, name, _verdict(r), want, _evidence(r), _checked(r, old, new), safety, f"{ms:.0f}"])
    tick(len(plan), len(plan))
    total = {f: sum(1 for r in rows if r[0] == f) for f in dict.fromkeys(r[0] for r in rows)}
    unknown = sum(1 for r in rows if r[2] == "unknown")
    wrong = sum(1 for r in rows if r[2] != r[3])
    caption = ("Generated revision families judged by revise (Agenra §§1, 7.1): "
               + ", ".join(f"{f} {n}" for f, n in total.items())
               + f" members; {unknown} Unknown, {wrong} verdicts other than the member's expected one. checked: a "
               "certificate re-checked by its independent checker after a JSON round trip, and every checker revise "
               "had accept it (Lean where the compiled core is present); a lost client confirmed by replay. ms: wall "
               "time of the revise. Regenerate: agentwarrant reproduce revision-families.")
    return write_table(out_dir, "revision_families", ["family", "member", "verdict", "expected", "evidence", "checked",
                                                      "safety", "ms"], rows, caption)
