"""The two-grant obstruction on the monitor (Agenra Section 5.2; Barth and Mitchell, two-grant instance).

Quota-one grants for {A,B} and {A,C}: the workloads AB and AC each have a feasible allocation, but the
shared first call A must charge one grant irrevocably, and the monitor's first-fit charges whichever
comes first in declaration order. Under either order exactly one of AB, AC completes. The Lean
statement is ``AgentWarrant.Monitor.Alternatives.twoGrantObstruction`` (every prefix-based allocator).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from model.monitor.adapter.handles import Handle, Refusal
from model.monitor.adapter.report_task import POLICY_DIR
from model.monitor.adapter.shell import Adapter
from model.monitor.adapter.toolkit import DeleteWorld
from model.monitor.decide.verdict import DenyReason
from model.monitor.language.policy import GlobPat, Policy
from model.monitor.language.syntax import load_policy

AB, AC = "[AB]", "[AC]"


def two_grant_policy(first: str, second: str) -> Policy:
    p = load_policy(str(POLICY_DIR / "delete_ab.policy"))
    g = p.user[0]
    assert g.quota == 1
    return replace(p, user=(replace(g, resource=GlobPat(first)), replace(g, resource=GlobPat(second))))


def run(p: Policy, workload: str) -> tuple[list[bool], tuple[int, ...]]:
    world = DeleteWorld()
    ad = Adapter(p, world.tools(), "cleaner")
    admitted = []
    for target in workload:
        r = ad.call("Delete", target=target)
        if isinstance(r, Refusal):
            assert r.verdict.reason is DenyReason.QUOTA
        admitted.append(isinstance(r, Handle))
    assert world.deleted == [t for t, ok in zip(workload, admitted, strict=True) if ok]
    return admitted, ad.state.used_user


def test_first_fit_over_ab_then_ac_fails_ab_and_completes_ac() -> None:
    p = two_grant_policy(AB, AC)
    assert run(p, "AB") == ([True, False], (1, 0))  # A took {A,B}; B has nothing left
    assert run(p, "AC") == ([True, True], (1, 1))


def test_the_other_order_only_moves_the_failure() -> None:
    p = two_grant_policy(AC, AB)
    assert run(p, "AB") == ([True, True], (1, 1))
    assert run(p, "AC") == ([True, False], (1, 0))


@pytest.mark.parametrize("order", [(AB, AC), (AC, AB)])
def test_no_order_completes_both_workloads_although_each_is_feasible(order: tuple[str, str]) -> None:
    completes = {w: all(run(two_grant_policy(*order), w)[0]) for w in ("AB", "AC")}
    assert list(completes.values()).count(True) == 1
    # each workload alone is feasible: the order that keeps its second grant free completes it
    for w in ("AB", "AC"):
        assert any(all(run(two_grant_policy(*o), w)[0]) for o in ((AB, AC), (AC, AB)))


def test_the_first_call_is_charged_before_the_second_is_seen() -> None:
    # the prefix "A" is identical in both workloads, and so is the state after it: the choice is made
    for order in ((AB, AC), (AC, AB)):
        p = two_grant_policy(*order)
        world = DeleteWorld()
        ad = Adapter(p, world.tools(), "cleaner")
        assert isinstance(ad.call("Delete", target="A"), Handle)
        assert ad.state.used_user == (1, 0)
