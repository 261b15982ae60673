"""Per-call cost of mediation (Agenra Section 2.1), measured as ratios within one process.

Three ways to make the four calls of the report task (Read, Sanitize, Lookup, Send):

- ``direct``: the reference Python tools called directly with concrete values (no checks);
- ``mediated``: the same calls through ``Adapter.call`` on the report policy (decide, commit
  before the tool, result processing, handle bookkeeping). The Adapter keeps its state as a mutable
  session and admits calls through per-(tool, agent) plans (``model/monitor/adapter/live_state.py``, ``plan.py``);
  its public ``State`` is built only when read, which this workflow never does. ``mediated
  (reference)`` is the same workflow on ``Adapter(reference=True)``: frozen states rebuilt per call
  through ``decide``, ``commit_in`` and ``observe_in`` (the path before the session, kept as the
  reference; tests/property/test_monitor_fastpath.py checks both give the same results, logs and states);
- ``cedar``: Cedar's Python bindings (``cedarpy``) deciding an equivalent *stateless* request
  per call (principal, action, resource, context), with the policy set and entities parsed
  once up front (``PolicySet``, ``Entities``) so Cedar is measured at its best. Cedar does not
  track labels, origins, slots or quotas; the comparison shows what that state costs.

Also ``decide``: the pure core deciding the final Send on a prepared state (no tool, no commit), and
``decide workload``: the four decisions of the workflow, each on the state it is made in (the pure
counterpart of cedar's four requests).
``decide`` and ``mediated`` run over the compiled policy (``model/monitor/decide/compiled.py``);
``decide (source)`` and ``mediated (source)`` are the same paths over ``decide.decide_source``, the
literal transcription the compiled form replaced, measured in the same process as the baseline
(the reference Adapter is pointed at ``decide_source`` for that row only).
Each figure is the median over ``REPEATS`` rounds of ``ROUNDS`` workflows (the paths' rounds interleaved),
in CPU microseconds of this process per call (one core: robust to other load on a shared machine), with
ratios against ``direct`` and ``cedar`` taken in the same process run.
Writes paper_figures/tables/monitor_overhead.csv (and .md).

Scaling (``monitor_scaling.csv``): the report policy with N padding grants placed *before* its own
grants on both lists (half on other actions, half on ``directory.lookup`` with other constant names), so
first-fit order puts them in the way of every scan; per N the compiled and the source decision of the
final Send and of the Lookup, and a mediated workflow, in µs per call. The Send's and Lookup's actions
keep their few grants, so the compiled cost should stay nearly flat while the source cost grows with N.
Not run by tests: ``make bench``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import model.monitor.adapter.shell as adapter_module
from model.base.tables import write_table
from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Handle
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.base import Verdict, decide, decide_source
from model.monitor.decide.state import Call, State
from model.monitor.language.policy import ConstPat, Entry, EntryKind, Policy

ROUNDS = 200
REPEATS = 7
CALLS_PER_ROUND = 4

CEDAR_POLICIES = """
permit(principal == User::"assistant", action == Action::"record.read", resource == Record::"report");
permit(principal == User::"assistant", action == Action::"record.release", resource)
  when { context.body_producer == "Read" };
permit(principal == User::"assistant", action == Action::"directory.lookup", resource == Name::"Alice");
permit(principal == User::"assistant", action == Action::"message.send", resource == Address::"alice@example.org")
  when { context.body_sensitivity == "Public" && context.body_producer == "Sanitize" };
"""


def _unlimited_report() -> Policy:
    p = load("report")
    return replace(p, user=tuple(replace(e, quota=None) for e in p.user),
                   application=tuple(replace(e, quota=None) for e in p.application))


def direct_round() -> None:
    w = ReportWorld()
    r = w.read()
    s = w.sanitize(r)
    a = w.lookup("Alice")
    assert isinstance(a, dict)
    w.send(s, a["destination"])


def make_mediated(policy: Policy, reference: bool = False) -> Callable[[], None]:
    def run() -> None:
        w = ReportWorld()
        ad = Adapter(policy, w.tools(), "assistant", reference=reference)
        r = ad.call("Read")
        s = ad.call("Sanitize", record=r)
        a = ad.call("Lookup", name="Alice")
        assert isinstance(s, Handle) and isinstance(a, Handle)
        assert isinstance(ad.call("Send", body=s, recipient=a.at("destination")), Handle)
    return run


def make_cedar() -> Callable[[], None]:
    import cedarpy

    policies = cedarpy.PolicySet.from_str(CEDAR_POLICIES)
    entities = cedarpy.Entities.from_json_str("[]")
    reqs = [
        {"principal": 'User::"assistant"', "action": 'Action::"record.read"', "resource": 'Record::"report"',
         "context": {}},
        {"principal": 'User::"assistant"', "action": 'Action::"record.release"', "resource": 'Record::"summary"',
         "context": {"body_producer": "Read"}},
        {"principal": 'User::"assistant"', "action": 'Action::"directory.lookup"', "resource": 'Name::"Alice"',
         "context": {}},
        {"principal": 'User::"assistant"', "action": 'Action::"message.send"',
         "resource": 'Address::"alice@example.org"',
         "context": {"body_sensitivity": "Public", "body_producer": "Sanitize"}},
    ]
    for req in reqs:  # the equivalent requests really are allowed
        assert cedarpy.is_authorized(req, policies, entities).allowed, req

    def run() -> None:
        w = ReportWorld()
        for req, tool in zip(reqs, ("read", "sanitize", "lookup", "send"), strict=True):
            if not cedarpy.is_authorized(req, policies, entities).allowed:
                raise RuntimeError("cedar denied")
            if tool == "read":
                rec = w.read()
            elif tool == "sanitize":
                summary = w.sanitize(rec)
            elif tool == "lookup":
                addr = w.lookup("Alice")
            else:
                assert isinstance(addr, dict)
                w.send(summary, addr["destination"])
    return run


Decider = Callable[[Policy, State, Call], Verdict]


def _prepared(policy: Policy) -> tuple[State, Call, Call]:
    """The state before the final Send, the Send itself and a second Lookup (denied by quota if limited)."""
    w = ReportWorld()
    ad = Adapter(policy, w.tools(), "assistant")
    s = ad.call("Sanitize", record=ad.call("Read"))
    a = ad.call("Lookup", name="Alice")
    assert isinstance(s, Handle) and isinstance(a, Handle)
    send = Call("assistant", "Send", {"body": ad.value(s), "recipient": "alice@example.org"}, (("body", s.id),))
    lookup = Call("assistant", "Lookup", {"name": "Alice"})
    return ad.state, send, lookup


def make_decide(policy: Policy, decider: Decider = decide, which: str = "send") -> Callable[[], None]:
    state, send, lookup = _prepared(policy)
    call = send if which == "send" else lookup
    expected = decide_source(policy, state, call)
    assert decider(policy, state, call) == expected  # the compiled and the source decision agree here

    def run() -> None:
        for _ in range(CALLS_PER_ROUND):
            decider(policy, state, call)
    return run


def make_decide_workload(policy: Policy, decider: Decider = decide) -> Callable[[], None]:
    """The four decisions of the workflow (Read, Sanitize, Lookup, Send), each on the state it is made in:
    the pure-decision counterpart of cedar's four requests."""
    seen: list[tuple[State, Call]] = []

    def recording(p: Policy, state: State, call: Call) -> Verdict:
        seen.append((state, call))
        return decide(p, state, call)

    with adapter_deciding_with(recording):
        make_mediated(policy, reference=True)()  # (the reference path asks ``decide`` for every call)
    assert len(seen) == CALLS_PER_ROUND
    for state, call in seen:
        assert decider(policy, state, call) == decide_source(policy, state, call)

    def run() -> None:
        for state, call in seen:
            decider(policy, state, call)
    return run


@contextmanager
def adapter_deciding_with(decider: Decider) -> Iterator[None]:
    """Point the Adapter's reference path at another decision function for one measurement (the source
    baseline)."""
    saved = adapter_module.decide
    adapter_module.decide = decider
    try:
        yield
    finally:
        adapter_module.decide = saved


def _sample(fn: Callable[[], None], rounds: int) -> float:
    t0 = time.process_time()
    for _ in range(rounds):
        fn()
    return (time.process_time() - t0) / (rounds * CALLS_PER_ROUND) * 1e6


def per_call_us(fn: Callable[[], None], rounds: int = ROUNDS, repeats: int = REPEATS) -> float:
    fn()  # warm up
    return statistics.median(_sample(fn, rounds) for _ in range(repeats))


def measure(tick: Callable[[int, int], None]) -> dict[str, float]:
    """Every path, its rounds interleaved with the others' (a burst of load on a shared machine then
    touches every path alike); CPU time of this process, so it is a per-core cost."""
    policy = _unlimited_report()
    runs: dict[str, Callable[[], None]] = {
        "direct": direct_round,
        "mediated": make_mediated(policy),
        "decide": make_decide(policy),
        "decide (source)": make_decide(policy, decide_source),
        "decide workload": make_decide_workload(policy),
        "decide workload (source)": make_decide_workload(policy, decide_source),
    }
    mediated_reference = runs["mediated (reference)"] = make_mediated(policy, reference=True)

    def mediated_source() -> None:
        with adapter_deciding_with(decide_source):
            mediated_reference()

    runs["mediated (source)"] = mediated_source
    try:
        runs["cedar"] = make_cedar()
    except ImportError:  # cedarpy is the `bench` extra; report its absence instead of a number
        pass
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for fn in runs.values():
        fn()  # warm up
    for r in range(REPEATS):
        for name, fn in runs.items():
            samples[name].append(_sample(fn, ROUNDS))
        tick(r + 1, REPEATS + len(SIZES))
    return {name: statistics.median(xs) for name, xs in samples.items()}


SIZES = (10, 100, 1000, 10000)


def padded(policy: Policy, n: int) -> Policy:
    """``policy`` with ``n`` grants before its own on each list: other actions, and other lookups."""
    pad = tuple(Entry(EntryKind.ALLOW, f"noise.a{i % 50}", ConstPat(f"r{i}"), quota=None) if i % 2 else
                Entry(EntryKind.ALLOW, "directory.lookup", ConstPat(f"person{i}"), quota=1) for i in range(n))
    return replace(policy, user=(*pad, *policy.user), application=(*pad, *policy.application))


def scaling(tick: Callable[[int, int], None], done: int) -> list[list[object]]:
    rows: list[list[object]] = []
    for i, n in enumerate(SIZES):
        policy = padded(_unlimited_report(), n)
        rounds = max(5, ROUNDS // max(1, n // 100))  # the source decision grows with n: fewer rounds
        row: list[object] = [n]
        for which in ("send", "lookup"):
            fast = per_call_us(make_decide(policy, decide, which))
            slow = per_call_us(make_decide(policy, decide_source, which), rounds=rounds)
            row += [f"{fast:.2f}", f"{slow:.2f}", f"{slow / fast:.1f}"]
        row.append(f"{per_call_us(make_mediated(policy), rounds=max(20, rounds)):.2f}")
        rows.append(row)
        tick(REPEATS + i + 1, REPEATS + len(SIZES))
    return rows


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    us = measure(tick)
    rows = [[name, f"{v:.2f}", f"{v / us['direct']:.1f}",
             f"{v / us['cedar']:.2f}" if "cedar" in us else "n/a (cedarpy not installed)",
             f"{us['cedar'] / v:.1f}" if "cedar" in us else "n/a"] for name, v in us.items()]
    caption = (f"Per-call CPU cost of the report task's four calls (median of {REPEATS} x {ROUNDS} workflows, "
               f"interleaved, one process; Python {sys.version.split()[0]}). decide/mediated run over the compiled "
               "policy, the (source) rows over the literal decision it replaced; mediated runs the Adapter's session "
               "and call plans, mediated (reference) the frozen-state path they replaced; cedar_speedup = cedar's "
               "time / this row's (targets: decide >= 5, mediated >= 3).")
    paths = write_table(out_dir, "monitor_overhead",
                        ["path", "us_per_call", "ratio_vs_direct", "ratio_vs_cedar", "cedar_speedup"], rows, caption)
    scale = scaling(tick, REPEATS)
    paths += write_table(
        out_dir, "monitor_scaling",
        ["padding_grants", "send_compiled_us", "send_source_us", "send_speedup", "lookup_compiled_us",
         "lookup_source_us", "lookup_speedup", "mediated_compiled_us"], scale,
        "Decision cost as policies grow: N padding grants ahead of the report policy's own on both lists "
        "(other actions, other lookup names); the final Send and a Lookup decided over the compiled and the "
        "source policy, and a mediated workflow (compiled), in us per call. First-fit order is unchanged.")
    return paths


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "paper_figures"
    for p in reproduce(out, lambda done, total: print(f"{done}/{total}", file=sys.stderr)):
        print(f"wrote {p}")
        print(p.read_text())
