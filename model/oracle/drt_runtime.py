"""Differential testing of the durable edit runtime against the Lean runtime (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge? Exact Checking for Execution Edits*, Sections VI-B, VII and
Appendices A-I, A-J, A-K; Table III).

A session is a sequence of Agent events on one policy domain: a check of an edit (one of the six
forms or a registered extension), a Preload or rule update presenting one of the answers the Agent
holds (possibly stale, possibly for another edit), a tool call or retry presenting the published
token, a token of an earlier rule version or a forged one, with the certified or an altered request,
Dispatch, a completion update, a Checkpoint with a fresh or a used ID, the operator's registered
extension ``Extend(ξ)`` run as one event (its check, then the rule update with that answer), a stop and
restart, and crash points: any event may be interrupted inside its transaction, after the step is computed and before
the commit, after which the process restarts. The Python side is ``model.edits.runtime.runtime``
on an SQLite store (a restart reopens the file); the Lean side is the ``edit_runtime`` judgment
(lean/AgentWarrant/Oracle/Runtime.lean over Spec/Edits/Machine.lean), which gets the whole session
and returns the observation and committed state after every event. Both are compared event by event.

What Lean is given and what it computes: Lean receives, for each check, what ``Derive`` gives at the
committed record (the derived check instance with pomset outcomes and the policy automaton, the
derived record's registered calls and tree names, the new rule version; ``null`` when the
derivation or the instance is invalid) and the edit's tree change (``tree_edit``: the form, the branch
or group it names, the fresh group and the new leaves with their contracts ``Γ`` — the cloning and the
rule's calls are ``Derive``'s naming), not the derived tree: Lean builds the target tree from its own
record's tree by Table I's row (``Spec/Edits/DeriveTree.lean``), and the derivation is undefined on the
Lean side when the change does not apply there. Only the root's tree is sent whole, flat
(``tree_json``: in preorder, each node with its parent's position, its place among the parent's arms or
parts, a choice's selected arm, a leaf's ``Γ_b`` by its outcome pomsets and its progress ``χ_b``); Lean
applies ``HStep`` to its tree on every tool call and decides Checkpoint's "``b`` is current" from it itself.
For a registered extension event Lean is given only the extension's policy automaton, its new rule
version and whether ``ξ`` verifies; it computes the extension instance from its own record (``extInst``: the installed
instance's residual after the calls processed since the rule update, under ``Δ·auth(z)``), which
the Python ``Derive`` computes from the execution record.
Everything else is Lean's: the checker's verdict and largest safe set, ``Ready`` (γ as equality of
records, versions, the re-derivation looked up at the record), the rule update, the target tree of
every edit, the tool call's premises and Resolve, ``HStep`` on the tree, the log, the queue, completion,
checkpoint freshness, whether a Checkpoint's branch is current and the copy it stores, Preload, crashes
and restarts.
Identifiers (calls, actions, labels, versions, tree names and checkpoint IDs, edits, values) are
numbered in order of first appearance over the session; records by their position.

Compared after every event: the observation, and the committed state: ``ver``, the active version,
the closed and inactive versions, χ (call, action, mode, token version, record), the log (action,
creator, sent, value), the registered calls, the tree's names, the checkpoints, ``|χ|`` at the rule
update, the words of ``π₂B̂*`` (the completions of the automaton in force), the rule entries,
the prepared versions, the tree (each node's name, kind, parent, place, selected arm and ``χ_b``) and
each checkpoint's stored copy (its branch, ``χ_b`` and the outcomes of ``𝒞_b = Γ_b/raw(χ_b)`` by
their remaining calls). Lean's machine names every edit's new nodes itself (``treeDerN`` of
Spec/Edits/DeriveTreeJudged.lean: ``leanNames``, above the tree's names, the checkpoint IDs and the
registered names) and runs on its own names for the whole session; the new names a change carries are
not read. After every committed edit (a rule update on the runtime, an accepted edit on the ideal
machine) Python's tree must be Lean's up to a map of Lean's new names one-to-one onto names not in use
before the edit (``renaming``), so Python's fresh names are checked rather than trusted; that map
extends a renaming of all names (a permutation, ``extended``), by which every later event's names are
translated into Lean's numbering before sending (``lean_event``) and every Python state and observation
is compared (``lean_numbered``). Since Lean's names are known only from its answer, the session is sent
again after each committed edit that renames (``run_named``). A Fork's or Restore's new leaves' contracts
are Lean's where the case lies in the binary term model: the check (or ideal edit) also carries the
judged request (``drt_judged.judged_request``: the branch's remaining contract and every stored copy's as terms in
the session's numbering, ``drt_derive``'s request, and Python's names for the calls the judgment
allocates), and Lean's machine (``derRunJ``) runs its source check against its own record, judges the
request and installs the judged contracts; Python's are then compared with them (``judged_check``), and a
leaf whose ``Γ_b`` is a term is sent with it (``"term"``), so the check compares the judgment's pomsets
with the tree's. Outside the fragment (a family, a wider group, an unregistered rule, ...) the contracts
stay Python's; both are counted (tags ``judged edit``, ``edit outside the term model``). After every install
of an edit (a committed rule update, an accepted ideal edit) Lean reports ``⟦T'⟧`` of the tree its machine
installed and whether the installed instance's outcomes are it, and the driver repeats that comparison on
the outcomes it sent; Lean's machine runs on ``Derive`` guarded by the comparison (``tciGuard``: a derivation
whose instance's outcomes are not ``⟦T'⟧`` of its tree is undefined), and each check or edit reports Lean's
verdict on its derivation (``"instContract"``); a false verdict or a disagreement is a mismatch
(``drt_judged.contract_check``, tag ``installed instance is ⟦T'⟧``). A registered extension installs the
instance Lean's machine computes with the record's tree; Lean's machine refuses it unless that instance's
outcomes are ``⟦T⟧`` of the tree and reports the verdict (``"extContract"``): a false one is a mismatch,
and a committed extension's install is checked as an edit's (tag ``extension instance is ⟦T⟧`` besides
``installed instance is ⟦T'⟧``). Choices: a
crashed check commits nothing and its answer is lost; the crash is injected by a ``Runtime`` subclass
whose step raises inside the open transaction (SQLite then rolls it back), and a restart closes the
store and opens it again; a session draws no edit that derives an outcome of more than ``MAX_EVENTS``
calls (both checkers enumerate every linearization).

``run_ideal_session`` does the same for the ideal machine: Agent actions drawn from the ideal
machine's menu run on ``model.edits.ideal.machine`` and on the ``edit_ideal`` judgment (Lean's
``stepI``); the observation is compared without the record number and the denial reason, which the
Python ideal machine does not report. Every derivation an edit event meets is also checked by
``edit_check`` with its source results (``derived_check``): Lean decides the coverage witnesses
itself from the record's still-required results and the target outcomes covering each, and both
sides must find them true and agree on the answer (tagged ``derived check``). A drawn ``Extend(ξ)``
whose derivation is defined is sent to Lean as ``extend`` (Lean's own extension instance) rather than
with Python's derivation. Choice: the extensions drawn carry no new entries (``Extend()``: the
registrations' edit rules, templates and policy are already registered), so ``ξ`` always verifies
and the policy automaton is the current one.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.base.canonical import JSON, canonical_str, loads
from model.edits.check.answer import Invalid
from model.edits.check.checker import decide
from model.edits.check.contract import Pomset, call_ids, outcomes
from model.edits.check.instance import Instance
from model.edits.check.resolve import Mode, Word
from model.edits.ideal import machine as M
from model.edits.ideal.bisim import bisim_registration, key_of, menu
from model.edits.runtime.answers import (
    CheckAnswer,
    CheckpointRefused,
    Deny,
    EditAccepted,
    EditInvalid,
    EditRejected,
    New,
    NoCommit,
    Preloaded,
    QueueEmpty,
    Returned,
    Reuse,
    Saved,
    Sent,
    Settled,
    SettleRefused,
    Updated,
)
from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.forms import (
    Edit,
    Extend,
    ForkChoice,
    ForkParallel,
    MergeJoin,
    MergeSelect,
    RestoreLive,
    RestoreReplace,
    edit_to_json,
)
from model.edits.runtime.record import State
from model.edits.runtime.registration import Registration
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import laptop, playground
from model.edits.runtime.tree import (
    OPEN,
    ChoiceNode,
    JoinNode,
    Leaf,
    Node,
    ParNode,
    addressable,
    groups,
    leaves,
    residual,
)
from model.oracle import edits_json as E
from model.oracle.drt_judged import contract_check, gamma_term, judged_check, judged_request, root_contract_check
from model.oracle.drt_root import root_order
from model.oracle.inproc import Oracle
from model.oracle.lean import shaped
from model.oracle.results import Agree, CaseResult, Mismatch

JUDGMENT = "edit_runtime"
# the largest outcome (events) an edit drawn for a session may derive: every outcome's linearizations
# are enumerated by both checkers (up to 6! orders), so larger ones would make a session cost minutes
MAX_EVENTS = 6
IDEAL = "edit_ideal"
# a session's tag for its root tree: Lean installs a root only when all four checks of ``root_order``
# pass (``startArity``), and the driver compares each verdict with its own
ROOT_TAG = "root tree checked: order, links, names, arities"
# a committed extension whose installed instance Lean found to be ⟦T⟧ of the record's tree (tciExtOk)
EXT_TAG = "extension instance is ⟦T⟧"
# an accepted root whose instance Lean found to be ⟦T⟧ of the root tree (tciRootOk)
ROOT_CONTRACT_TAG = "root instance is ⟦T⟧"
VALUES: tuple[JSON, ...] = ({"ok": True}, {"ok": False, "n": 2})


class Crash(Exception):
    """The injected stop inside an open transaction."""


class CrashingRuntime(Runtime):
    """The runtime whose next atomic step, when armed, stops after computing its new state and before
    writing or committing it (the transaction is rolled back, as after a process kill)."""

    armed = False

    def _step(self, name: str, inp: JSON, fn: Any) -> Any:
        if not self.armed:
            return super()._step(name, inp, fn)
        self.armed = False

        def dying(s: State) -> Any:
            fn(s)
            raise Crash(name)

        return super()._step(name, inp, dying)


@dataclass
class Numbering:
    """Session-wide numbering of identifiers, by kind, in order of first appearance."""

    tables: dict[str, dict[str, int]] = field(default_factory=dict)

    def n(self, kind: str, name: str) -> int:
        t = self.tables.setdefault(kind, {})
        return t.setdefault(name, len(t))

    def names(self, kind: str) -> list[str]:
        return list(self.tables.get(kind, {}))


def _rec(record: str) -> int:
    return int(record[1:])  # "p3" → 3 (records are numbered p1, p2, … in creation order)


def tree_names(s: State) -> set[str]:
    """What a Checkpoint ID must differ from, besides the checkpoints: branches, groups, joined groups."""
    if s.tree is None:
        return set(s.joined)
    return {lf.branch for lf in leaves(s.tree)} | set(groups(s.tree)) | set(s.joined)


def instance_json(nb: Numbering, inst: Instance) -> dict[str, Any]:
    """``edit_check``'s given instance (pomset outcomes, maps, log, policy automaton), numbered session-wide."""
    outs = list(inst.outcomes().items())
    q_act, lab = inst.action_map(), inst.label_map()
    for c in sorted(set(call_ids(inst.contract)) | set(q_act)):
        nb.n("call", c)
    for d in sorted(set(q_act.values()) | set(lab) | set(inst.log)):
        nb.n("action", d)
    for x in sorted(set(lab.values()) | inst.policy.alphabet):
        nb.n("label", x)
    return {
        "outcomes": [{"id": k, "events": [nb.n("call", c) for c in sorted(p.calls)],
                      "order": [[nb.n("call", a), nb.n("call", c)] for c, preds in p.preds for a in sorted(preds)]}
                     for k, (_, p) in enumerate(outs)],
        "act": [nb.n("action", q_act[c]) if c in q_act else 0 for c in nb.names("call")],
        "lab": [nb.n("label", lab[d]) if d in lab else 0 for d in nb.names("action")],
        "log": [nb.n("action", d) for d in inst.log],
        "policy": {"delta": [[q, nb.n("label", a), r] for (q, a), r in inst.policy.delta]},
    }


def pomset_json(nb: Numbering, p: Pomset) -> dict[str, Any]:
    return {"events": [nb.n("call", c) for c in sorted(p.calls)],
            "order": [[nb.n("call", a), nb.n("call", c)] for c, preds in p.preds for a in sorted(preds)]}


def tree_json(nb: Numbering, tree: Node | None) -> list[dict[str, Any]]:
    """The tree flat, in preorder (``Spec/Edits/MachineTree.lean``): kind 0 leaf, 1 choice, 2 parallel,
    3 join, 4 sequence; ``parent`` is one more than the parent's position (0 at the root); ``sel`` is 0 for
    an open choice, else one more than the selected arm's place. A sequence has no name (0)."""
    out: list[dict[str, Any]] = []

    def walk(n: Node, parent: int, pos: int) -> None:
        node: dict[str, Any] = {"name": 0, "kind": 4, "parent": parent, "pos": pos, "sel": 0, "gamma": [], "done": []}
        out.append(node)
        me = len(out)
        if isinstance(n, Leaf):
            node |= {"name": nb.n("name", n.branch), "kind": 0, "done": [nb.n("call", c) for c in n.done],
                     "gamma": [pomset_json(nb, p) for p in outcomes(n.gamma).values()]}
            term = gamma_term(nb, n.gamma)
            if term is not None:
                node["term"] = term
            return
        if isinstance(n, ChoiceNode):
            arms = [a for a, _ in n.arms]
            node |= {"name": nb.n("name", n.group), "kind": 1,
                     "sel": 0 if n.status == OPEN else arms.index(n.status) + 1}
            children = [t for _, t in n.arms]
        else:
            if isinstance(n, ParNode | JoinNode):
                node |= {"name": nb.n("name", n.group), "kind": 2 if isinstance(n, ParNode) else 3}
            children = list(n.parts)
        for i, t in enumerate(children):
            walk(t, me, i)

    if tree is not None:
        walk(tree, 0, 0)
    return out


def tree_state(nb: Numbering, tree: Node | None) -> list[list[Any]]:
    """The tree as the compared state shows it (``Γ_b`` is immutable and left out)."""
    return [[n["name"], n["kind"], n["parent"], n["pos"], n["sel"], n["done"]] for n in tree_json(nb, tree)]


def derived_json(nb: Numbering, inst: Instance, record: State, eta_new: str,
                 edit: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``Derive`` gives, with the tree itself (the root) or, for an edit, the tree change ``edit``
    (``tree_edit``) from which Lean computes the tree."""
    return {"instance": instance_json(nb, inst), "calls": sorted(nb.n("call", x) for x, _ in record.calls),
            "names": sorted(nb.n("name", k) for k in tree_names(record)), "eta": nb.n("version", eta_new),
            **({"tree": tree_json(nb, record.tree)} if edit is None else {"edit": edit})}


def tree_edit(nb: Numbering, old: Node, u: Edit, new: Node) -> dict[str, Any]:
    """The tree change of ``u`` as Lean takes it (``Spec/Edits/DeriveTree.lean``): the form, the branch or
    group it names, and what ``Derive`` chose for it — the fresh group and the new leaves, each with its
    name and ``Γ`` by outcome pomsets, in preorder. The shape of the new tree is not sent: Lean builds it
    from its own tree by Table I's row."""
    before = {lf.branch for lf in leaves(old)}
    fresh = [lf for lf in leaves(new) if lf.branch not in before]
    leaf_docs = [[nb.n("name", lf.branch), [pomset_json(nb, p) for p in outcomes(lf.gamma).values()],
                  *[t for t in [gamma_term(nb, lf.gamma)] if t is not None]] for lf in fresh]
    new_groups = sorted(set(groups(new)) - set(groups(old)))
    group = nb.n("name", new_groups[0]) if new_groups else 0
    if isinstance(u, ForkChoice | ForkParallel):
        return {"form": "fork", "par": isinstance(u, ForkParallel), "branch": nb.n("name", u.branch),
                "group": group, "leaves": leaf_docs}
    if isinstance(u, RestoreReplace | RestoreLive):
        return {"form": "restore", "live": isinstance(u, RestoreLive), "branch": nb.n("name", u.branch),
                "group": group, "leaves": leaf_docs}
    if isinstance(u, MergeSelect):
        group_node = addressable(old)[u.group]  # Derive found it current (else there is no change to send)
        assert isinstance(group_node, ChoiceNode)
        arms = group_node.arms
        return {"form": "select", "group": nb.n("name", u.group), "arm": [a for a, _ in arms].index(u.arm),
                "leaves": leaf_docs}
    if isinstance(u, MergeJoin):
        return {"form": "join", "group": nb.n("name", u.group), "leaves": leaf_docs}
    return {"form": "keep"}


def small(s: State, u: Edit) -> bool:
    """The edit derives no outcome with more than ``MAX_EVENTS`` calls (or derives nothing)."""
    d = derive(s, u)
    return not isinstance(d, Derived) or all(len(p.calls) <= MAX_EVENTS for p in d.instance.outcomes().values())


def derivation(nb: Numbering, s: State, u: Edit) -> dict[str, Any] | None:
    """What ``Derive`` gives at ``s`` for ``u`` (``None``: undefined, or an instance the checker finds invalid)."""
    d = derive(s, u)
    if not isinstance(d, Derived) or isinstance(decide(d.instance), Invalid):
        return None
    assert s.tree is not None and d.record.tree is not None
    out = derived_json(nb, d.instance, d.record, d.eta_new, tree_edit(nb, s.tree, u, d.record.tree))
    j = judged_request(nb, s, u, d)
    return out | ({"judged": j} if j is not None else {})


def _word(nb: Numbering, w: Word) -> list[Any]:
    return [[nb.n("call", a.call), nb.n("action", a.action), a.mode is Mode.NEW] for a in w]


def python_state(nb: Numbering, s: State) -> dict[str, Any]:
    sent = {o.record: o.sent for o in s.out}

    def ver(v: str) -> int:
        return nb.n("version", v)

    return {
        "ver": s.ver, "eta": None if s.eta is None else ver(s.eta),
        "active": sorted(ver(v) for v, ph in s.versions if ph == "active"),
        "closed": sorted(ver(v) for v, ph in s.versions if ph == "closed"),
        "inactive": sorted(ver(v) for v, ph in s.versions if ph == "inactive"),
        "processed": [[nb.n("call", p.call), nb.n("action", p.action), p.mode is Mode.NEW,
                       ver(p.entry.split("/", 1)[0]), _rec(p.record)] for p in s.processed],
        "log": [[nb.n("action", r.action), nb.n("call", r.creator), sent.get(r.id, False),
                 None if r.value is None else nb.n("value", r.value)] for r in s.log],
        "calls": sorted(nb.n("call", x) for x, _ in s.calls),
        "names": sorted(nb.n("name", k) for k in tree_names(s)),
        "checkpoints": [nb.n("name", k) for k, _ in s.checkpoints],
        "base": 0 if s.installed is None else s.installed.chi_len,
        "words": sorted(_word(nb, w) for _, w in s.automaton.completions()) if s.automaton is not None else [],
        "entries": sorted(nb.n("call", x) for x, _ in s.entries),
        "prepared": sorted(ver(v) for v, _ in s.prepared),
        "tree": tree_state(nb, s.tree),
        "saved": [[nb.n("name", k), nb.n("name", c.branch), [nb.n("call", x) for x in c.done],
                   sorted(sorted(nb.n("call", x) for x in p.calls)
                          for p in outcomes(residual(c.gamma, c.done)).values())]
                  for k, c in s.checkpoints],
    }


def lean_state(out: Any) -> dict[str, Any]:
    """The Lean state in the Python projection's shape (sets sorted; one active version, the current
    one; the inactive versions are the prepared ones)."""
    eta = out["eta"]
    return {**out, "active": [] if eta is None else [eta], "closed": sorted(out["closed"]),
            "inactive": sorted(out["prepared"]), "calls": sorted(out["calls"]), "names": sorted(out["names"]),
            "words": sorted(out["words"]), "entries": sorted(out["entries"]), "prepared": sorted(out["prepared"]),
            "saved": [[k, b, done, sorted(sorted(r) for r in rest)] for k, b, done, rest in out["saved"]]}


def _obs(nb: Numbering, a: Any) -> list[Any]:
    """A Python answer in the oracle's observation spelling."""
    if isinstance(a, EditInvalid | EditRejected | EditAccepted):
        return ["edit", {EditInvalid: "invalid", EditRejected: "rejected", EditAccepted: "accepted"}[type(a)]]
    if isinstance(a, Updated | Preloaded):
        return ["updated" if isinstance(a, Updated) else "preloaded", nb.n("version", a.eta)]
    if isinstance(a, NoCommit):
        return ["no-commit", a.reason.value]
    if isinstance(a, New | Reuse):
        kind = "new" if isinstance(a, New) else "reuse"
        return [kind, nb.n("call", a.call), nb.n("action", a.action), _rec(a.record)]
    if isinstance(a, Deny):
        return ["deny", nb.n("call", a.call), a.reason.value]
    if isinstance(a, Returned):
        return ["return", nb.n("call", a.call), _rec(a.record),
                None if a.value is None else nb.n("value", canonical_str(a.value))]
    if isinstance(a, Sent):
        return ["sent", _rec(a.record), nb.n("action", a.action)]
    if isinstance(a, QueueEmpty):
        return ["queue-empty"]
    if isinstance(a, Settled):
        return ["settled", _rec(a.record)]
    if isinstance(a, SettleRefused):
        return ["settle-refused", nb.n("action", a.action), a.reason]
    if isinstance(a, Saved):
        return ["saved", nb.n("name", a.checkpoint)]
    assert isinstance(a, CheckpointRefused)
    return ["checkpoint-refused", nb.n("name", a.checkpoint), a.reason]


REGISTRATIONS = ("laptop", "playground")


def registration(name: str) -> tuple[Registration, bytes]:
    return bisim_registration(laptop() if name == "laptop" else playground())


@dataclass
class Driver:
    """One session on the Python runtime: each event's observation and committed state, and the event
    in the oracle's spelling."""

    path: str
    reg: Registration
    seed: bytes
    nb: Numbering = field(default_factory=Numbering)
    answers: list[tuple[Edit, CheckAnswer]] = field(default_factory=list)
    tokens: dict[str, dict[str, str]] = field(default_factory=dict)  # call → version → token seen
    rt: CrashingRuntime | None = None

    def start(self) -> dict[str, Any] | None:
        rt, _ = Runtime.create(self.path, self.reg, self.seed)
        rt.close()
        self.rt = CrashingRuntime(self.path)
        s = self.rt.state()
        self._see(s)
        if s.installed is None or s.eta is None:
            return None
        return derived_json(self.nb, s.installed.instance, s, s.eta)

    @property
    def runtime(self) -> CrashingRuntime:
        assert self.rt is not None
        return self.rt

    def _see(self, s: State) -> None:
        for x, e in s.entries:
            self.tokens.setdefault(x, {})[e.version] = e.token

    def _token(self, s: State, call: str, choice: str) -> tuple[str, int | None]:
        """The token presented and its Lean spelling (the version it was issued under; ``None``: forged)."""
        if choice == "forged":
            return "forged", None
        seen = self.tokens.get(call, {})
        if choice == "old":
            old = [v for v in seen if v != s.eta]
            if old:
                return seen[old[0]], self.nb.n("version", old[0])
        e = dict(s.entries).get(call)
        if e is not None:
            return e.token, self.nb.n("version", e.version)
        p = next((p for p in s.processed if p.call == call), None)
        if p is not None:
            return p.token, self.nb.n("version", p.entry.split("/", 1)[0])
        return "", None

    def state(self) -> dict[str, Any]:
        return python_state(self.nb, self.runtime.state())

    def restart(self) -> None:
        self.runtime.close()
        self.rt = CrashingRuntime(self.path)

    def run(self, act: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
        """Run one session event (an abstract action); return its oracle spelling and the observation."""
        rt, s, nb = self.runtime, self.runtime.state(), self.nb
        kind = act["kind"]
        crash = bool(act.get("crash")) and kind not in ("retry", "restart")  # (neither opens a transaction)
        rt.armed = crash
        ev: dict[str, Any] = {"kind": kind}
        obs: Any
        if kind == "restart":
            self.restart()
            return ev, ["restarted"]
        if kind == "check":
            u = act["edit"]
            ev |= {"edit": nb.n("edit", canonical_str(edit_to_json(u))), "derived": derivation(nb, s, u)}
            a = rt.check(u)
            if crash:  # the process stops before the Agent receives the answer
                rt.armed = False
                ev["crash"] = True
                self.restart()
                return ev, ["crashed"]
            self.answers.append((u, a))
            obs = a
        elif kind in ("update", "preload"):
            u = act["edit"]
            i = act["answer"]
            ev |= {"edit": nb.n("edit", canonical_str(edit_to_json(u))), "answer": i}
            answer = self.answers[i][1]
            obs = self._guard(lambda: rt.try_update(u, answer) if kind == "update" else rt.preload(u, answer))
        elif kind in ("use", "retry"):
            x = act["call"]
            tok, ltok = self._token(s, x, act["token"])
            req = rt.request_of(x) if act["request"] else {"altered": True}
            ev |= {"call": nb.n("call", x), "token": ltok, "request": bool(act["request"])}
            obs = self._guard(lambda: rt.use(x, tok, req)) if kind == "use" else rt.retry(x, tok, req)
        elif kind == "dispatch":
            obs = self._guard(rt.dispatch)
        elif kind == "settle":
            v = VALUES[act["value"]]
            ev |= {"action": nb.n("action", act["action"]), "value": nb.n("value", canonical_str(v))}
            obs = self._guard(lambda: rt.settle(act["action"], v))
        elif kind == "checkpoint":
            k, b = act["id"], act["branch"]
            ev |= {"id": nb.n("name", k), "branch": nb.n("name", b)}
            obs = self._guard(lambda: rt.checkpoint(k, b))
        elif kind == "extend":
            u = Extend()
            ev |= extend_event(nb, s)
            rt.armed = False  # the check opens no transaction that could commit; the update is the one crashed
            a = rt.check(u)
            if isinstance(a, EditAccepted):
                rt.armed = crash
                obs = self._guard(lambda: rt.try_update(u, a))
            elif crash:  # Lean's crashed extension commits nothing either
                obs = None
            else:
                obs = a
        else:
            raise ValueError(f"unknown session event kind {kind!r}")
        if crash:
            ev["crash"] = True
        if obs is None:
            self.restart()
            return ev, ["crashed"]
        self._see(self.runtime.state())
        return ev, _obs(nb, obs)

    def _guard(self, f: Any) -> Any:
        try:
            return f()
        except Crash:
            return None

    def close(self) -> None:
        if self.rt is not None:
            self.rt.close()


def extend_event(nb: Numbering, s: State) -> dict[str, Any]:
    """What Lean is given for the registered extension ``Extend()`` at ``s``: the policy automaton, the
    new rule version ``Derive`` allocates, and that ``ξ`` verifies (its derivation must be defined)."""
    d = derive(s, Extend())
    assert isinstance(d, Derived)
    return {"policy": instance_json(nb, d.instance)["policy"], "eta": nb.n("version", d.eta_new), "verified": True}


def extendable(s: State, u: Edit) -> bool:
    """``u`` is ``Extend()`` with a defined derivation of bounded size."""
    return isinstance(u, Extend) and u == Extend() and isinstance(derive(s, u), Derived) and small(s, u)


def _menu(d: Driver, rng: random.Random, edits: int) -> dict[str, Any]:
    """One abstract event drawn for the current Python state."""
    s = d.runtime.state()
    acts = menu(M.Ideal(s, frozenset(), ()))
    crash = rng.random() < 0.12
    r = rng.random()
    if d.answers and r < 0.25:
        i = rng.randrange(len(d.answers))
        u = d.answers[i][0] if rng.random() < 0.85 else d.answers[rng.randrange(len(d.answers))][0]
        return {"kind": rng.choice(("update", "update", "preload")), "edit": u, "answer": i, "crash": crash}
    edit_acts = [a for a in acts if a[0] == "edit"]
    if edit_acts and r < 0.42 and edits > 0:
        u = rng.choice(edit_acts)[1]
        crash_check = rng.random() < 0.05
        if extendable(s, u) and rng.random() < 0.5:
            return {"kind": "extend", "crash": crash}
        if small(s, u):
            return {"kind": "check", "edit": u, "crash": crash_check}
    a = rng.choice([a for a in acts if a[0] not in ("edit", "raced")])
    kind = a[0]
    if kind in ("use", "retry"):
        token = rng.choices(("published", "old", "forged"), (8, 2, 1))[0]
        return {"kind": kind, "call": a[1], "token": token, "request": rng.random() < 0.9,
                "crash": crash and kind == "use"}
    if kind == "checkpoint":
        k = a[1]
        used = sorted(tree_names(s) | {c for c, _ in s.checkpoints})
        if used and rng.random() < 0.2:
            k = rng.choice(used)
        b = a[2]
        # Lean decides currency itself; bias the draw towards the names it must refuse: a leaf outside
        # addr(T) (a disabled arm, a later sequence part) or a group (addressable, but not a branch)
        addr = addressable(s.tree) if s.tree is not None else {}
        off = sorted({lf.branch for lf in leaves(s.tree)} - set(addr)) + sorted(groups(s.tree)) if s.tree else []
        if off and rng.random() < 0.3:
            b = rng.choice(off)
        return {"kind": kind, "id": k, "branch": b, "crash": crash}
    if kind == "settle":
        return {"kind": kind, "action": a[1], "value": rng.randrange(len(VALUES)), "crash": crash}
    return {"kind": kind, "crash": crash and kind != "restart"}


@dataclass(frozen=True, slots=True)
class Session:
    registration: str
    seed: int
    length: int


def _events_doc(events: list[dict[str, Any]]) -> list[Any]:
    return [{k: (canonical_str(edit_to_json(v)) if k == "edit" else v) for k, v in e.items()} for e in events]


def run_session(oracle: Oracle, case: Session, workdir: Path | None = None) -> CaseResult:
    """One generated session on both runtimes. An agreement is tagged once per event compared
    (``event``) and once per crash point (``crash point``), for the campaign's summary."""
    tmp = Path(tempfile.mkdtemp(dir=workdir or _fast_dir(), prefix="edit-runtime-"))
    reg, seed = registration(case.registration)
    d = Driver(str(tmp / "s.db"), reg, seed)
    rng = random.Random(case.seed)
    try:
        root = d.start()
        py_init = d.state()
        actions: list[dict[str, Any]] = []
        events: list[dict[str, Any]] = []
        py_steps: list[dict[str, Any]] = []
        edits = 3
        for _ in range(case.length):
            act = _menu(d, rng, edits)
            if act["kind"] in ("check", "extend"):
                edits -= 1
            actions.append(act)
            ev, obs = d.run(act)
            events.append(ev)
            py_steps.append({"obs": obs, "state": d.state()})
        commits = [e["kind"] == "update" and st["obs"][0] == "updated" for e, st in zip(events, py_steps, strict=True)]
        out, perm, lean_steps, named_bad, named = run_named(oracle, JUDGMENT, root, events, py_steps, commits)
        payload = {"root": root, "events": [lean_event(perm, e) for e in events]}
        lean = shaped(JUDGMENT, out, lambda o: {
            "root": bool(o["root"]), "state": lean_state(o["state"]) if o["root"] else None,
            "steps": [{"obs": st["obs"], "state": lean_state(st["state"])} for st in o["steps"]]})
        python = {"root": root is not None, "state": py_init if root is not None else None, "steps": lean_steps}
        j_bad, judged, outside = judged_check(events, out["steps"])
        c_bad, contracts, ext_contracts = contract_check(events, out["steps"], commits)
        r_bad = root_contract_check(root, out)
        bad = _compare(python, lean) + root_order(root, out) + named_bad + j_bad + c_bad + r_bad
        crashes = sum(1 for e in events if e.get("crash"))
        doc = {"registration": case.registration, "seed": case.seed, "length": case.length,
               "actions": _events_doc(actions)}
        if bad:
            return Mismatch(JUDGMENT, tuple(bad), doc, payload, python, lean)
        extends = sum(1 for e in events if e["kind"] == "extend")
        return Agree("session", ("event",) * len(events) + ("crash point",) * crashes + ("extend",) * extends
                     + checkpoint_tags(py_steps) + tree_tags(events, py_steps) + ("lean names",) * named
                     + renamed_tags(perm, events) + (ROOT_TAG, ROOT_CONTRACT_TAG) * (root is not None)
                     + ("judged edit",) * judged + ("edit outside the term model",) * outside
                     + ("installed instance is ⟦T'⟧",) * contracts + (EXT_TAG,) * ext_contracts)
    finally:
        d.close()
        shutil.rmtree(tmp, ignore_errors=True)


def checkpoint_tags(steps: list[dict[str, Any]]) -> tuple[str, ...]:
    """One tag per agreed Checkpoint decision: saved, or refused with its reason."""
    return tuple("checkpoint saved" if st["obs"][0] == "saved" else f"checkpoint {st['obs'][2]}"
                 for st in steps if st["obs"][0] in ("saved", "checkpoint-refused"))


def tree_tags(events: list[dict[str, Any]], steps: list[dict[str, Any]]) -> tuple[str, ...]:
    """One tag per agreed tree Lean built for an accepted edit (a committed rule update on the runtime,
    an accepted edit on the ideal machine), by the change's form: ``tree fork``, ``tree restore``, …"""
    forms = {e["edit"]: e["derived"]["edit"]["form"] for e in events
             if e["kind"] in ("check", "edit") and e.get("derived")}
    return tuple(f"tree {forms[e['edit']]}" for e, st in zip(events, steps, strict=True)
                 if e.get("edit") in forms and ((e["kind"] == "update" and st["obs"][0] == "updated")
                                                or (e["kind"] == "edit" and st["obs"] == ["edit", "accepted"])))


def renamed_tags(perm: Perm, events: list[dict[str, Any]]) -> tuple[str, ...]:
    """``renamed session`` once when the session reached Lean in another numbering than Python's, and
    ``renamed event`` for each event whose names Lean received translated."""
    return (("renamed session",) * bool(perm)
            + ("renamed event",) * sum(1 for e in events if lean_event(perm, e) != e))


def in_use(state: dict[str, Any]) -> set[int]:
    """The names a committed state uses: its tree's (a sequence, kind 4, is unnamed), its registered
    names and its checkpoint IDs."""
    return {row[0] for row in state["tree"] if row[1] != 4} | set(state["names"]) | set(state["checkpoints"])


def renaming(before: dict[str, Any], lean_tree: list[Any] | None, python_tree: list[Any]) -> dict[int, int] | None:
    """Python's tree after an edit (already in Lean's numbering for the names in use) against Lean's tree
    with Lean's own names for the new nodes: node by node equal, a name in use before the edit kept, and
    Lean's new names sent one-to-one onto names not in use before (tree names, registered names,
    checkpoint IDs). The map from Lean's new names to Python's, or ``None`` when there is none."""
    if lean_tree is None or len(lean_tree) != len(python_tree):
        return None
    used = in_use(before)
    phi: dict[int, int] = {}
    for q, p in zip(lean_tree, python_tree, strict=True):
        if q[1:] != p[1:]:
            return None
        if q[1] == 4:  # a sequence: its name is no name
            continue
        if q[0] in used:
            if p[0] != q[0]:
                return None
        elif p[0] in used or phi.setdefault(q[0], p[0]) != p[0]:
            return None
    return phi if len(set(phi.values())) == len(phi) else None


def renamed(before: dict[str, Any], lean_tree: list[Any] | None, python_tree: list[Any]) -> bool:
    """Python's tree is Lean's up to a renaming of Lean's new names (``renaming``)."""
    return renaming(before, lean_tree, python_tree) is not None


# A renaming is a permutation of names with finite support, Python's name → Lean's: a permutation (not
# just the new names' map) so that a name Python later takes fresh (a checkpoint ID, say) cannot land
# on a name Lean already uses.
Perm = dict[int, int]


def extended(perm: Perm, phi: dict[int, int]) -> Perm:
    """``perm`` followed by the permutation sending each ``phi[l]`` (a Python new name, in Lean's
    numbering) to Lean's new name ``l``; both sides are unused before the edit, so every name in use
    keeps its image."""
    tau = {a: lean for lean, a in phi.items()}
    spare = sorted(set(phi) - set(tau))
    for x, y in zip(spare, sorted(set(tau) - set(phi)), strict=True):
        tau[x] = y
    inverse = {v: k for k, v in perm.items()}
    out: Perm = {}
    for n in set(perm) | {inverse.get(x, x) for x in tau}:
        m = tau.get(perm.get(n, n), perm.get(n, n))
        if m != n:
            out[n] = m
    return out


def lean_event(perm: Perm, ev: dict[str, Any]) -> dict[str, Any]:
    """A session event with its node names (checkpoint IDs and branches, the tree change's branch or
    group and new names, the derived record's names) in Lean's numbering."""
    def r(n: int) -> int:
        return perm.get(n, n)

    out = dict(ev)
    if ev["kind"] == "checkpoint":
        out |= {"id": r(ev["id"]), "branch": r(ev["branch"])}
    d = ev.get("derived")
    if d:
        edit = dict(d["edit"])
        for key in ("branch", "group"):
            if key in edit:
                edit[key] = r(edit[key])
        if "leaves" in edit:
            edit["leaves"] = [[r(leaf[0]), *leaf[1:]] for leaf in edit["leaves"]]
        out["derived"] = d | {"names": sorted(r(n) for n in d["names"]), "edit": edit}
        j = d.get("judged")
        if j:
            req = j["request"]
            if req[0] in ("restore_replace", "restore_live"):
                req = [req[0], r(req[1]), req[2]]
            out["derived"]["judged"] = j | {"store": [[r(k), t] for k, t in j["store"]], "request": req}
    return out


def lean_numbered(perm: Perm, state: dict[str, Any]) -> dict[str, Any]:
    """A Python state (``python_state``) in Lean's numbering of names."""
    def r(n: int) -> int:
        return perm.get(n, n)

    return state | {
        "names": sorted(r(n) for n in state["names"]), "checkpoints": [r(k) for k in state["checkpoints"]],
        "tree": [row if row[1] == 4 else [r(row[0]), *row[1:]] for row in state["tree"]],
        "saved": [[r(k), r(b), *rest] for k, b, *rest in state["saved"]]}


def lean_obs(perm: Perm, obs: list[Any]) -> list[Any]:
    """A Python observation in Lean's numbering (a Checkpoint's ID)."""
    if obs[0] in ("saved", "checkpoint-refused"):
        return [obs[0], perm.get(obs[1], obs[1]), *obs[2:]]
    return obs


def run_named(oracle: Oracle, judgment: str, root: dict[str, Any] | None, events: list[dict[str, Any]],
              python_steps: list[dict[str, Any]],
              commits: list[bool]) -> tuple[Any, Perm, list[dict[str, Any]], list[str], int]:
    """Run the session on Lean's machine, which names every edit's new nodes itself (``treeDerN``), in
    Lean's numbering (Python's contracts are sent as they are): starting from the identity, after each
    committed edit (``commits``) the map from Python's new names to Lean's (``renaming``) extends the
    renaming, and the session is sent again with every event translated, until a run adds nothing.
    Returns Lean's output, the final renaming, Python's steps in Lean's numbering, the steps whose tree is
    not Lean's up to a renaming of the new names, and the number of committed edits so checked."""
    perm: Perm = {}
    for _ in range(sum(commits) + 1):
        out = oracle.call(judgment, {"root": root, "events": [lean_event(perm, e) for e in events]})
        bad: list[str] = []
        grown = False
        before = out.get("state")
        for k, (q, p) in enumerate(zip(out["steps"], python_steps, strict=False)):
            if commits[k]:
                phi = renaming(before, q["state"]["tree"], lean_numbered(perm, p["state"])["tree"])
                if phi is None:
                    bad.append(f"step {k} names")
                elif any(lean != a for lean, a in phi.items()):
                    perm, grown = extended(perm, phi), True
                    break
            before = q["state"]
        if not grown:
            break
    steps = [{"obs": lean_obs(perm, p["obs"]), "state": lean_numbered(perm, p["state"])} for p in python_steps]
    return out, perm, steps, bad, sum(commits[:len(out["steps"])])


def _compare(python: dict[str, Any], lean: dict[str, Any]) -> list[str]:
    bad: list[str] = []
    if python["root"] != lean["root"] or python["state"] != lean["state"]:
        bad.append("root")
    for k, (p, q) in enumerate(zip(python["steps"], lean["steps"], strict=False)):
        if p["obs"] != q["obs"]:
            bad.append(f"step {k} observation")
        for key in p["state"]:
            if p["state"][key] != q["state"].get(key):
                bad.append(f"step {k} state {key}")
        if bad:
            break
    if len(python["steps"]) != len(lean["steps"]):
        bad.append("step count")
    return bad


def _fast_dir() -> Path:
    shm = Path("/dev/shm")
    return shm if shm.is_dir() else Path(tempfile.gettempdir())


# --- the ideal machine ------------------------------------------------------------------------------

def _ideal_obs(nb: Numbering, o: M.Obs) -> list[Any]:
    """A Python ideal observation in the shape both sides are compared in."""
    kind = o[0]
    if kind == "edit":
        return ["edit", "invalid" if o[1] == "not-accepted" else o[1]]
    if kind in ("new", "reuse"):
        return [kind, nb.n("call", o[1]), nb.n("action", o[2])]
    if kind == "deny":
        return ["deny", nb.n("call", o[1])]
    if kind == "return":
        return ["return", nb.n("call", o[1]), None if o[2] == "null" else nb.n("value", o[2])]
    if kind == "checkpoint":
        return ["saved", nb.n("name", o[1])] if o[2] == "saved" else ["checkpoint-refused", nb.n("name", o[1]), o[2]]
    if kind == "sent":
        return ["sent", nb.n("action", o[1])]
    if kind in ("settled", "settle-refused"):
        return [kind, nb.n("action", o[1]), *o[2:]]
    return list(o)


def _lean_ideal_obs(o: Any, ev: dict[str, Any]) -> list[Any]:
    """The Lean ideal observation without what the ideal machine of the Python model does not show
    (record numbers, a denial's reason)."""
    kind = o[0]
    if kind in ("new", "reuse"):
        return o[:3]  # type: ignore[no-any-return]
    if kind == "deny":
        return o[:2]  # type: ignore[no-any-return]
    if kind == "return":
        return [kind, o[1], o[3]]
    if kind == "sent":
        return [kind, o[2]]
    if kind == "settled":
        return [kind, ev["action"]]
    if ev["kind"] == "extend":  # the ideal machine of the Python model shows an edit's answer
        return ["edit", "accepted"] if kind == "updated" else o
    return o  # type: ignore[no-any-return]


def run_ideal_session(oracle: Oracle, case: Session) -> CaseResult:
    """One generated session of Agent actions on the ideal machine of the Python model
    (``model.edits.ideal.machine``) and on the Lean ideal machine (``stepI``), compared event by event
    (observation and record). Actions are drawn from the ideal machine's menu (``bisim.menu``) without
    raced edits and restarts (neither is an ideal event); a tool call sometimes presents an altered
    request."""
    reg, seed = registration(case.registration)
    key = key_of(seed)
    nb = Numbering()
    rng = random.Random(case.seed)
    _, ideal = M.start(reg, key)
    if ideal is None:
        return Agree("root-not-accepted")
    s0 = ideal.record
    assert s0.installed is not None and s0.eta is not None
    root = derived_json(nb, s0.installed.instance, s0, s0.eta)
    py_init = python_state(nb, s0)
    events: list[dict[str, Any]] = []
    actions: list[Any] = []
    py_steps: list[dict[str, Any]] = []
    edits = 3
    checked: list[Derived] = []  # every derivation an edit event met, checked by edit_check below
    for _ in range(case.length):
        acts = [a for a in menu(ideal) if a[0] not in ("raced", "restart") and (a[0] != "edit" or edits > 0)]
        act = rng.choice(acts)
        if act[0] == "edit" and not small(ideal.record, act[1]):
            act = rng.choice([a for a in acts if a[0] != "edit"])
        s = ideal.record
        ev: dict[str, Any] = {"kind": act[0]}
        if act[0] == "edit" and extendable(s, act[1]):
            edits -= 1
            ev = {"kind": "extend"} | extend_event(nb, s)
            d = derive(s, act[1])
            if isinstance(d, Derived):
                checked.append(d)
            o, ideal = M.edit(ideal, act[1], key)
        elif act[0] == "edit":
            edits -= 1
            u = act[1]
            ev |= {"edit": nb.n("edit", canonical_str(edit_to_json(u))), "derived": derivation(nb, s, u)}
            d = derive(s, u)
            if isinstance(d, Derived):
                checked.append(d)
            o, ideal = M.edit(ideal, u, key)
        elif act[0] in ("use", "retry"):
            x = act[1]
            e = dict(s.calls).get(x)
            certified = None if e is None else loads(dict(s.actions)[e.action].request, "<request>")
            ok = act[0] == "retry" or rng.random() < 0.9
            ev |= {"call": nb.n("call", x)} | ({"request": ok} if act[0] == "use" else {})
            if act[0] == "use":
                o, ideal = M.use(ideal, x, certified if ok else {"altered": True})
            else:
                o = M.retry(ideal, x, certified)
        elif act[0] == "checkpoint":
            ev |= {"id": nb.n("name", act[1]), "branch": nb.n("name", act[2])}
            o, ideal = M.save(ideal, act[1], act[2], key)
        elif act[0] == "dispatch":
            o, ideal = M.send(ideal)
        else:
            value = VALUES[0]
            ev |= {"action": nb.n("action", act[1]), "value": nb.n("value", canonical_str(value))}
            o, ideal = M.complete(ideal, act[1], value)
        actions.append([p if isinstance(p, str) else canonical_str(edit_to_json(p)) for p in act])
        events.append(ev)
        py_steps.append({"obs": _ideal_obs(nb, o), "state": python_state(nb, ideal.record)})
    derived_bad = [m for d in checked for m in derived_check(oracle, d)]
    commits = [e["kind"] == "edit" and st["obs"] == ["edit", "accepted"]
               for e, st in zip(events, py_steps, strict=True)]
    out, perm, lean_steps, named_bad, named = run_named(oracle, IDEAL, root, events, py_steps, commits)
    payload = {"root": root, "events": [lean_event(perm, e) for e in events]}
    lean = shaped(IDEAL, out, lambda r: {
        "root": bool(r["root"]), "state": lean_state(r["state"]) if r["root"] else None,
        "steps": [{"obs": _lean_ideal_obs(st["obs"], ev), "state": lean_state(st["state"])}
                  for st, ev in zip(r["steps"], events, strict=True)]})
    python = {"root": True, "state": py_init, "steps": lean_steps}
    j_bad, judged, outside = judged_check(events, out["steps"])
    c_bad, contracts, ext_contracts = contract_check(events, out["steps"], commits)
    r_bad = root_contract_check(root, out)
    bad = (_compare(python, lean) + root_order(root, out) + named_bad + sorted(set(derived_bad)) + j_bad + c_bad
           + r_bad)
    if bad:
        doc = {"registration": case.registration, "seed": case.seed, "length": case.length, "actions": actions}
        return Mismatch(IDEAL, tuple(bad), doc, payload, python, lean)
    extends = sum(1 for e in events if e["kind"] == "extend")
    return Agree("session", ("event",) * len(events) + ("derived check",) * len(checked) + ("extend",) * extends
                 + checkpoint_tags(py_steps) + tree_tags(events, py_steps) + ("lean names",) * named
                 + renamed_tags(perm, events) + (ROOT_TAG, ROOT_CONTRACT_TAG)
                 + ("judged edit",) * judged + ("edit outside the term model",) * outside
                 + ("installed instance is ⟦T'⟧",) * contracts + (EXT_TAG,) * ext_contracts)


def derived_check(oracle: Oracle, d: Derived) -> list[str]:
    """``edit_check`` on a derived instance given with its source results (``Preservation``): both sides
    must decide the coverage witnesses true (``Derive`` is defined only when they hold) and agree on the
    answer and on coverage (``model.oracle.edits_json.compare_edit_check``). The failing modes, prefixed
    ``derived-``."""
    py = E.python_edit_check(d.instance, d.preservation)
    payload, names = E.edit_check_input(d.instance, d.preservation)
    lean = shaped("edit_check", oracle.call("edit_check", payload), lambda out: E.lean_edit_view(names, out))
    bad = [f"derived-{m}" for m in E.compare_edit_check(py, lean)]
    if py.coverage is not True or lean.coverage is not True:
        bad.append("derived-coverage-false")
    return bad
