"""The less-travelled paths of ``D(S, c)`` (Agenra Section 6.2), decided both ways.

Each case runs the literal ``decide_source`` (through ``explain``, whose first verdict it is) and
the compiled ``decide`` (through ``Adapter.call``), and pins the reason and the detail text: the
diagnosis of a slot allow narrowed by ``keys`` or ``where``; explicit denies that read the call's
arguments and the slot state; an origin rule named by the tool's operation rather than the tool;
the ``application`` side named in a refusal; an endpoint check on a policy built without the
well-formedness pass. Mutation testing found each of these reached by no test of the literal form.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from model.monitor.adapter.report_task import POLICY_DIR
from model.monitor.adapter.shell import Adapter, Handle, Refusal
from model.monitor.adapter.toolkit import ReportWorld
from model.monitor.decide.base import Decision, DenyReason, Verdict, decide, decide_source, explain
from model.monitor.decide.state import Call, Permit, State
from model.monitor.language.syntax import parse_policy

ALICE = "alice@example.org"
REPORT = (POLICY_DIR / "report.policy").read_text(encoding="utf-8")
USER_SEND = "  allow message.send(@target) keys {body, recipient} quota 1\n}\n\napplication"


def _policy(text: str) -> Adapter:
    p = parse_policy(text)  # refuses a policy that is not well-formed
    return Adapter(p, ReportWorld(directory={"Alice": [ALICE]}).tools(), "assistant")


def _with_user_send(entry: str) -> Adapter:
    assert USER_SEND in REPORT
    return _policy(REPORT.replace(USER_SEND, f"  {entry}\n}}\n\napplication"))


def _sanitized(ad: Adapter) -> Handle:
    s = ad.call("Sanitize", record=ad.call("Read"))
    assert isinstance(s, Handle)
    return s


def _refused_both_ways(ad: Adapter, tool: str, **args: object) -> Verdict:
    literal = ad.explain(tool, **args)[0]  # type: ignore[arg-type]
    r = ad.call(tool, **args)  # type: ignore[arg-type]
    assert isinstance(r, Refusal), r
    assert (literal.decision, literal.reason, literal.detail) == (r.verdict.decision, r.verdict.reason,
                                                                    r.verdict.detail)
    return literal


def test_a_slot_allow_whose_keys_exclude_an_argument_is_no_match_not_an_unbound_slot() -> None:
    ad = _with_user_send("allow message.send(@target) keys {body} quota 1")
    v = _refused_both_ways(ad, "Send", body=_sanitized(ad), recipient=ALICE)
    assert v.reason is DenyReason.NO_MATCHING_ALLOW
    assert v.detail == 'no user allow matches message.send("alice@example.org")'


def test_a_slot_allow_whose_where_fails_is_no_match_and_one_that_holds_names_the_unbound_slot() -> None:
    failing = _with_user_send('allow message.send(@target) where recipient == "bob@example.org" quota 1')
    assert _refused_both_ways(failing, "Send", body=_sanitized(failing),
                              recipient=ALICE).reason is DenyReason.NO_MATCHING_ALLOW
    holding = _with_user_send(f'allow message.send(@target) where recipient == "{ALICE}" quota 1')
    assert _refused_both_ways(holding, "Send", body=_sanitized(holding),
                              recipient=ALICE).reason is DenyReason.SLOT_UNBOUND


def test_an_explicit_deny_reads_the_call_arguments_and_the_slot_state() -> None:
    by_argument = _with_user_send(f'deny message.send(*) where recipient == "{ALICE}"\n'
                                  "  allow message.send(@target) keys {body, recipient} quota 1")
    v = _refused_both_ways(by_argument, "Send", body=_sanitized(by_argument), recipient=ALICE)
    assert v.reason is DenyReason.EXPLICIT_DENY
    assert v.detail == 'user denies message.send("alice@example.org")'
    by_slot = _with_user_send("deny message.send(@target)\n"
                              "  allow message.send(*) quota 1")
    s = _sanitized(by_slot)
    assert isinstance(by_slot.call("Lookup", name="Alice"), Handle)
    assert _refused_both_ways(by_slot, "Send", body=s, recipient=ALICE).reason is DenyReason.EXPLICIT_DENY
    # the bound slot holds Alice's address, so another address passes the user's deny (and is then
    # refused by the application list, which only allows the slot)
    other = _refused_both_ways(by_slot, "Send", body=s, recipient="carol@example.org")
    assert other.detail == 'no application allow matches message.send("carol@example.org")'


def test_the_application_side_is_named_in_its_refusal() -> None:
    text = REPORT.replace("  allow directory.lookup(*) quota 2\n", "")
    ad = _policy(text)
    v = _refused_both_ways(ad, "Lookup", name="Alice")
    assert v.reason is DenyReason.NO_MATCHING_ALLOW
    assert v.detail == 'no application allow matches directory.lookup("Alice")'
    assert "application" in explain(ad.policy, ad.state, Call("assistant", "Lookup", {"name": "Alice"}))[0].detail


def test_an_origin_rule_may_name_the_operation_a_tool_performs() -> None:
    text = (REPORT.replace("edge Send: memory -> mail inherit", "edge Deliver: memory -> mail inherit")
                  .replace("Lookup, Send}, ceiling", "Lookup, Deliver}, ceiling")
                  .replace("tool Send {endpoints:", "tool Send {operation: Deliver, endpoints:")
                  .replace("origin report_body {via: Send", "origin report_body {via: Deliver"))
    ad = _policy(text)
    raw = ad.call("Read")
    assert isinstance(raw, Handle) and isinstance(ad.call("Lookup", name="Alice"), Handle)
    v = _refused_both_ways(ad, "Send", body=raw, recipient=ALICE)
    assert v.reason is DenyReason.ORIGIN and v.detail == "origin rule report_body not met"


def test_an_endpoint_outside_the_edge_is_refused_with_both_names() -> None:
    # Well-formedness forbids this policy; decide must still answer (it is total) and say why.
    p = parse_policy(REPORT)
    send = p.tool("Send")
    assert send is not None
    broken = replace(p, tools=tuple(replace(t, source="report") if t.name == "Send" else t for t in p.tools))
    call = Call("assistant", "Send", {"body": "x", "recipient": ALICE})
    literal, compiled = decide_source(broken, State(), call), decide(broken, State(), call)
    assert literal == compiled
    assert literal.decision is Decision.DENY and literal.reason is DenyReason.ENDPOINT
    assert literal.detail == "report -> mail is not an endpoint of Send"
    # a source that is no node at all: the input label is the bottom label, and the answer the same kind
    nowhere = replace(p, tools=tuple(replace(t, source="nowhere") if t.name == "Send" else t for t in p.tools))
    literal, compiled = decide_source(nowhere, State(), call), decide(nowhere, State(), call)
    assert literal == compiled and literal.reason is DenyReason.ENDPOINT
    assert literal.detail == "nowhere -> mail is not an endpoint of Send"


TWO_SOURCES = """
policy two
levels Public < Confidential
node secret: source (Confidential, {}, trusted)
node public: source (Public, {}, trusted)
node memory: memory (Public, {}, trusted)
node out: sink (Public, {}, trusted)
edge ReadSecret: secret -> memory inherit
edge ReadPublic: public -> memory inherit
edge Send: memory -> out inherit
agent a {operations: {ReadSecret, ReadPublic, Send}, ceiling: Confidential}
tool ReadSecret {endpoints: secret -> memory, effects: [x.read("s")]}
tool ReadPublic {endpoints: public -> memory, effects: [x.read("p")]}
tool Send {endpoints: memory -> out, args: {a, b}, required: {a, b}, effects: [x.send("m")]}
flow allow * -> memory
flow allow * -> out
user {
  allow x.read(*) quota unlimited
  allow x.send(*) quota unlimited
}
application {
  allow x.read(*) quota unlimited
  allow x.send(*) quota unlimited
}
"""


def _two(text: str) -> Adapter:
    tools = {"ReadSecret": lambda: "s", "ReadPublic": lambda: "p", "Send": lambda a, b: "sent"}
    return Adapter(parse_policy(text), tools, "a")


def _two_handles(low_first: bool) -> tuple[Adapter, dict[str, Handle]]:
    """An Adapter over TWO_SOURCES after both reads, and Send's arguments naming them in either order."""
    ad = _two(TWO_SOURCES)
    secret, public = ad.call("ReadSecret"), ad.call("ReadPublic")
    assert isinstance(secret, Handle) and isinstance(public, Handle)
    return ad, ({"a": public, "b": secret} if low_first else {"a": secret, "b": public})


def test_a_call_with_two_handles_carries_the_join_of_their_labels_whichever_comes_first() -> None:
    # The compiled form reads a single handle's label directly and joins only for two or more.
    for low_first in (True, False):
        ad, args = _two_handles(low_first)
        literal = ad.explain("Send", **args)[0]
        assert isinstance(ad.call("Send", **args), Handle)
        assert literal.decision is Decision.ALLOW and literal.label is not None
        assert literal.label.sensitivity == "Confidential"
        assert ad.state.trace[-1].label == literal.label


def test_the_decision_on_two_handles_carries_their_join_whichever_comes_first() -> None:
    # The Adapter's call plans its own path, so ``decide`` (the compiled decision) is asked directly:
    # its label for a call with two handles is the join of both, as ``decide_source``'s is. Found by
    # mutation testing: reading only the first handle's label (for two handles, or whenever there is
    # more than one) passed every other test.
    for low_first in (True, False):
        ad, args = _two_handles(low_first)
        call = ad._to_call("Send", args)[0]
        assert len(call.refs) == 2
        compiled, source = decide(ad.policy, ad.state, call), decide_source(ad.policy, ad.state, call)
        assert compiled.decision is Decision.ALLOW and compiled.label is not None
        assert compiled.label.sensitivity == "Confidential" and compiled.label == source.label


PERMIT = (POLICY_DIR / "report_permit.policy").read_text(encoding="utf-8")
USER_PERMIT = "  allow message.send(@target) keys {body, recipient} quota 2 permit\n}"
APP_SEND = "  allow message.send(@target) keys {body, recipient} quota 2\n}"


@pytest.mark.parametrize("side", ["user", "application"])
def test_an_exact_call_permit_is_required_chosen_and_consumed_on_either_list(side: str) -> None:
    assert USER_PERMIT in PERMIT and PERMIT.count(APP_SEND) == 1
    text = PERMIT if side == "user" else (PERMIT.replace(USER_PERMIT, USER_PERMIT.replace(" permit", ""))
                                          .replace(APP_SEND, APP_SEND.replace("quota 2", "quota 2 permit")))
    ad = _policy(text)
    s = _sanitized(ad)
    found = ad.call("Lookup", name="Alice")
    assert isinstance(found, Handle)
    to = found.at("destination")
    missing = _refused_both_ways(ad, "Send", body=s, recipient=to)
    assert missing.reason is DenyReason.PERMIT_MISSING
    assert missing.detail == "no unused exact-call permit binds this call"
    permit = ad.issue_permit("Send", body=s, recipient=to)
    assert isinstance(permit, Permit)
    literal = ad.explain("Send", body=s, recipient=to)[0]
    assert literal.decision is Decision.ALLOW and literal.permit == permit.id
    assert isinstance(ad.call("Send", body=s, recipient=to), Handle)
    assert _refused_both_ways(ad, "Send", body=s, recipient=to).reason is DenyReason.PERMIT_CONSUMED


def test_an_operation_specific_flow_rule_and_the_flow_refusal_text() -> None:
    text = REPORT.replace("flow allow * -> mail when", "flow allow Send -> mail when")
    ad = _policy(text)
    s = _sanitized(ad)
    assert isinstance(ad.call("Lookup", name="Alice"), Handle)
    literal = ad.explain("Send", body=s, recipient=ALICE)[0]
    assert literal.decision is Decision.ALLOW
    assert isinstance(ad.call("Send", body=s, recipient=ALICE), Handle)
    raw = _policy(text)
    body = raw.call("Read")
    assert isinstance(body, Handle) and isinstance(raw.call("Lookup", name="Alice"), Handle)
    flow = [v for v in raw.explain("Send", body=body, recipient=ALICE) if v.reason is DenyReason.FLOW]
    assert [v.detail for v in flow] == ["no flow rule lets Confidential data reach mail"]


def test_a_quota_refusal_names_the_list_that_ran_out() -> None:
    app_read = "application {\n  allow record.read(*) quota unlimited"
    assert app_read in REPORT
    ad = _policy(REPORT.replace(app_read, app_read.replace("unlimited", "1")))
    assert isinstance(ad.call("Read"), Handle)
    v = _refused_both_ways(ad, "Read")
    assert v.reason is DenyReason.QUOTA and v.detail == "no application grant with capacity left (first-fit)"


def test_a_deny_on_a_later_effect_of_the_call_is_found() -> None:
    # Send has two effects; only the second one's action has a deny, so the scan must go past the first.
    text = (TWO_SOURCES.replace('effects: [x.send("m")]', 'effects: [x.read("p"), x.send("m")]')
                       .replace("user {\n", 'user {\n  deny x.send("m")\n'))
    assert text.count("deny") == 1 and 'x.read("p"), x.send' in text
    ad = _two(text)
    p = ad.call("ReadPublic")
    assert isinstance(p, Handle)
    v = _refused_both_ways(ad, "Send", a=p, b=p)
    assert v.reason is DenyReason.EXPLICIT_DENY and v.detail == 'user denies x.send("m")'


def test_first_fit_passes_over_a_grant_whose_requirement_is_unmet() -> None:
    text = (TWO_SOURCES.replace("user {\n", "user {\n  allow x.read(*) quota 1 requires review\n")
                       .replace("flow allow * -> memory", "requirement review\nflow allow * -> memory"))
    ad = _two(text)
    assert isinstance(ad.call("ReadPublic"), Handle)
    literal_next = ad.explain("ReadPublic")[0]
    assert literal_next.decision is Decision.ALLOW and literal_next.user is not None
    assert literal_next.user.positions == (1,)  # not the first grant: it waits for review
    assert ad.state.used_user[:2] == (0, 1)


def test_a_history_refusal_names_its_rule_both_ways() -> None:
    text = REPORT.replace("origin report_body", "history reviewed {scope: session, after: Read, require: Other, "
                                                "before: Send}\n\norigin report_body")
    ad = _policy(text)
    s = _sanitized(ad)
    assert isinstance(ad.call("Lookup", name="Alice"), Handle)
    v = _refused_both_ways(ad, "Send", body=s, recipient=ALICE)
    assert v.reason is DenyReason.HISTORY and v.detail == "history rule reviewed not met"


def test_an_output_above_the_agents_ceiling_is_refused_both_ways() -> None:
    ad = _policy(REPORT.replace("ceiling: Confidential}", "ceiling: Internal}"))
    v = _refused_both_ways(ad, "Read")
    assert v.reason is DenyReason.CEILING and v.detail == "output Confidential exceeds ceiling Internal"


def test_a_pause_names_every_requirement_it_waits_for() -> None:
    text = (TWO_SOURCES.replace("flow allow * -> memory", "requirement r1\nrequirement r2\nflow allow * -> memory")
                       .replace("user {\n  allow x.read(*) quota unlimited\n",
                                "user {\n  allow x.read(*) quota unlimited requires r2\n"
                                "  allow x.read(*) quota unlimited requires r1\n"))
    v = _refused_both_ways(_two(text), "ReadPublic")
    assert v.decision is Decision.PAUSE and v.detail == "waiting for r1, r2"


def test_two_effects_of_one_call_share_a_grant_with_room_for_both() -> None:
    # first-fit reserves one unit per effect on the grant it picks, so quota 2 holds both effects
    text = (TWO_SOURCES.replace('effects: [x.send("m")]', 'effects: [x.send("m"), x.send("n")]')
                       .replace("user {\n  allow x.read(*) quota unlimited\n  allow x.send(*) quota unlimited",
                                "user {\n  allow x.read(*) quota unlimited\n  allow x.send(*) quota 2"))
    assert 'allow x.send(*) quota 2' in text
    ad = _two(text)
    p = ad.call("ReadPublic")
    assert isinstance(p, Handle)
    literal = ad.explain("Send", a=p, b=p)[0]
    assert literal.decision is Decision.ALLOW and literal.user is not None and literal.user.positions == (1, 1)
    assert isinstance(ad.call("Send", a=p, b=p), Handle) and ad.state.used_user[1] == 2
