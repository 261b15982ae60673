"""Stateful property test of the durable edit runtime over every event class of Table III
(*Exact Checking for Execution Edits*, Section VI-B, Appendices A-I–A-K): new and reuse uses, successful edit
transitions of all six forms and Extend, verified Invalid/Reject answers, Checkpoint, Preload (of
fresh and of stale answers, then updating or not), retry, denial (also of tokens signed for an
inactive version), Dispatch, completion updates, stale answers (NoCommit) and stop/restart.

After every step: the five clauses of AgentSec hold (``model.edits.runtime.invariant.agent_sec``), every
processed sequence since the last rule update lies inside the installed ``W``, the authorization
log and χ only grow (append-only, never rewritten), and every state-preserving answer (Invalid,
Reject, Deny, NoCommit, retry) left the committed state unchanged. A Preload leaves the state that
α_S sees (``core_json``: everything but inactive versions and their content) unchanged, keeps the
answer fresh, and the update that follows installs exactly the prepared answer's automaton.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from model.edits.check.verify import verify
from model.edits.runtime.answers import (
    CheckAnswer,
    Deny,
    EditAccepted,
    EditRejected,
    NoCommit,
    Preloaded,
    Stale,
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
)
from model.edits.runtime.invariant import agent_sec, within_w
from model.edits.runtime.record import State
from model.edits.runtime.record_json import core_json
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import playground, removal
from model.edits.runtime.session_script import edit_from_json, session_from_json
from model.edits.runtime.steps import token_payload
from model.edits.runtime.tree import ChoiceNode, Leaf, ParNode, addressable, leaves

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

    def check(self, e: Edit) -> CheckAnswer | None:
        """The runtime's check. A rejected instance of any size now gets its proof from the symbolic
        fixed point, so the runtime always answers; the proof must verify."""
        answer = self.rt.check(e)
        if isinstance(answer, EditRejected):
            derived = derive(self.rt.state(), e)
            assert isinstance(derived, Derived)
            assert verify(derived.instance, answer.verdict.proof).valid
            event("check rejected; its proof verifies")
        return answer

    def draw_and_check(self, data: st.DataObject) -> tuple[Edit, CheckAnswer] | None:
        options = self.candidates()
        if not options:
            return None
        e = data.draw(st.sampled_from(options))
        answer = self.check(e)
        return None if answer is None else (e, answer)

    @rule(data=st.data(), commit=st.booleans())
    def edit(self, data: st.DataObject, commit: bool) -> None:
        drawn = self.draw_and_check(data)
        if drawn is None:
            return
        e, answer = drawn
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

    # --- Table III: Preload (a τ-step: prepares an inactive version assigned to no call) -------
    @rule(data=st.data(), commit=st.booleans())
    def preload(self, data: st.DataObject, commit: bool) -> None:
        drawn = self.draw_and_check(data)
        if drawn is None:
            return
        e, answer = drawn
        got = self.rt.preload(e, answer)
        event(f"preload {type(e).__name__} -> {type(got).__name__}")
        s = self.s()
        assert core_json(s) == core_json(self.prev)  # nothing α_S sees changed
        if not isinstance(answer, EditAccepted):
            assert got == NoCommit(Stale.NOT_ACCEPTED)
            self.unchanged()
            return
        assert got == Preloaded(answer.eta_new) and dict(s.versions)[answer.eta_new] == "inactive"
        assert all(en.version == s.eta for _, en in s.entries)  # assigned to no call
        assert self.rt.check(e) == answer  # γ omits inactive prepared data: the answer stays fresh
        if commit:
            assert self.rt.try_update(e, answer) == Updated(answer.eta_new)
            assert self.s().automaton == answer.verdict.automaton and self.s().prepared == ()
        else:
            self.stale.append((e, answer))

    @precondition(lambda self: bool(self.stale))
    @rule(data=st.data())
    def late_preload(self, data: st.DataObject) -> None:
        e, answer = data.draw(st.sampled_from(self.stale))
        got = self.rt.preload(e, answer)
        event(f"late preload -> {type(got).__name__}")
        if isinstance(got, NoCommit):
            self.unchanged()
        else:  # still fresh: only tool-call, edit and checkpoint commits make an answer stale
            assert isinstance(answer, EditAccepted) and answer.eta_old == self.prev.eta
            assert core_json(self.s()) == core_json(self.prev)

    @rule(data=st.data())
    def use_under_an_inactive_version(self, data: st.DataObject) -> None:
        s = self.s()
        inactive = [v for v, ph in s.versions if ph == "inactive"]
        if not inactive or not s.current_calls():
            return
        v, x = data.draw(st.sampled_from(inactive)), data.draw(st.sampled_from(s.current_calls()))
        forged = self.rt.key.sign(token_payload(s, x, f"{v}/{x}", v))  # even signed by the runtime's key
        got = self.rt.use(x, forged, self.rt.request_of(x))
        event(f"use under an inactive version -> {type(got).__name__}")
        assert isinstance(got, Deny)
        self.unchanged()

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
