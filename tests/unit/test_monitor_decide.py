"""The ordered cases of D(S, c) (Agenra Section 6.2): each DenyReason is reachable, Pause waits for
a requirement, history rules read lineage or session, transforms apply in the stated order."""

from __future__ import annotations

from model.base.canonical import JSON
from model.monitor.adapter.shell import Adapter, Failure, Handle, Refusal
from model.monitor.decide.base import Decision, DenyReason, decide
from model.monitor.decide.state import Call
from model.monitor.language.labels import Label, Levels, Transform, propagate
from model.monitor.language.syntax import parse_policy

POLICY = """
policy lab
levels Public < Internal < Secret
categories pii, cred

node vault: source (Secret, {pii, cred}, trusted)
node web: source (Public, {}, untrusted)
node mem: memory (Public, {}, trusted)
node out: sink (Public, {}, trusted)
node audit: sink (Internal, {}, trusted)

edge Fetch: vault -> mem inherit
edge Browse: web -> mem inherit
edge Scrub: mem -> mem transform {remove: {cred}, decrement: 1}
edge Review: mem -> mem inherit
edge Publish: mem -> out inherit
edge Log: mem -> audit inherit

agent bot {operations: {Fetch, Browse, Scrub, Review, Publish, Log}, ceiling: Secret}
agent intern {operations: {Browse, Publish}, ceiling: Internal}

requirement legal_ok

tool Fetch {endpoints: vault -> mem, args: {key}, required: {key}, effects: [vault.read(key)]}
tool Browse {endpoints: web -> mem, args: {url}, required: {url}, effects: [web.get(url)]}
tool Scrub {endpoints: mem -> mem, args: {doc}, required: {doc}, effects: [doc.scrub("x")]}
tool Review {endpoints: mem -> mem, args: {doc}, required: {doc}, effects: [doc.review("x")]}
tool Publish {endpoints: mem -> out, args: {doc, channel}, required: {doc, channel}, effects: [out.post(channel)]}
tool Log {endpoints: mem -> audit, args: {doc}, required: {doc}, effects: [audit.write("log")]}

history reviewed {scope: lineage, after: Fetch, require: Review, before: Publish}
history logged {scope: session, after: Browse, require: Review, before: Log}

flow allow * -> mem
flow allow * -> audit when sensitivity <= Internal
flow allow * -> out when sensitivity <= Public and no category {pii}
flow deny * -> out when untrusted

user {
  deny web.get(like "*.evil.example")
  allow vault.read(*) quota unlimited
  allow web.get(*) quota unlimited
  allow doc.scrub(*) quota unlimited
  allow doc.review(*) quota unlimited
  allow out.post("news") quota 5
  allow out.post("press") quota 1 requires legal_ok
  allow audit.write(*) quota unlimited
}
application {
  allow vault.read(*) quota unlimited
  allow web.get(*) quota unlimited
  allow doc.scrub(*) quota unlimited
  allow doc.review(*) quota unlimited
  allow out.post(*) quota unlimited
  allow audit.write(*) quota unlimited
}
"""

P = parse_policy(POLICY, "lab.policy")


def tools() -> dict[str, object]:
    def echo(**kw: JSON) -> JSON:
        return {"v": kw}
    return {t.name: echo for t in P.tools}


def adapter(agent: str = "bot") -> Adapter:
    return Adapter(P, tools(), agent)  # type: ignore[arg-type]


def reason(r: object) -> DenyReason | None:
    assert isinstance(r, Refusal), r
    return r.verdict.reason


def ok(r: object) -> Handle:
    assert isinstance(r, Handle), r
    return r


def test_preparation_failures() -> None:
    ad = adapter()
    assert reason(ad.call("Nope")) is DenyReason.UNKNOWN_TOOL
    assert reason(ad.call("Fetch", key="k", extra=1)) is DenyReason.UNDECLARED_ARGUMENT
    assert reason(ad.call("Fetch")) is DenyReason.MISSING_ARGUMENT
    assert reason(ad.call("Fetch", key={"not": "scalar"})) is DenyReason.MALFORMED_RESOURCE
    assert reason(ad.call("Fetch", key=None)) is DenyReason.MALFORMED_RESOURCE
    assert ad.state.trace == ()  # nothing was admitted


def test_structure() -> None:
    assert reason(adapter("stranger").call("Browse", url="a")) is DenyReason.UNKNOWN_AGENT
    intern = adapter("intern")
    assert reason(intern.call("Fetch", key="k")) is DenyReason.OPERATION_NOT_PERMITTED


def test_ceiling_applies_to_the_output_label() -> None:
    bot = adapter()
    secret = ok(bot.call("Fetch", key="k"))
    assert bot.state.trace[secret.id].label.sensitivity == "Secret"
    # the intern (ceiling Internal) proposing to publish the Secret result: output label above its ceiling
    call = Call("intern", "Publish", {"doc": bot.value(secret), "channel": "news"}, (("doc", secret.id),))
    verdict = decide(P, bot.state, call)
    assert verdict.decision is Decision.DENY and verdict.reason is DenyReason.CEILING
    page = ok(adapter("intern").call("Browse", url="ok.example"))
    assert page.id == 0


def test_explicit_deny_wins_over_an_allow() -> None:
    assert reason(adapter().call("Browse", url="x.evil.example")) is DenyReason.EXPLICIT_DENY


def test_pause_until_the_requirement_is_satisfied() -> None:
    ad = adapter()
    doc = ok(ad.call("Review", doc="draft"))
    before = ad.state
    r = ad.call("Publish", doc=doc, channel="press")
    assert isinstance(r, Refusal) and r.decision is Decision.PAUSE and r.verdict.waiting_for == {"legal_ok"}
    assert ad.state == before  # a pause charges nothing and records nothing
    ad.satisfy("legal_ok")
    ok(ad.call("Publish", doc=doc, channel="press"))


def test_flow_guard_and_flow_deny() -> None:
    ad = adapter()
    secret = ok(ad.call("Fetch", key="k"))
    reviewed = ok(ad.call("Review", doc=secret))
    assert reason(ad.call("Publish", doc=reviewed, channel="news")) is DenyReason.FLOW
    page = ok(ad.call("Browse", url="ok.example"))  # untrusted
    assert reason(ad.call("Publish", doc=page, channel="news")) is DenyReason.FLOW


def test_transform_order_remove_then_decrement_then_set() -> None:
    levels = Levels(("Public", "Internal", "Secret"))
    lab = Label("Secret", frozenset({"pii", "cred"}), True)
    assert propagate(levels, Transform(remove=frozenset({"cred"}), decrement=1), lab) == \
        Label("Internal", frozenset({"pii"}), True)
    assert propagate(levels, Transform(decrement=5), lab).sensitivity == "Public"  # saturates
    assert propagate(levels, Transform(decrement=1, set_sensitivity="Secret", set_trusted=False), lab) == \
        Label("Secret", frozenset({"pii", "cred"}), False)
    ad = adapter()
    scrubbed = ok(ad.call("Scrub", doc=ok(ad.call("Fetch", key="k"))))
    assert ad.state.trace[scrubbed.id].label == Label("Internal", frozenset({"pii"}), True)


def test_history_lineage_needs_a_review_after_the_fetch() -> None:
    ad = adapter()
    secret = ok(ad.call("Fetch", key="k"))
    scrubbed = ok(ad.call("Scrub", doc=ok(ad.call("Scrub", doc=secret))))
    # Public, no cred, but pii remains -> flow also denies; history is checked after flow, so look at explain
    reasons = {v.reason for v in ad.explain("Publish", doc=scrubbed, channel="news")}
    assert DenyReason.HISTORY in reasons
    reviewed = ok(ad.call("Review", doc=scrubbed))
    assert DenyReason.HISTORY not in {v.reason for v in ad.explain("Publish", doc=reviewed, channel="news")}


def test_history_lineage_ignores_unrelated_calls_but_session_does_not() -> None:
    ad = adapter()
    note = ok(ad.call("Review", doc="note"))
    ok(ad.call("Browse", url="ok.example"))  # unrelated to note's lineage
    ok(ad.call("Publish", doc=note, channel="news"))  # lineage: no Fetch, nothing to review
    assert reason(ad.call("Log", doc=note)) is DenyReason.HISTORY  # session: Browse not followed by Review
    ok(ad.call("Review", doc="anything"))
    ok(ad.call("Log", doc=note))


def test_quota_is_checked_last_and_counts_failed_attempts() -> None:
    calls = {"n": 0}

    def flaky(**kw: JSON) -> JSON:
        calls["n"] += 1
        raise RuntimeError("down")

    t = tools()
    t["Publish"] = flaky
    ad = Adapter(P, t, "bot")  # type: ignore[arg-type]
    doc = ok(ad.call("Review", doc="d"))
    ad.satisfy("legal_ok")
    assert isinstance(ad.call("Publish", doc=doc, channel="press"), Failure)
    assert reason(ad.call("Publish", doc=doc, channel="press")) is DenyReason.QUOTA
    assert calls["n"] == 1
