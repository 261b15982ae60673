"""The Adapter's fast path equals its reference path (the fast path is only a
speed-up): ``Adapter`` (a mutable session state,
call plans that prove Allow, ``session.py`` and ``plan.py``) and ``Adapter(reference=True)`` (frozen states
rebuilt per call through ``decide``/``commit_in``/``observe_in``), driven with the same calls, return the
same results, log the same events (arguments, verdicts with reasons, details, effects, labels and
allocations, outcomes) and hold the same public state (compared as ``State`` snapshots, counters of the
same type), whether or not the state was read between calls.

Two workloads: generated policies and runs (``model.oracle.generators.monitor_runs``, with exact-call permits
put back on some grants, requirements satisfied and permits issued between calls, scripted outcomes so
tools fail at will); and the report task's policies on the reference tools (real handles and field
handles, quotas on both lists, permits, a directory that answers with conflicting or malformed records
or fails, failing sends, non-JSON literals, and a padded variant whose long lists use shared counters).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Handle, Refusal
from model.monitor.adapter.toolkit import FAIL, ReportWorld, ToolFailure
from model.monitor.decide.commit import Outcome
from model.monitor.decide.state import Call
from model.monitor.language import policy as P
from model.oracle.generators import exactly as _exactly
from model.oracle.generators import monitor_runs

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _same(fast: Adapter, ref: Adapter, rf: object, rr: object, look: bool) -> None:
    assert type(rf) is type(rr)
    event(type(rf).__name__)
    if isinstance(rf, Handle):
        assert isinstance(rr, Handle) and rf.id == rr.id
        assert _exactly(fast.value(rf), ref.value(rr))
    elif isinstance(rf, Refusal):
        assert isinstance(rr, Refusal) and _exactly(rf.verdict, rr.verdict)
        event(f"refused: {rf.verdict.reason or rf.verdict.decision}")
    else:
        assert _exactly(rf, rr)
    assert _exactly(fast.log, ref.log)
    if look:
        _same_state(fast, ref)


def _same_state(fast: Adapter, ref: Adapter) -> None:
    a, b = fast.state, ref.state
    assert _exactly(a, b)
    assert type(a.used_user) is type(b.used_user) and type(a.used_app) is type(b.used_app)
    assert [r.succeeded for r in a.trace] == [r.succeeded for r in b.trace]


def _both(fast: Adapter, ref: Adapter, act: Callable[[Adapter], object], look: bool) -> object:
    """Run ``act`` on both adapters; equal results, or the same exception, and equal states after."""
    out: list[tuple[str, object]] = []
    for ad in (fast, ref):
        try:
            out.append(("ok", act(ad)))
        except Exception as exc:  # e.g. a literal that is not JSON: the same error from both paths
            out.append(("raised", f"{type(exc).__name__}: {exc}"))
    (kf, rf), (kr, rr) = out
    assert kf == kr
    if kf == "raised":
        event("raised")
        assert rf == rr
        _same_state(fast, ref)
    else:
        _same(fast, ref, rf, rr, look)
    return rf


# --- generated policies and runs -----------------------------------------------------------------


class _Scripted:
    """Tools that return (or fail with) the outcome set for the current step."""

    def __init__(self) -> None:
        self.outcome = Outcome(True, None)

    def tool(self, **_: JSON) -> JSON:
        if not self.outcome.ok:
            raise ToolFailure("scripted failure")
        return self.outcome.value


def _args(ad: Adapter, call: Call) -> dict[str, Any]:
    refs = dict(call.refs)
    out: dict[str, Any] = {}
    for name, value in call.args.items():
        if name in refs:  # the handle the adapter issued for that record, or a forged one
            d = refs[name]
            out[name] = ad._handles.get(d, Handle(d))
        else:
            out[name] = value
    return out


@SETTINGS
@given(run=monitor_runs(max_calls=8), data=st.data())
def test_generated_runs(run: tuple[Any, ...], data: st.DataObject) -> None:
    policy, satisfied, calls = run
    permits = data.draw(st.booleans())
    if permits:  # put exact-call permits back on some allows (monitor_runs keeps the closed core)
        flip = data.draw(st.lists(st.booleans(), min_size=len(policy.user) + len(policy.application),
                                  max_size=len(policy.user) + len(policy.application)))
        entries = [replace(e, permit=f and e.kind is P.EntryKind.ALLOW)
                   for e, f in zip((*policy.user, *policy.application), flip, strict=True)]
        policy = replace(policy, user=tuple(entries[:len(policy.user)]), application=tuple(entries[len(policy.user):]))
    script = _Scripted()
    tools = {t.name: script.tool for t in policy.tools}
    fast, ref = Adapter(policy, tools, "drt"), Adapter(policy, tools, "drt", reference=True)
    requirements = sorted(policy.requirements)
    for r in satisfied:
        _both(fast, ref, lambda ad, r=r: ad.satisfy(r), True)
    for call, outcome in calls:
        if requirements and data.draw(st.integers(0, 5)) == 0:
            r = data.draw(st.sampled_from(requirements))
            _both(fast, ref, lambda ad, r=r: ad.satisfy(r), True)
        if permits and data.draw(st.integers(0, 2)) == 0:  # a permit for this call (or, by its args, another)
            _both(fast, ref, lambda ad, call=call: ad.issue_permit(call.tool, None, **_args(ad, call)), True)
        script.outcome = outcome
        fast.agent = ref.agent = call.agent
        _both(fast, ref, lambda ad, call=call: ad.call(call.tool, **_args(ad, call)), data.draw(st.booleans()))
    _same_state(fast, ref)


# --- the report task on the reference tools ------------------------------------------------------


def _padded(policy: P.Policy, n: int) -> P.Policy:
    """Grants ahead of the policy's own on both lists (long lists: shared counters in the snapshot)."""
    pad = tuple(P.Entry(P.EntryKind.ALLOW, "directory.lookup", P.ConstPat(f"person{i}"), quota=1) for i in range(n))
    return replace(policy, user=(*pad, *policy.user), application=(*pad, *policy.application))


def _unlimited(policy: P.Policy) -> P.Policy:
    return replace(policy, user=tuple(replace(e, quota=None) for e in policy.user),
                   application=tuple(replace(e, quota=None) for e in policy.application))


POLICIES = {name: load(name) for name in ("report", "report_chained", "report_permit")}
ANSWERS: list[JSON] = ["alice@example.org", "mallory@evil.example", {"destination": {"x": 1}}, FAIL]
STEPS = st.lists(st.tuples(st.sampled_from(["Read", "Other", "Sanitize", "Edit", "Lookup", "Send", "permit",
                                            "deliver", "deliver", "look"]), st.integers(0, 9), st.integers(0, 9)),
                 max_size=14)


@settings(SETTINGS, max_examples=150)
@given(name=st.sampled_from(sorted(POLICIES)), variant=st.sampled_from(["as is", "unlimited", "padded"]),
       script=st.lists(st.sampled_from([ANSWERS[0]] * 3 + ANSWERS), min_size=1, max_size=3),
       send_failures=st.integers(0, 1), cooperative=st.sampled_from([True, True, False]), steps=STEPS)
def test_report_task(name: str, variant: str, script: list[JSON], send_failures: int, cooperative: bool,
                     steps: list[tuple[str, int, int]]) -> None:
    policy = POLICIES[name]
    policy = _unlimited(policy) if variant == "unlimited" else _padded(policy, 70) if variant == "padded" else policy
    worlds = [ReportWorld(directory={"Alice": list(script)}, send_failures=send_failures) for _ in range(2)]
    fast = Adapter(policy, worlds[0].tools(), "assistant")
    ref = Adapter(policy, worlds[1].tools(), "assistant", reference=True)

    by_tool: dict[int, dict[str, Handle]] = {id(fast): {}, id(ref): {}}  # each adapter's latest handle per tool

    def held(ad: Adapter, i: int) -> Handle | str:
        hs = list(ad._handles.values())
        return hs[i % len(hs)] if hs else "no handle"

    def latest(ad: Adapter, *tools: str) -> Handle | str:
        found = [h for t, h in by_tool[id(ad)].items() if t in tools]
        return max(found, key=lambda h: h.id) if found else "no handle"

    if cooperative:  # the task's own start, so that later sends can be admitted
        steps = [("Read", 0, 0), ("Sanitize", 0, 0), ("Lookup", 0, 0), *steps]
    for kind, i, j in steps:
        def act(ad: Adapter, kind: str = kind, i: int = i, j: int = j) -> object:
            if kind == "Read":
                return ad.call("Read")
            if kind == "Other":
                return ad.call("Other", query="q")
            if kind == "Sanitize":
                return ad.call("Sanitize", record=held(ad, i))
            if kind == "Edit":
                changes: JSON = math.nan if j == 9 else {"title": "edited"} if j % 2 else {}
                return ad.call("Edit", record=held(ad, i), changes=changes)
            if kind == "Lookup":
                return ad.call("Lookup", name="Alice" if j < 8 else "Mallory")
            if kind == "deliver":  # the task's own send: the latest summary (or edit) to the latest lookup
                body, to = latest(ad, "Sanitize", "Edit"), latest(ad, "Lookup")
                if j == 0:  # (and now and then its permit first)
                    recipient0 = to.at("destination") if isinstance(to, Handle) else "alice@example.org"
                    ad.issue_permit("Send", None, body=body, recipient=recipient0)
            else:
                body, to = held(ad, i), held(ad, j)
            recipient: Handle | JSON = to.at("destination") if isinstance(to, Handle) and j < 7 else "alice@example.org"
            if kind == "deliver" and isinstance(to, Handle):
                recipient = to.at("destination")
            if kind == "permit":
                return ad.issue_permit("Send", None, body=body, recipient=recipient)
            return ad.call("Send", body=body, recipient=recipient)

        def recorded(ad: Adapter, act: Callable[[Adapter], object] = act, kind: str = kind) -> object:
            result = act(ad)
            if isinstance(result, Handle):
                by_tool[id(ad)][kind] = result
            return result

        if kind == "look":
            _same_state(fast, ref)
            continue
        result = _both(fast, ref, recorded, i % 2 == 0)
        if kind in ("Send", "deliver"):
            event(f"{name} Send: {type(result).__name__} {getattr(getattr(result, 'verdict', None), 'reason', '')}")
    assert worlds[0].mailbox == worlds[1].mailbox
    _same_state(fast, ref)


def test_the_report_workflow_is_admitted_without_decide(monkeypatch: Any) -> None:
    """The plans prove Allow for each call of the task on the report policy (so the tests above compare the
    fast path itself, not only its fallback): ``decide`` is never asked."""
    import model.monitor.adapter.shell as adapter_module

    def refuse(*_: object) -> None:
        raise AssertionError("decide was asked")

    for policy in (POLICIES["report"], _unlimited(POLICIES["report"]), _padded(POLICIES["report"], 70)):
        monkeypatch.setattr(adapter_module, "decide", refuse)
        ad = Adapter(policy, ReportWorld().tools(), "assistant")
        s = ad.call("Sanitize", record=ad.call("Read"))
        a = ad.call("Lookup", name="Alice")
        assert isinstance(s, Handle) and isinstance(a, Handle)
        assert isinstance(ad.call("Send", body=s, recipient=a.at("destination")), Handle)
        monkeypatch.undo()
        ref = Adapter(policy, ReportWorld().tools(), "assistant", reference=True)
        s = ref.call("Sanitize", record=ref.call("Read"))
        a = ref.call("Lookup", name="Alice")
        assert isinstance(s, Handle) and isinstance(a, Handle)
        ref.call("Send", body=s, recipient=a.at("destination"))
        assert ad.log == ref.log and ad.state == ref.state


# --- commit.bind: its one-resolver case against the general loop ---------------------------------
# Applying a resolver twice is applying it once (the second finds the slot invalid, or bound to the same
# value), and two applicable resolvers take ``bind``'s general loop: so ``[r, r]`` is the oracle for ``[r]``.


_SLOTS = st.sampled_from(["a", "b"])
_ADDR = st.sampled_from(["x@y", "z@y", "", 1, 1.0, True, None])


@settings(max_examples=300, deadline=None)
@given(bound=st.lists(st.tuples(_SLOTS, _ADDR, st.integers(0, 3)), max_size=2, unique_by=lambda b: b[0]),
       invalid=st.frozensets(_SLOTS), slot=_SLOTS,
       value=st.dictionaries(st.sampled_from(["destination", "other"]), _ADDR | st.dictionaries(
           st.just("x"), _ADDR, max_size=1), max_size=2), path=st.sampled_from(["destination", "destination.x"]))
def test_bind_equals_the_general_loop(bound: list[tuple[str, JSON, int]], invalid: frozenset[str],
                                      slot: str, value: JSON, path: str) -> None:
    from model.monitor.decide.commit import bind

    bindings = tuple(sorted(bound))
    res = P.Resolver(slot, "Lookup", (), path)
    fast = bind(bindings, invalid, [res], value, 4)
    general = bind(bindings, invalid, [res, res], value, 4)
    assert fast == general
    assert [tuple(map(type, b)) for b in fast[0]] == [tuple(map(type, b)) for b in general[0]]  # (1, 1.0, true)
