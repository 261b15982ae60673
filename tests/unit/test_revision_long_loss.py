"""Lost clients and newly admitted forbidden traces as long as a quota (explore/accelerate.py, long_loss.py):
at Q = 10^9 ``revise`` answers with a compressed counterexample confirmed by the exact compressed replay, not
Unknown; a run is charged as the monitor charges it call by call; a compressed trace one call off is refused
by the replay."""

from __future__ import annotations

import pytest

from model.monitor.decide.base import Decision, decide
from model.monitor.decide.commit import commit
from model.monitor.decide.state import Call, initial_state
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.accelerate import Block, run, verify_forbidden, verify_lost
from model.revision.long_loss import BOUND, expected, member
from model.revision.report import Certified, NewlyForbidden, NotPreserved
from model.revision.revise import revise


@pytest.mark.parametrize("name", ["cut", "widen_first", "raise"])
def test_a_quota_of_a_billion_is_decided_with_a_compressed_confirmed_counterexample(name: str) -> None:
    old, new, workload = member(name, 10**9)
    report = revise(old, new, EVERY_EFFECT, workload, BOUND)
    want_p, want_s = expected(name)
    if want_p == "not_preserved":
        assert isinstance(report.preservation, NotPreserved)
        lost = report.preservation.lost
        assert lost.confirmed and lost.length() > 10**9 - 1 and "^" in lost.show()
        assert lost.to_json()["length"] == lost.length()
    else:
        assert isinstance(report.preservation, Certified)
    if want_s == "newly_forbidden":
        assert isinstance(report.safety, NewlyForbidden) and report.safety.trace.confirmed
        assert report.safety.trace.length() == 10**9 + 1


def test_a_run_is_charged_as_the_monitor_charges_it_call_by_call() -> None:
    for name in ("widen_first", "ceiling"):
        old, new, workload = member(name, 7)
        for policy in (old, new):
            for t in workload.templates:
                for k in (1, 3, 7, 8, 15):
                    state = initial_state(len(policy.user), len(policy.application))
                    admitted = 0
                    call = Call(workload.agent, t.tool or "", t.literal_args())
                    for _ in range(k):
                        v = decide(policy, state, call)
                        if v.decision is not Decision.ALLOW:
                            break
                        state, _ = commit(policy, state, call, v)
                        admitted += 1
                    start = initial_state(len(policy.user), len(policy.application))
                    after, n, _ = run(policy, start, workload, t, k)
                    assert n == admitted
                    # unlimited accounts' counters are kept at 0 by the abstraction (first-fit never reads them)
                    for entries, got, want in ((policy.user, after.used_user, state.used_user),
                                               (policy.application, after.used_app, state.used_app)):
                        assert got == tuple(0 if e.quota is None else u for e, u in zip(entries, want, strict=True))


def test_a_compressed_trace_one_call_off_is_refused_by_the_replay() -> None:
    old, new, workload = member("cut", 10**9)
    assert verify_lost(old, new, workload, (Block(0, 10**9 - 1), Block(0, 1)))
    assert not verify_lost(old, new, workload, (Block(0, 10**9 - 2), Block(0, 1)))  # new admits it
    assert not verify_lost(old, new, workload, (Block(0, 10**9), Block(0, 1)))  # old refuses the last
    old, new, workload = member("raise", 10**9)
    assert verify_forbidden(old, new, workload, (Block(0, 10**9), Block(1, 1)))
    assert not verify_forbidden(old, new, workload, (Block(0, 10**9),))  # old admits it all
