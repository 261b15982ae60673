"""Silent wrong answers from Python's ``True == 1 == 1.0`` (and ``False == 0``) where RFC 8785 equality
(``model.base.canonical.json_equal``) tells the values apart: one failing input per bug found, each failing
without its fix."""

from __future__ import annotations

from model.monitor.language.syntax import parse_policy
from model.revision.certify.agreement import Disagree, agree
from model.revision.effects import EVERY_EFFECT
from model.revision.smt.enumerate import disagreement, domain_for

_HEADER = """policy p
levels Public < Internal
node a: source (Public, {}, trusted)
node b: sink (Public, {}, trusted)
edge Send: a -> b inherit
agent x {operations: {Send}, ceiling: Internal}
tool Send {endpoints: a -> b, SEND}
flow allow * -> b
"""


def _header(arg: str = "") -> str:
    """The policy head; Send's resource is argument ``arg``, or both ``to`` and ``cc`` when none is named."""
    send = f"args: {{{arg}}}, required: {{{arg}}}, effects: [message.send({arg})]" if arg else \
        "args: {to, cc}, required: {to, cc}, effects: [message.send(to), message.send(cc)]"
    return _HEADER.replace("SEND", send)


def test_explicit_revision_engine_keeps_send_true_next_to_send_1() -> None:
    # The only effect the first grant matches and the second does not is send(true) from ``cc`` on a call
    # with ``to: 1``, whose other effect is send(1): deduplicating the call's effects with Python equality
    # dropped send(true), so the explicit engine answered "no disagreement" where the symbolic one found it.
    p = parse_policy(_header() + """user {
  allow message.send(true) where to == 1
  allow message.send(true) where to == 1 and cc == 1
}
""")
    a, b = p.user
    symbolic = agree(a, b, EVERY_EFFECT, p.tools)
    assert isinstance(symbolic, Disagree) and symbolic.witness.resource is True
    w = disagreement(a, b, EVERY_EFFECT, p.tools, domain_for((a, b)))
    assert w is not None and w.resource is True and w.args == {"to": 1, "cc": True}


_PERMIT_POLICY = _header("recipient") + """user {
  allow message.send(*) quota unlimited permit
}
application {
  allow message.send(*) quota unlimited
}
"""


def test_an_approval_for_resource_1_backs_no_permit_for_the_number_1() -> None:
    # An approval's resourceId is a string. Read as the canonical text of the resource, the approval signed
    # for the string resource "1" backed a permit for the number 1 (and "true" for true): the approver's
    # resource and the call's were different JSON values.
    from model.admission.decision.nonces import SqliteNonceStore
    from model.monitor.adapter.shell import Adapter, Handle
    from model.monitor.decide.permits import EvidenceRefused, signed_approval_evidence
    from model.monitor.decide.state import Permit
    from tests.unit.test_monitor_permits import NOW, REGISTRY, approval

    def adapter() -> Adapter:
        evidence = signed_approval_evidence(REGISTRY, SqliteNonceStore(), clock=lambda: NOW)
        return Adapter(parse_policy(_PERMIT_POLICY), {"Send": lambda **_: {}}, "x", permit_evidence=evidence)

    for resource, text in ((1, "1"), (True, "true"), (1.5, "1.5")):
        ad = adapter()
        refused = ad.issue_permit("Send", approval(resource=text, nonce=f"n-{text}"), recipient=resource)
        assert isinstance(refused, EvidenceRefused) and "string" in refused.reason
        assert not isinstance(ad.call("Send", recipient=resource), Handle)
    ad = adapter()  # the string resource the approval names is still approved
    assert isinstance(ad.issue_permit("Send", approval(resource="1", nonce="n-s"), recipient="1"), Permit)
    assert isinstance(ad.call("Send", recipient="1"), Handle)


def test_an_integer_literal_beyond_double_precision_is_refused_not_rounded() -> None:
    # Canonical JSON reads 2**53 + 1 as the nearest double, 2**53: the Adapter recorded and handed the tool
    # 9007199254740992 for the agent's 9007199254740993 (and a permit for one bound the other).
    import pytest

    from model.base.errors import InvalidInput
    from model.monitor.adapter.shell import Adapter, Handle

    p = parse_policy(_PERMIT_POLICY.replace("quota unlimited permit", "quota unlimited")
                     .replace("args: {recipient}", "args: {recipient, amount}"))
    for reference in (False, True):
        got: list[dict[str, object]] = []

        def send(got: list[dict[str, object]] = got, **a: object) -> object:
            got.append(a)
            return {}

        ad = Adapter(p, {"Send": send}, "x", reference=reference)
        for bad in (2**53 + 1, -(2**53) - 7, 2**70, [1, 2**53 + 1], {"n": 2**64}):
            with pytest.raises(InvalidInput) as exc:
                ad.call("Send", recipient="r", amount=bad)
            assert "amount" in str(exc.value)
            with pytest.raises(InvalidInput):
                ad.issue_permit("Send", None, recipient="r", amount=bad)
        assert got == [] and ad.state.trace == () and ad.state.permits == ()
        assert isinstance(ad.call("Send", recipient="r", amount=2**53 - 1), Handle)
        assert got[-1]["amount"] == 2**53 - 1


def test_the_derived_workload_calls_with_true_as_well_as_1() -> None:
    # The derived client model collected the constants the grants name and deduplicated them with ``in``:
    # ``true`` was dropped after ``1``, so removing the grant on ``true`` lost a client the bounded search
    # could not see ("Unknown ... no lost client among 1 sequences" instead of the lost Send(to=true)).
    from model.revision.explore.derive_workload import derive
    from model.revision.report import NotPreserved
    from model.revision.revise import revise

    header = _header("to") + "application {\n  allow message.send(*) quota unlimited\n}\n"
    old = parse_policy(header + "user {\n  allow message.send(1) quota 1\n  allow message.send(true) quota 1\n}\n")
    new = parse_policy(header + "user {\n  allow message.send(1) quota 1\n}\n")
    wl = derive(old, new)
    assert [t.name for t in wl.templates] == ["Send(to=1)", "Send(to=true)"]
    report = revise(old, new, EVERY_EFFECT, wl, 3)
    assert isinstance(report.preservation, NotPreserved)
    assert report.preservation.lost.names == ("Send(to=true)",)


def test_a_permit_for_amount_1_does_not_admit_amount_true() -> None:
    # (a suspect that holds: permits bind canonical JSON texts, so 1 and 1.0 share one, true does not)
    from model.monitor.adapter.shell import Adapter, Handle, Refusal
    from model.monitor.decide.base import DenyReason
    from model.monitor.decide.state import Permit

    p = parse_policy(_PERMIT_POLICY.replace("args: {recipient}", "args: {recipient, amount}"))
    ad = Adapter(p, {"Send": lambda **_: {}}, "x")
    assert isinstance(ad.issue_permit("Send", None, recipient="r", amount=1), Permit)
    for other in (True, "1", [1]):
        refused = ad.call("Send", recipient="r", amount=other)
        assert isinstance(refused, Refusal) and refused.verdict.reason is DenyReason.PERMIT_MISMATCH
    assert isinstance(ad.call("Send", recipient="r", amount=1.0), Handle)


def test_a_tool_result_beyond_double_precision_fails_the_call_instead_of_being_rounded() -> None:
    # The Adapter canonicalized a tool's result, so 2**53 + 1 was stored, and later handed on through its
    # handle, as 9007199254740992: the call now fails with the place named, on both paths.
    from model.monitor.adapter.shell import Adapter, Failure, Handle

    p = parse_policy(_PERMIT_POLICY.replace("quota unlimited permit", "quota unlimited")
                     .replace("args: {recipient}", "args: {recipient, amount}"))
    for reference in (False, True):
        answer: list[object] = [{"id": 2**53 + 1}]
        ad = Adapter(p, {"Send": lambda answer=answer, **_: answer[0]}, "x", reference=reference)
        got = ad.call("Send", recipient="r", amount=1)
        assert isinstance(got, Failure), got
        assert "Send's result at $.id" in got.error and "9007199254740993" in got.error
        assert len(ad.state.trace) == 1 and not ad.state.trace[0].succeeded  # charged, failed
        answer[0] = {"id": 2**53 - 1, "x": 0.5}
        ok = ad.call("Send", recipient="r", amount=1)
        assert isinstance(ok, Handle) and ad.value(ok) == {"id": 2**53 - 1, "x": 0.5}


def test_a_request_body_beyond_double_precision_is_refused() -> None:
    import pytest

    from model.admission.resumable.envelope import Identity, Request
    from model.base.errors import InvalidInput

    ident = Identity("tenant", "alice", "key-1", "POST", "/pay")
    with pytest.raises(InvalidInput) as exc:
        Request.of(ident, {"amount": 2**53 + 1})
    assert "$.amount" in str(exc.value) and "9007199254740993" in str(exc.value)
    assert Request.of(ident, {"amount": 2**53 - 1}).body == {"amount": 2**53 - 1}


def test_library_calls_beyond_double_precision_are_refused_not_recorded_rounded() -> None:
    # ``step`` on a ``Call`` built by a library caller canonicalized its arguments for the record, and
    # ``Call.identity`` (what a permit binds) did too: 2**53 + 1 became 9007199254740992 in both.
    import pytest

    from model.base.errors import InvalidInput
    from model.monitor.decide.commit import Outcome, step
    from model.monitor.decide.state import Call, initial_state

    p = parse_policy(_PERMIT_POLICY.replace("quota unlimited permit", "quota unlimited")
                     .replace("args: {recipient}", "args: {recipient, amount}"))
    big = Call("x", "Send", {"recipient": "r", "amount": 2**53 + 1})
    with pytest.raises(InvalidInput) as exc:
        step(p, initial_state(len(p.user), len(p.application)), big, Outcome(True, {}))
    assert "9007199254740993" in str(exc.value)
    with pytest.raises(InvalidInput) as exc:
        big.identity()
    assert "argument amount" in str(exc.value)
    fine = Call("x", "Send", {"recipient": "r", "amount": 2**53 - 1})
    _, after = step(p, initial_state(len(p.user), len(p.application)), fine, Outcome(True, {}))
    assert after.trace[0].args_json == '{"amount":9007199254740991,"recipient":"r"}'
    assert fine.identity()[0] == ("amount", ("v", "9007199254740991"))
