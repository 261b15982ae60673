"""The report of a revision judgment (Agenra Sections 1 and 7.1: "neither property implies the other.
Report both, always"): the preservation verdict (``Certified`` with its evidence, ``NotPreserved``
with the shortest lost client, ``Unknown`` within the bound, ``OutOfBudget``), the safety delta
(``NewlyForbidden``, ``NoNewForbidden``, ``NoForbiddenDeclared``, ``OutOfBudget``), the notes of each
engine and the starting point, with its JSON form. ``revise.py`` computes it.

Choice: ``judgment()`` is the part a faster implementation must leave unchanged — the searches' node
counts and the witness of a "matching differs" note are left out, since merging changes the first and
Z3 may pick any effect for the second.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base import budget as _budget
from model.base.canonical import JSON
from model.revision.certify.binding_certificate import BindingSimulation
from model.revision.certify.certificate import Certificate, certificate_to_json
from model.revision.certify.joint_certificate import JointSimulation, joint_to_json
from model.revision.certify.linear_certificate import LinearSimulation
from model.revision.certify.simulation import SimulationProof
from model.revision.explore.counterexample import Counterexample
from model.revision.explore.prefix import StartingPoint
from model.revision.trusted.arg_cover import Written


@dataclass(frozen=True, slots=True)
class Certified:
    evidence: Certificate | SimulationProof | JointSimulation | LinearSimulation | BindingSimulation
    checked_by: tuple[str, ...] = ()  # the checkers that accepted the evidence (lean_closure.py names them)
    # the revision also changes origin or flow rules: the evidence is for the old lists under the new rules,
    # and this names the checked step from the old rules to the new (trusted/guards.py); empty otherwise
    guards: str = ""
    # why Lean did not decide the certificate's effect coverage although it checked closure (coverage then
    # rests on Z3 alone); empty when Lean decided it (``checked_by`` names the Lean coverage check) or was absent
    lean_coverage: str = ""
    # when Lean decided coverage: per list and action, whether Lean wrote the question from the entries
    # (``arg_cover_policy``) or Python did (``arg_cover``) because an entry lies outside Lean's fragment
    coverage_questions: tuple[Written, ...] = ()

    def checkers(self) -> str:
        return " and the ".join(self.checked_by) if self.checked_by else "no checker"

    def questions_written(self) -> str:
        """Who wrote the coverage questions Lean decided; empty when Lean did not decide them."""
        lean = [w.show() for w in self.coverage_questions if w.by == "lean"]
        python = [w.show() for w in self.coverage_questions if w.by != "lean"]
        if not python:
            return "Lean wrote every coverage question (arg_cover_policy)" if lean else ""
        return "; ".join(x for x in (
            f"Lean wrote the coverage questions of {', '.join(lean)} (arg_cover_policy)" if lean else "",
            f"Python wrote those of {', '.join(python)} (arg_cover)") if x)

    def show(self) -> str:
        step = f"; {self.guards}" if self.guards else ""
        if self.coverage_questions:
            step += f"; {self.questions_written()}"
        if isinstance(self.evidence, Certificate):
            return (f"Certified (structural certificate, checked by the {self.checkers()}): "
                    f"{self.evidence.summary()}{step}")
        return f"Certified ({self.evidence.summary()}, closure and coverage checked by the {self.checkers()}){step}"


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


@dataclass(frozen=True, slots=True)
class OutOfBudget:
    """The budget ran out before this verdict was reached (exit 3)."""

    unknown: _budget.Unknown

    def show(self) -> str:
        return f"Unknown: {self.unknown.describe()}"


Preservation = Certified | NotPreserved | Unknown | OutOfBudget


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


SafetyDelta = NewlyForbidden | NoNewForbidden | NoForbiddenDeclared | OutOfBudget


@dataclass(frozen=True, slots=True)
class RevisionReport:
    preservation: Preservation
    safety: SafetyDelta
    structural: str  # "found" or why no structural certificate
    simulation: str  # "found", "not tried" or why none
    seconds: float
    start: StartingPoint | None = None  # None: task start
    joint: str = "not tried"  # "found", "not tried" or why no joint simulation

    def out_of_budget(self) -> bool:
        """The budget ran out and nothing was refuted before: the answer is Unknown (exit 3)."""
        p, s = self.preservation, self.safety
        return (isinstance(p, OutOfBudget) or isinstance(s, OutOfBudget)) and \
            not isinstance(p, NotPreserved) and not isinstance(s, NewlyForbidden)

    def judgment(self) -> dict[str, JSON]:
        """What a speed-up must leave unchanged: ``to_json`` without the searches' node
        counts (merging changes them by design) and with the witness of a "matching differs" note
        elided — which effect Z3's model picks depends on the terms built before in the process (the
        unmemoized path itself gives different ones in different runs), and a kept sample may
        stand in for it (memo.py). Verdicts, certificates and counterexamples are all kept."""
        doc = self.to_json()
        for part in ("preservation", "safety"):
            inner = doc[part]
            assert isinstance(inner, dict)
            doc[part] = {k: _elide(v) for k, v in inner.items() if k != "visited"}
        for note in ("structural", "simulation", "joint"):
            doc[note] = _elide(doc[note])
        return doc

    def to_json(self) -> dict[str, JSON]:
        p = self.preservation
        pres: dict[str, JSON]
        if isinstance(p, Certified):
            ev = p.evidence
            checked: JSON = list(p.checked_by)
            if isinstance(ev, Certificate):
                pres = {"verdict": "certified", "by": "structural", "evidence": certificate_to_json(ev)}
            elif isinstance(ev, JointSimulation):
                pres = {"verdict": "certified", "by": "joint_simulation", "evidence": joint_to_json(ev)}
            elif isinstance(ev, BindingSimulation):
                pres = {"verdict": "certified", "by": "binding_simulation", "evidence": ev.to_json()}
            elif isinstance(ev, LinearSimulation):
                by = "joint_simulation" if ev.mode == "joint" else "simulation"
                pres = {"verdict": "certified", "by": by, "relation": "symbolic", "evidence": ev.to_json()}
            else:
                pres = {"verdict": "certified", "by": "simulation", "evidence": ev.to_json()}
            pres["checked_by"] = checked
            if p.guards:
                pres["guards"] = p.guards
            if p.lean_coverage:
                pres["lean_coverage"] = p.lean_coverage
            if p.coverage_questions:
                pres["coverage_questions"] = [w.to_json() for w in p.coverage_questions]
        elif isinstance(p, NotPreserved):
            pres = {"verdict": "not_preserved", "lost_client": p.lost.to_json()}
        elif isinstance(p, OutOfBudget):
            pres = p.unknown.to_json()
        else:
            pres = {"verdict": "unknown", "bound": p.bound, "visited": p.visited, "why": p.why}
        s = self.safety
        safety: dict[str, JSON]
        if isinstance(s, NewlyForbidden):
            safety = {"verdict": "newly_forbidden", "trace": s.trace.to_json()}
        elif isinstance(s, NoNewForbidden):
            safety = {"verdict": "no_new_forbidden", "bound": s.bound, "visited": s.visited}
        elif isinstance(s, OutOfBudget):
            safety = s.unknown.to_json()
        else:
            safety = {"verdict": "not_declared"}
        start: JSON = {"at": "task_start"} if self.start is None else self.start.to_json()
        return {"preservation": pres, "safety": safety, "structural": self.structural,
                "simulation": self.simulation, "joint": self.joint, "start": start}


_DIFFERS = "matching differs on {"


def _elide(value: JSON) -> JSON:
    """``value`` with the witness after each "matching differs on" (a balanced ``{…}``) replaced."""
    if not isinstance(value, str) or _DIFFERS not in value:
        return value
    out, rest = [], value
    while _DIFFERS in rest:
        head, rest = rest.split(_DIFFERS, 1)
        depth, i = 1, 0
        while i < len(rest) and depth:
            depth += {"{": 1, "}": -1}.get(rest[i], 0)
            i += 1
        out.append(head + "matching differs on <witness>")
        rest = rest[i:]
    return "".join(out) + rest
