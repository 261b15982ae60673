"""The Lean closure check of simulation certificates, run by ``revise`` whenever the compiled Lean core is
present (Agenra Section 1: "for other finite-quota revisions, Lean checks a proposed relation for closure").

The oracle judgment ``simulation_closure`` (closure_json.py writes its input) checks that a relation holds
at the start and is closed under every unit the certificate lists; its meaning is the theorem
``AgentWarrant.Revision.Closure.closedPreservesFromStart``. Coverage of the units (that every effect of
``E`` has a listed match vector) is decided by Z3 in the independent Python checker, and asked of Lean as
well when the relation is closed (judgment ``arg_cover``, ``model/revision/trusted/arg_cover.py``; its meaning
is ``AgentWarrant.Revision.ArgCover.argCoveredClosedPreserves``): when every coverage question of the
certificate can be written for Lean and Lean answers covered, the verdict says so (``LeanClosed.coverage``);
Lean writes each action's question itself from the entries, tools and ``E`` (``arg_cover_policy``) when the
action's entries lie in the fragment its translation covers, and the verdict says which questions Python
wrote instead (``LeanClosed.written``; per list and action, with the entries outside the fragment:
``LeanClosed.questions``, which the report shows);
a per-binding-class certificate's classes are asked with each class's facts as literals (``lean_covers``'s
``facts``: Lean writes those questions itself, ``arg_cover_class``, except for an action with an entry whose
predicate constant fails the oracle's checks, whose questions Python writes); a question
no translation writes (``Unsupported``: e.g. a range bound that is not a finite number), or a binding class
asserting two slots' values differ on which Lean answers uncovered, leaves coverage to Z3 alone, and the
verdict says why (for binding classes, which ones). Lean finding an effect the certificate
omits is a refusal. Lean never answers a question it takes with ``unknown``
(``AgentWarrant.Revision.ArgCover.argCoverNeverUnknown``), so such an answer is a fault, not a fallback.

Routes: the in-process library (``model/oracle/inproc.py``, checked against its SHA-256 before it is
loaded) when it was built, else the oracle executable (``oracle_path``; each answer within ``TIMEOUT``
seconds); the verdict names the route. Neither is built here.

Faults fail closed. When neither the library nor the executable exists, Lean did not check
(``LeanAbsent``) and the certificate stands on the Python checker alone, which ``checked_by`` says. When one
exists but does not answer — it fails to load or start, panics, dies, hangs past ``TIMEOUT``, or answers
without a closed flag — that is a ``LeanFault``, treated as a refusal: the certificate is not counted (a
library that fails to load is first replaced by the executable, if there is one). A relation Lean finds not
closed is a refusal. So Lean can only take a certificate away, never give one.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.canonical import JSON
from model.monitor.language.policy import Entry, EntryKind, Policy, Tool
from model.oracle import inproc
from model.oracle.lean import LeanOracle, OracleError
from model.oracle.toolchain import oracle_path
from model.revision.certify.binding_certificate import BindingSimulation, atom_text
from model.revision.certify.check_verdict import Invalid
from model.revision.certify.closure_json import joint_closure_input, list_closure_input
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.certify.simulation_certificate import SimulationProof
from model.revision.effects import EffectSet
from model.revision.trusted.arg_cover import ApartUncovered, BadAnswer, Unsupported, Written, lean_covers

PYTHON_CHECKER = "independent Python checker"
LEAN_CHECKER = "Lean closure check"
LEAN_COVERAGE = "Lean coverage check"
IN_PROCESS, SUBPROCESS = "in-process library", "oracle executable"
TIMEOUT = 120.0  # seconds per answer of the executable (a closure of 50,000 quadruples takes a few)


@dataclass(frozen=True, slots=True)
class LeanClosed:
    route: str = IN_PROCESS
    coverage: str | None = None  # None: Lean decided every coverage question covered; else why it did not
    # Who wrote the questions Lean decided: "Lean" when it wrote every one from the entries itself
    # (``arg_cover_policy``), else the actions whose entries lie outside that fragment (Python wrote them)
    written: str = ""
    # Per list and action, who wrote its coverage question (empty unless Lean decided every one)
    questions: tuple[Written, ...] = ()


@dataclass(frozen=True, slots=True)
class LeanRefused:
    reason: str


@dataclass(frozen=True, slots=True)
class LeanAbsent:
    """Lean did not check: neither the library nor the oracle executable was built."""

    reason: str


@dataclass(frozen=True, slots=True)
class LeanFault:
    """Lean was there but gave no answer: refused, fail closed."""

    reason: str


LeanVerdict = LeanClosed | LeanRefused | LeanAbsent | LeanFault


def _inputs(proof: SimulationProof | JointSimulation | BindingSimulation, old: Policy,
            new: Policy) -> list[tuple[str, dict[str, JSON]]]:
    if isinstance(proof, JointSimulation):
        return [("joint", joint_closure_input(proof, old, new))]
    if isinstance(proof, BindingSimulation):
        return [(c.user.side, list_closure_input(c.user, old.user, new.user)) for c in proof.classes] + \
            [(c.application.side, list_closure_input(c.application, old.application, new.application))
             for c in proof.classes]
    return [("P", list_closure_input(proof.user, old.user, new.user)),
            ("A", list_closure_input(proof.application, old.application, new.application))]


Listed = dict[str, tuple[tuple[tuple[bool, ...], ...], ...]]
Coverage = tuple[str, EffectSet, Listed, tuple[tuple[Entry, ...], ...], frozenset[str], tuple[Tool, ...],
                 tuple[str, ...]]


def _allows(*lists: tuple[Entry, ...]) -> frozenset[str]:
    return frozenset(e.action for xs in lists for e in xs if e.kind is EntryKind.ALLOW)


def _coverage(proof: SimulationProof | JointSimulation, old: Policy, new: Policy) -> list[Coverage]:
    """The certificate's coverage questions, as the Python checker asks them (``questions.covers``)."""
    tools = tuple(old.tools)
    if isinstance(proof, JointSimulation):
        lists = (old.user, old.application, new.user, new.application)
        listed = {a.action: tuple(tuple(side for side in v) for v in a.vectors) for a in proof.vectors}
        return [("joint", proof.effects, listed, lists, _allows(*lists[:2]), tools,
                 ("old P", "old A", "new P", "new A"))]
    out: list[Coverage] = []
    for side, rel, o, n in (("P", proof.user, old.user, new.user), ("A", proof.application, old.application,
                                                                       new.application)):
        listed = {a: tuple((m_old, m_new) for m_old, m_new in vs) for a, vs in rel.vectors}
        out.append((side, proof.effects, listed, (o, n), _allows(o), tools, (f"old {side}", f"new {side}")))
    return out


def _lean_coverage(oracle: LeanOracle, proof: SimulationProof | JointSimulation | BindingSimulation, old: Policy,
                   new: Policy, written: list[Written]) -> str | LeanRefused | None:
    """``None`` when Lean decides every coverage question covered, a refusal when it finds an omitted
    effect, else why coverage stays with Z3 alone; ``written`` receives who wrote each action's question."""
    if isinstance(proof, BindingSimulation):
        return _binding_coverage(oracle, proof, old, new, written)
    for side, effects, listed, lists, olds, tools, names in _coverage(proof, old, new):
        try:
            verdict = lean_covers(oracle.call, effects, listed, lists, olds, tools, side, written, names)
        except Unsupported as exc:
            return f"not sent to Lean: {exc}"
        if isinstance(verdict, Invalid):
            return LeanRefused(f"Lean's coverage check: {verdict.reason}")
    return None


def _binding_coverage(oracle: LeanOracle, proof: BindingSimulation, old: Policy, new: Policy,
                      written: list[Written]) -> str | LeanRefused | None:
    """Each binding class's coverage questions with the class's facts as literals (``lean_covers``'s
    ``facts``). For a class asserting two slots' values differ (``facts_outside``) Lean's ``covered`` is
    taken and its ``uncovered`` is not (``lean_covers`` answers ``ApartUncovered``): that class is left to Z3
    alone, and the answer says which. Lean finding an omitted effect in any other class is a refusal."""
    left: list[str] = []
    for c in proof.classes:
        facts = tuple(zip(proof.atoms, c.holds, strict=True))
        text = ", ".join(("" if h else "not ") + atom_text(a) for a, h in facts)
        per_list = SimulationProof(c.user, c.application, proof.effects)
        for side, effects, listed, lists, olds, tools, names in _coverage(per_list, old, new):
            where = f"{side} [{text}]"
            try:
                verdict = lean_covers(oracle.call, effects, listed, lists, olds, tools, where, written, names, facts)
            except ApartUncovered:
                left.append(f"[{text}]")
                break
            except Unsupported as exc:
                return f"not sent to Lean: {exc}"
            if isinstance(verdict, Invalid):
                return LeanRefused(f"Lean's coverage check: {verdict.reason}")
    if left:
        return (f"{len(left)} of {len(proof.classes)} binding classes left to Z3 alone (each asserts two slots' "
                f"values differ, and Lean's uncovered answer on it may stand for no binding state): "
                f"{'; '.join(left)}")
    return None


def _written(written: list[Written]) -> str:
    python = sorted({w.why for w in written if w.by != "lean"})
    return "Lean" if not python else "Python for " + "; ".join(python)


_LOADED: list[inproc.InProcOracle] = []  # the library as this process loaded it, after its SHA-256 check


def _open() -> tuple[LeanOracle, str] | LeanAbsent | LeanFault:
    faults: list[str] = []
    if inproc.available():
        # Loaded once per process: the code in memory is what was checked, so hashing the file again for
        # every certificate (tens of milliseconds) would check nothing more.
        if _LOADED:
            return _LOADED[0], IN_PROCESS
        try:
            _LOADED.append(inproc.InProcOracle())
            return _LOADED[0], IN_PROCESS
        except OracleError as exc:
            faults.append(f"{IN_PROCESS}: {exc}")
    exe = oracle_path()
    if exe.exists():
        try:
            return LeanOracle(exe, timeout=TIMEOUT), SUBPROCESS
        except OracleError as exc:
            faults.append(f"{SUBPROCESS}: {exc}")
    if faults:
        return LeanFault("; ".join(faults))
    return LeanAbsent(f"no Lean library and no oracle executable at {exe}")


def lean_closure(proof: SimulationProof | JointSimulation | BindingSimulation, old: Policy,
                 new: Policy) -> LeanVerdict:
    """Does Lean find every relation of ``proof`` closed (in-process first, else the executable)?"""
    opened = _open()
    if not isinstance(opened, tuple):
        return opened
    oracle, route = opened
    try:
        for side, payload in _inputs(proof, old, new):
            out = oracle.call("simulation_closure", payload)
            if not isinstance(out, dict) or not isinstance(out.get("closed"), bool):
                return LeanFault(f"{side}: the {route}'s answer has no closed flag: {out!r:.200}")
            if not out["closed"]:
                return LeanRefused(f"{side}: Lean finds the relation not closed")
            if side == "joint":
                # Lean decides the theorem's premises on the units itself (closure_json.py)
                for key, what in (("unitsComplete", "the units miss a listed vector with a requirement set"),
                                  ("reqsNamed", "the requirement names miss an entry's requirement")):
                    if not isinstance(out.get(key), bool):
                        return LeanFault(f"{side}: the {route}'s answer has no {key} flag: {out!r:.200}")
                    if not out[key]:
                        return LeanRefused(f"{side}: Lean finds {what}")
        written: list[Written] = []
        coverage = _lean_coverage(oracle, proof, old, new, written)
        if isinstance(coverage, LeanRefused):
            return coverage
        if coverage is not None:
            return LeanClosed(route, coverage)
        return LeanClosed(route, None, _written(written), tuple(written))
    except (OracleError, BadAnswer) as exc:
        _LOADED.clear()  # a library that faulted is loaded afresh (its checksum checked again) next time
        return LeanFault(f"{route}: {exc}")
    finally:
        oracle.close()
