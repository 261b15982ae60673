"""First-fit allocation on two ordered lists (Agenra Sections 1 and 5.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from model.monitor.adapter.report_task import POLICY_DIR
from model.monitor.adapter.shell import Adapter, Handle, Refusal
from model.monitor.adapter.toolkit import DeleteWorld, ReportWorld
from model.monitor.decide.base import Decision, DenyReason
from model.monitor.decide.compiled import CompiledEntry
from model.monitor.decide.compiled_decide import first_fit
from model.monitor.decide.counters import charge_positions
from model.monitor.decide.ledger import allocate, commit, has_capacity, within_limits
from model.monitor.decide.matching import Effect
from model.monitor.decide.state import initial_state
from model.monitor.language.policy import ConstPat, Entry, EntryKind, GlobPat, Policy
from model.monitor.language.syntax import load_policy


def delete_policy(widened: bool = False) -> Policy:
    p = load_policy(str(POLICY_DIR / "delete_ab.policy"))
    assert isinstance(p.user[0].resource, ConstPat) and p.user[0].resource.value == "B"
    if widened:  # the first grant now covers A or B
        p = replace(p, user=(replace(p.user[0], resource=GlobPat("[AB]")), *p.user[1:]))
    return p


def adapter(p: Policy) -> tuple[Adapter, DeleteWorld]:
    world = DeleteWorld()
    return Adapter(p, world.tools(), "cleaner"), world


def test_delete_a_then_b_is_admitted_under_the_original_grants() -> None:
    ad, world = adapter(delete_policy())
    assert isinstance(ad.call("Delete", target="A"), Handle)
    assert isinstance(ad.call("Delete", target="B"), Handle)
    assert world.deleted == ["A", "B"]
    assert ad.state.used_user == (1, 1)  # A took the second grant, B the first


def test_widening_lets_a_take_the_first_grant_so_b_is_rejected() -> None:
    ad, world = adapter(delete_policy(widened=True))
    assert isinstance(ad.call("Delete", target="A"), Handle)
    assert ad.state.used_user == (1, 0)
    r = ad.call("Delete", target="B")
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.QUOTA
    assert world.deleted == ["A"]


def test_widening_rejects_the_whole_batch_before_dispatch() -> None:
    ad, world = adapter(delete_policy(widened=True))
    r = ad.call("DeleteBatch", targets=["A", "B"])
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.QUOTA
    assert world.deleted == [] and ad.state.used_user == (0, 0) and ad.state.used_app == (0,)


def test_the_batch_is_admitted_under_the_original_grants() -> None:
    ad, _ = adapter(delete_policy())
    assert isinstance(ad.call("DeleteBatch", targets=["A", "B"]), Handle)
    assert ad.state.used_user == (1, 1) and ad.state.used_app == (2,)


def test_widening_admits_deleting_a_twice() -> None:
    ad, _ = adapter(delete_policy(widened=True))
    assert isinstance(ad.call("Delete", target="A"), Handle)
    assert isinstance(ad.call("Delete", target="A"), Handle)
    assert ad.state.used_user == (1, 1)
    # ...which the original grants forbid
    ad0, _ = adapter(delete_policy())
    ad0.call("Delete", target="A")
    r = ad0.call("Delete", target="A")
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.QUOTA


def two_sends_policy(user: int, app: int) -> Policy:
    p = load_policy(str(POLICY_DIR / "report.policy"))
    return replace(p, user=(*p.user[:-1], replace(p.user[-1], quota=user)),
                   application=(*p.application[:-1], replace(p.application[-1], quota=app)))


def _send_twice(p: Policy) -> tuple[Adapter, list[object]]:
    world = ReportWorld()
    ad = Adapter(p, world.tools(), "assistant")
    s = ad.call("Sanitize", record=ad.call("Read"))
    a = ad.call("Lookup", name="Alice")
    assert isinstance(s, Handle) and isinstance(a, Handle)
    out = [ad.call("Send", body=s, recipient=a.at("destination")) for _ in range(2)]
    return ad, out


def test_both_lists_bind_user_two_application_one() -> None:
    ad, (first, second) = _send_twice(two_sends_policy(user=2, app=1))
    assert isinstance(first, Handle)
    assert isinstance(second, Refusal) and second.verdict.reason is DenyReason.QUOTA
    assert "application" in second.verdict.detail
    send_pos_user, send_pos_app = len(ad.policy.user) - 1, len(ad.policy.application) - 1
    # counters are separate: the refused call charged neither list
    assert ad.state.used_user[send_pos_user] == 1 and ad.state.used_app[send_pos_app] == 1


def test_both_lists_bind_user_one_application_two() -> None:
    _, (first, second) = _send_twice(two_sends_policy(user=1, app=2))
    assert isinstance(first, Handle)
    assert isinstance(second, Refusal) and second.verdict.reason is DenyReason.QUOTA
    assert "user" in second.verdict.detail


def test_two_and_two_admit_two_sends() -> None:
    _, (first, second) = _send_twice(two_sends_policy(user=2, app=2))
    assert isinstance(first, Handle) and isinstance(second, Handle)


def test_failed_tool_keeps_its_charge() -> None:
    world = ReportWorld(send_failures=1)
    ad = Adapter(load_policy(str(POLICY_DIR / "report.policy")), world.tools(), "assistant")
    s = ad.call("Sanitize", record=ad.call("Read"))
    a = ad.call("Lookup", name="Alice")
    assert isinstance(s, Handle) and isinstance(a, Handle)
    first = ad.call("Send", body=s, recipient=a.at("destination"))
    assert not isinstance(first, Handle | Refusal)  # admitted, then failed
    assert ad.state.used_user[-1] == 1
    retry = ad.call("Send", body=s, recipient=a.at("destination"))
    assert isinstance(retry, Refusal) and retry.decision is Decision.DENY and retry.verdict.reason is DenyReason.QUOTA
    assert world.mailbox == {}


# Direct tests of the ledger functions: cases the policies above never build (found by mutation testing).

def _grant(resource: str = "A", quota: int | None = 1, requires: str | None = None) -> Entry:
    return Entry(EntryKind.ALLOW, "Delete", GlobPat(resource), quota=quota, requires=requires)


def test_first_fit_skips_a_deny_entry_and_an_allow_whose_requirement_is_unsatisfied() -> None:
    entries = (Entry(EntryKind.DENY, "Delete", GlobPat("*")), _grant(requires="review"), _grant())
    state = initial_state(3, 0)
    got = allocate(entries, (0, 0, 0), [Effect("Delete", "A")], {}, state)
    assert got is not None and got.positions == (2,) and got.charge == (0, 0, 1)
    # once the requirement is satisfied the earlier grant is ready and first fit takes it
    ready_state = initial_state(3, 0, frozenset({"review"}))
    got = allocate(entries, (0, 0, 0), [Effect("Delete", "A")], {}, ready_state)
    assert got is not None and got.positions == (1,) and got.charge == (0, 1, 0)


def test_commit_refuses_vectors_of_different_lengths() -> None:
    assert commit((1, 2), (0, 1)) == (1, 3)
    with pytest.raises(ValueError):
        commit((1, 2), (1,))


def test_has_capacity_is_strict_below_the_quota_and_counts_reservations() -> None:
    assert has_capacity(_grant(quota=2), 1, 0) and not has_capacity(_grant(quota=2), 1, 1)
    assert not has_capacity(_grant(quota=2), 2, 0) and has_capacity(_grant(quota=None), 10**6, 10**6)


def test_within_limits_checks_length_and_each_finite_quota() -> None:
    entries = (_grant(quota=2), _grant(quota=None))
    assert within_limits(entries, (2, 99)) and within_limits(entries, (0, 0))
    assert not within_limits(entries, (3, 0))  # over the finite quota
    assert not within_limits(entries, (0,)) and not within_limits(entries, (0, 0, 0))  # wrong length
    assert within_limits((), ())


def test_first_fit_passes_over_a_grant_for_another_resource() -> None:
    got = allocate((_grant("B"), _grant("A")), (0, 0), [Effect("Delete", "A")], {}, initial_state(2, 0))
    assert got is not None and got.positions == (1,) and got.charge == (0, 1)


def test_reservations_count_one_unit_per_effect_against_the_quota() -> None:
    state, a = initial_state(1, 0), [Effect("Delete", "A")]
    got = allocate((_grant(quota=2),), (0,), a * 2, {}, state)  # two effects fit a quota of two
    assert got is not None and got.positions == (0, 0) and got.charge == (2,)
    assert allocate((_grant(quota=1),), (0,), a * 2, {}, state) is None  # the second finds no capacity
    assert allocate((_grant(quota=2),), (0,), a * 3, {}, state) is None  # nor does the third of three


def test_charge_positions_is_commit_of_the_charge_vector() -> None:
    # One unit per listed position, repeats adding up, on counters that are not zero. Found by mutation
    # testing: returning the counters unchanged, or setting a charged counter to 1, passed every other test.
    used = (2, 0, 5)
    for positions in ([], [0], [2, 2], [1, 0, 1]):
        charge = [positions.count(k) for k in range(len(used))]
        assert charge_positions(used, positions) == commit(used, charge)
    assert charge_positions(used, [0, 0]) == (4, 0, 5)


def test_first_fit_reserves_one_unit_per_effect_up_to_the_quota() -> None:
    # Two effects on one grant of quota 2 fit, both on its position; a third does not, nor a second once
    # one unit is already used. Found by mutation testing: reserving two units per effect passed every
    # other test.
    grant = CompiledEntry(0, _grant(quota=2))
    assert first_fit([[grant], [grant], [grant], [grant]], 2, ((0,), (0,)), frozenset()) == ((0, 0), (0, 0))
    assert first_fit([[grant]] * 6, 3, ((0,), (0,)), frozenset()) == 0
    assert first_fit([[grant]] * 4, 2, ((0,), (1,)), frozenset()) == 1
