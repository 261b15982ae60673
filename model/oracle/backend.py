"""The Lean enforcement backend: decisions and next states computed by the compiled Lean core
(Agenra Sections 2.1 and 3, "on both backends").

Two routes to the same Lean functions (``decideFull``, ``commit``, ``observe`` of
lean/AgentWarrant/Spec/Monitor/Transition.lean):

- :class:`InProcCore` (the default where ``make lean`` built the library): the core linked into this
  process (model/oracle/inproc.py). The policy is parsed once into a Lean value and the monitor state
  stays a Lean value between calls; a call crosses as its JSON text and the verdict comes back as a
  compact JSON text with the committed record's ID. The Python ``State`` is rebuilt from Lean's only
  when read (:meth:`snapshot`), and a state the caller installs (:meth:`load`) is sent whole once (the
  same ``State`` object installed again reuses its Lean value: both are immutable).
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
from model.oracle.inproc import LeanValue, Library, LibraryError, available, load
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


def _verdict(policy: Policy, call: Call, doc: Mapping[str, Any],
             labels: dict[tuple[int, tuple[bool, ...], bool], Label] | None = None) -> Verdict:
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
    ld = doc["label"]
    if labels is None:
        label = _label(policy, ld)
    else:  # (a policy has few distinct labels: build each once)
        key = (ld["sens"], tuple(ld["cats"]), ld["trusted"])
        label = labels.get(key) or labels.setdefault(key, _label(policy, ld))
    return Verdict(decision, None, "", effects if isinstance(effects, tuple) else (), label, user, app,
                   permit=doc["permit"])



def _answer(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LeanBackendError(f"the Lean core's answer to {what} is not JSON: {text[:200]!r}") from exc


class InProcCore:
    """The Lean core in this process (model/oracle/inproc.py), the state kept as a Lean value."""

    def __init__(self, policy: Policy, library: Path | None = None) -> None:
        self.policy = policy
        try:
            self._lib: Library = load(library)
            self._policy: LeanValue = self._lib.policy(encode(policy_to_json(policy)))
        except LibraryError as exc:
            raise LeanBackendError(str(exc)) from exc
        self._labels: dict[tuple[int, tuple[bool, ...], bool], Label] = {}
        self._loaded: tuple[State, LeanValue] | None = None  # the last state sent, and its Lean value
        self.load(initial_state(len(policy.user), len(policy.application)))

    def load(self, state: State) -> None:
        cached = self._loaded
        if cached is not None and cached[0] is state:  # (both immutable: the Lean value is still this state)
            self._state = cached[1]
        else:
            try:
                self._state = self._lib.state(encode(state_json(self.policy, state)))
            except LibraryError as exc:
                raise LeanBackendError(str(exc)) from exc
            self._loaded = (state, self._state)
        # permits' identities and evidence are not kept in Lean: a rebuilt state takes them from here
        self._sent, self._length = state, len(state.trace)
        self._view: State | None = state

    def decide_call(self, call: Call) -> tuple[Verdict, int]:
        try:
            after, text = self._lib.decide(self._policy, self._state, _encode(call_json(call)))
        except LibraryError as exc:
            raise LeanBackendError(str(exc)) from exc
        doc = _answer(text, "decide")
        try:
            verdict = _verdict(self.policy, call, doc, self._labels)
            d = doc["id"]
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise LeanBackendError(f"the Lean core's answer has another shape: {exc!r}") from exc
        if d != self._length:  # (the record ID is the trace position: anything else is a broken answer)
            raise LeanBackendError(f"the Lean core numbered the call {d!r}, the trace has {self._length} records")
        self._state = after
        if verdict.decision is Decision.ALLOW:
            self._length += 1
            self._view = None
        return verdict, d

    def record_outcome(self, d: int, outcome: Outcome) -> None:
        if not 0 <= d < self._length:
            raise LeanBackendError(f"no admitted attempt {d} in a trace of {self._length} records")
        value = "null" if outcome.value is None else _encode(outcome.value)
        try:
            self._state = self._lib.observe(self._policy, self._state, d, outcome.ok, value)
        except LibraryError as exc:
            raise LeanBackendError(str(exc)) from exc
        self._view = None

    def snapshot(self) -> State:
        view = self._view
        if view is None:
            try:
                doc = _answer(self._lib.state_json(self._state), "state")
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

