"""Differential random testing of the Python model against the Lean oracle.

One runner per judgment turns a generated case into a :data:`CaseResult`: ``Agree``, ``Skip``
(with its reason: the case is outside what the finite form decides) or ``Mismatch`` (the
comparison modes that disagree, every input and both outputs). A mismatch is reported by
:func:`report` and saved by :func:`save_vector` as a golden vector under corpus/vectors/, which
tests/drt/test_vectors.py replays (:func:`replay`). A plumbing failure (``OracleError``) ends the campaign:
it is never counted as agreement or disagreement, and the summary carries it as ``fault`` beside what
was covered before it.

Cases come from the project's hypothesis strategies (model/oracle/generators.py, shared with the
test suite), drawn one of two ways. ``engine="direct"`` (the default): by model/oracle/direct.py's
sampler, case ``i`` from its own ``random.Random`` seeded by ``(seed, judgment, i)``, so a mismatch is
replayed alone from its seed and index (``agentwarrant drt --judgment J --seed S --case I``; the summary
lists them in ``replays``); with no seed one is drawn and reported. ``engine="hypothesis"``:
hypothesis's generate phase (no shrinking, no example database), so every generated case is one
counted case, reproducible from the seed as a whole campaign.
Choice: a monitor_step case is one *run* (a fresh state and up to six calls); each of its steps
is compared, and the summary reports the steps too. A tree_contract case is one record branch tree
(model/oracle/drt_tree_contract.py), compared twice (leaves' ``Γ_b`` as terms, and as pomsets alone).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.base.canonical import canonical_str, digest
from model.edits.check.instance import Instance, instance_to_json
from model.edits.check.load_instance import raw_instance_from_json
from model.edits.check.verify import verify
from model.monitor.decide.commit import Outcome, step
from model.monitor.decide.matching import Effect
from model.monitor.decide.state import Call, initial_state
from model.monitor.language.policy_json import entry_from, entry_to_json, policy_from_json, policy_to_json
from model.oracle import drt_monitor as W
from model.oracle import drt_runtime as R
from model.oracle import drt_tree_contract as TC
from model.oracle import edits_json as E
from model.oracle import monitor_json as M
from model.oracle.inproc import Oracle
from model.oracle.lean import OracleError, shaped
from model.oracle.results import Agree, CaseResult, Mismatch, Skip, jsonable

__all__ = [
    "VECTORS",
    "Agree",
    "CaseResult",
    "Mismatch",
    "Skip",
    "Summary",
    "campaign",
    "ledger_case_from",
    "ledger_python_input",
    "monitor_python_input",
    "monitor_run_from",
    "replay",
    "report",
    "run_case",
    "run_edit_check",
    "run_ledger",
    "run_monitor",
    "run_resolve",
    "save_vector",
    "strategy_for",
]

VECTORS = Path(__file__).resolve().parent.parent.parent / "corpus" / "vectors"


def run_edit_check(oracle: Oracle, inst: Instance) -> CaseResult:
    """Both checkers on one raw instance, Invalid ones included (the oracle checks well-formedness
    itself); agreement is tagged with the answer kind, ``invalid:<reason>`` for an ill-formed one."""
    py = E.python_edit_check(inst)
    payload, names = E.edit_check_input(inst)
    out = oracle.call("edit_check", payload)
    lean = shaped("edit_check", out, lambda answer: E.lean_edit_view(names, answer))
    bad = E.compare_edit_check(py, lean)
    if lean.verdicts[0] == "rejected":
        proof = shaped("edit_check", out, lambda answer: E.lean_proof(names, answer))
        if proof is None or not verify(inst, proof).valid:
            bad.append("lean-proof")
    if not bad:
        return Agree(lean.verdicts[0])
    return Mismatch("edit_check", tuple(bad), instance_to_json(inst), payload, py.to_json(), lean.to_json())


def run_resolve(oracle: Oracle, case: tuple[tuple[str, ...], dict[str, str], tuple[str, ...]]) -> CaseResult:
    word, q_act, authorized = case
    py = E.python_resolve(word, q_act, authorized)
    payload, names = E.resolve_input(word, q_act, authorized)
    lean = shaped("resolve", oracle.call("resolve", payload), lambda out: E.lean_resolve(names, out))
    if py == lean:
        return Agree("reuse" if any(m == "reuse" for _, _, m in py) else "all-new")
    return Mismatch("resolve", ("word",), {"word": list(word), "q_act": q_act, "authorized": list(authorized)},
                    payload, jsonable(py), jsonable(lean))


def ledger_python_input(case: tuple[Any, ...]) -> Any:
    """The Python inputs of a ledger case as JSON (entries in the policy JSON form), for replay."""
    user, used_user, app, used_app, effects, args, state = case
    return jsonable({"user": [entry_to_json(e) for e in user], "used_user": list(used_user),
                      "app": [entry_to_json(e) for e in app], "used_app": list(used_app),
                      "effects": [[e.action, e.resource] for e in effects], "args": args,
                      "satisfied": sorted(state.satisfied)})


def ledger_case_from(doc: Any) -> tuple[Any, ...]:
    state = initial_state(len(doc["user"]), len(doc["app"]), frozenset(doc["satisfied"]))
    return (tuple(entry_from(e) for e in doc["user"]), tuple(doc["used_user"]),
            tuple(entry_from(e) for e in doc["app"]), tuple(doc["used_app"]),
            tuple(Effect(a, r) for a, r in doc["effects"]), doc["args"], state)


def run_ledger(oracle: Oracle, case: tuple[Any, ...]) -> CaseResult:
    user, used_user, app, used_app, effects, args, state = case
    py = M.python_ledger(user, used_user, app, used_app, effects, args, state)
    payload = M.ledger_input(user, used_user, app, used_app, effects, args, state)
    lean = shaped("ledger_allocate", oracle.call("ledger_allocate", payload), lambda out: out, ("user", "app", "both"))
    bad = M.compare_ledger(py, lean)
    if not bad:
        return Agree("both" if py["both"] else "refused")
    return Mismatch("ledger_allocate", tuple(bad), ledger_python_input(case), payload, py, lean)


def monitor_python_input(run: tuple[Any, ...], step_index: int) -> Any:
    policy, satisfied, calls = run
    return jsonable({"policy": policy_to_json(policy), "satisfied": sorted(satisfied), "step": step_index,
                      "calls": [{"agent": c.agent, "tool": c.tool, "args": c.args, "refs": [list(r) for r in c.refs],
                                 "outcome": {"ok": o.ok, "value": o.value}} for c, o in calls]})


def monitor_run_from(doc: Any) -> tuple[Any, ...]:
    policy = policy_from_json(doc["policy"], "vector")
    calls = [(Call(c["agent"], c["tool"], c["args"], tuple((n, d) for n, d in c["refs"])),
              Outcome(c["outcome"]["ok"], c["outcome"]["value"])) for c in doc["calls"]]
    return policy, frozenset(doc["satisfied"]), calls


def run_monitor(oracle: Oracle, run: tuple[Any, ...]) -> list[CaseResult]:
    policy, satisfied, calls = run
    state = initial_state(len(policy.user), len(policy.application), satisfied)
    out: list[CaseResult] = []
    for k, (call, outcome) in enumerate(calls):
        payload = M.step_input(policy, state, call)
        verdict, after = step(policy, state, call, outcome)
        py = M.python_step_view(policy, verdict, after)
        lean = shaped("monitor_step", oracle.call("monitor_step", payload), M.lean_step_view,
                      tuple(k for keys in M.STEP_MODES.values() for k in keys))
        bad = M.compare_step(py, lean)
        if bad:
            out.append(Mismatch("monitor_step", tuple(bad), monitor_python_input(run, k), payload, py, lean))
            break  # later steps start from a state the two sides may no longer share
        out.append(Agree(f"{py['decision']}:{py['reason']}" if py["reason"] else py["decision"]))
        state = after
    return out


def replay(oracle: Oracle, doc: Any) -> list[CaseResult]:
    """Run a saved vector again: rebuild the Python inputs and compare both sides afresh."""
    judgment, pin = doc["judgment"], doc["python_input"]
    if judgment == "edit_check":
        return [run_edit_check(oracle, raw_instance_from_json(pin, "vector"))]
    if judgment == "resolve":
        return [run_resolve(oracle, (tuple(pin["word"]), pin["q_act"], tuple(pin["authorized"])))]
    if judgment == "ledger_allocate":
        return [run_ledger(oracle, ledger_case_from(pin))]
    if judgment == "monitor":
        return W.run_whole(oracle, W.run_from(pin))
    if judgment == R.JUDGMENT:  # the session is drawn again from its seed, event by event
        return [R.run_session(oracle, R.Session(pin["registration"], pin["seed"], pin["length"]))]
    if judgment == R.IDEAL:
        return [R.run_ideal_session(oracle, R.Session(pin["registration"], pin["seed"], pin["length"]))]
    if judgment == TC.JUDGMENT:
        return [TC.replay_tree(oracle, pin)]
    return run_monitor(oracle, monitor_run_from(pin))


def report(m: Mismatch) -> str:
    """Every input and both outputs, as indented JSON."""
    def block(title: str, value: Any) -> str:
        return f"--- {title}\n{json.dumps(value, indent=2, sort_keys=True, default=repr)}"

    return "\n".join([f"MISMATCH in {m.judgment} (modes: {', '.join(m.modes)})",
                      block("Python model input", m.python_input), block("oracle input", m.oracle_input),
                      block("Python model output", m.python), block("Lean oracle output", m.lean)])


def save_vector(m: Mismatch, root: Path = VECTORS) -> Path:
    """Save the mismatch as a golden vector named by the digest of its oracle input."""
    root.mkdir(parents=True, exist_ok=True)
    doc = {"judgment": m.judgment, "modes": list(m.modes), "python_input": m.python_input,
           "oracle_input": m.oracle_input, "python": jsonable(m.python), "lean": jsonable(m.lean)}
    path = root / f"{m.judgment}-{digest(m.oracle_input)[:16]}.json"
    path.write_text(canonical_str(doc) + "\n", encoding="utf-8")
    return path


# --- campaigns --------------------------------------------------------------------------------


def strategy_for(judgment: str, strategies: Any) -> Any:
    return {"edit_check": lambda: strategies.drt_edit_instances(), "resolve": lambda: strategies.resolve_cases(),
            "ledger_allocate": lambda: strategies.ledger_cases(),
            "monitor_step": lambda: strategies.monitor_runs(),
            "monitor": lambda: strategies.whole_monitor_runs(),
            "edit_runtime": lambda: strategies.runtime_sessions(),
            "edit_ideal": lambda: strategies.runtime_sessions(),
            "tree_contract": lambda: strategies.contract_trees()}[judgment]()


def run_case(judgment: str, oracle: Oracle, case: Any) -> list[CaseResult]:
    if judgment == "edit_check":
        return [run_edit_check(oracle, case)]
    if judgment == "resolve":
        return [run_resolve(oracle, case)]
    if judgment == "ledger_allocate":
        return [run_ledger(oracle, case)]
    if judgment == "monitor":
        return W.run_whole(oracle, case)
    if judgment == R.JUDGMENT:
        return [R.run_session(oracle, case)]
    if judgment == R.IDEAL:
        return [R.run_ideal_session(oracle, case)]
    if judgment == TC.JUDGMENT:
        return TC.run_tree(oracle, case)
    return run_monitor(oracle, case)


@dataclass
class Summary:
    judgment: str
    cases: int = 0
    compared: int = 0  # comparisons (monitor_step: steps)
    skipped: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    coverage: Counter[str] = field(default_factory=Counter)  # steps reaching each rule kind (monitor)
    mismatches: list[Mismatch] = field(default_factory=list)
    vectors: list[Path] = field(default_factory=list)
    seconds: float = 0.0
    fault: str = ""  # the oracle fault that ended the campaign early ("" when none did)
    fault_kind: str = ""  # its OracleError kind
    seed: int | None = None  # the seed the cases were drawn with (drawn when none was given: direct engine)
    replays: list[tuple[int, int]] = field(default_factory=list)  # (seed, case index) of each mismatch (direct)


class _Fault(BaseException):
    """Carries an ``OracleError`` out of hypothesis's ``given``: an ``Exception`` there is a failing example,
    which hypothesis would run again (against a process already given up) before reporting it."""

    def __init__(self, error: OracleError) -> None:
        super().__init__(str(error))
        self.error = error


ENGINES = ("direct", "hypothesis")


def _tally(summary: Summary, results: list[CaseResult], vectors: Path,
           on_mismatch: Callable[[Mismatch], None] | None) -> int:
    """Count one case's results into ``summary``; the number of mismatches among them."""
    found = 0
    for res in results:
        if isinstance(res, Skip):
            summary.skipped[res.reason] += 1
            continue
        summary.compared += 1
        if isinstance(res, Agree):
            summary.kinds[res.kind] += 1
            summary.coverage.update(res.tags)
        if isinstance(res, Mismatch):
            found += 1
            summary.mismatches.append(res)
            summary.vectors.append(save_vector(res, vectors))
            if on_mismatch is not None:
                on_mismatch(res)
    return found


def campaign(judgment: str, cases: int, oracle: Oracle, strategies: Any, seed: int | None = None,
             tick: Callable[[int, int], None] | None = None, on_mismatch: Callable[[Mismatch], None] | None = None,
             vectors: Path = VECTORS, engine: str = "direct", first: int = 0) -> Summary:
    """Run ``cases`` generated cases of one judgment; mismatches are reported, saved and counted. An oracle
    fault stops the campaign: ``fault`` says what it was, the counts what ran before it. With the direct
    engine the cases are those of indices ``first``, ``first + 1``, ... (module docstring)."""
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: one of {', '.join(ENGINES)}")
    if engine == "direct":
        return _direct_campaign(judgment, cases, oracle, strategies, seed, tick, on_mismatch, vectors, first)
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    summary = Summary(judgment, seed=seed)
    start = time.perf_counter()

    @settings(max_examples=cases, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy_for(judgment, strategies))
    def body(case: Any) -> None:
        summary.cases += 1
        try:
            results = run_case(judgment, oracle, case)
        except OracleError as exc:
            raise _Fault(exc) from exc
        _tally(summary, results, vectors, on_mismatch)
        if tick is not None:
            tick(summary.cases, cases)

    test = hseed(seed)(body) if seed is not None else body
    try:
        test()
    except _Fault as fault:
        summary.cases -= 1  # (the case the fault interrupted was not compared)
        summary.fault = str(fault.error)
        summary.fault_kind = fault.error.kind
    summary.seconds = time.perf_counter() - start
    return summary


def _direct_campaign(judgment: str, cases: int, oracle: Oracle, strategies: Any, seed: int | None,
                     tick: Callable[[int, int], None] | None, on_mismatch: Callable[[Mismatch], None] | None,
                     vectors: Path, first: int) -> Summary:
    import random

    from model.oracle.direct import case_random, sampler

    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    summary = Summary(judgment, seed=seed)
    start = time.perf_counter()
    draw_case = sampler(strategy_for(judgment, strategies))
    every = max(1, cases // 200)  # (a progress tick per half percent, not per case)
    for i in range(first, first + cases):
        case = draw_case(case_random(seed, judgment, i))
        try:
            results = run_case(judgment, oracle, case)
        except OracleError as exc:
            summary.fault, summary.fault_kind = str(exc), exc.kind
            break
        summary.cases += 1
        if _tally(summary, results, vectors, on_mismatch):
            summary.replays.append((seed, i))
        if tick is not None and (summary.cases % every == 0 or summary.cases == cases):
            tick(summary.cases, cases)
    summary.seconds = time.perf_counter() - start
    return summary
