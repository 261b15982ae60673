"""The Lean enforcement backend: decisions and next states computed by the compiled Lean core
(Agenra Sections 2.1 and 3, "on both backends").

Two routes to the same Lean functions (``decideFull``, ``commit``, ``observe`` of
lean/AgentWarrant/Spec/Monitor/Transition.lean):

- :class:`InProcCore` (the default where ``make lean`` built the library): the core linked into this
  process (model/oracle/inproc.py). The policy is parsed once into a Lean value and the monitor state
  stays a Lean value between calls, replaced in place by each decision; a call crosses as a positional
  JSON array and the verdict comes back as a positional text with the committed record's ID. The
  Python ``State`` is rebuilt from Lean's only when read (:meth:`snapshot`), and a state the caller
  installs (:meth:`load`) is sent whole once (the same ``State`` object installed again reuses its
  Lean value: both are immutable).
- :class:`LeanCore`: one oracle process (lean/build/bin/AgentWarrant) asked the two halves of a
  mediated call, ``monitor_decide`` (``D(S, c)`` and, on Allow, the commit, before the tool runs) and
  ``monitor_observe``, with the whole state sent each time as in model/oracle/monitor_full_json.py.
  The fallback where no library was built; a crash in it cannot take the Python process down.

Both rebuild a ``Verdict`` and a ``State`` from Lean's JSON the same way (labels from ranks and
category vectors, records' arguments in canonical text, permits' identities and evidence carried over
from the state sent, their ``consumed`` flags taken from Lean). A fault — the process dead, the
library missing, altered (checksum) or panicking, an answer that is not JSON, an error response, a
reply with another shape or record ID, no answer within the exchange's timeout or the caller's
deadline — raises ``LeanBackendError``; it is never read as a
decision, so it can never become an Allow. :func:`open_core` picks the route: the library when one
was built (a library that fails its checksum or load is an error, not a reason to fall back), else
the process; ``$AGENTWARRANT_LEAN_ROUTE`` (``inproc`` or ``subprocess``) forces one.
A Lean verdict carries no ``detail`` text; its ``effects`` are the Python model's effect units of the
call (what a permit-evidence check reads), not recomputed in Lean.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from model.base.canonical import JSON, canonical_str_exact
from model.base.errors import InputKind, InvalidInput
from model.monitor.adapter.shell import DecisionCore
from model.monitor.decide.base import Decision, DenyReason, Verdict
from model.monitor.decide.commit import Outcome
from model.monitor.decide.ledger import Allocation
from model.monitor.decide.matching import call_effects
from model.monitor.decide.state import Call, Permit, Record, State, initial_state
from model.monitor.language.labels import Label
from model.monitor.language.policy import Policy
from model.monitor.language.policy_json import policy_to_json
from model.oracle.inproc import LeanValue, Library, LibraryError, StateSlot, available, load
from model.oracle.lean import LeanOracle, OracleError, one_line
from model.oracle.monitor_full_json import call_json, encode, state_json

# ``encode``'s text (monitor_full_json.py) from one encoder: ``json.dumps`` with options builds a new one per call
_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode


class LeanBackendError(Exception):
    """The Lean backend could not decide (process fault or malformed answer): never an Allow."""


def _label(policy: Policy, doc: Mapping[str, Any]) -> Label:
    cats = sorted(policy.categories)
    return Label(policy.levels.order[doc["sens"]], frozenset(c for c, on in zip(cats, doc["cats"], strict=True) if on),
                 bool(doc["trusted"]))


def _state(policy: Policy, sent: State, doc: Mapping[str, Any]) -> State:
    trace = tuple(Record(i, r["agent"], r["tool"], r["operation"], r["source"], r["destination"],
                         tuple(r["parents"]), canonical_str_exact(r["args"], "a record's arguments"),
                         _label(policy, r["label"]), bool(r["succeeded"])) for i, r in enumerate(doc["trace"]))
    consumed = {p["id"]: bool(p["consumed"]) for p in doc["permits"]}
    permits = tuple(Permit(p.id, p.tool, p.identity, consumed[p.id], p.evidence) for p in sent.permits)
    return State(trace, tuple((b["slot"], b["value"], b["id"]) for b in doc["bindings"]), frozenset(doc["invalid"]),
                 tuple(doc["used_user"]), tuple(doc["used_app"]), frozenset(doc["satisfied"]), permits)


def _verdict(policy: Policy, call: Call, doc: Mapping[str, Any]) -> Verdict:
    decision = Decision(doc["decision"])
    if decision is Decision.DENY:
        return Verdict(decision, DenyReason(doc["reason"]), "decided by the Lean core")
    if decision is Decision.PAUSE:
        waiting = frozenset(doc["waiting"])
        return Verdict(decision, None, f"waiting for {', '.join(sorted(waiting))}", waiting_for=waiting)
    tool = policy.tool(call.tool)
    effects = call_effects(tool, call.args) if tool is not None else ()
    user = Allocation(tuple(doc["user"]), len(policy.user))
    app = Allocation(tuple(doc["app"]), len(policy.application))
    return Verdict(decision, None, "", effects if isinstance(effects, tuple) else (), _label(policy, doc["label"]),
                   user, app, permit=doc["permit"])


def _answer(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LeanBackendError(f"the Lean core's answer to {what} is not JSON: {text[:200]!r}") from exc


class InProcCore:
    """The Lean core in this process (model/oracle/inproc.py), the state kept in Lean: a
    :class:`~model.oracle.inproc.StateSlot` that each decision and outcome replaces in place.

    A call crosses as the positional JSON array ``[agent, tool, args, refs, ref_paths]`` and the verdict
    comes back as InProc.lean's positional text (:meth:`_read`), which is read without a JSON parse on
    Allow; the labels, allocations and permit of an Allow are built once per distinct answer, and a Deny
    or Pause verdict once per distinct answer (verdicts are immutable). Choice: once the core answered
    something this class cannot read, after Lean may already have moved its state, the core refuses
    every later call (``LeanBackendError``) instead of guessing which state it holds."""

    _CACHE = 4096  # distinct answers remembered (a long session with many permits could make more)

    def __init__(self, policy: Policy, library: Path | None = None) -> None:
        self.policy = policy
        try:
            self._lib: Library = load(library)
            self._policy: LeanValue = self._lib.policy(encode(policy_to_json(policy)))
        except LibraryError as exc:
            raise LeanBackendError(str(exc)) from exc
        self._tools = {t.name: t for t in policy.tools}
        self._cats = sorted(policy.categories)
        self._answers: dict[str, Any] = {}  # an answer's body -> its Verdict (Deny, Pause) or Allow's parts
        self._broken = ""
        self._slot = StateSlot(self._lib)
        self._loaded: tuple[State, LeanValue] | None = None  # the last state sent, and its Lean value
        self.load(initial_state(len(policy.user), len(policy.application)))

    def load(self, state: State) -> None:
        cached = self._loaded
        if cached is None or cached[0] is not state:  # (both immutable: a Lean value sent is still this state)
            try:
                cached = self._loaded = (state, self._lib.state(encode(state_json(self.policy, state))))
            except LibraryError as exc:
                raise LeanBackendError(str(exc)) from exc
        self._slot.set(cached[1])
        # permits' identities and evidence are not kept in Lean: a rebuilt state takes them from here
        self._sent, self._length = state, len(state.trace)
        self._view: State | None = state

    def _fail(self, message: str) -> LeanBackendError:
        self._broken = message
        return LeanBackendError(message)

    def _allow_parts(self, body: str) -> tuple[Label, Allocation, Allocation, int | None]:
        sens, cats, trusted, user, app, permit = body[1:].split(";")
        if trusted not in ("0", "1") or len(cats) != len(self._cats) or cats.strip("01"):
            raise ValueError(f"label fields {cats!r}, {trusted!r}")
        label = Label(self.policy.levels.order[int(sens)],
                      frozenset(c for c, on in zip(self._cats, cats, strict=True) if on == "1"), trusted == "1")
        return (label, Allocation(tuple(int(x) for x in user.split(",")) if user else (), len(self.policy.user)),
                Allocation(tuple(int(x) for x in app.split(",")) if app else (), len(self.policy.application)),
                int(permit) if permit else None)

    def _read(self, body: str) -> Any:
        """An answer's body: a Deny or Pause verdict, or an Allow's label, allocations and permit."""
        kind = body[:1]
        if kind == "A":
            return self._allow_parts(body)
        if kind == "D":
            return Verdict(Decision.DENY, DenyReason(json.loads(body[1:])), "decided by the Lean core")
        if kind == "P":
            waiting = json.loads(body[1:])
            if not isinstance(waiting, list) or not all(isinstance(w, str) for w in waiting):
                raise ValueError(f"a waiting set {waiting!r}")
            names = frozenset(waiting)
            return Verdict(Decision.PAUSE, None, f"waiting for {', '.join(sorted(names))}", waiting_for=names)
        raise ValueError(f"a decision {kind!r}")

    def decide_call(self, call: Call) -> tuple[Verdict, int]:
        if self._broken:
            raise LeanBackendError(f"the Lean core was given up earlier: {self._broken}")
        args = call.args
        try:
            text = _encode([call.agent, call.tool, args if type(args) is dict else dict(args), call.refs,
                            call.ref_paths]).encode()
        except (TypeError, ValueError) as exc:  # (a value JSON cannot carry: no answer, so no Allow)
            raise LeanBackendError(f"the call cannot be sent to the Lean core: {exc}") from exc
        try:
            answer = self._lib.decide_at(self._policy, self._slot, text)
        except LibraryError as exc:  # (the slot keeps its state on a fault)
            raise LeanBackendError(str(exc)) from exc
        head, _, body = answer.partition(";")
        got = self._answers.get(body)
        try:
            if got is None:
                if len(self._answers) >= self._CACHE:
                    self._answers.clear()
                got = self._answers[body] = self._read(body)
            d = int(head)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise self._fail(f"the Lean core's answer has another shape: {answer[:200]!r} ({exc!r})") from exc
        if d != self._length:  # (the record ID is the trace position: anything else is a broken answer)
            raise self._fail(f"the Lean core numbered the call {d!r}, the trace has {self._length} records")
        if type(got) is Verdict:
            return got, d
        label, user, app, permit = got
        tool = self._tools.get(call.tool)
        effects = call_effects(tool, call.args) if tool is not None else ()
        self._length += 1
        self._view = None
        return Verdict(Decision.ALLOW, None, "", effects if isinstance(effects, tuple) else (), label, user, app,
                       permit=permit), d

    def record_outcome(self, d: int, outcome: Outcome) -> None:
        if self._broken:
            raise LeanBackendError(f"the Lean core was given up earlier: {self._broken}")
        if not 0 <= d < self._length:
            raise LeanBackendError(f"no admitted attempt {d} in a trace of {self._length} records")
        try:
            value = None if outcome.value is None else _encode(outcome.value).encode()
        except (TypeError, ValueError) as exc:
            raise LeanBackendError(f"the outcome cannot be sent to the Lean core: {exc}") from exc
        try:
            self._lib.observe_at(self._policy, self._slot, d, outcome.ok, value)
        except LibraryError as exc:
            raise LeanBackendError(str(exc)) from exc
        self._view = None

    def snapshot(self) -> State:
        view = self._view
        if view is None:
            try:
                doc = _answer(self._lib.state_json(self._slot), "state")
                view = _state(self.policy, self._sent, doc)
            except LibraryError as exc:
                raise LeanBackendError(str(exc)) from exc
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                raise LeanBackendError(f"the Lean core's state has another shape: {exc!r}") from exc
            if len(view.trace) != self._length:
                raise LeanBackendError(f"the Lean core's trace has {len(view.trace)} records, not {self._length}")
            self._view = view
        return view

    def decide_commit(self, state: State, call: Call) -> tuple[Verdict, State]:
        """``D(S, c)`` and the state after its commit, from ``state`` (:class:`LeanCore`'s interface)."""
        self.load(state)
        verdict, _ = self.decide_call(call)
        return verdict, self.snapshot()

    def observe(self, state: State, d: int, outcome: Outcome) -> State:
        self.load(state)
        self.record_outcome(d, outcome)
        return self.snapshot()

    def close(self) -> None:
        """Nothing to stop; the Lean values are released when collected."""


class LeanCore:
    """The Lean core as one oracle process, the whole state sent with every request. ``timeout`` bounds
    each exchange with the process and ``deadline`` (a ``time.monotonic()`` instant) all of them, as for
    ``LeanOracle``; past either the call raises ``LeanBackendError``."""

    def __init__(self, policy: Policy, exe: Path | None = None, timeout: float | None = None,
                 deadline: float | None = None) -> None:
        self.policy = policy
        self._held = initial_state(len(policy.user), len(policy.application))
        self._policy_json: JSON = policy_to_json(policy)
        try:
            self._oracle = LeanOracle(exe, timeout, deadline)
        except OracleError as exc:
            raise LeanBackendError(str(exc)) from exc

    def _ask(self, judgment: str, payload: dict[str, Any]) -> Any:
        try:
            out = self._oracle.call_text(judgment, json.dumps({"policy": self._policy_json, **payload},
                                                              separators=(",", ":"), allow_nan=False))
        except (OracleError, OSError, ValueError) as exc:
            raise LeanBackendError(f"the Lean core failed on {judgment}: {exc}") from exc
        if not isinstance(out, dict) or "state" not in out:
            raise LeanBackendError(f"oracle shape error: the Lean core answered {judgment} with "
                                   f"{one_line(str(out), 200)}")
        return out

    def decide_commit(self, state: State, call: Call) -> tuple[Verdict, State]:
        """``D(S, c)`` and the state after its commit (unchanged unless Allow)."""
        out = self._ask("monitor_decide", {"state": state_json(self.policy, state), "call": call_json(call)})
        try:
            return _verdict(self.policy, call, out), _state(self.policy, state, out["state"])
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise LeanBackendError(f"the Lean core's answer has another shape: {exc!r}") from exc

    def observe(self, state: State, d: int, outcome: Outcome) -> State:
        out = self._ask("monitor_observe", {"state": state_json(self.policy, state), "id": d,
                                            "outcome": {"ok": outcome.ok, "value": outcome.value}})
        try:
            return _state(self.policy, state, out["state"])
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise LeanBackendError(f"the Lean core's answer has another shape: {exc!r}") from exc

    def load(self, state: State) -> None:
        self._held = state

    def decide_call(self, call: Call) -> tuple[Verdict, int]:
        d = len(self._held.trace)
        verdict, self._held = self.decide_commit(self._held, call)
        return verdict, d

    def record_outcome(self, d: int, outcome: Outcome) -> None:
        self._held = self.observe(self._held, d, outcome)

    def snapshot(self) -> State:
        return self._held

    def close(self) -> None:
        self._oracle.close()


ROUTES = ("auto", "inproc", "subprocess")


def open_core(policy: Policy, route: str = "auto", timeout: float | None = None,
              deadline: float | None = None) -> DecisionCore:
    """The Lean core for ``policy``: in-process where the library was built, else the oracle process
    (``timeout`` and ``deadline`` bound its exchanges, as for ``LeanCore``).

    ``route`` (or ``$AGENTWARRANT_LEAN_ROUTE`` when ``route`` is ``auto``) forces one. A library that
    is there but fails its checksum or load raises ``LeanBackendError``: it is never silently replaced."""
    where = "route"
    if route == "auto":
        route, where = os.environ.get("AGENTWARRANT_LEAN_ROUTE", "auto"), "$AGENTWARRANT_LEAN_ROUTE"
    if route not in ROUTES:
        raise InvalidInput(where, "one of " + ", ".join(ROUTES), route, InputKind.VALUE)
    if route == "inproc" or (route == "auto" and available()):
        return InProcCore(policy)
    return LeanCore(policy, timeout=timeout, deadline=deadline)

