"""A bounded check of the Agent-API weak bisimulation between the ideal machine and the durable runtime
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendix A-L).

A session is a sequence of Agent-level actions: a Checkpoint, one of the six edit forms or a
registered extension, a tool call, a retry, Dispatch, a completion update, a stop and restart, and an
edit *raced* by a tool call (checked and preloaded, then the call commits, then the rule update is
attempted). The ideal machine takes each action as one atomic step (``model.edits.ideal.machine``);
the runtime (``model.edits.runtime.runtime``, a SQLite store) takes it as its Agent would: ``check``,
then the τ-steps ``preload`` and ``try_update`` (re-checking after a ``NoCommit``), tokens read from
the published rule entries, a restart by reopening the store. Both runs must give the same sequence
of observations (``obs_api``, modulo renaming); the runtime's τ-steps (preload, ``NoCommit``,
restart) are matched by no ideal step.

``menu`` lists the actions enabled at an ideal state; ``sessions`` enumerates every session up to a
depth from given prefixes, and ``random_session`` draws longer ones. A ``Broken`` runtime variant
lets tests show the check catches a runtime that updates rules in two commits (a crash in between
leaves no rules in force), one that installs an answer without the final check, and one whose
Preload already activates the rules.
Choices where the paper is silent: a raced edit whose first check is not Accepted is answered before
the racing call (that is the order the runtime linearizes them); a runtime edit retries a
``NoCommit`` at most three times (then the observation is ``no-commit``, which no ideal step gives).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from model.base.canonical import canonical_str, loads
from model.base.signing import KeyPair
from model.edits.ideal import machine as M
from model.edits.ideal.driven import VALUE, Broken, RuntimeSide
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
from model.edits.runtime.store_schema import runtime_key
from model.edits.runtime.tree import groups, leaves

Action = tuple[Any, ...]
# the laptop model's prefixes the bounded check starts from: nothing; reserve then checkpoint; and a ForkChoice
PREFIXES: tuple[tuple[Action, ...], ...] = ((), (("use", "xr"), ("checkpoint", "k0", "b0")),
                                            (("use", "xr"), ("checkpoint", "k0", "b0"),
                                             ("edit", ForkChoice("b0", "fork"))))


def bisim_registration(doc: Any) -> tuple[Registration, bytes]:
    """A session script's call model with a ``restore-replace`` rule added (so all six edit forms
    have a rule) and its key seed."""
    from model.edits.runtime.session_script import session_from_json

    doc = {**doc, "steps": [], "registration": {**doc["registration"], "rules": {
        **doc["registration"]["rules"], "replace": {"kind": "restore-replace"}}}}
    return session_from_json(doc, "<bisim>").registration, bytes.fromhex(doc["registration"]["seed"])


def menu(i: M.Ideal) -> list[Action]:
    s = i.record
    acts: list[Action] = [("use", x) for x, _ in s.calls]
    acts += [("retry", p.call) for p in s.processed]
    branches = [lf.branch for lf in leaves(s.tree)] if s.tree is not None else []
    gs = sorted(groups(s.tree)) if s.tree is not None else []
    ks = [k for k, _ in s.checkpoints]
    acts += [("checkpoint", f"k{len(ks)}", b) for b in branches]
    acts += [("dispatch",), ("restart",), *(("settle", r.action) for r in s.log)]
    edits: list[Edit] = [Extend()]
    for b in branches:
        edits += [ForkChoice(b, "fork"), ForkParallel(b, "both")]
        edits += [e for k in ks for e in (RestoreLive(b, k, "restore"), RestoreReplace(b, k, "replace"))]
    for g in gs:
        edits += [MergeSelect(g, "L", "select"), MergeSelect(g, "R", "select"), MergeJoin(g, "join")]
    acts += [("edit", e) for e in edits]
    current = [x for x, _ in s.entries]
    acts += [("raced", ForkChoice(b, "fork"), x) for b in branches[:1] for x in current]
    return acts


def show(a: Action) -> str:
    return " ".join(canonical_str(edit_to_json(p)) if not isinstance(p, str) else p for p in a)


def _request(s: State, call: str) -> Any:
    """What the Agent submits: the certified request of the call's action (as ``Runtime.request_of``)."""
    e = dict(s.calls).get(call)
    return None if e is None else loads(dict(s.actions)[e.action].request, "<request>")


def key_of(seed: bytes) -> KeyPair:
    """The trusted runtime's key pair, as ``Runtime.create`` makes it from ``seed``."""
    return runtime_key(Ed25519PrivateKey.from_private_bytes(seed))


def ideal_step(i: M.Ideal, act: Action, key: KeyPair) -> tuple[list[M.Obs], M.Ideal]:
    kind = act[0]
    if kind == "restart":
        return [], i
    if kind == "use":
        o, i = M.use(i, act[1], _request(i.record, act[1]))
        return [o], i
    if kind == "retry":
        return [M.retry(i, act[1], _request(i.record, act[1]))], i
    if kind == "checkpoint":
        o, i = M.save(i, act[1], act[2], key)
        return [o], i
    if kind == "dispatch":
        o, i = M.send(i)
        return [o], i
    if kind == "settle":
        o, i = M.complete(i, act[1], VALUE)
        return [o], i
    if kind == "edit":
        o, i = M.edit(i, act[1], key)
        return [o], i
    answer, _ = ideal_step(i, ("edit", act[1]), key)
    if answer[0][1] != "accepted":  # answered before the racing call, and no state change
        call, i1 = ideal_step(i, ("use", act[2]), key)
        return [*answer, *call], i1
    call, i1 = ideal_step(i, ("use", act[2]), key)
    again, i2 = ideal_step(i1, ("edit", act[1]), key)
    return [*call, *again], i2


@dataclass(frozen=True, slots=True)
class Outcome:
    session: tuple[Action, ...]
    observations: int  # observations compared (equal up to the first difference)
    difference: str | None  # None: the same observations on both sides


def run_session(session: Sequence[Action], reg: Registration, seed: bytes, workdir: Path, n: int,
                broken: Broken | None = None) -> Outcome:
    side = RuntimeSide(str(workdir / f"s{n}.db"), reg, seed, broken)
    try:
        ikey = key_of(seed)
        _, ideal = M.start(reg, ikey)
        assert ideal is not None, "the registered root update must be accepted"
        seen = 0
        for k, act in enumerate(session):
            want, ideal = ideal_step(ideal, act, ikey)
            got = side.step(act)
            for a, b in zip(want, got, strict=False):
                if a != b:
                    return Outcome(tuple(session), seen, f"action {k} ({show(act)}): ideal {a}, runtime {b}")
                seen += 1
            if len(want) != len(got):
                return Outcome(tuple(session), seen, f"action {k} ({show(act)}): ideal {want}, runtime {got}")
        return Outcome(tuple(session), seen, None)
    finally:
        side.close()


def sessions(reg: Registration, key: KeyPair, prefixes: Sequence[Sequence[Action]], depth: int) -> Iterator[
        tuple[Action, ...]]:
    """Every session ``prefix + suffix`` with a suffix of at most ``depth`` actions from the ideal's menu."""
    _, root = M.start(reg, key)
    assert root is not None
    for prefix in prefixes:
        i = root
        for act in prefix:
            _, i = ideal_step(i, act, key)
        stack: list[tuple[tuple[Action, ...], M.Ideal]] = [(tuple(prefix), i)]
        while stack:
            sess, st = stack.pop()
            yield sess
            if len(sess) - len(prefix) < depth:
                for act in reversed(menu(st)):
                    _, nxt = ideal_step(st, act, key)
                    stack.append(((*sess, act), nxt))


def random_session(reg: Registration, key: KeyPair, length: int, rng: random.Random,
                   max_edits: int = 3) -> tuple[Action, ...]:
    """A session drawn uniformly from the menu at each step, with at most ``max_edits`` edits (each
    fork doubles the contract, and the point is many interleavings, not huge contracts)."""
    _, i = M.start(reg, key)
    assert i is not None
    out: list[Action] = []
    for _ in range(length):
        edits = sum(a[0] in ("edit", "raced") for a in out)
        act = rng.choice([a for a in menu(i) if edits < max_edits or a[0] not in ("edit", "raced")])
        _, i = ideal_step(i, act, key)
        out.append(act)
    return tuple(out)
