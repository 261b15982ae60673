"""Generated runtime states for the information lower bound (Theorem 4 of *When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Appendix A-F): the runtime's atomic steps
(``model.edits.runtime.steps``, pure ``State -> (Answer, State)``) driven from the checked root
update of a registration, as the durable runtime would take them but without its store, so that
hundreds of sessions run in seconds.

A session is a list of integers; at each step the integer picks one action from the menu of the
current state (tool calls of the current calls, Checkpoint of a leaf, Dispatch, a completion update,
and every edit the registered rules allow: Fork, Restore, Merge, an empty Extend), so any list is a
session (with a bound on the number of edits). An edit is ``check`` and, when accepted, ``try_update``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from model.base.canonical import loads
from model.base.signing import KeyPair
from model.edits.ideal.bisim import key_of
from model.edits.runtime import steps
from model.edits.runtime.answers import EditAccepted
from model.edits.runtime.forms import (
    Edit,
    Extend,
    ForkChoice,
    ForkParallel,
    MergeJoin,
    MergeSelect,
    RestoreLive,
    RestoreReplace,
)
from model.edits.runtime.record import State
from model.edits.runtime.registration import Registration, bootstrap
from model.edits.runtime.scenarios import laptop, playground
from model.edits.runtime.session_script import session_from_json
from model.edits.runtime.tree import groups, leaves

Action = tuple[Any, ...]


def registrations() -> list[tuple[str, Registration, KeyPair]]:
    """The playground (every rule form, every word allowed), the playground under a policy that
    forbids a fork adding ``c`` after ``j`` was authorized, and the laptop purchase."""
    words = {"maximal": [["a", "b", "c", "j"], ["a", "b", "j"], ["a", "c", "b", "j"], ["a", "b", "c"]]}
    out = []
    for name, doc in (("playground", playground()), ("playground-narrow", playground(words, "narrow")),
                      ("laptop", laptop())):
        sess = session_from_json(doc)
        assert sess.seed is not None
        out.append((name, sess.registration, key_of(sess.seed)))
    return out


def root(reg: Registration, key: KeyPair) -> State:
    answer, s = bootstrap(reg, key)
    assert isinstance(answer, EditAccepted), answer
    return s


def edits(s: State) -> list[Edit]:
    """Every edit the registered rules allow at ``s`` (checked or not: the checker decides)."""
    if s.tree is None:
        return []
    branches = [lf.branch for lf in leaves(s.tree)]
    ks = [k for k, _ in s.checkpoints]
    out: list[Edit] = [Extend()]
    for r, rule in s.rules:
        for b in branches:
            if rule.kind == "fork-choice":
                out.append(ForkChoice(b, r))
            elif rule.kind == "fork-parallel":
                out.append(ForkParallel(b, r))
            elif rule.kind in ("restore-live", "restore-replace"):
                out += [RestoreLive(b, k, r) if rule.kind == "restore-live" else RestoreReplace(b, k, r) for k in ks]
        for g in groups(s.tree):  # of every mode: a merge of the wrong mode is Invalid
            if rule.kind == "merge-select":
                out += [MergeSelect(g, a, r) for a in ("L", "R")]
            elif rule.kind == "merge-join":
                out.append(MergeJoin(g, r))
    return out


def menu(s: State) -> list[Action]:
    acts: list[Action] = [("use", x) for x, _ in s.entries]
    if s.tree is not None:
        acts += [("checkpoint", f"k{len(s.checkpoints)}", lf.branch) for lf in leaves(s.tree)]
    acts += [("dispatch",), *(("settle", r.action) for r in s.log if r.phase == "sent")]
    return acts + [("edit", u) for u in edits(s)]


def step(s: State, act: Action, key: KeyPair) -> State:
    kind = act[0]
    if kind == "use":
        x = act[1]
        entry = dict(s.entries)[x]
        request = loads(dict(s.actions)[dict(s.calls)[x].action].request, "<request>")
        return steps.use(s, x, entry.token, request)[1]
    if kind == "checkpoint":
        return steps.checkpoint(s, act[1], act[2], key)[1]
    if kind == "dispatch":
        return steps.dispatch(s)[1]
    if kind == "settle":
        return steps.settle(s, act[1], {"ok": True})[1]
    u = act[1]
    y = steps.check(s, u)
    return steps.try_update(s, u, y, key)[1] if isinstance(y, EditAccepted) else s


def run(reg: Registration, key: KeyPair, picks: Sequence[int], max_edits: int = 2) -> tuple[State, list[Action]]:
    """The state a session reaches and its actions; after ``max_edits`` edits only other actions are
    picked (each fork doubles the contract, and every check at the end costs with its size)."""
    s = root(reg, key)
    done: list[Action] = []
    for p in picks:
        m = menu(s)
        if sum(a[0] == "edit" for a in done) >= max_edits:
            m = [a for a in m if a[0] != "edit"] or m
        act = m[p % len(m)]
        s = step(s, act, key)
        done.append(act)
    return s, done


def replay(reg: Registration, key: KeyPair, acts: Sequence[Action], namespace: str) -> State:
    s = root(replace(reg, namespace=namespace), key)
    for act in acts:
        s = step(s, act, key)
    return s
