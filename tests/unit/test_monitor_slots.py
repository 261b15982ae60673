"""Run-time resource slots (Agenra Section 5.1): binding, preservation, invalidation, failures."""

from __future__ import annotations

from dataclasses import replace

from model.base.canonical import JSON
from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Failure, Handle, Refusal
from model.monitor.adapter.toolkit import FAIL, ReportWorld
from model.monitor.decide.base import DenyReason
from model.monitor.decide.wellformed import violations
from model.monitor.language.policy import AnyRes

ALICE = "alice@example.org"


def session(answers: list[JSON]) -> tuple[Adapter, ReportWorld, Handle]:
    p = load("report")
    # allow several lookups (of any name) on the user side so repeated answers can be observed
    user = tuple(replace(e, quota=None, resource=AnyRes()) if e.action == "directory.lookup" else e for e in p.user)
    p = replace(p, user=user, application=tuple(
        replace(e, quota=None) if e.action == "directory.lookup" else e for e in p.application))
    world = ReportWorld(directory={"Alice": answers, "Mallory": ["mallory@evil.example"]})
    ad = Adapter(p, world.tools(), "assistant")
    s = ad.call("Sanitize", record=ad.call("Read"))
    assert isinstance(s, Handle)
    return ad, world, s


def send(ad: Adapter, s: Handle, to: str = ALICE) -> Handle | Refusal | Failure:
    # the literal decision (``explain`` runs ``decide_source``'s checks) must refine a Deny exactly as the
    # compiled ``decide`` the adapter uses
    literal = ad.explain("Send", body=s, recipient=to)[0]
    r = ad.call("Send", body=s, recipient=to)
    if isinstance(r, Refusal):
        assert literal.reason is r.verdict.reason
    return r


def test_send_before_lookup_is_rejected() -> None:
    ad, _, s = session([ALICE])
    r = send(ad, s)
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.SLOT_UNBOUND


def test_lookup_binds_and_the_recipient_handle_need_not_come_from_it() -> None:
    ad, world, s = session([ALICE])
    assert isinstance(ad.call("Lookup", name="Alice"), Handle)
    assert ad.state.binding("target") == ALICE
    assert isinstance(send(ad, s), Handle)  # a literal address equal to the binding
    assert world.mailbox[ALICE]


def test_an_equal_result_keeps_the_binding() -> None:
    ad, _, s = session([ALICE, ALICE])
    ad.call("Lookup", name="Alice")
    ad.call("Lookup", name="Alice")
    assert ad.state.binding("target") == ALICE and "target" not in ad.state.invalid
    assert isinstance(send(ad, s), Handle)


def test_a_conflicting_result_invalidates_the_slot_for_the_rest_of_the_task() -> None:
    ad, _, s = session([ALICE, "mallory@evil.example", ALICE])
    ad.call("Lookup", name="Alice")
    ad.call("Lookup", name="Alice")
    assert "target" in ad.state.invalid and not ad.state.is_bound("target")
    ad.call("Lookup", name="Alice")  # an equal answer later does not restore it
    assert "target" in ad.state.invalid
    for to in (ALICE, "mallory@evil.example"):
        r = send(ad, s, to)
        assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.SLOT_INVALID
    assert violations(ad.policy, ad.state) == ()


def test_a_malformed_result_invalidates_the_slot() -> None:
    for malformed in ({"name": "Alice"}, {"destination": {"addr": ALICE}}, {"destination": ""}):
        ad, _, s = session([ALICE, malformed])
        ad.call("Lookup", name="Alice")
        ad.call("Lookup", name="Alice")
        assert "target" in ad.state.invalid, malformed
        r = send(ad, s)
        assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.SLOT_INVALID


def test_a_malformed_first_result_invalidates_before_any_binding() -> None:
    ad, _, _ = session([{"destination": None}, ALICE])
    ad.call("Lookup", name="Alice")
    ad.call("Lookup", name="Alice")
    assert "target" in ad.state.invalid


def test_a_failed_lookup_changes_nothing() -> None:
    ad, _, s = session([FAIL, ALICE, FAIL])
    before = ad.state
    r = ad.call("Lookup", name="Alice")
    assert isinstance(r, Failure)
    assert ad.state.bindings == before.bindings and ad.state.invalid == before.invalid
    ad.call("Lookup", name="Alice")
    bound = ad.state.bindings
    assert isinstance(ad.call("Lookup", name="Alice"), Failure)
    assert ad.state.bindings == bound and ad.state.binding("target") == ALICE
    assert isinstance(send(ad, s), Handle)


def test_only_the_designated_lookup_fills_the_slot() -> None:
    ad, _, s = session([ALICE])
    ad.call("Lookup", name="Mallory")  # same tool, other arguments: not the resolver's exact call
    assert not ad.state.is_bound("target")
    ad.call("Other", query="directory")  # content claiming to be a directory response
    assert not ad.state.is_bound("target")
    r = send(ad, s, "mallory@evil.example")
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.SLOT_UNBOUND


def test_forged_handles_are_unknown() -> None:
    ad, _, s = session([ALICE])
    ad.call("Lookup", name="Alice")
    forged = Handle(s.id)  # same id, not the adapter's object
    r = ad.call("Send", body=forged, recipient=ALICE)
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.UNKNOWN_HANDLE


def test_a_bound_slot_holding_another_address_is_a_plain_non_match() -> None:
    ad, _, s = session([ALICE])
    ad.call("Lookup", name="Alice")
    r = send(ad, s, "mallory@evil.example")
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.NO_MATCHING_ALLOW
