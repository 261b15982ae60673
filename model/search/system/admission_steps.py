"""One requester's steps of the hold/replay protocol, run on the real services of
*Policy-Mediated Autonomy with Resumable Action Attempts* ("Policy evaluation and precedence", "State transitions,
TOCTOU, and limits", "Requester, approver, and executor separation"): ``AdmissionService.submit``,
``ApprovalService.decide``, ``ReplayService.replay`` (with the effect ``Handler`` re-checking live authority),
``AttemptStore.recover``, over an in-memory SQLite attempt store saved with ``to_bytes``.

Why per requester: every service call names one attempt and reads or writes only that attempt's row and
review rows (``recover`` moves every EXECUTING row, each independently), so a requester's next local state
depends only on its own local state, the current tenant policy and its own grant. ``Steps`` therefore
runs each (requester, local state, policy, grant, action) once on the real code and memoizes the answer
— the database bytes of each local state are kept for that — as the monitor engine memoizes the
monitor's decisions; the search composes the answers. A local state made in another process (the
partitioned search moves states between workers) has no bytes here yet: ``_reach`` makes them by running
that requester's steps from its empty local state until one yields it, unless the partitioned search
handed this process a share of another's memo (``admission_share.py``; the stores are then sealed with a
key the search's processes share, ``rekey``, since by default a store's bytes open only in the process
that sealed them). Choice: the first run found that yields a local state stands for it, as the first one
does in a single process; the two agree whenever the local state determines the store's rows (the
search's claim about the protocol above). ``closure`` runs ahead every step a search to a bound can ask
for, for the partitioned search to build its memo once.

A local state is ``(row, reviews, effects)``: the attempt row as ``AttemptStore.snapshot`` gives it
(``None`` before the submission), the number of recorded review decisions and the number of effects
the tool really performed for it. An effect is observed *inside* the tool, at the instant it runs, as
``Effect``. Choices: one attempt per requester (``a1``, ``a2``, ...), tenant ``acme``, approver
``alice``, route POST /reports/publish whose keys are ``publish_report`` (the revised one) and
``share_externally`` (always allow); ``replay-crash`` ends the process inside the tool after the effect
(the row stays EXECUTING until ``restart``); ``replay-timeout`` loses the tool's answer after it committed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from model.admission.deployments.deployment import ROUTES
from model.admission.refusal import Refusal
from model.admission.resumable.admission_service import AdmissionService
from model.admission.resumable.attempt_store import AttemptStore
from model.admission.resumable.authority import Authority, Credential, Grant, authorize
from model.admission.resumable.envelope import Identity, Request
from model.admission.resumable.handler import Handler
from model.admission.resumable.replay import ReplayService
from model.admission.resumable.review import ApprovalService
from model.admission.resumable.tenant_policy import PolicyEffect, TenantPolicies, evaluate
from model.admission.tools import ToolRegistry
from model.base.canonical import JSON
from model.base.signing import KeyPair

TENANT, APPROVER = "acme", "alice"
NOW = datetime(2026, 1, 1, tzinfo=UTC)
_ROUTE = ROUTES[("POST", "/reports/publish")]
OPS = ("publish_report", "share_externally")
ACTIONS = ("submit", "approve", "reject", "replay", "replay-other", "replay-timeout", "replay-crash")

Row = tuple[str, str | None, str | None]  # state, approver, result
Local = tuple[Row | None, int, int]  # row, reviews, effects


@dataclass(frozen=True, slots=True)
class Effect:
    """What was true when the tool ran: by replay (else at admission), an approval recorded, the
    requester's live authority held, the *current* tenant policy denies the route, the replay was
    asked under the attempt's own identity."""

    replay: bool
    approved: bool
    live: bool
    denied_now: bool
    own: bool


class _Crash(BaseException):
    """The process dies inside the tool, after the effect (nothing catches a BaseException)."""


def identity(i: int) -> Identity:
    return Identity(TENANT, f"agent-{i}", f"cred-{i}", "POST", "/reports/publish", "")


def authority(n: int, granted: tuple[bool, ...]) -> Authority:
    """Requesters 1..n with their credentials; requester ``i`` holds the route's grants iff ``granted[i-1]``."""
    return Authority(
        credentials={f"cred-{i}": Credential(f"cred-{i}", f"agent-{i}", TENANT, frozenset(OPS))
                     for i in range(1, n + 1)},
        roles={(TENANT, f"agent-{i}"): frozenset({"author"}) for i in range(1, n + 1)},
        required_role={"publish_report": "author"},
        grants=frozenset((TENANT, Grant(f"agent-{i}", op, "*"))
                         for i in range(1, n + 1) if granted[i - 1] for op in OPS),
        resources=frozenset({(TENANT, "report-7")}),
    )


def policy(effect: PolicyEffect) -> TenantPolicies:
    return TenantPolicies({(TENANT, "publish_report"): effect, (TENANT, "share_externally"): PolicyEffect.ALLOW})


class Steps:
    """The memo of local steps over ``n`` requesters and the policy revisions ``versions``."""

    def __init__(self, n: int, versions: tuple[PolicyEffect, ...], key: KeyPair | None = None) -> None:
        self.n, self.versions = n, versions
        self.key = key  # seals the attempt stores; None: the process's key (their bytes open only here)
        self.dbs: dict[tuple[int, Local], bytes] = {}
        self.empty = self._empty()
        self.memo: dict[tuple[int, Local, int, bool, str], tuple[Local, tuple[Effect, ...], bool]] = {}
        self.recovered: dict[tuple[int, Local], Local] = {}
        # one object per distinct local state made here: a state made of them compares with another by
        # identity where copies (a state unpickled from another process holds copies) compare element-wise
        self.atoms: dict[Local, Local] = {}
        self.calls = 0  # real service runs (memo misses)

    def _empty(self) -> bytes:
        empty = AttemptStore(key=self.key)
        try:
            return empty.to_bytes()
        finally:
            empty.close()

    def rekey(self, key: KeyPair) -> None:
        """Seal this memo's stores with ``key`` from now on (before any step: bytes sealed by another key
        would no longer open), so that its database bytes open in every process holding ``key``."""
        if self.memo or self.recovered or self.dbs:
            raise ValueError("the steps' memo is not empty: its stores are sealed with the old key")
        self.key = key
        self.empty = self._empty()

    def _db(self, i: int, local: Local) -> bytes:
        if local[0] is None:
            return self.empty
        if (i, local) not in self.dbs:
            self._reach(i, local)
        return self.dbs[(i, local)]

    def layers(self, i: int) -> Iterator[list[Local]]:
        """Requester ``i``'s local states breadth-first from the empty one, a layer at a time: each layer's
        states are stepped under every policy version, grant and action (and recovered), which fills the
        memo and the database bytes for them, and the next layer is what those steps first reached."""
        todo: list[Local] = [(None, 0, 0)]
        seen = set(todo)
        while todo:
            yield todo
            nxt: list[Local] = []
            for loc in todo:
                news = [self.step(i, loc, v, g, a)[0] for v in range(len(self.versions)) for g in (True, False)
                        for a in ACTIONS]
                for new in (*news, self.recover(i, loc) if loc[0] is not None else loc):
                    if new not in seen:
                        seen.add(new)
                        nxt.append(new)
            todo = nxt

    def _reach(self, i: int, want: Local) -> None:
        """Make ``want``'s database bytes in this process: a local state made in another one (the partitioned
        search moves states between workers) is reached by running requester ``i``'s steps breadth-first
        from the empty local state, under every policy version and grant, until one yields it."""
        for _layer in self.layers(i):
            if (i, want) in self.dbs:
                return
        if (i, want) not in self.dbs:
            raise KeyError(f"requester {i}: no run of the services reaches the local state {want!r}")

    def closure(self, i: int, depth: int | None = None, actions: tuple[str, ...] = ACTIONS, toggles: bool = True,
                recovers: bool = True, deadline: float | None = None) -> bool:
        """Every step of requester ``i`` a search to bound ``depth`` (None: any bound) can ask for: breadth-first
        over what the requester sees — its local state, the policy version and its grant —, from the empty
        local state, version 0 and the grant held, where one step of the requester (an action of
        ``actions``, or a recovery when ``recovers``), one revision and (when ``toggles``) one revocation or
        restoration each cost one transition of the search; the steps of every view at most ``depth - 1``
        transitions away are run. The policy version only grows, so a local state is not stepped under a
        version the search cannot have reached with it. Stops at ``deadline`` (``time.monotonic``), before
        the next view: False when it did, True when every step was run."""
        View = tuple[Local, int, bool]
        todo: list[View] = [((None, 0, 0), 0, True)]
        seen = set(todo)
        d = 0
        while todo and (depth is None or d < depth):
            nxt: list[View] = []
            for loc, v, g in todo:
                if deadline is not None and time.monotonic() >= deadline:
                    return False
                outs: list[View] = [(self.step(i, loc, v, g, a)[0], v, g) for a in actions]
                if recovers:  # a restart recovers every requester, the ones without an attempt too
                    outs.append((self.recover(i, loc), v, g))
                if v + 1 < len(self.versions):
                    outs.append((loc, v + 1, g))
                if toggles:
                    outs.append((loc, v, not g))
                for o in outs:
                    if o not in seen:
                        seen.add(o)
                        nxt.append(o)
            todo, d = nxt, d + 1
        return True

    def _local(self, i: int, store: AttemptStore, effects: int) -> Local:
        rows = store.snapshot()
        row: Row | None = None if not rows else (rows[0][1], rows[0][2], rows[0][3])
        local: Local = (row, len(store.reviews(f"a{i}")), effects)
        local = self.atoms.setdefault(local, local)
        self.dbs.setdefault((i, local), store.to_bytes())
        return local

    def step(self, i: int, local: Local, v: int, granted: bool, action: str
             ) -> tuple[Local, tuple[Effect, ...], bool]:
        """Requester ``i``'s ``action`` from ``local`` under policy version ``v``: its next local state, the
        effects performed, and whether the service refused (a refusal changes nothing)."""
        key = (i, local, v, granted, action)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._run(i, local, v, granted, action)
        return got

    def _run(self, i: int, local: Local, v: int, granted: bool, action: str
             ) -> tuple[Local, tuple[Effect, ...], bool]:
        self.calls += 1
        store = AttemptStore.from_bytes(self._db(i, local), self.key)
        auth = authority(self.n, tuple(granted if j == i else True for j in range(1, self.n + 1)))
        pol = policy(self.versions[v])
        effects: list[Effect] = []
        mode = [""]
        asked: list[Identity] = [identity(i)]
        aid = f"a{i}"

        def tool(body: JSON) -> JSON:
            att = store.get(aid)
            effects.append(Effect(
                replay=att is not None and att.approver is not None,
                approved=any(d == "approve" for _a, d, _c in store.reviews(aid)),
                live=authorize(auth, TENANT, f"agent-{i}", f"cred-{i}", _ROUTE.operations, "report-7", NOW) is None,
                denied_now=evaluate(pol, TENANT, _ROUTE.operations) is PolicyEffect.DENY,
                own=asked[-1] == identity(i)))
            if mode[0] == "crash":
                raise _Crash
            if mode[0] == "timeout":
                raise TimeoutError("committed, answer lost")
            return {"ok": True}

        handler = Handler(ToolRegistry({_ROUTE.tool: tool}), lambda: auth, store)
        refused = False
        if action == "submit":
            if local[0] is not None:
                refused = True  # one attempt per requester (its id is taken)
            else:
                req = Request.of(identity(i), {"resource": "report-7", "title": aid})
                out = AdmissionService(ROUTES, pol, store, handler, lambda: auth).submit(req, NOW, attempt_id=aid)
                refused = isinstance(out, Refusal)
        elif action in ("approve", "reject"):
            approvals = ApprovalService(store, {TENANT: frozenset({APPROVER})})
            out2 = approvals.decide(aid, APPROVER, action == "approve", NOW)
            refused = isinstance(out2, Refusal)
        else:
            who = identity(i % self.n + 1) if action == "replay-other" else identity(i)
            asked.append(who)
            mode[0] = action.removeprefix("replay-")
            try:
                out3 = ReplayService(ROUTES, store, handler).replay(aid, who, NOW)
                refused = isinstance(out3, Refusal)
            except _Crash:
                pass  # the process is gone; what was committed stays, the result is never recorded
        nxt = self._local(i, store, local[2] + len(effects))
        store.close()
        # an unchanged local state is returned as the same object: the search then knows a self-loop by identity
        return local if nxt == local else nxt, tuple(effects), refused

    def recover(self, i: int, local: Local) -> Local:
        """``AttemptStore.recover`` after a restart, on requester ``i``'s row."""
        got = self.recovered.get((i, local))
        if got is None:
            self.calls += 1
            store = AttemptStore.from_bytes(self._db(i, local), self.key)
            store.recover()
            got = self.recovered[(i, local)] = self._local(i, store, local[2])
            store.close()
        return got
