"""The detail a person reads with each verdict of D(S, c), and the cases of Section 6.2 the
ordered-case tests do not build: tools off their edge, deny entries reading arguments and slots,
per-operation flow and origin rules, permit reasons, the Allow verdict's fields. Written against the
mutants of ``decide.py`` that survived ``test_monitor_decide.py`` (``make mutation``)."""

from __future__ import annotations

from dataclasses import replace

from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Refusal
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.base import Decision, DenyReason, decide, explain
from model.monitor.decide.state import Call, Permit
from model.monitor.language.policy import EntryKind, GlobPat, SlotPat
from model.monitor.language.syntax import parse_policy
from tests.unit.test_monitor_decide import POLICY, P, adapter, ok, reason, tools


def details(r: object) -> tuple[DenyReason | None, str]:
    assert isinstance(r, Refusal), r
    return r.verdict.reason, r.verdict.detail


def test_preparation_details_name_the_tool_and_the_first_offending_argument() -> None:
    ad = adapter()
    assert details(ad.call("Nope")) == (DenyReason.UNKNOWN_TOOL, "no tool 'Nope'")
    assert details(ad.call("Fetch", key="k", zz=1, extra=2)) == (
        DenyReason.UNDECLARED_ARGUMENT, "Fetch declares no argument 'extra'")
    assert details(ad.call("Publish")) == (DenyReason.MISSING_ARGUMENT, "Publish requires argument 'channel'")
    assert details(ad.call("Publish", channel="news")) == (DenyReason.MISSING_ARGUMENT,
                                                           "Publish requires argument 'doc'")
    dangling = Call("bot", "Review", {"doc": "d"}, (("doc", 7),))
    v = decide(P, ad.state, dangling)
    assert (v.decision, v.reason, v.detail) == (Decision.DENY, DenyReason.UNKNOWN_HANDLE,
                                                "argument 'doc' names no successful result")


def test_structure_and_permission_details() -> None:
    assert details(adapter("stranger").call("Browse", url="a")) == (DenyReason.UNKNOWN_AGENT, "no agent 'stranger'")
    assert details(adapter("intern").call("Fetch", key="k")) == (DenyReason.OPERATION_NOT_PERMITTED,
                                                                 "intern may not perform Fetch")
    assert details(adapter().call("Browse", url="x.evil.example")) == (
        DenyReason.EXPLICIT_DENY, 'user denies web.get("x.evil.example")')
    assert details(adapter().call("Publish", doc="d", channel="radio")) == (
        DenyReason.NO_MATCHING_ALLOW, 'no user allow matches out.post("radio")')


def test_ceiling_flow_history_and_quota_details() -> None:
    bot = adapter()
    secret = ok(bot.call("Fetch", key="k"))
    call = Call("intern", "Publish", {"doc": bot.value(secret), "channel": "news"}, (("doc", secret.id),))
    assert decide(P, bot.state, call).detail == "output Secret exceeds ceiling Internal"
    reviewed = ok(bot.call("Review", doc=secret))
    assert details(bot.call("Publish", doc=reviewed, channel="news")) == (
        DenyReason.FLOW, "no flow rule lets Secret data reach out")
    scrubbed = ok(bot.call("Scrub", doc=ok(bot.call("Scrub", doc=secret))))
    hist = [v for v in bot.explain("Publish", doc=scrubbed, channel="news") if v.reason is DenyReason.HISTORY]
    assert [v.detail for v in hist] == ["history rule reviewed not met"]
    doc = ok(bot.call("Review", doc="d"))
    bot.satisfy("legal_ok")
    ok(bot.call("Publish", doc=doc, channel="press"))
    assert details(bot.call("Publish", doc=doc, channel="press")) == (
        DenyReason.QUOTA, "no user grant with capacity left (first-fit)")


def test_pause_detail_lists_every_missing_requirement() -> None:
    ad = adapter()
    r = ad.call("Publish", doc=ok(ad.call("Review", doc="d")), channel="press")
    assert isinstance(r, Refusal) and r.verdict.detail == "waiting for legal_ok"
    assert r.verdict.reason is None and r.verdict.effects == ()


def test_explain_lists_only_failures_once_a_check_failed() -> None:
    ad = adapter()
    secret = ok(ad.call("Fetch", key="k"))
    scrubbed = ok(ad.call("Scrub", doc=ok(ad.call("Scrub", doc=secret))))
    verdicts = ad.explain("Publish", doc=scrubbed, channel="news")
    assert [v.reason for v in verdicts] == [DenyReason.FLOW, DenyReason.HISTORY]
    assert all(v.decision is Decision.DENY for v in verdicts)  # the Allow candidate is not listed
    (allowed,) = ad.explain("Review", doc="d")
    assert allowed.decision is Decision.ALLOW


def test_a_tool_off_its_edge_is_denied_for_its_endpoints_never_raising() -> None:
    off_edge = replace(P, tools=tuple(replace(t, destination="audit") if t.name == "Publish" else
                                      replace(t, operation="Nowhere") if t.name == "Review" else t for t in P.tools))
    state = adapter().state
    v = decide(off_edge, state, Call("bot", "Publish", {"doc": "d", "channel": "news"}, ()))
    assert (v.decision, v.reason, v.detail) == (Decision.DENY, DenyReason.ENDPOINT,
                                                "mem -> audit is not an endpoint of Publish")
    reasons = [x.reason for x in explain(off_edge, state, Call("bot", "Review", {"doc": "d"}, ()))]
    assert reasons == [DenyReason.OPERATION_NOT_PERMITTED, DenyReason.ENDPOINT]


def test_a_source_without_a_node_reads_the_lowest_label() -> None:
    no_web = replace(P, nodes=tuple(n for n in P.nodes if n.name != "web"))
    v = decide(no_web, adapter().state, Call("bot", "Browse", {"url": "ok.example"}, ()))
    assert v.decision is Decision.ALLOW and v.label == P.levels.bottom()


def test_malformed_resource_detail_names_the_argument() -> None:
    assert details(adapter().call("Fetch", key=None)) == (DenyReason.MALFORMED_RESOURCE,
                                                          "argument 'key' is not a JSON scalar resource")


def test_the_application_side_is_named_in_its_denials() -> None:
    no_audit = replace(P, application=tuple(e for e in P.application if e.action != "audit.write"))
    ad = Adapter(no_audit, tools(), "bot")  # type: ignore[arg-type]
    doc = ok(ad.call("Review", doc="d"))
    assert details(ad.call("Log", doc=doc)) == (DenyReason.NO_MATCHING_ALLOW,
                                                'no application allow matches audit.write("log")')


def test_permit_reasons_distinguish_missing_mismatched_and_consumed() -> None:
    permitted = replace(P, user=tuple(replace(e, permit=True) if e.quota == 5 else e for e in P.user))
    ad = adapter()
    doc = ok(ad.call("Review", doc="d"))
    call = Call("bot", "Publish", {"doc": ad.value(doc), "channel": "news"}, (("doc", doc.id),))
    other = Call("bot", "Publish", {"doc": "x", "channel": "news"}, ()).identity()

    def reason_with(*permits: Permit) -> DenyReason | None:
        return decide(permitted, replace(ad.state, permits=permits), call).reason

    assert reason_with() is DenyReason.PERMIT_MISSING
    assert reason_with(Permit(0, "Publish", other)) is DenyReason.PERMIT_MISMATCH
    assert reason_with(Permit(0, "Publish", other, consumed=True)) is DenyReason.PERMIT_MISSING
    assert reason_with(Permit(0, "Log", call.identity())) is DenyReason.PERMIT_MISSING
    assert reason_with(Permit(0, "Publish", call.identity(), consumed=True)) is DenyReason.PERMIT_CONSUMED
    both = (Permit(0, "Publish", other), Permit(1, "Publish", call.identity()))
    v = decide(permitted, replace(ad.state, permits=both), call)
    assert (v.decision, v.permit) == (Decision.ALLOW, 1)
    assert details(Refusal(decide(permitted, ad.state, call))) == (
        DenyReason.PERMIT_MISSING, "no unused exact-call permit binds this call")


def test_slot_refinement_needs_the_allow_to_match_but_for_its_slot() -> None:
    p = load("report")
    narrow = replace(p, user=tuple(replace(e, keys=frozenset({"body"})) if e.keys else e for e in p.user))
    for policy, expected in ((p, DenyReason.SLOT_UNBOUND), (narrow, DenyReason.NO_MATCHING_ALLOW)):
        ad = Adapter(policy, ReportWorld().tools(), "assistant")
        s = ok(ad.call("Sanitize", record=ad.call("Read")))
        assert reason(ad.call("Send", body=s, recipient="alice@example.org")) is expected


def test_the_allow_verdict_carries_effects_label_and_no_detail_or_permit() -> None:
    v = decide(P, adapter().state, Call("bot", "Review", {"doc": "d"}, ()))
    assert (v.decision, v.reason, v.detail, v.permit) == (Decision.ALLOW, None, "", None)
    assert [(e.action, e.resource) for e in v.effects] == [("doc.review", "x")] and v.label is not None


def test_a_deny_entry_reads_the_call_arguments_and_slots() -> None:
    keyed = replace(P, user=(replace(P.user[0], resource=GlobPat("*"), keys=frozenset({"url"})), *P.user[1:]))
    assert details(Adapter(keyed, tools(), "bot").call("Browse", url="ok.example")) == (  # type: ignore[arg-type]
        DenyReason.EXPLICIT_DENY, 'user denies web.get("ok.example")')
    p = load("report")
    send = next(e for e in p.user if isinstance(e.resource, SlotPat))
    denied = replace(p, user=(replace(send, kind=EntryKind.DENY), *p.user))
    ad = Adapter(denied, ReportWorld().tools(), "assistant")
    s, a = ok(ad.call("Sanitize", record=ad.call("Read"))), ok(ad.call("Lookup", name="Alice"))
    assert reason(ad.call("Send", body=s, recipient=a.at("destination"))) is DenyReason.EXPLICIT_DENY


def test_pause_joins_every_requirement_it_waits_for() -> None:
    press = next(e for e in P.user if e.requires == "legal_ok")
    both = replace(P, user=(*P.user, replace(press, requires="pr_ok")))
    ad = Adapter(both, tools(), "bot")  # type: ignore[arg-type]
    r = ad.call("Publish", doc=ok(ad.call("Review", doc="d")), channel="press")
    assert isinstance(r, Refusal) and r.verdict.detail == "waiting for legal_ok, pr_ok"
    assert r.verdict.waiting_for == {"legal_ok", "pr_ok"}


def test_origin_rules_apply_through_the_operation_and_name_the_rule() -> None:
    p = load("report")
    renamed = replace(p, tools=tuple(replace(t, name="Mailer") if t.name == "Send" else t for t in p.tools))
    ad = Adapter(renamed, ReportWorld().tools() | {"Mailer": ReportWorld().tools()["Send"]}, "assistant")
    raw, a = ok(ad.call("Read")), ok(ad.call("Lookup", name="Alice"))
    assert details(ad.call("Mailer", body=raw, recipient=a.at("destination"))) == (
        DenyReason.ORIGIN, "origin rule report_body not met")


def test_a_flow_rule_for_one_operation_applies_to_it() -> None:
    by_op = parse_policy(POLICY.replace("flow deny * -> out when untrusted", "flow deny Publish -> out when untrusted"),
                         "lab.policy")
    ad = Adapter(by_op, tools(), "bot")  # type: ignore[arg-type]
    page = ok(ad.call("Browse", url="ok.example"))
    assert reason(ad.call("Publish", doc=page, channel="news")) is DenyReason.FLOW


def test_quota_detail_names_the_application_list() -> None:
    tight = replace(P, application=tuple(replace(e, quota=1) if e.action == "doc.review" else e
                                         for e in P.application))
    ad = Adapter(tight, tools(), "bot")  # type: ignore[arg-type]
    ok(ad.call("Review", doc="a"))
    assert details(ad.call("Review", doc="b")) == (DenyReason.QUOTA,
                                                  "no application grant with capacity left (first-fit)")
