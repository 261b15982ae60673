"""The ideal atomic execution machine (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Appendix A-H) and its Agent-API observations ``obs_api`` (Section VII, Appendix A-L).

An ideal state holds the execution record, the checked safe execution set ``B̂*`` of the last edit
edge and the partial execution ``r`` since then (``L*`` is ``↓π₂ B̂*``). Unlike the durable runtime
it has no automaton, no rule versions, no Preload, no stale answers and nothing to restart:

- an edit is one atomic step: ``Derive`` (undefined: ``Invalid``), then ``SafeBehavior``: none
  gives ``Reject``; otherwise the edge ``Edge(u, [𝓗⁺_u]_≅)`` makes the target current and resets
  ``r`` to ``ε``. ``SafeBehavior`` is computed by the explicit engine (candidates enumerated, the
  greatest fixed point by rounds), not by the runtime's symbolic engine and automaton; Lemma 8,
  proved in Lean for Definition 2 over pomsets (lean/AgentWarrant/Thm/Edits/Safety.lean and
  Bridge.lean), makes it the unique MaxSafe pair. The declarative engine's subset search would be
  the literal definition but is exponential in the candidates, too slow for sessions;
- a tool call ``x`` with request ``m`` passes exactly when ``x`` is a current, unprocessed call,
  ``canon(m)`` is its action's certified request and ``r·a ∈ L*`` for ``a`` = ``new``/``reuse`` by
  whether the action has an authorization record; otherwise ``deny(x)`` with no state change;
- Checkpoint, retry, Dispatch and completion updates make the state changes of Table III;
  a stop and restart is a no-op.

Observations are compared modulo renaming (``Obs``): an edit edge shows its answer and the current
calls that receive new authorization data (tokens and rule-version names are private names), a tool
call shows ``new``/``reuse`` with the action or ``deny``, a retry the returned value, Dispatch the
action sent, a completion update the action settled, a Checkpoint its decision.
Choices where the paper is silent: the ideal keeps the record in the runtime's ``State`` type and
makes an accepted edge's record change with the runtime's ``install`` (Table III's common update;
the ideal never reads its automaton or tokens); the record's automaton position is not advanced by
ideal tool calls (no ideal decision reads it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from model.base.canonical import JSON, canonical_str, loads
from model.base.canonical import digest as json_digest
from model.base.signing import KeyPair
from model.edits.check.answer import Accepted, Engine, Rejected
from model.edits.check.checker import decide
from model.edits.check.contract import Outcome, call_ids
from model.edits.check.resolve import Letter, Mode, Word
from model.edits.runtime.derive import derive
from model.edits.runtime.derive_failure import DeriveInvalid
from model.edits.runtime.forms import Edit, edit_to_json
from model.edits.runtime.record import AuthRecord, Processed, Queued, State
from model.edits.runtime.record_json import record_digest
from model.edits.runtime.registration import Registration, bootstrap
from model.edits.runtime.steps import checkpoint, dispatch, install, settle
from model.edits.runtime.tree import contract_of, hstep, leaves, remaining

Obs = tuple[str, ...]  # one Agent-API observation, modulo renaming of private names


@dataclass(frozen=True, slots=True)
class Ideal:
    record: State
    safe: frozenset[tuple[Outcome, Word]]  # B̂*
    r: Word  # the partial execution since the last edit edge


def _safe(v: Accepted) -> frozenset[tuple[Outcome, Word]]:
    return frozenset(v.automaton.completions())


def edge_obs(kind: str, s: State | None) -> Obs:
    """``Edge(u, [𝓗⁺]_≅)``: the answer and which current calls got new authorization data."""
    return ("edit", kind, *([] if s is None else sorted(x for x, _ in s.entries)))


def start(reg: Registration, key: KeyPair) -> tuple[Obs, Ideal | None]:
    """The checked root update of the common initial state (Lemma 14), decided declaratively."""
    _, s = bootstrap(reg, key)
    if s.installed is None:
        return edge_obs("not-accepted", None), None
    v = decide(s.installed.instance, Engine.EXPLICIT)
    if not isinstance(v, Accepted):
        return edge_obs("not-accepted", None), None
    return edge_obs("accepted", s), Ideal(s, _safe(v), ())


def edit(i: Ideal, u: Edit, key: KeyPair) -> tuple[Obs, Ideal]:
    d = derive(i.record, u)
    if isinstance(d, DeriveInvalid):
        return edge_obs("invalid", None), i
    v = decide(d.instance, Engine.EXPLICIT)
    if isinstance(v, Rejected):
        return edge_obs("rejected", None), i
    if not isinstance(v, Accepted):
        return edge_obs("invalid", None), i
    gamma = record_digest(i.record, edit_to_json(u))
    new = install(i.record, d, v, canonical_str(edit_to_json(u)), gamma, key, d.eta_new)
    return edge_obs("accepted", new), Ideal(new, _safe(v), ())


def use(i: Ideal, call: str, request: JSON) -> tuple[Obs, Ideal]:
    s = i.record
    rho = dict(s.calls)
    deny: tuple[Obs, Ideal] = (("deny", call), i)
    if s.tree is None or call not in rho or any(p.call == call for p in s.processed):
        return deny
    if call not in set(call_ids(contract_of(s.tree))) or json_digest(request) != rho[call].digest:
        return deny
    d = rho[call].action
    mode = Mode.REUSE if d in s.authorized_actions() else Mode.NEW
    w = (*i.r, Letter(call, d, mode))
    if not any(y[: len(w)] == w for _, y in i.safe):  # r·a ∉ L*
        return deny
    tree = hstep(s.tree, call)
    current = set(call_ids(contract_of(tree)))
    branch = next(lf.branch for lf in leaves(s.tree) if call in set(call_ids(remaining(lf))))
    log, out = s.log, s.out
    if mode is Mode.NEW:
        spec = dict(s.actions)[d]
        rid = f"p{len(s.log) + 1}"
        log, out = (*log, AuthRecord(rid, d, spec.request, call, spec.label)), (*out, Queued(rid))
    else:
        rid = next(r.id for r in s.log if r.action == d)
    entry = dict(s.entries)[call]
    new = replace(s, tree=tree, log=log, out=out, ver=s.ver + 1,
                  entries=tuple((x, e) for x, e in s.entries if x in current),
                  processed=(*s.processed, Processed(call, d, mode, rid, entry.entry, entry.token)),
                  history=(*s.history, f"step {branch} {mode.value}({call},{d})"))
    return (mode.value, call, d), Ideal(new, i.safe, w)


def retry(i: Ideal, call: str, request: JSON) -> Obs:
    p = next((p for p in i.record.processed if p.call == call), None)
    if p is None or json_digest(request) != dict(i.record.calls)[call].digest:
        return ("deny", call)
    rec = next(r for r in i.record.log if r.id == p.record)
    return ("return", call, "null" if rec.value is None else canonical_str(loads(rec.value, "<record>")))


def save(i: Ideal, k: str, branch: str, key: KeyPair) -> tuple[Obs, Ideal]:
    a, s = checkpoint(i.record, k, branch, key)
    obs: Obs = ("checkpoint", k, "saved") if s is not i.record else ("checkpoint", k, getattr(a, "reason", ""))
    return obs, replace(i, record=s)


def send(i: Ideal) -> tuple[Obs, Ideal]:
    a, s = dispatch(i.record)
    return (("sent", getattr(a, "action", "")) if s is not i.record else ("queue-empty",)), replace(i, record=s)


def complete(i: Ideal, action: str, value: JSON) -> tuple[Obs, Ideal]:
    a, s = settle(i.record, action, value)
    if s is i.record:
        return ("settle-refused", action, getattr(a, "reason", "")), i
    return ("settled", action), replace(i, record=s)


