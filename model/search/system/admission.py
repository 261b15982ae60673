"""The search model of the hold/replay admission protocol with several requesters (*Policy-Mediated Autonomy
with Resumable Action Attempts*), a ``protocol.System`` whose every step runs the real services
(``admission_steps.Steps``), and its JSON form (``kind: "admission-hold"``).

A state is ``(policy version, grants, locals)``: the index of the tenant policy in force among the
model's ``policy_revisions`` (the effect of ``publish_report``), per requester whether it holds the
route's grants, and per requester its local state (``admission_steps.Local``). Transitions, in this
order: per requester ``submit``, ``approve``, ``reject``, ``replay``, ``replay-other`` (the replay asked
under the next requester's identity), ``replay-timeout`` and ``replay-crash`` (with fault ``timeout``
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

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
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
State = tuple[int, tuple[bool, ...], tuple[Local, ...]]
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

    def initial(self) -> State:
        n = self.model.requesters
        return 0, (True,) * n, ((None, 0, 0),) * n

    def key(self, state: State) -> State:
        return state

    def orbit_key(self, state: State) -> Hashable:
        """``symmetry.Symmetric``: requesters are interchangeable — each one's step reads only its own local
        state, its own grant and the policy version (``admission_steps``), ``replay-other`` is refused or
        observed alike whoever the other identity is, and every query reads requesters alike — so the
        orbit of a state under their permutations is its version and the sorted (grant, local) pairs
        (sorted by ``repr``: a local state mixes ``None`` and tuples, which do not compare)."""
        v, grants, locs = state
        return v, tuple(sorted(zip(grants, locs, strict=True), key=repr))

    def parts(self, state: State) -> tuple[Hashable, ...]:
        """``frontier.Splits``: the version, the grants and each local state repeat across states."""
        return state[0], state[1], *state[2]

    def whole(self, parts: tuple[Hashable, ...]) -> State:
        return cast(State, (parts[0], parts[1], parts[2:]))

    def canonical(self, state: State) -> State:
        """``protocol.Interns``: the state with each local state replaced by the memo's own object for it."""
        v, grants, locs = state
        at = self.steps.atoms
        return v, grants, tuple([at.get(x, x) for x in locs])

    def memo_shares(self) -> int:
        """``protocol.SharedMemo``: one share of the step memo per requester (``admission_share``)."""
        return self.model.requesters

    def memo_build(self, shares: tuple[int, ...], bound: int, key: bytes) -> bytes:
        build(self.steps, shares, bound, key, self.actions, "revoke" in self.model.faults,
              "crash" in self.model.faults)
        return export(self.steps, shares, bound, key)

    def memo_adopt(self, blob: object, shares: tuple[int, ...], bound: int, key: bytes) -> tuple[int, str]:
        got = adopt(self.steps, blob, shares, bound, key)
        return got.entries, got.refused

    def successors(self, state: State) -> Iterator[Transition[State]]:
        v, grants, locs = state
        bit = self.bit
        for i, loc in enumerate(locs, 1):
            for a in self.actions:
                new, effects, refused = self.steps.step(i, loc, v, grants[i - 1], a)
                hits, meets = self._observe(loc, new, effects, refused, a, i, locs, bit)
                # a self-loop yields the state itself: the search skips its visited check by identity (a state
                # unpickled on another worker holds copies of the local states, equal but not the same objects)
                same = new is loc or new == loc
                yield self.labels[(i, a)], state if same else (v, grants, (*locs[:i - 1], new, *locs[i:])), hits, meets
        if v + 1 < len(self.model.revisions):
            yield "revise", (v + 1, grants, locs), 0, 0
        if "crash" in self.model.faults and any(loc[0] is not None and loc[0][0] == "executing" for loc in locs):
            rec = tuple(self.steps.recover(i, loc) for i, loc in enumerate(locs, 1))
            hit = bit.get("uncertain_after_crash", 0) if any(
                o[0] is not None and n[0] is not None and o[0][0] == "executing" and n[0][0] == "uncertain"
                for o, n in zip(locs, rec, strict=True)) else 0
            yield "restart", (v, grants, rec), hit, 0
        if "revoke" in self.model.faults:
            for i in range(1, len(locs) + 1):
                g = not grants[i - 1]
                yield (self.labels[(i, "restore" if g else "revoke")],
                       (v, (*grants[:i - 1], g, *grants[i:]), locs), 0, 0)

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
