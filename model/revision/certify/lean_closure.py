"""The Lean closure check of simulation certificates, run by ``revise`` when a built Lean oracle is present
(Agenra Section 1: "for other finite-quota revisions, Lean checks a proposed relation for closure").

The oracle judgment ``simulation_closure`` (closure_json.py writes its input) checks that a relation holds
at the start and is closed under every unit the certificate lists; its meaning is the theorem
``AgentWarrant.Revision.Closure.closedPreservesFromStart``. Coverage of the units (that every effect of
``E`` has a listed match vector) is decided by Z3 in the independent Python checker, not by Lean.

Choices where the source is silent: the oracle is used only if its executable exists (``oracle_path``);
it is never built here. A plumbing failure (no such judgment in the executable, a dead process) means
Lean did not check, and is said so; it is not a refusal. A relation Lean finds not closed is a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.canonical import JSON
from model.monitor.language.policy import Policy
from model.oracle.lean import LeanOracle, OracleError
from model.oracle.toolchain import oracle_path
from model.revision.certify.closure_json import joint_closure_input, list_closure_input
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.certify.simulation_certificate import SimulationProof

PYTHON_CHECKER = "independent Python checker"
LEAN_CHECKER = "Lean closure check"


@dataclass(frozen=True, slots=True)
class LeanClosed:
    pass


@dataclass(frozen=True, slots=True)
class LeanRefused:
    reason: str


@dataclass(frozen=True, slots=True)
class LeanAbsent:
    """Lean did not check: no oracle executable, or a plumbing failure talking to it."""

    reason: str


LeanVerdict = LeanClosed | LeanRefused | LeanAbsent


def _inputs(proof: SimulationProof | JointSimulation, old: Policy, new: Policy) -> list[tuple[str, dict[str, JSON]]]:
    if isinstance(proof, JointSimulation):
        return [("joint", joint_closure_input(proof, old, new))]
    return [("P", list_closure_input(proof.user, old.user, new.user)),
            ("A", list_closure_input(proof.application, old.application, new.application))]


def lean_closure(proof: SimulationProof | JointSimulation, old: Policy, new: Policy) -> LeanVerdict:
    """Does the Lean oracle find every relation of ``proof`` closed?"""
    exe = oracle_path()
    if not exe.is_file():
        return LeanAbsent(f"no Lean oracle executable at {exe}")
    try:
        oracle = LeanOracle(exe)
    except OracleError as exc:
        return LeanAbsent(str(exc))
    try:
        for side, payload in _inputs(proof, old, new):
            out = oracle.call("simulation_closure", payload)
            if not isinstance(out, dict) or not isinstance(out.get("closed"), bool):
                return LeanAbsent(f"{side}: the oracle's answer has no closed flag: {out!r:.200}")
            if not out["closed"]:
                return LeanRefused(f"{side}: Lean finds the relation not closed")
        return LeanClosed()
    except OracleError as exc:
        return LeanAbsent(str(exc))
    finally:
        oracle.close()
