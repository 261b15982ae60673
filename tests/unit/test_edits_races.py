"""Races between a tool call and the atomic rule update (*Exact Checking for Execution Edits*, Section VI-B and
Appendix A-L "Races between a tool call and a rule update")."""

from __future__ import annotations

import threading
from pathlib import Path

from model.edits.runtime.answers import (
    Deny,
    DenyReason,
    EditAccepted,
    New,
    NoCommit,
    Reuse,
    Stale,
    Updated,
)
from model.edits.runtime.forms import ForkChoice, RestoreLive
from model.edits.runtime.invariant import agent_sec
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.session_script import session_from_json
from tests.edits_helpers import playground_runtime

FORK = ForkChoice("b0", "fc")


def make(tmp_path: Path) -> Runtime:
    return playground_runtime(tmp_path, "r.db")


def test_a_call_committed_after_the_answer_makes_the_update_no_commit(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = rt.check(FORK)
    assert isinstance(y, EditAccepted)
    assert isinstance(rt.use("xa", rt.token("xa") or "", rt.request_of("xa")), New)
    before = rt.state()
    got = rt.try_update(FORK, y)
    assert isinstance(got, NoCommit) and got.reason is Stale.RECORD_CHANGED
    assert rt.state() == before  # NoCommit changes nothing
    fresh = rt.check(FORK)
    assert isinstance(fresh, EditAccepted) and fresh.digest != y.digest
    assert isinstance(rt.try_update(FORK, fresh), Updated)


def test_an_update_committed_first_makes_the_old_token_fail(tmp_path: Path) -> None:
    rt = make(tmp_path)
    old = rt.token("xa") or ""
    y = rt.check(FORK)
    assert isinstance(rt.try_update(FORK, y), Updated)
    before = rt.state()
    got = rt.use("xa", old, rt.request_of("xa"))
    # xa was copied into both arms and is no longer a current call; its copies carry new tokens
    assert isinstance(got, Deny) and got.reason is DenyReason.NOT_CURRENT
    copy = next(x for x in rt.state().current_calls() if x.startswith("xa@"))
    stale = rt.use(copy, old, rt.request_of(copy))
    assert isinstance(stale, Deny) and stale.reason is DenyReason.TOKEN
    assert rt.state() == before
    assert isinstance(rt.use(copy, rt.token(copy) or "", rt.request_of(copy)), New)
    assert agent_sec(rt.state()) == []


def test_an_update_closes_the_old_version_for_calls_that_stay(tmp_path: Path) -> None:
    """A call kept by the edit gets a new entry under η⁺: the token of η⁻ is refused."""
    from model.edits.runtime.forms import Extend

    rt = make(tmp_path)
    old = rt.token("xa") or ""
    y = rt.check(Extend(templates=(("xz", "da"),)))
    assert isinstance(rt.try_update(y.edit, y), Updated)
    assert (rt.token("xa") or "") != old
    got = rt.use("xa", old, rt.request_of("xa"))
    assert isinstance(got, Deny) and got.reason is DenyReason.TOKEN


def test_a_reuse_also_makes_the_answer_stale(tmp_path: Path) -> None:
    rt = make(tmp_path)
    rt.checkpoint("k0", "b0")
    rt.use("xa", rt.token("xa") or "", rt.request_of("xa"))
    live = RestoreLive("b0", "k0", "rl")
    y = rt.check(live)
    assert isinstance(rt.try_update(live, y), Updated)
    copy = next(x for x in rt.state().current_calls() if x.startswith("xa@"))
    y3 = rt.check(ForkChoice(copy.split("@")[1], "fc"))
    assert isinstance(y3, EditAccepted)
    log = rt.state().log
    got = rt.use(copy, rt.token(copy) or "", rt.request_of(copy))
    assert isinstance(got, Reuse) and rt.state().log == log  # no new authorization …
    stale = rt.try_update(y3.edit, y3)
    assert isinstance(stale, NoCommit) and stale.reason is Stale.RECORD_CHANGED  # … but the answer is stale


def race_once(d: Path) -> tuple[str, str]:
    rt = make(d)
    y = rt.check(FORK)
    token, req = rt.token("xa") or "", rt.request_of("xa")
    other = Runtime(str(d / "r.db"))
    got: dict[str, object] = {}
    t1 = threading.Thread(target=lambda: got.__setitem__("update", rt.try_update(FORK, y)))
    t2 = threading.Thread(target=lambda: got.__setitem__("use", other.use("xa", token, req)))
    t1.start()
    t2.start()
    t1.join()
    t2.join()
    assert agent_sec(rt.state()) == []
    rt.close()
    other.close()
    return type(got["update"]).__name__, type(got["use"]).__name__


def test_two_runtimes_on_one_store_serialize_a_call_and_an_update(tmp_path: Path) -> None:
    """Two handles (as two processes would) race ``use`` against ``try_update``: exactly one of the
    two orders is observed, never a third outcome (which order wins is the scheduler's choice)."""
    for i in range(12):
        d = tmp_path / str(i)
        d.mkdir()
        pair = race_once(d)
        assert pair in {("Updated", "Deny"), ("NoCommit", "New")}, pair


def test_the_gate_enforces_w_not_only_the_policy(tmp_path: Path) -> None:
    """``x ⊗ y`` under 𝒜 = ↓{xy, y}: the policy allows ``y`` first, the workflow enables it, but no
    safe completion follows (``yx ∉ 𝒜``), so ``y`` is outside W and ``use`` refuses it."""
    from model.edits.runtime.scenarios import registration

    reg = registration("gate", {"maximal": [["x", "y"], ["y"]]}, {"dx": ("x", {"op": "x"}), "dy": ("y", {"op": "y"})},
                       {"x": "dx", "y": "dy"}, {}, {"par": [{"call": "x"}, {"call": "y"}]}, {"root": "owner"}, "gate")
    sess = session_from_json({"registration": reg, "steps": []})
    rt, root = Runtime.create(str(tmp_path / "g.db"), sess.registration, sess.seed)
    assert isinstance(root, EditAccepted)
    assert root.verdict.automaton.run(()) == 0 and sess.registration.policy.accepts(["y"])
    before = rt.state()
    got = rt.use("y", rt.token("y") or "", rt.request_of("y"))
    assert isinstance(got, Deny) and got.reason is DenyReason.NOT_ENABLED and rt.state() == before
    assert isinstance(rt.use("x", rt.token("x") or "", rt.request_of("x")), New)
    assert isinstance(rt.use("y", rt.token("y") or "", rt.request_of("y")), New)
    assert agent_sec(rt.state()) == []


def test_the_final_check_refuses_forged_or_mismatched_answers(tmp_path: Path) -> None:
    """Ready(S, u, Y) checks, in order: an Accepted answer for this edit, the same γ, the old version
    current, the new version unallocated, and a re-derivation that reproduces the same answer —
    so an answer altered outside the runtime never installs rules."""
    from dataclasses import replace

    from model.edits.check.can import empty_can
    from model.edits.runtime.forms import Extend

    rt = make(tmp_path)
    y = rt.check(FORK)
    assert isinstance(y, EditAccepted)
    before = rt.state()
    other = rt.check(Extend(templates=(("xz", "da"),)))
    cases = [
        (FORK, other, Stale.NOT_ACCEPTED),
        (FORK, replace(y, digest="0" * 64), Stale.RECORD_CHANGED),
        (FORK, replace(y, eta_old="v999"), Stale.VERSION_NOT_CURRENT),
        (FORK, replace(y, eta_new=before.eta or ""), Stale.VERSION_ALLOCATED),
        (FORK, replace(y, verdict=replace(y.verdict, automaton=empty_can())), Stale.RECHECK_DIFFERS),
    ]
    for edit, answer, reason in cases:
        got = rt.try_update(edit, answer)
        assert isinstance(got, NoCommit) and got.reason is reason, (reason, got)
        assert rt.state() == before
    assert isinstance(rt.try_update(FORK, y), Updated)
