"""Stateful property test of the durable edit runtime over every event class of Table III
(execution-edit-checking.md, Section VI-B, Appendices A-I–A-K): new and reuse uses, successful edit
transitions of all six forms and Extend, verified Invalid/Reject answers, Checkpoint, retry,
denial, Dispatch, completion updates, stale answers (NoCommit) and stop/restart.

After every step: the five clauses of AgentSec hold (``model.edits.invariant.agent_sec``), every
processed sequence since the last rule update lies inside the installed ``W``, the authorization
log and χ only grow (append-only, never rewritten), and every state-preserving answer (Invalid,
Reject, Deny, NoCommit, retry) left the committed state unchanged. Preload is not modelled (the
runtime prepares no inactive version; see the module docstring of ``model.edits.steps``).
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from model.edits.answers import CheckAnswer, EditAccepted
from model.edits.forms import (
    Edit,
    Extend,
    ForkChoice,
    ForkParallel,
    MergeJoin,
    MergeSelect,
    RestoreLive,
    RestoreReplace,
)
from model.edits.invariant import agent_sec, within_w
from model.edits.record import State
from model.edits.runtime import Runtime
from model.edits.scenarios import playground, removal
from model.edits.session import edit_from_json, session_from_json
from model.edits.tree import ChoiceNode, Leaf, ParNode, addressable, leaves

# every order of a, b, c, j in which c comes before j: forks adding c and j in parallel can be safe,
# a fork adding c after j was authorized cannot
WORDS = [list(p) for p in itertools.permutations(["a", "b", "c", "j"]) if p.index("c") < p.index("j")]
MAX_LEAVES = 6


class EditRuntime(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="edits-sm-"))
        self.path = str(self.dir / "rt.db")
        sess = session_from_json(playground({"maximal": WORDS}, "stateful"))
        self.rt, _ = Runtime.create(self.path, sess.registration, sess.seed)
        self.prev = self.rt.state()
        self.stale: list[tuple[Edit, CheckAnswer]] = []
        self.k = 0

    def teardown(self) -> None:
        self.rt.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def s(self) -> State:
        return self.rt.state()

    def unchanged(self) -> None:
        assert self.s() == self.prev

    # --- Table III: new / reuse use, denial --------------------------------------------------
    @rule(data=st.data())
    def use_current_call(self, data: st.DataObject) -> None:
        calls = self.s().current_calls()
        if not calls:
            return
        x = data.draw(st.sampled_from(calls))
        got = self.rt.use(x, self.rt.token(x) or "", self.rt.request_of(x))
        event(f"use -> {type(got).__name__}")
        if type(got).__name__ == "Deny":  # not enabled by the installed automaton (outside W)
            self.unchanged()

    @rule(data=st.data())
    def use_a_copy_of_an_authorized_action(self, data: st.DataObject) -> None:
        s = self.s()
        q_act, done = s.q_act(), s.authorized_actions()
        copies = [x for x in s.current_calls() if q_act[x] in done]
        if not copies:
            return
        x = data.draw(st.sampled_from(copies))
        got = self.rt.use(x, self.rt.token(x) or "", self.rt.request_of(x))
        event(f"use copy -> {type(got).__name__}")
        assert type(got).__name__ in ("Reuse", "Deny")  # never a second authorization of one action
        if type(got).__name__ == "Deny":
            self.unchanged()
        else:
            assert s.log == self.s().log[: len(s.log)] and len(self.s().log) == len(s.log)

    @rule(data=st.data(), how=st.sampled_from(["token", "request", "unknown", "processed"]))
    def denied_use(self, data: st.DataObject, how: str) -> None:
        s = self.s()
        if how == "processed" and s.processed:
            x = data.draw(st.sampled_from([p.call for p in s.processed]))
            got = self.rt.use(x, s.processed[0].token, self.rt.request_of(x))
        elif how == "unknown" or not s.current_calls():
            got = self.rt.use("nope", "", None)
        else:
            x = data.draw(st.sampled_from(s.current_calls()))
            token = (self.rt.token(x) or "") if how == "request" else "A" * 88
            got = self.rt.use(x, token, {"forged": True} if how == "request" else self.rt.request_of(x))
        assert type(got).__name__ == "Deny"
        self.unchanged()

    # --- edits: successful transitions, verified Invalid/Reject, stale answers ---------------
    def candidates(self) -> list[Edit]:
        s = self.s()
        if s.tree is None:
            return []
        addr = addressable(s.tree)
        out: list[Edit] = [ForkChoice("nope", "fc"), MergeJoin("nope", "mj")]
        for name, node in sorted(addr.items()):
            if isinstance(node, Leaf):
                if len(list(leaves(s.tree))) < MAX_LEAVES:
                    out += [ForkChoice(name, "fc"), ForkParallel(name, "fp")]
                    out += [RestoreLive(name, k, "rl") for k, _ in s.checkpoints]
                out += [RestoreReplace(name, k, "rr") for k, _ in s.checkpoints]
                out.append(Extend(removals=(_removal(name),)))
            elif isinstance(node, ChoiceNode):
                out += [MergeSelect(name, a, "ms") for a, _ in node.arms] + [MergeJoin(name, "mj")]
                out += [Extend(removals=(_removal(f"{name}.{a}"),)) for a, _ in node.arms]
            elif isinstance(node, ParNode):
                out += [MergeJoin(name, "mj"), MergeSelect(name, "L", "ms")]
        return out

    @rule(data=st.data(), commit=st.booleans())
    def edit(self, data: st.DataObject, commit: bool) -> None:
        options = self.candidates()
        if not options:
            return
        e = data.draw(st.sampled_from(options))
        answer = self.rt.check(e)
        event(f"{type(e).__name__} -> {type(answer).__name__}")
        self.unchanged()  # checking never changes the record
        if isinstance(answer, EditAccepted) and commit:
            got = self.rt.try_update(e, answer)
            assert type(got).__name__ == "Updated"  # nothing committed in between: the final check passes
        else:
            self.stale.append((e, answer))

    @precondition(lambda self: bool(self.stale))
    @rule(data=st.data())
    def late_update(self, data: st.DataObject) -> None:
        e, answer = data.draw(st.sampled_from(self.stale))
        got = self.rt.try_update(e, answer)
        event(f"late update -> {type(got).__name__}")
        if type(got).__name__ == "NoCommit":
            self.unchanged()
        else:  # still current: only possible when nothing was committed since the check
            assert isinstance(answer, EditAccepted) and answer.eta_old == self.prev.eta
        self.stale.clear()

    # --- checkpoint, retry, dispatch, completion, restart ------------------------------------
    @rule(data=st.data())
    def checkpoint(self, data: st.DataObject) -> None:
        s = self.s()
        if s.tree is None:
            return
        branches = sorted(n for n, v in addressable(s.tree).items() if isinstance(v, Leaf))
        self.k += 1
        got = self.rt.checkpoint(f"k{self.k}", data.draw(st.sampled_from(branches)))
        assert type(got).__name__ == "Saved"

    @precondition(lambda self: bool(self.prev.processed))
    @rule(data=st.data())
    def retry(self, data: st.DataObject) -> None:
        p = data.draw(st.sampled_from(self.prev.processed))
        got = self.rt.retry(p.call, p.token, self.rt.request_of(p.call))
        assert type(got).__name__ == "Returned" and got.record == p.record  # type: ignore[union-attr]
        self.unchanged()

    @rule()
    def dispatch(self) -> None:
        self.rt.dispatch()

    @precondition(lambda self: any(o.sent for o in self.prev.out))
    @rule(data=st.data(), value=st.integers(0, 9))
    def settle(self, data: st.DataObject, value: int) -> None:
        sent = [o.record for o in self.prev.out if o.sent]
        rid = data.draw(st.sampled_from(sent))
        action = next(r.action for r in self.prev.log if r.id == rid)
        got = self.rt.settle(action, {"v": value})
        if type(got).__name__ == "SettleRefused":
            self.unchanged()

    @rule()
    def restart(self) -> None:
        self.rt.close()
        self.rt = Runtime(self.path)
        self.unchanged()  # a stop and restart exposes exactly the last committed state

    # --- after every step ------------------------------------------------------------------
    @invariant()
    def agent_sec_holds_and_history_only_grows(self) -> None:
        s = self.s()
        assert agent_sec(s) == []
        assert within_w(s)
        for old, new in zip(self.prev.log, s.log, strict=False):
            assert new == old or (old.phase == "authorized" and new.phase == "settled")  # a stable return record
        assert [(r.id, r.action, r.creator) for r in s.log[: len(self.prev.log)]] == \
            [(r.id, r.action, r.creator) for r in self.prev.log]
        assert s.processed[: len(self.prev.processed)] == self.prev.processed
        assert [o.record for o in s.out[: len(self.prev.out)]] == [o.record for o in self.prev.out]
        self.prev = s


def _removal(target: str) -> object:
    e = edit_from_json({"edit": "extend", "removals": [removal("play", target, "owner")]})
    assert isinstance(e, Extend)
    return e.removals[0]


EditRuntime.TestCase.settings = settings(max_examples=30, stateful_step_count=30)
TestEditRuntime = EditRuntime.TestCase
