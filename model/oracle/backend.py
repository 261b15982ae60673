"""The Lean enforcement backend: decisions and next states computed by the compiled Lean core
(Agenra Sections 2.1 and 3, "on both backends").

``LeanCore`` keeps one oracle process (lean/build/bin/AgentWarrant) and asks it the two halves of a
mediated call: ``monitor_decide`` (``D(S, c)`` and, on Allow, the commit, before the tool runs) and
``monitor_observe`` (the declared outcome processed). The Python side only translates: the state
and call go out as in model/oracle/monitor_full_json.py; the answer comes back as a ``Verdict`` and
a ``State`` rebuilt from Lean's JSON (labels from ranks and category vectors, records' arguments in
canonical text, permits' identities and evidence carried over from the state sent, their ``consumed``
flags taken from Lean).

Choice (process, not in-process library): a long-lived process speaking JSON lines reuses the
oracle the DRT already tests, and a crash in it cannot take the Python process down. A fault — the
process dead or not startable, an answer that is not JSON, an error response, a reply with another
shape, no answer within the exchange's timeout or the caller's deadline — raises ``LeanBackendError``;
it is never read as a decision, so it can never become an Allow.
A Lean verdict carries no ``detail`` text; its ``effects`` are the Python model's effect units of the
call (what a permit-evidence check reads), not recomputed in Lean.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from model.base.canonical import JSON, canonical_str_exact
from model.monitor.decide.base import Decision, DenyReason, Verdict
from model.monitor.decide.commit import Outcome
from model.monitor.decide.ledger import Allocation
from model.monitor.decide.matching import call_effects
from model.monitor.decide.state import Call, Permit, Record, State
from model.monitor.language.labels import Label
from model.monitor.language.policy import Policy
from model.monitor.language.policy_json import policy_to_json
from model.oracle.lean import LeanOracle, OracleError, one_line
from model.oracle.monitor_full_json import call_json, state_json


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


class LeanCore:
    """``timeout`` bounds each exchange with the process and ``deadline`` (a ``time.monotonic()`` instant)
    all of them, as for ``LeanOracle``; past either the call raises ``LeanBackendError``."""

    def __init__(self, policy: Policy, exe: Path | None = None, timeout: float | None = None,
                 deadline: float | None = None) -> None:
        self.policy = policy
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
            raise LeanBackendError(f"oracle shape error: the Lean core's answer has another shape: {exc!r}") from exc

    def observe(self, state: State, d: int, outcome: Outcome) -> State:
        out = self._ask("monitor_observe", {"state": state_json(self.policy, state), "id": d,
                                            "outcome": {"ok": outcome.ok, "value": outcome.value}})
        try:
            return _state(self.policy, state, out["state"])
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise LeanBackendError(f"oracle shape error: the Lean core's answer has another shape: {exc!r}") from exc

    def close(self) -> None:
        self._oracle.close()
