"""The search model of the hold/replay admission protocol with several requesters (*Policy-Mediated Autonomy
with Resumable Action Attempts*), a ``protocol.System`` whose every step runs the real services
(``admission_steps.Steps``), and its JSON form (``kind: "admission-hold"``).

A state is a policy version, per requester whether it holds the route's grants, and per requester its
local state (``admission_steps.Local``): the version is the index of the tenant policy in force among the
model's ``policy_revisions`` (the effect of ``publish_report``). It is stored as one integer (``view``
reads it back): the version in the low bits, a grant bit per requester, then per requester a 48-bit *local
id*, BLAKE2b of the local state's ``repr``. Why: a state is hashed and compared at every visited-set lookup
and, in the partitioned search (``model/dist/system.py``), hashed to its owner and sent to another worker;
an integer hashes from its value in one pass, and the same in every process, where the nested tuples it
replaces were walked at each lookup and held ``None``, whose hash is its address before Python 3.12.
Choices: an id is a hash, so two local states could share one — the system keeps the local state of each
id it met and stops with a ``ValueError`` when a second one arrives (for a hundred local states the odds
are below 1 in 10^10); each requester's actions from a (local id, version, grant) are memoized with
their next local id and the query bits they set, so a transition costs a dict lookup and an integer
addition.

Transitions, in this order: per requester ``submit``, ``approve``, ``reject``, ``replay``, ``replay-other``
(the replay asked under the next requester's identity), ``replay-timeout`` and ``replay-crash`` (with fault ``timeout``
/ ``crash``); then ``revise`` (the next policy revision comes into force, while attempts are held),
``restart`` (with ``crash``, when a row is EXECUTING) and per requester ``revoke``/``restore`` of its
grants (with ``revoke``). A refused action is a transition too (a self-loop): the search counts it.

Properties (each query names one; its kind is fixed):

forbidden, must be Exhausted
- ``executes_twice``: an attempt's tool runs a second time (a replayed approval, a re-dispatch).
- ``approval_recorded_twice``: a second review decision is recorded for one attempt.
- ``unapproved_replay``: a replay runs the tool with no approval recorded.
- ``denied_now_unapproved``: the tool runs, without approval, while the current policy denies the route.
- ``effect_without_live_authority``: the tool runs while the requester's grants are revoked.
- ``replay_by_other_identity``: a replay asked under another identity runs the tool.

goal, must be Found
- ``held_replayed_executes``: a held attempt, approved, is replayed and its tool runs.
- ``two_requesters_interleave``: one requester's replay runs the tool while another's attempt is held or approved.
- ``approved_replay_after_revision_to_deny``: an approved replay runs the tool while the current policy
  denies the route (the replay re-checks authority, not the tenant policy: an approval outlives a revision).
- ``second_replay_refused``: a replay of an attempt whose approval was already used is refused.
- ``uncertain_after_crash``: a restart records an attempt interrupted by a crash as uncertain.

Symmetry (``symmetry.py``): the requesters are interchangeable, declared by ``orbit_key``.

Premises (for Vacuous): an effect happens (the first four and ``executes_twice``), a decision is asked of
an attempt already decided, a replay under another identity is asked.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path
from typing import cast

from model.admission.resumable.tenant_policy import PolicyEffect
from model.base.canonical import load_file
from model.base.errors import InputKind, InvalidInput, json_path
from model.search.system.admission_share import adopt, build, export
from model.search.system.admission_steps import ACTIONS, Effect, Local, Steps
from model.search.system.protocol import Query, QueryKind, Transition
from model.search.system.symmetry import Reduced, reduced

KIND = "admission-hold"
FORBIDDEN = ("executes_twice", "approval_recorded_twice", "unapproved_replay", "denied_now_unapproved",
             "effect_without_live_authority", "replay_by_other_identity")
GOALS = ("held_replayed_executes", "two_requesters_interleave", "approved_replay_after_revision_to_deny",
         "second_replay_refused", "uncertain_after_crash")
PROPERTIES = FORBIDDEN + GOALS
FAULTS = ("crash", "timeout", "revoke")
_EFFECTS = {"allow": PolicyEffect.ALLOW, "require-review": PolicyEffect.REQUIRE_REVIEW, "deny": PolicyEffect.DENY}
_KEYS = {"kind", "description", "requesters", "bound", "policy_revisions", "faults", "queries"}
State = int
ID_BITS = 48
ID_MASK = (1 << ID_BITS) - 1
_WAITING = ("held", "approved")
_DECIDABLE = ("held", "approved", "rejected")  # an approver is recorded, the approval not yet used


@dataclass(frozen=True, slots=True)
class AdmissionModel:
    name: str
    description: str
    requesters: int
    bound: int
    revisions: tuple[PolicyEffect, ...]
    faults: frozenset[str]
    properties: tuple[str, ...]


class AdmissionSystem:
    """``protocol.System`` over the real services (module docstring)."""

    # ``model/dist/system.py``: a key is an integer, so it hashes alike in every process
    stable_keys = True

    def __init__(self, model: AdmissionModel) -> None:
        self.model = model
        self.name = model.name
        self.queries = tuple(Query(p, QueryKind.FORBIDDEN if p in FORBIDDEN else QueryKind.GOAL)
                             for p in model.properties)
        self.steps = Steps(model.requesters, model.revisions)
        self.bit = {p: 1 << i for i, p in enumerate(model.properties)}
        self.actions = tuple(a for a in ACTIONS if not a.startswith("replay-") or a == "replay-other"
                             or a.removeprefix("replay-") in model.faults)
        self.labels = {(i, a): f"{a} r{i}" for i in range(1, model.requesters + 1)
                       for a in (*self.actions, "revoke", "restore")}
        n = model.requesters
        self.vbits = max(1, (len(model.revisions) - 1).bit_length())
        self.low = (1 << (self.vbits + n)) - 1  # the version and the grants
        self.shifts = tuple(self.vbits + n + ID_BITS * j for j in range(n))  # requester j + 1's local id
        self.local_of: dict[int, Local] = {}
        self.id_of: dict[Local, int] = {}
        self.waiting: set[int] = set()
        self.executing: set[int] = set()
        self.uncertain: set[int] = set()
        # per (requester, local id, version, grant): its actions' (label, next local id, hits, meets, the
        # interleaving bit to add when another requester waits)
        self.rows: dict[tuple[int, int, int, int], tuple[tuple[str, int, int, int, int], ...]] = {}
        self.recovered: dict[tuple[int, int], int] = {}

    def local_id(self, loc: Local) -> int:
        """The id of a local state: BLAKE2b of its ``repr``, equal in every process; two local states
        met with one id stop the search (``ValueError``) rather than be taken for one."""
        got = self.id_of.get(loc)
        if got is None:
            got = int.from_bytes(blake2b(repr(loc).encode(), digest_size=ID_BITS // 8).digest(), "big")
            other = self.local_of.setdefault(got, loc)
            if other != loc:
                raise ValueError(f"system {self.name}: local states {other!r} and {loc!r} have one id")
            self.id_of[loc] = got
            if loc[0] is not None:
                if loc[0][0] in _WAITING:
                    self.waiting.add(got)
                elif loc[0][0] == "executing":
                    self.executing.add(got)
                elif loc[0][0] == "uncertain":
                    self.uncertain.add(got)
        return got

    def local(self, i: int, lid: int) -> Local:
        """Requester ``i``'s local state of id ``lid``. One made in another process (the partitioned search
        moves states between workers) is looked up among the local states of this process's memo (which
        holds every share it adopted), else found by running requester ``i``'s steps breadth-first from the
        empty local state (``Steps.layers``) until one has that id."""
        got = self.local_of.get(lid)
        if got is not None:
            return got
        for loc in self.steps.atoms:  # every local state this memo holds (an adopted share's too)
            if loc not in self.id_of and self.local_id(loc) == lid:
                return loc
        for layer in self.steps.layers(i):
            for loc in layer:
                if self.local_id(loc) == lid:
                    return loc
        raise KeyError(f"requester {i}: no run of the services reaches a local state of id {lid}")

    def encode(self, v: int, grants: tuple[bool, ...], locs: tuple[Local, ...]) -> State:
        x = v
        for j, g in enumerate(grants):
            x |= int(g) << (self.vbits + j)
        for sh, loc in zip(self.shifts, locs, strict=True):
            x |= self.local_id(loc) << sh
        return x

    def view(self, state: State) -> tuple[int, tuple[bool, ...], tuple[Local, ...]]:
        """A state as (policy version, grants, local states)."""
        n = self.model.requesters
        return (state & ((1 << self.vbits) - 1), tuple(bool(state >> (self.vbits + j) & 1) for j in range(n)),
                tuple(self.local(j + 1, state >> sh & ID_MASK) for j, sh in enumerate(self.shifts)))

    def initial(self) -> State:
        n = self.model.requesters
        return self.encode(0, (True,) * n, ((None, 0, 0),) * n)

    def key(self, state: State) -> State:
        return state

    def orbit_key(self, state: State) -> Hashable:
        """``symmetry.Symmetric``: requesters are interchangeable — each one's step reads only its own local
        state, its own grant and the policy version (``admission_steps``), ``replay-other`` is refused or
        observed alike whoever the other identity is, and every query reads requesters alike — so the
        orbit of a state under their permutations is its version and the sorted (local id, grant) pairs,
        packed into one integer."""
        vb = self.vbits
        key = state & ((1 << vb) - 1)
        for lid, g in sorted((state >> sh & ID_MASK, state >> (vb + j) & 1) for j, sh in enumerate(self.shifts)):
            key = (key << (ID_BITS + 1)) | (lid << 1) | g
        return key

    def parts(self, state: State) -> tuple[Hashable, ...]:
        """``frontier.Splits``: the version with the grants, and each local id, repeat across states."""
        return (state & self.low, *(state >> sh & ID_MASK for sh in self.shifts))

    def whole(self, parts: tuple[Hashable, ...]) -> State:
        x = cast(int, parts[0])
        for sh, lid in zip(self.shifts, parts[1:], strict=True):
            x |= cast(int, lid) << sh
        return x

    def memo_shares(self) -> int:
        """``protocol.SharedMemo``: one share of the step memo per requester (``admission_share``)."""
        return self.model.requesters

    def memo_build(self, shares: tuple[int, ...], bound: int, key: bytes, seconds: float | None = None) -> bytes:
        deadline = None if seconds is None else time.monotonic() + seconds
        build(self.steps, shares, bound, key, self.actions, "revoke" in self.model.faults,
              "crash" in self.model.faults, deadline)
        return export(self.steps, shares, bound, key)

    def memo_adopt(self, blob: object, shares: tuple[int, ...], bound: int, key: bytes) -> tuple[int, str]:
        got = adopt(self.steps, blob, shares, bound, key)
        return got.entries, got.refused

    def _row(self, i: int, lid: int, v: int, g: int) -> tuple[tuple[str, int, int, int, int], ...]:
        loc = self.local(i, lid)
        bit = self.bit
        inter = bit.get("two_requesters_interleave", 0)
        out = []
        for a in self.actions:
            new, effects, refused = self.steps.step(i, loc, v, bool(g), a)
            hits, meets = self._observe(loc, new, effects, refused, a, i, (), bit)
            mine = inter if any(e.replay and e.approved and e.own for e in effects) else 0
            out.append((self.labels[(i, a)], self.local_id(new), hits, meets, mine))
        return tuple(out)

    def _recover(self, i: int, lid: int) -> int:
        got = self.recovered.get((i, lid))
        if got is None:
            got = self.recovered[(i, lid)] = self.local_id(self.steps.recover(i, self.local(i, lid)))
        return got

    def successors(self, state: State) -> Iterator[Transition[State]]:
        vb = self.vbits
        v = state & ((1 << vb) - 1)
        lids = [state >> sh & ID_MASK for sh in self.shifts]
        rows, waiting = self.rows, self.waiting
        for j, (lid, sh) in enumerate(zip(lids, self.shifts, strict=True)):
            g = state >> (vb + j) & 1
            row = rows.get((j, lid, v, g))
            if row is None:
                row = self._row(j + 1, lid, v, g)
                rows[(j, lid, v, g)] = row
            for label, new, hits, meets, inter in row:
                if inter and any(m != j and o in waiting for m, o in enumerate(lids)):
                    hits |= inter
                # a self-loop yields the state itself: the search skips its visited check by identity
                yield label, state if new == lid else state + ((new - lid) << sh), hits, meets
        if v + 1 < len(self.model.revisions):
            yield "revise", state + 1, 0, 0
        if "crash" in self.model.faults and any(lid in self.executing for lid in lids):
            rec = [self._recover(j + 1, lid) for j, lid in enumerate(lids)]
            hit = self.bit.get("uncertain_after_crash", 0) if any(
                o in self.executing and n in self.uncertain for o, n in zip(lids, rec, strict=True)) else 0
            x = state & self.low
            for sh, lid in zip(self.shifts, rec, strict=True):
                x |= lid << sh
            yield "restart", x, hit, 0
        if "revoke" in self.model.faults:
            for j in range(len(lids)):
                g = not state >> (vb + j) & 1
                yield self.labels[(j + 1, "restore" if g else "revoke")], state ^ (1 << (vb + j)), 0, 0

    @staticmethod
    def _observe(old: Local, new: Local, effects: tuple[Effect, ...], refused: bool, action: str, i: int,
                 locs: tuple[Local, ...], bit: dict[str, int]) -> tuple[int, int]:
        hits = meets = 0
        b = bit.get
        if action in ("approve", "reject") and old[1] > 0:
            meets |= b("approval_recorded_twice", 0)
        if new[1] > 1:
            hits |= b("approval_recorded_twice", 0)
        if action == "replay-other":
            meets |= b("replay_by_other_identity", 0)
        if action.startswith("replay") and refused and old[0] is not None and old[0][1] is not None \
                and old[0][0] not in _DECIDABLE:
            hits |= b("second_replay_refused", 0)
        for n, e in enumerate(effects, 1):
            meets |= b("executes_twice", 0) | b("unapproved_replay", 0) | b("effect_without_live_authority", 0)
            if e.denied_now:
                meets |= b("denied_now_unapproved", 0)
            if old[2] + n >= 2:
                hits |= b("executes_twice", 0)
            if e.replay and not e.approved:
                hits |= b("unapproved_replay", 0)
            if e.denied_now and not e.approved:
                hits |= b("denied_now_unapproved", 0)
            if not e.live:
                hits |= b("effect_without_live_authority", 0)
            if not e.own:
                hits |= b("replay_by_other_identity", 0)
            if e.replay and e.approved and e.own:
                hits |= b("held_replayed_executes", 0)
                if any(j != i and loc[0] is not None and loc[0][0] in _WAITING for j, loc in enumerate(locs, 1)):
                    hits |= b("two_requesters_interleave", 0)
                if e.denied_now:
                    hits |= b("approved_replay_after_revision_to_deny", 0)
        return hits, meets


def reduced_system(model: AdmissionModel) -> Reduced[State]:
    """The admission system reduced by its requesters' symmetry (a picklable factory: the partitioned search
    builds its system on every worker)."""
    return reduced(AdmissionSystem(model))


def model_from_json(doc: object, source: str) -> AdmissionModel:
    """Check an ``admission-hold`` document; ``InvalidInput`` names the JSON path of the first defect."""
    def bad(path: tuple[str | int, ...], expected: str, found: object,
            kind: InputKind = InputKind.SCHEMA) -> InvalidInput:
        return InvalidInput(f"{source} at {json_path(path)}", expected, repr(found)[:80], kind)

    if not isinstance(doc, dict):
        raise bad((), "an object", type(doc).__name__)
    extra = set(doc) - _KEYS
    if extra:
        raise bad((sorted(extra)[0],), "only the keys " + ", ".join(sorted(_KEYS)), sorted(extra)[0])
    if doc.get("kind") != KIND:
        raise bad(("kind",), f'"{KIND}"', doc.get("kind"))
    desc = doc.get("description", "")
    if not isinstance(desc, str):
        raise bad(("description",), "a string", desc)
    n = doc.get("requesters")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 8:
        raise bad(("requesters",), "a whole number of requesters from 1 to 8", n, InputKind.VALUE)
    k = doc.get("bound")
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= 64:
        raise bad(("bound",), "a whole number of steps from 0 to 64", k, InputKind.VALUE)
    revs = doc.get("policy_revisions")
    if not isinstance(revs, list) or not revs:
        raise bad(("policy_revisions",), "a non-empty list of policy effects", revs)
    for j, r in enumerate(revs):
        if r not in _EFFECTS:
            raise bad(("policy_revisions", j), "one of " + ", ".join(_EFFECTS), r, InputKind.VALUE)
    faults = doc.get("faults", [])
    if not isinstance(faults, list):
        raise bad(("faults",), "a list of faults", faults)
    for j, f in enumerate(faults):
        if f not in FAULTS or faults.index(f) != j:
            raise bad(("faults", j), "each of " + ", ".join(FAULTS) + " at most once", f, InputKind.VALUE)
    qs = doc.get("queries")
    if not isinstance(qs, list) or not qs:
        raise bad(("queries",), "a non-empty list of property names", qs)
    for j, q in enumerate(qs):
        if q not in PROPERTIES or qs.index(q) != j:
            raise bad(("queries", j), "each of " + ", ".join(PROPERTIES) + " at most once", q, InputKind.VALUE)
    return AdmissionModel(Path(source).stem, desc, n, k, tuple(_EFFECTS[r] for r in revs), frozenset(faults),
                          tuple(qs))


def load(path: str | Path) -> AdmissionModel:
    return model_from_json(load_file(str(path)), str(path))


def is_system_file(doc: object) -> bool:
    """Whether a parsed model file is a generic system model (by its ``kind``), not a monitor model."""
    return isinstance(doc, dict) and doc.get("kind") == KIND
