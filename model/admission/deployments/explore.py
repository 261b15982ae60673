"""Bounded explicit-state exploration of the hold/replay protocol (to check the
protocol over every interleaving, not one trace; *Policy-Mediated Autonomy with Resumable Action Attempts*, "State
transitions, TOCTOU, and limits").

Breadth-first over every interleaving, up to ``depth`` actions, of: submit, approve, reject,
revoke the requester's credential, revoke / restore a grant, replay by the requester, replay under
another identity, replay whose tool times out after committing, replay that crashes the process
after the effect and before the result is recorded, and restart (crash recovery). Each step runs
the *real* services (admission, approval, replay, handler) against an in-memory SQLite store that
is saved and restored with ``serialize``/``deserialize``; states are deduplicated by their
logical content (attempt rows, review rows, authority flags, effect log). At the instant a tool
runs, the explorer records whether an approval had been recorded, whether the requester's
authority held, and which identity asked for the replay; after each step it checks:

- P1 no effect before approval;             - P2 at most one effect per held attempt;
- P3 an effect only under the requester's current authority;
- P4 no replay under a different identity.

Choices: ``attempts`` held attempts (``a1``, ``a2``, ... with different bodies, so an approval or
a replay of one cannot stand in for the other); per-attempt actions are submit, approve, reject
and the four replays; a crash loses nothing committed because every store
step is one transaction, so restart = ``recover()`` on the same database. ``mutant`` injects a
known fault (to show each property can fail and the explorer finds it): ``skip-identity-check``,
``skip-live-check``, ``replay-unapproved``, ``redispatch-after-crash``.

The loop is ``model/base/breadth_first.py``'s (a ``KeyedFrontier``: the states' logical keys, each frontier entry
carrying its trace). Budget: one ``meter.tick()`` per transition stepped. When it runs out (or on
Ctrl-C) the report keeps what was explored and every violation found (a violation found is a real trace,
so it stands), with ``unknown`` set: "no violation" is then not a verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from model.admission.deployments.deployment import (
    AGENT,
    APPROVER,
    CRED,
    EPOCH,
    ROUTES,
    TENANT,
    World,
    default_authority,
    publish_request,
)
from model.admission.refusal import Refusal
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.authority import Authority, Grant, authorize
from model.admission.resumable.envelope import Identity
from model.admission.resumable.replay import Replayed, ReplayService
from model.admission.tools import ToolRegistry
from model.base.breadth_first import KeyedFrontier, bfs
from model.base.budget import Budget, Spent, Unknown
from model.base.canonical import JSON

PROPERTIES = {"P1": "no effect before approval", "P2": "at most one effect per held attempt",
              "P3": "an effect only under the requester's current authority",
              "P4": "no replay under a different identity"}
PER_ATTEMPT = ("submit", "approve", "reject", "replay", "replay_other_identity", "replay_timeout", "replay_crash")
GLOBAL = ("revoke_credential", "revoke_grant", "restore_grant", "restart")
MUTANTS = ("skip-identity-check", "skip-live-check", "replay-unapproved", "redispatch-after-crash")
_GRANT = Grant(AGENT, "publish_report", "*")
_UNLIMITED = Budget()
_OTHER = Identity(TENANT, "agent-2", "cred-2", "POST", "/reports/publish")


class _Crash(BaseException):
    """The process dies inside the tool call, after the effect (not an ``Exception``: nothing catches it)."""


@dataclass(frozen=True, slots=True)
class _State:
    db: bytes
    authority: Authority
    effects: tuple[tuple[str, bool, bool, bool], ...]  # (attempt, approved, authority held, requester asked)


@dataclass(frozen=True, slots=True)
class Violation:
    property: str
    trace: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExplorationReport:
    depth: int
    states: int
    transitions: int
    attempts: int
    complete: bool  # True when no state at the bound still had unexplored successors (a fixed point)
    violations: tuple[Violation, ...] = field(default=())
    unknown: Unknown | None = None  # the budget ran out before the exploration ended


class _Replay(ReplayService):
    def __init__(self, world: World, mutant: str | None) -> None:
        super().__init__(ROUTES, world.store, world.handler)
        self.mutant = mutant

    def replay(self, attempt_id: str, identity: Identity, now: object = EPOCH, permit: object = None
               ) -> Replayed | Refusal:
        att = self.store.get(attempt_id)
        if self.mutant == "skip-identity-check" and att is not None:
            identity = att.request.identity
        if self.mutant == "replay-unapproved":  # a faulty writer holding the store's key: its rows verify
            with self.store.db.transaction() as c:
                cur = c.execute("UPDATE attempts SET state = 'approved' WHERE id = ? AND state = 'held'", (attempt_id,))
                if cur.rowcount == 1:
                    self.store.seal.append(c, [{"attempt": attempt_id, "state": "approved", "approver": None,
                                                "result": None}])
        return super().replay(attempt_id, identity, EPOCH, permit)


def _request(aid: str) -> JSON:
    return {"resource": "report-7", "title": aid}


def _step(state: _State, action: str, mutant: str | None) -> _State:
    world = World(AttemptStore.from_bytes(state.db), authority=state.authority)
    effects = list(state.effects)
    asked_by: list[Identity] = []
    mode: list[str] = [""]

    def tool(body: JSON) -> JSON:
        aid = str(body["title"])
        approved = any(d == "approve" for _a, d, _c in world.store.reviews(aid))
        live = authorize(world.authority, TENANT, AGENT, CRED, ROUTES[("POST", "/reports/publish")].operations,
                         "report-7", EPOCH) is None
        effects.append((aid, approved, live, asked_by[-1] == publish_request().identity))
        if mode[0] == "crash":
            raise _Crash
        if mode[0] == "timeout":
            raise TimeoutError("committed, answer lost")
        return {"ok": True}

    world.handler.tools = ToolRegistry({"publisher": tool})
    if mutant == "skip-live-check":
        world.handler.authority = default_authority
    replays = _Replay(world, mutant)

    def replay(aid: str, identity: Identity, m: str = "") -> None:
        asked_by.append(identity)
        mode[0] = m
        try:
            replays.replay(aid, identity)
        except _Crash:
            pass  # the process is gone; whatever was committed stays, the result is never recorded

    name, _, aid = action.partition(":")
    acts: dict[str, Callable[[], object]] = {
        "submit": lambda: world.admission.submit(publish_request(body=_request(aid)), EPOCH, attempt_id=aid)
        if world.store.get(aid) is None else None,
        "approve": lambda: world.approvals.decide(aid, APPROVER, True, EPOCH),
        "reject": lambda: world.approvals.decide(aid, APPROVER, False, EPOCH),
        "revoke_credential": lambda: setattr(world, "authority", world.authority.revoke_credential(CRED)),
        "revoke_grant": lambda: setattr(world, "authority", world.authority.without_grant(TENANT, _GRANT)),
        "restore_grant": lambda: setattr(world, "authority", world.authority.with_grant(TENANT, _GRANT)),
        "replay": lambda: replay(aid, publish_request().identity),
        "replay_other_identity": lambda: replay(aid, _OTHER),
        "replay_timeout": lambda: replay(aid, publish_request().identity, "timeout"),
        "replay_crash": lambda: replay(aid, publish_request().identity, "crash"),
        "restart": lambda: _restart(world.store, mutant),
    }
    acts[name]()
    return _State(world.store.to_bytes(), world.authority, tuple(effects))


def _restart(store: AttemptStore, mutant: str | None) -> None:
    if mutant == "redispatch-after-crash":  # the fault: treat an interrupted attempt as still approved
        with store.db.transaction() as c:  # written as a faulty key holder would: its rows verify
            ids = [r[0] for r in c.execute("SELECT id FROM attempts WHERE state = 'executing'").fetchall()]
            c.execute("UPDATE attempts SET state = 'approved', result = NULL WHERE state = 'executing'")
            store.seal.append(c, [{"attempt": i, "state": "approved", "approver": None, "result": None} for i in ids])
        return
    store.recover()


def _key(s: _State) -> tuple[object, ...]:
    store = AttemptStore.from_bytes(s.db)
    a = s.authority
    reviews = tuple(tuple(store.reviews(row[0])) for row in store.snapshot())
    return (store.snapshot(), reviews, a.credentials[CRED].revoked, (TENANT, _GRANT) in a.grants,
            s.effects)


def _violated(s: _State) -> list[str]:
    out = []
    if any(not approved for _id, approved, _l, _i in s.effects):
        out.append("P1")
    if len({e[0] for e in s.effects}) < len(s.effects):
        out.append("P2")
    if any(not live for _id, _a, live, _i in s.effects):
        out.append("P3")
    if any(not mine for _id, _a, _l, mine in s.effects):
        out.append("P4")
    return out


def actions(attempts: int) -> tuple[str, ...]:
    return tuple(f"{a}:a{i}" for i in range(1, attempts + 1) for a in PER_ATTEMPT) + GLOBAL


def explore(depth: int = 8, attempts: int = 1, mutant: str | None = None, *, budget: Budget = _UNLIMITED,
            on_progress: Callable[[Spent], None] | None = None) -> ExplorationReport:
    """Every interleaving of the actions up to ``depth`` steps; the counts and any violation found,
    within ``budget`` (one tick per transition)."""
    meter = budget.start(on_progress)
    init = _State(AttemptStore().to_bytes(), default_authority(), ())
    store: KeyedFrontier[tuple[_State, tuple[str, ...]]] = KeyedFrontier([(init, ())], [_key(init)])
    found: dict[str, Violation] = {}

    def expand(_layer: int, _last: bool, _n: int, item: tuple[_State, tuple[str, ...]], _x: None
               ) -> Iterator[int]:
        state, trace = item
        for action in actions(attempts):
            yield 1
            nxt = _step(state, action, mutant)
            bad = _violated(nxt)
            for p in bad:
                found.setdefault(p, Violation(p, (*trace, action)))
            if store.add(_key(nxt)) and not bad:
                store.push((nxt, (*trace, action)))

    cov = bfs(store, expand, depth, meter)
    # a state at the bound not expanded (the last layer's states), or a run cut short, leaves it open
    truncated = cov.unknown is not None or bool(store.cur)
    return ExplorationReport(depth, cov.states, cov.transitions, attempts, not truncated,
                             tuple(found[p] for p in sorted(found)), cov.unknown)
