"""The revision judgment: client preservation and the safety delta, reported separately
(Agenra Sections 1 and 7.1: "neither property implies the other. Report both, always").

Preservation is decided in this order:
1. a structural certificate (``structural.certify``), accepted only if the independent checker
   (``checker.check``) validates it → ``Certified``;
2. otherwise a simulation relation (``simulation.simulate``), proposed and checked for closure →
   ``Certified``;
3. otherwise the bounded search for the shortest lost client → ``NotPreserved`` with it, or
   ``Unknown`` within the bound.
The safety delta is always the bounded search for the shortest newly admitted forbidden trace
under the workload's declared budgets (``NewlyForbidden`` / ``NoNewForbidden`` within the bound,
or ``NoForbiddenDeclared``). Choice: a lost client is reported as ``NotPreserved`` even when the
Adapter replay does not confirm it; the ``confirmed`` flag says so, and the tests require it true.

Starting point: at task start (every counter zero) by default; with a ``prefix`` (prefix.py) the
revision is installed mid-task — the prefix runs under the old policy to a state S, the counters
are carried onto the new lists by a checked account correspondence (carry.py), and all three
engines (and the safety search) start from that pair of states. The report says which.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from model.canonical import JSON
from model.monitor.policy import Policy
from model.revision.carry import check_correspondence
from model.revision.certificate import Certificate, certificate_to_json
from model.revision.checker import Valid, check
from model.revision.counterexample import Counterexample, Searched, lost_client, new_forbidden
from model.revision.effects import EffectSet
from model.revision.prefix import Prefix, StartingPoint, starting_point
from model.revision.simulation import NoSimulation, SimulationProof, simulate
from model.revision.structural import NoCertificate, certify
from model.revision.workload import Workload


@dataclass(frozen=True, slots=True)
class Certified:
    evidence: Certificate | SimulationProof

    def show(self) -> str:
        if isinstance(self.evidence, Certificate):
            return f"Certified (structural certificate, checked): {self.evidence.summary()}"
        return f"Certified ({self.evidence.summary()}, closure checked)"


@dataclass(frozen=True, slots=True)
class NotPreserved:
    lost: Counterexample

    def show(self) -> str:
        state = "confirmed by replay" if self.lost.confirmed else "NOT confirmed by replay"
        return (f"NotPreserved: lost client [{self.lost.show()}], the new policy refuses it: "
                f"{self.lost.refusal}; {state}")


@dataclass(frozen=True, slots=True)
class Unknown:
    bound: int
    visited: int
    why: str

    def show(self) -> str:
        return (f"Unknown within bound {self.bound}: no lost client among {self.visited} sequences (states); "
                f"no certificate ({self.why})")


Preservation = Certified | NotPreserved | Unknown


@dataclass(frozen=True, slots=True)
class NewlyForbidden:
    trace: Counterexample

    def show(self) -> str:
        state = "confirmed by replay" if self.trace.confirmed else "NOT confirmed by replay"
        return f"NewlyForbidden: [{self.trace.show()}] is admitted after and not before; {state}"


@dataclass(frozen=True, slots=True)
class NoNewForbidden:
    bound: int
    visited: int

    def show(self) -> str:
        return f"NoNewForbidden within bound {self.bound} ({self.visited} sequences (states) admitted after)"


@dataclass(frozen=True, slots=True)
class NoForbiddenDeclared:
    def show(self) -> str:
        return "not checked: the workload declares no forbidden effects"


SafetyDelta = NewlyForbidden | NoNewForbidden | NoForbiddenDeclared


@dataclass(frozen=True, slots=True)
class RevisionReport:
    preservation: Preservation
    safety: SafetyDelta
    structural: str  # "found" or why no structural certificate
    simulation: str  # "found", "not tried" or why none
    seconds: float
    start: StartingPoint | None = None  # None: task start

    def start_text(self) -> str:
        if self.start is None:
            return "task start (every counter zero)"
        return f"{self.start.describe()}; counters {self.start.ledgers().show()}"

    def to_json(self) -> dict[str, JSON]:
        p = self.preservation
        pres: dict[str, JSON]
        if isinstance(p, Certified):
            ev = p.evidence
            pres = {"verdict": "certified", "by": "structural" if isinstance(ev, Certificate) else "simulation",
                    "evidence": certificate_to_json(ev) if isinstance(ev, Certificate) else ev.summary()}
        elif isinstance(p, NotPreserved):
            pres = {"verdict": "not_preserved", "lost_client": p.lost.to_json()}
        else:
            pres = {"verdict": "unknown", "bound": p.bound, "visited": p.visited, "why": p.why}
        s = self.safety
        safety: dict[str, JSON]
        if isinstance(s, NewlyForbidden):
            safety = {"verdict": "newly_forbidden", "trace": s.trace.to_json()}
        elif isinstance(s, NoNewForbidden):
            safety = {"verdict": "no_new_forbidden", "bound": s.bound, "visited": s.visited}
        else:
            safety = {"verdict": "not_declared"}
        start: JSON = {"at": "task_start"} if self.start is None else self.start.to_json()
        return {"preservation": pres, "safety": safety, "structural": self.structural,
                "simulation": self.simulation, "start": start}


def revise(old: Policy, new: Policy, effects: EffectSet, workload: Workload, bound: int,
           prefix: Prefix | None = None, *, merge: bool = True) -> RevisionReport:
    """Judge the revision at task start, or after ``prefix`` (InvalidInput if the old policy refuses it)."""
    clock = time.perf_counter()
    point = None if prefix is None else starting_point(old, new, prefix)
    if point is not None:
        problem = check_correspondence(point.correspondence, old, new)
        assert problem is None, problem  # correspond() builds only what check_correspondence accepts
    ledgers = None if point is None else point.ledgers()
    preservation: Preservation | None = None
    simulation_note = "not tried"
    cert = certify(old, new, effects, ledgers)
    if isinstance(cert, NoCertificate):
        structural_note = cert.reason
    else:
        verdict = check(cert, old, new, ledgers)
        structural_note = "found" if isinstance(verdict, Valid) else f"found but refused by the checker: {verdict}"
        if isinstance(verdict, Valid):
            preservation = Certified(cert)
    if preservation is None:
        sim = simulate(old, new, effects, ledgers)
        simulation_note = sim.reason if isinstance(sim, NoSimulation) else "found"
        if not isinstance(sim, NoSimulation):
            preservation = Certified(sim)
    if preservation is None:
        lost = lost_client(old, new, workload, bound, point, merge=merge)
        if isinstance(lost, Searched):
            preservation = Unknown(bound, lost.visited, f"{structural_note}; {simulation_note}")
        else:
            preservation = NotPreserved(lost)
    safety: SafetyDelta
    if not workload.forbidden:
        safety = NoForbiddenDeclared()
    else:
        found = new_forbidden(old, new, workload, bound, point, merge=merge)
        safety = NoNewForbidden(bound, found.visited) if isinstance(found, Searched) else NewlyForbidden(found)
    return RevisionReport(preservation, safety, structural_note, simulation_note, time.perf_counter() - clock, point)
