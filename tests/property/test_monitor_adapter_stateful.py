"""Stateful test of the imperative shell (Agenra §§2.1, 3, 6): an agent driving the Adapter with any
mix of calls over the report tools, including hostile ones, under a directory that may answer with
conflicting or malformed records or fail. After every step: refused calls never reached a tool,
charges never decrease and are never refunded, handles exist only for successful results, mail
goes only to the bound address with a Sanitize-produced body, and the state is well formed."""

from __future__ import annotations

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, MultipleResults, RuleBasedStateMachine, initialize, invariant, multiple, rule

from model.base.canonical import JSON
from model.monitor.adapter.report_task import load
from model.monitor.adapter.shell import Adapter, Failure, Handle, Refusal
from model.monitor.adapter.toolkit import FAIL, ReportWorld
from model.monitor.decide.wellformed import violations

POLICY = load("report_chained")
ADDRESSES = ["alice@example.org", "mallory@evil.example"]
ANSWERS: list[JSON] = [*ADDRESSES, {"destination": {"x": 1}}, {"name": "no destination"}, FAIL]


class AdapterMachine(RuleBasedStateMachine):
    handles = Bundle("handles")

    @initialize(script=st.lists(st.sampled_from([ADDRESSES[0], *ANSWERS]), min_size=1, max_size=4),
                send_failures=st.integers(0, 1))
    def start(self, script: list[JSON], send_failures: int) -> None:
        self.world = ReportWorld(directory={"Alice": script}, send_failures=send_failures)
        self.invocations = 0
        tools = {name: self._counting(fn) for name, fn in self.world.tools().items()}
        self.adapter = Adapter(POLICY, tools, "assistant")
        self.last_used = (self.adapter.state.used_user, self.adapter.state.used_app)

    def _counting(self, fn):  # type: ignore[no-untyped-def]
        def wrapped(**kw: JSON) -> JSON:
            self.invocations += 1
            return fn(**kw)
        return wrapped

    def _held(self, tool: str, **args: Handle | JSON) -> MultipleResults[Handle]:
        """Call, and hold the result only if it is a handle (the agent never holds anything else)."""
        result = self._call(tool, **args)
        event(f"{tool}: {type(result).__name__}")
        return multiple(result) if isinstance(result, Handle) else multiple()

    def _call(self, tool: str, **args: Handle | JSON) -> Handle | Refusal | Failure:
        before = self.invocations
        result = self.adapter.call(tool, **args)
        if isinstance(result, Refusal):
            assert self.invocations == before, "a refused call reached its tool"
        else:
            assert self.invocations == before + 1
        return result

    @rule(target=handles)
    def read(self) -> MultipleResults[Handle]:
        return self._held("Read")

    @rule(target=handles, q=st.text(max_size=3))
    def other(self, q: str) -> MultipleResults[Handle]:
        return self._held("Other", query=q)

    @rule(target=handles, h=handles)
    def sanitize(self, h: Handle) -> MultipleResults[Handle]:
        return self._held("Sanitize", record=h)

    @rule(target=handles, name=st.sampled_from(["Alice", "Alice", "Mallory"]))
    def lookup(self, name: str) -> MultipleResults[Handle]:
        return self._held("Lookup", name=name)

    @rule(how=st.sampled_from(["field", "literal"]))
    def deliver(self, how: str) -> None:
        """The task's own send: the latest summary to the latest lookup (a cooperative agent)."""
        summaries = [h for h in self._issued() if self.adapter.state.trace[h.id].tool == "Sanitize"]
        lookups = [h for h in self._issued() if self.adapter.state.trace[h.id].tool == "Lookup"]
        if summaries and lookups:
            self.send(summaries[-1], lookups[-1], ADDRESSES[0], how)

    def _issued(self) -> list[Handle]:
        return list(self.adapter._handles.values())

    @rule(body=handles, to=handles, literal=st.sampled_from(ADDRESSES), how=st.sampled_from(["field", "literal",
                                                                                             "raw"]))
    def send(self, body: Handle, to: Handle, literal: str, how: str) -> None:
        recipient: Handle | JSON = to.at("destination") if how == "field" else literal
        mail_before = {k: len(v) for k, v in self.world.mailbox.items()}
        result = self._call("Send", body=body if how != "raw" else "raw text", recipient=recipient)
        event(f"send: {type(result).__name__} {getattr(getattr(result, 'verdict', None), 'reason', '')}")
        if isinstance(result, Handle):
            bound = self.adapter.state.binding("target")
            delivered = [k for k, v in self.world.mailbox.items() if len(v) > mail_before.get(k, 0)]
            assert delivered == [bound], "mail went somewhere other than the bound address"
            rec = self.adapter.state.trace[body.id]
            assert rec.tool == "Sanitize" and rec.succeeded

    @invariant()
    def charges_never_decrease_and_state_is_well_formed(self) -> None:
        if not hasattr(self, "adapter"):
            return
        used = (self.adapter.state.used_user, self.adapter.state.used_app)
        for old, new in zip(self.last_used, used, strict=True):
            assert all(n >= o for o, n in zip(old, new, strict=True))
        self.last_used = used
        assert violations(self.adapter.policy, self.adapter.state) == ()
        assert sum(len(v) for v in self.world.mailbox.values()) <= 1, "the report policy sends at most once"

    @invariant()
    def handles_only_for_successful_results(self) -> None:
        if not hasattr(self, "adapter"):
            return
        for d in self.adapter._handles:
            assert self.adapter.state.trace[d].succeeded


AdapterMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=30, deadline=None)
TestAdapter = AdapterMachine.TestCase
