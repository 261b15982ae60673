"""Argument origins (Agenra Sections 3 and 4.4): control policy, immediate producer, chained rule."""

from __future__ import annotations

import itertools

import pytest

from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Handle, Refusal
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.base import Decision, DenyReason


def run(policy_name: str) -> tuple[Adapter, ReportWorld]:
    world = ReportWorld()
    return Adapter(load(policy_name), world.tools(), "assistant"), world


def address(ad: Adapter) -> Handle:
    a = ad.call("Lookup", name="Alice")
    assert isinstance(a, Handle)
    return a.at("destination")


def test_without_the_origin_rule_unrelated_public_content_reaches_alice() -> None:
    ad, world = run("report_no_origin")
    decoy = ad.call("Other", query="report")
    assert isinstance(decoy, Handle)
    assert isinstance(ad.call("Send", body=decoy, recipient=address(ad)), Handle)
    assert world.mailbox["alice@example.org"] == [world.inbox]


def test_the_immediate_producer_rule_rejects_it() -> None:
    ad, world = run("report")
    decoy = ad.call("Other", query="report")
    r = ad.call("Send", body=decoy, recipient=address(ad))
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.ORIGIN
    assert world.mailbox == {}


def test_identical_bytes_from_another_producer_do_not_qualify() -> None:
    ad, world = run("report")
    summary = ad.call("Sanitize", record=ad.call("Read"))
    assert isinstance(summary, Handle)
    world.inbox = ad.value(summary)  # the attacker's message now has exactly the summary's bytes
    copy = ad.call("Other", query="x")
    assert isinstance(copy, Handle) and ad.value(copy) == ad.value(summary)
    r = ad.call("Send", body=copy, recipient=address(ad))
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.ORIGIN


def test_sanitize_over_the_decoy_passes_and_spends_the_single_release_grant() -> None:
    ad, world = run("report")
    laundered = ad.call("Sanitize", record=ad.call("Other", query="report"))
    assert isinstance(laundered, Handle)
    a = address(ad)
    assert isinstance(ad.call("Send", body=laundered, recipient=a), Handle)
    assert world.mailbox["alice@example.org"][0]["revenue"] == world.inbox["revenue"]  # attacker's figure
    legit = ad.call("Sanitize", record=ad.call("Read"))
    assert isinstance(legit, Refusal) and legit.verdict.reason is DenyReason.QUOTA


def test_the_chained_rule_rejects_the_decoy_at_sanitize() -> None:
    ad, _ = run("report_chained")
    r = ad.call("Sanitize", record=ad.call("Other", query="report"))
    assert isinstance(r, Refusal) and r.verdict.reason is DenyReason.ORIGIN
    assert ad.state.used_user == (0, 1, 0, 0, 0)  # only the Other read was charged
    # the legitimate delivery still works afterwards
    s = ad.call("Sanitize", record=ad.call("Read"))
    assert isinstance(s, Handle) and isinstance(ad.call("Send", body=s, recipient=address(ad)), Handle)


STEPS = ("Read", "Sanitize", "Lookup", "Send")


def deliveries(policy_name: str) -> list[tuple[str, ...]]:
    """Every order of the four task calls in which all four are admitted and the summary arrives.

    A step whose inputs do not exist yet cannot even be proposed, so that order is not a delivery.
    """
    found = []
    for order in itertools.permutations(STEPS):
        ad, world = run(policy_name)
        held: dict[str, Handle] = {}
        ok = True
        for step in order:
            if step == "Read":
                r = ad.call("Read")
            elif step == "Sanitize":
                if "Read" not in held:
                    ok = False
                    break
                r = ad.call("Sanitize", record=held["Read"])
            elif step == "Lookup":
                r = ad.call("Lookup", name="Alice")
            else:
                if "Sanitize" not in held or "Lookup" not in held:
                    ok = False
                    break
                r = ad.call("Send", body=held["Sanitize"], recipient=held["Lookup"].at("destination"))
            if not isinstance(r, Handle):
                ok = False
                break
            held[step] = r
        if ok and world.mailbox.get("alice@example.org") == [{"quarter": "Q3", "revenue": 1200000,
                                                                "title": "Q3 report"}]:
            found.append(order)
    return found


@pytest.mark.parametrize("policy_name", ["report", "report_chained"])
def test_every_legitimate_delivery_order_is_kept(policy_name: str) -> None:
    orders = deliveries(policy_name)
    # Read < Sanitize < Send and Lookup < Send: Lookup may come first, second or third.
    assert orders == [
        ("Read", "Sanitize", "Lookup", "Send"),
        ("Read", "Lookup", "Sanitize", "Send"),
        ("Lookup", "Read", "Sanitize", "Send"),
    ]
    assert orders == deliveries("report_no_origin")


def test_deny_is_a_verdict_not_an_exception() -> None:
    ad, _ = run("report_chained")
    r = ad.call("Send", body="raw text", recipient="alice@example.org")
    assert isinstance(r, Refusal) and r.decision is Decision.DENY
