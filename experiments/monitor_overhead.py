"""Per-call cost of mediation (Agenra Section 2.1), measured as ratios within one process.

Three ways to make the four calls of the report task (Read, Sanitize, Lookup, Send):

- ``direct``: the reference Python tools called directly with concrete values (no checks);
- ``mediated``: the same calls through ``Adapter.call`` on the report policy (decide, commit
  before the tool, result processing, handle bookkeeping);
- ``cedar``: Cedar's Python bindings (``cedarpy``) deciding an equivalent *stateless* request
  per call (principal, action, resource, context), with the policy set and entities parsed
  once up front (``PolicySet``, ``Entities``) so Cedar is measured at its best. Cedar does not
  track labels, origins, slots or quotas; the comparison shows what that state costs.

Also ``decide``: the pure core deciding the final Send on a prepared state (no tool, no commit).
Each figure is the median over ``REPEATS`` rounds of ``ROUNDS`` workflows, reported per call
in microseconds, with ratios against ``direct`` and ``cedar`` taken in the same process run.
Writes paper_figures/tables/monitor_overhead.csv (and .md). Not run by tests: ``make bench``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from model.monitor.adapter import Adapter, Handle
from model.monitor.decide import Decision, decide
from model.monitor.policy import Policy
from model.monitor.report_task import load
from model.monitor.toolkit import ReportWorld
from model.tables import write_table

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


def make_mediated(policy: Policy) -> Callable[[], None]:
    def run() -> None:
        w = ReportWorld()
        ad = Adapter(policy, w.tools(), "assistant")
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


def make_decide(policy: Policy) -> Callable[[], None]:
    w = ReportWorld()
    ad = Adapter(policy, w.tools(), "assistant")
    s = ad.call("Sanitize", record=ad.call("Read"))
    a = ad.call("Lookup", name="Alice")
    assert isinstance(s, Handle) and isinstance(a, Handle)
    from model.monitor.state import Call

    call = Call("assistant", "Send", {"body": ad.value(s), "recipient": "alice@example.org"}, (("body", s.id),))
    state = ad.state

    def run() -> None:
        for _ in range(CALLS_PER_ROUND):
            assert decide(ad.policy, state, call).decision is Decision.ALLOW
    return run


def per_call_us(fn: Callable[[], None]) -> float:
    samples = []
    fn()  # warm up
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        for _ in range(ROUNDS):
            fn()
        samples.append((time.perf_counter() - t0) / (ROUNDS * CALLS_PER_ROUND) * 1e6)
    return statistics.median(samples)


def measure(tick: Callable[[int, int], None]) -> dict[str, float]:
    policy = _unlimited_report()
    runs = {"direct": direct_round, "mediated": make_mediated(policy), "decide": make_decide(policy)}
    try:
        runs["cedar"] = make_cedar()
    except ImportError:  # cedarpy is the `bench` extra; report its absence instead of a number
        pass
    out: dict[str, float] = {}
    for i, (name, fn) in enumerate(runs.items()):
        out[name] = per_call_us(fn)
        tick(i + 1, len(runs))
    return out


def reproduce(out_dir: Path, tick: Callable[[int, int], None]) -> list[Path]:
    us = measure(tick)
    rows = [[name, f"{v:.2f}", f"{v / us['direct']:.1f}",
             f"{v / us['cedar']:.2f}" if "cedar" in us else "n/a (cedarpy not installed)"] for name, v in us.items()]
    caption = (f"Per-call cost of the report task's four calls (median of {REPEATS} x {ROUNDS} workflows, "
               f"one process; Python {sys.version.split()[0]}).")
    return write_table(out_dir, "monitor_overhead", ["path", "us_per_call", "ratio_vs_direct", "ratio_vs_cedar"],
                       rows, caption)


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "paper_figures"
    for p in reproduce(out, lambda done, total: print(f"{done}/{total}", file=sys.stderr)):
        print(f"wrote {p}")
        print(p.read_text())
