"""The imperative shell around the monitor core: value handles and the precise adapter
(Agenra Sections 2, 3 and 4.4).

The agent sees only opaque ``Handle`` objects for immutable stored results. ``Adapter.call``
maps each handle argument to its stored value (the concrete argument) and its producing
record (the parent ID), asks the pure core to decide, commits on Allow *before* running the
Python tool, then reports the outcome to the core, which binds slots. Only a successful
result yields a new handle.

Choices where the source is silent:
- The API boundary is process-local object identity, as in the source: a handle is honoured
  only if it is the very object this adapter issued (a look-alike built by the agent fails as
  an unknown handle). This does not isolate arbitrary Python code; it models the boundary.
- Stored results are kept as canonical JSON text and handed out as fresh copies, so a tool or
  the agent mutating a returned value cannot change what later calls see. The store (``values.py``)
  canonicalizes a result once when it enters and composes a call's canonical arguments from the texts
  it holds (that is most of a mediated call's cost); on policies with long permission lists the state's
  usage counters share structure (``counters.py``), so a commit does not copy one counter per grant.
- The monitor state lives in a mutable ``Session`` that only this Adapter changes; ``state`` is its
  public ``State``, built when read and equal to the one the frozen-state path holds (``session.py``).
  A call is admitted by its ``plan`` (``plan.py``) when that proves Allow; every other call is decided
  by ``decide`` on ``state``, so Deny and Pause verdicts, reasons and details come from ``decide`` only.
  ``Adapter(reference=True)`` keeps the frozen-state path (decide, ``commit_in``, ``observe_in`` per
  call): tests/property/test_monitor_fastpath.py checks both give equal results, logs and states.
- ``Adapter(backend=factory)`` takes every decision and next state from a ``DecisionCore`` built by
  ``factory(policy)``: the compiled Lean core (``model.oracle.backend.open_core``: in-process where the
  library was built, else one oracle process), which keeps the state between calls (``state`` is rebuilt
  when read, a state assigned to it is sent to the core); a fault in the core raises from ``call``
  (``LeanBackendError`` for the Lean core), never an Allow. The core's own bounds and route (for the
  Lean process, seconds per exchange and a deadline) are bound in the factory, e.g.
  ``functools.partial(open_core, timeout=..., deadline=...)``. The monitor names no core itself: the
  oracle layer sits above it, so the caller passes the factory (the command maps ``--backend lean`` to
  ``open_core``).
- Any exception a tool raises is its declared failure outcome: the charge stays (Section 2).
- ``handle.at("destination")`` passes one field of a stored result; its producer (parent) is the
  result's record and a missing field is an unknown handle. A permit binds the field path too.
- Literal JSON arguments are allowed; they have no producer, so they add no parent and never
  satisfy an origin rule. A literal holding an integer beyond ±(2^53−1) is refused (``InvalidInput``
  naming the argument) before anything is decided: its canonical text would be another number. A tool
  result holding one fails the call (the tool's failure outcome, its charge kept), for the same reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from model.base.canonical import JSON, canonical_str_exact
from model.base.errors import InputKind, InvalidInput
from model.monitor.adapter.arguments import resolve
from model.monitor.adapter.handles import CallResult, Event, Failure, Handle, Refusal
from model.monitor.adapter.live_state import Row, Session
from model.monitor.adapter.plan import Plan, admit, plan_for
from model.monitor.adapter.values import Member, Store, arguments, parse
from model.monitor.decide.base import Decision, Verdict, decide, explain
from model.monitor.decide.commit import Outcome, commit_in, observe_in
from model.monitor.decide.compiled import Compiled, compiled
from model.monitor.decide.counters import zeros
from model.monitor.decide.flow_review import FlowReview, flow_review
from model.monitor.decide.matching import call_effects
from model.monitor.decide.permits import EvidenceRefused, PermitEvidence
from model.monitor.decide.state import Call, Permit, State, issue_permit, satisfy
from model.monitor.language.policy import Policy

ToolFn = Callable[..., JSON]


class DecisionCore(Protocol):
    """Another implementation of the monitor that holds its state (Agenra §§2.1, 3): the state installed,
    a call decided and on Allow committed before the tool runs (with the committed record's ID), the
    declared outcome processed after it, and the state read back."""

    def load(self, state: State) -> None: ...
    def decide_call(self, call: Call) -> tuple[Verdict, int]: ...
    def record_outcome(self, d: int, outcome: Outcome) -> None: ...
    def snapshot(self) -> State: ...
    def close(self) -> None: ...


CoreFactory = Callable[[Policy], DecisionCore]
_NO_PLAN: Any = object()  # (no entry yet in the compiled policy's plans)

__all__ = ["Adapter", "CallResult", "CoreFactory", "DecisionCore", "Event", "Failure", "Handle", "Refusal", "ToolFn"]


@dataclass
class Adapter:
    policy: Policy
    tools: Mapping[str, ToolFn]
    agent: str
    permit_evidence: PermitEvidence | None = None
    log: list[Event] = field(default_factory=list)
    _values: Store = field(default_factory=Store)
    _handles: dict[int, Handle] = field(default_factory=dict)
    _compiled: Compiled | None = None
    # the reference path: frozen states rebuilt per call, as before the session (``session.py``); the
    # differential test and the benchmark run it next to the fast path
    reference: bool = field(default=False, kw_only=True)
    # "python", or a factory of the core that takes every decision and next state and holds the state
    # (the Lean core of model/oracle/backend.py); a fault there raises, never an Allow
    backend: str | CoreFactory = field(default="python", kw_only=True)
    _core: DecisionCore | None = field(default=None, init=False, repr=False)
    _session: Session | None = field(default=None, init=False, repr=False)
    _snapshot: State | None = field(default=None, init=False, repr=False)
    _own_calls: bool = field(default=True, init=False, repr=False)  # ``_to_call`` is not overridden

    def __post_init__(self) -> None:
        n_user, n_app = len(self.policy.user), len(self.policy.application)
        if isinstance(self.backend, str):
            if self.backend != "python":
                raise InvalidInput("backend", "python, or a DecisionCore factory such as "
                                   "model.oracle.backend.open_core", self.backend, InputKind.VALUE)
        elif callable(self.backend):
            self._core = self.backend(self.policy)  # (its state starts as ``initial_state``)
        else:
            raise InvalidInput("backend", "python, or a DecisionCore factory", repr(self.backend), InputKind.VALUE)
        if self._core is not None:
            pass  # the core holds the state
        elif self.reference:
            # ``initial_state``, with shared counters on long lists (counters.py: a commit then copies no list)
            self._snapshot = State(used_user=zeros(n_user), used_app=zeros(n_app))
        else:
            self._session = Session(n_user, n_app)  # the same state (session.py), built on demand
        self._own_calls = type(self)._to_call is Adapter._to_call

    @property
    def state(self) -> State:
        """The monitor state ``S`` (a frozen snapshot; the session builds it only when asked)."""
        snap = self._snapshot
        if snap is None:
            source: Any = self._core if self._core is not None else self._session  # (both build it on demand)
            snap = self._snapshot = source.snapshot()
        return snap

    @state.setter
    def state(self, value: State) -> None:
        self._snapshot = value
        if self._session is not None:
            self._session.load(value)
        if self._core is not None:
            self._core.load(value)

    # --- the agent's API ----------------------------------------------------------------------

    def call(self, tool: str, /, **args: Handle | JSON) -> CallResult:
        s = self._session
        if s is None:
            return self._call_reference(tool, args)
        c = self._compiled
        if c is None or not c.is_for(self.policy):  # (the policy field may have been reassigned)
            c = self._compiled = compiled(self.policy)
        call: Call | None = None
        if self._own_calls:
            concrete, members, refs, paths = resolve(args, self._handles, self._values)
        else:  # a subclass maps arguments its own way (``DojoAdapter``): take its call
            call, concrete, members = self._to_call(tool, args)
            refs, paths = call.refs, call.ref_paths
        plan: Plan | None = c.plans.get((tool, self.agent), _NO_PLAN)
        if plan is _NO_PLAN:
            plan = plan_for(c, tool, self.agent)
        verdict: Verdict | None = None
        if plan is not None:
            try:
                verdict = admit(plan, s, concrete if call is None else call.args, refs)
            except Exception:  # (e.g. a literal that is not JSON, met while matching): ``decide`` raises it
                verdict = None
        if verdict is None:  # not provably Allow: the decision itself, on the public state
            if call is None:
                call = Call(self.agent, tool, concrete, refs, paths)
            verdict = decide(self.policy, self.state, call)
            if verdict.decision is not Decision.ALLOW:
                self.log.append(Event(tool, concrete, verdict, verdict.decision.value))
                return Refusal(verdict)
        # the record's canonical arguments, and a fresh copy of them for the tool (values.py)
        args_json, tool_args = arguments(members)
        decl = plan.ct.decl if plan is not None else c.tools[tool].decl
        assert verdict.label is not None and verdict.user is not None and verdict.app is not None
        if len(refs) < 2:
            parents: tuple[int, ...] = (refs[0][1],) if refs else ()
        else:  # ``Call.parents``: distinct, by argument name
            distinct: list[int] = []
            for _, p in refs:
                if p not in distinct:
                    distinct.append(p)
            parents = tuple(distinct)
        # charge before the tool runs (commit.commit_in on the session)
        d = s.commit(Row(self.agent, decl, parents, args_json, verdict.label), verdict.user.positions,
                     verdict.app.positions, verdict.permit)
        self._snapshot = None
        stored = self._invoke(tool, tool_args)
        if not isinstance(stored, str):
            self.log.append(Event(tool, concrete, verdict, f"failed: {stored}", d))
            return Failure(d, str(stored))  # (observe of a failure changes nothing)
        # observe reads the value only for a resolver of this tool (``commit.resolves``): parse a fresh
        # copy only then (observe keeps scalars of it only, so the store may keep the parse as its own)
        resolvers = c.resolvers.get(tool)
        if resolvers:
            fresh = parse(stored)
            s.succeed(d, [r for r, text in resolvers if text == args_json], fresh)
        else:
            fresh = None
            s.rows[d].succeeded = True
        self._snapshot = None  # (a tool that read ``state`` while it ran left a snapshot of the charge)
        self._values.put(d, stored, fresh)
        handle = Handle(d)
        self._handles[d] = handle
        self.log.append(Event(tool, concrete, verdict, "ok", d))
        return handle

    def _call_reference(self, tool: str, args: Mapping[str, Handle | JSON]) -> CallResult:
        """``call`` over frozen states: decide, ``commit_in``, the tool, ``observe_in`` (the path the
        session replaced; ``decide`` here is this module's global, which the benchmark may repoint)."""
        call, concrete, members = self._to_call(tool, args)
        core = self._core
        if core is not None:
            verdict, d = core.decide_call(call)  # decided and charged by Lean, on the state it holds
        else:
            verdict = decide(self.policy, self.state, call)
        if verdict.decision is not Decision.ALLOW:
            self.log.append(Event(tool, concrete, verdict, verdict.decision.value))
            return Refusal(verdict)
        args_json, tool_args = arguments(members)
        c = self._compiled
        if c is None or not c.is_for(self.policy):
            c = self._compiled = compiled(self.policy)
        if core is None:
            self.state, rec = commit_in(c, self.state, call, verdict, args_json)  # charge before the tool runs
            d = rec.id
        else:
            self._snapshot = None
        stored = self._invoke(tool, tool_args)
        outcome = Outcome(False) if not isinstance(stored, str) else Outcome(
            True, json.loads(stored) if tool in c.resolvers else None)
        if core is not None:
            core.record_outcome(d, outcome)
        self._snapshot = None if core is not None else observe_in(c, self.state, d, outcome)
        if not isinstance(stored, str):
            self.log.append(Event(tool, concrete, verdict, f"failed: {stored}", d))
            return Failure(d, str(stored))
        self._values.put(d, stored, outcome.value)
        handle = Handle(d)
        self._handles[d] = handle
        self.log.append(Event(tool, concrete, verdict, "ok", d))
        return handle

    def close(self) -> None:
        """Stop the Lean core's process (a core given as ``backend``); nothing to do for the Python backend."""
        if self._core is not None:
            self._core.close()

    def explain(self, tool: str, /, **args: Handle | JSON) -> tuple[Verdict, ...]:
        """Every check this call would fail right now (diagnosis only; changes nothing)."""
        call, _, _ = self._to_call(tool, args)
        return explain(self.policy, self.state, call)

    def value(self, handle: Handle) -> JSON:
        """A fresh copy of the stored result (for the agent to read, never to alter the store)."""
        self._check(handle)
        found = self._values.fresh(handle.id, handle.path)
        if found is None:
            raise KeyError(f"result #{handle.id} has no field {'.'.join(handle.path)}")
        return found[0]

    # --- the application's API (the agent may not call these) ---------------------------------

    def satisfy(self, requirement: str) -> None:
        self._install(satisfy(self.state, requirement))

    def issue_permit(self, tool: str, approval: JSON = None, /, **args: Handle | JSON) -> Permit | EvidenceRefused:
        """Issue an exact-call permit for ``tool(**args)``. With ``permit_evidence`` configured, the
        ``approval`` must be accepted by it first (e.g. a signed single-use approval)."""
        return self._issue(tool, approval, args, review=False)

    def flow_review(self, tool: str, /, **args: Handle | JSON) -> FlowReview:
        """What a reviewer sees of a call a ``flow pause`` rule paused: every argument's value, input label
        and origin chain (an extension beyond Agenra; ``decide/flow_review.py``)."""
        call, _, _ = self._to_call(tool, args)
        return flow_review(self.policy, self.state, call)

    def approve(self, tool: str, approval: JSON = None, /, **args: Handle | JSON) -> Permit | EvidenceRefused:
        """The reviewer approves ``tool(**args)`` as shown by ``flow_review``: an exact-call permit keyed on
        every argument's value and the results it was read from, so a changed value needs a new approval
        (``permit_evidence``, when configured, must accept ``approval`` first, as for ``issue_permit``)."""
        return self._issue(tool, approval, args, review=True)

    def _issue(self, tool: str, approval: JSON, args: Mapping[str, Handle | JSON],
               review: bool) -> Permit | EvidenceRefused:
        call, concrete, _ = self._to_call(tool, args)
        evidence: str | None = None
        if self.permit_evidence is not None:
            decl = self.policy.tool(tool)
            effects = call_effects(decl, concrete) if decl is not None else f"no tool {tool!r}"
            if isinstance(effects, str):
                return EvidenceRefused(effects)
            answer = self.permit_evidence(tool, effects, concrete, approval)
            if isinstance(answer, EvidenceRefused):
                return answer
            evidence = answer.digest
        new, permit = issue_permit(self.state, tool, call.review_identity() if review else call.identity(), evidence)
        self._install(new)
        return permit

    # --- internals -----------------------------------------------------------------------------

    def _invoke(self, tool: str, tool_args: dict[str, JSON]) -> str | Exception:
        """Run the admitted tool: the canonical text of its result, or the exception that is its failure."""
        fn = self.tools.get(tool)
        try:
            if fn is None:
                raise LookupError(f"no Python tool registered for {tool}")
            # a result canonical JSON would round (an integer beyond ±(2^53−1)) fails the call, as one that
            # is not JSON does: later calls would otherwise pass on another number than the tool gave
            return canonical_str_exact(fn(**tool_args), f"{tool}'s result")
        except Exception as exc:  # any exception a tool raises is its declared failure outcome
            return exc

    def _install(self, new: State) -> None:
        """``new``, which differs from the current state in ``satisfied`` or ``permits`` only."""
        self._snapshot = new
        if self._session is not None:
            self._session.satisfied, self._session.permits = new.satisfied, new.permits
        if self._core is not None:
            self._core.load(new)

    def _check(self, handle: Handle) -> None:
        if not self._issued(handle):
            raise KeyError("not a handle issued by this adapter")

    def _to_call(self, tool: str, args: Mapping[str, Handle | JSON]) -> tuple[Call, dict[str, JSON],
                                                                             dict[str, Member]]:
        """The call, its concrete arguments (fresh copies: they go to the log) and, per argument, the
        value with its canonical text when the store knows it (``values.arguments`` needs them)."""
        concrete, members, refs, paths = resolve(args, self._handles, self._values)
        return Call(self.agent, tool, concrete, refs, paths), concrete, members

    def _issued(self, handle: Handle) -> bool:
        return self._handles.get(handle.id) is handle._base
