"""Table I, row by row, and the derivation failures the paper names (*Exact Checking for Execution Edits*,
Sections IV-B1, V-A, Appendix A-D). Every state is reached by runtime steps from registration."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.edits.check.contract import Call, Choice, Nil, Par, Seq, call_ids, outcomes
from model.edits.runtime.answers import EditAccepted, EditInvalid, EditRejected, Updated
from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.derive_failure import DeriveFailure
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
from model.edits.runtime.invariant import agent_sec
from model.edits.runtime.record import Checkpoint
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import removal
from model.edits.runtime.session_script import session_from_json
from model.edits.runtime.tree import OPEN, ChoiceNode, JoinNode, Leaf, ParNode, SeqNode, addressable, contract_of
from tests.edits_helpers import playground_runtime


def make(tmp_path: Path) -> Runtime:
    return playground_runtime(tmp_path, "rt.db")


def apply(rt: Runtime, edit: Edit) -> EditAccepted:
    a = rt.check(edit)
    assert isinstance(a, EditAccepted), a
    assert isinstance(rt.try_update(edit, a), Updated)
    assert agent_sec(rt.state()) == []
    return a


def use(rt: Runtime, x: str) -> None:
    got = rt.use(x, rt.token(x) or "", rt.request_of(x))
    assert type(got).__name__ in ("New", "Reuse"), got


def derived(rt: Runtime, edit: Edit) -> Derived:
    d = derive(rt.state(), edit)
    assert isinstance(d, Derived), d
    return d


def invalid(rt: Runtime, edit: Edit) -> DeriveFailure:
    a = rt.check(edit)
    assert isinstance(a, EditInvalid), a
    return a.reason


def test_fork_choice_row(tmp_path: Path) -> None:
    rt = make(tmp_path)
    use(rt, "xa")
    d = derived(rt, ForkChoice("b0", "fc"))
    tree = d.record.tree
    assert isinstance(tree, ChoiceNode) and tree.status == OPEN
    (la, left), (ra, right) = tree.arms
    assert (la, ra) == ("L", "R") and isinstance(left, Leaf) and isinstance(right, Leaf)
    # L_σ = clone_L(𝒞) ▷ E_σ^L with 𝒞 = xb (xa is done): fresh copies of xb with xb's action
    assert left.gamma == Seq((Seq((Nil(), Call(f"xb@{left.branch}"))), Seq((Call(f"xc+{left.branch}"),))))
    q_act = d.record.q_act()
    assert q_act[f"xb@{left.branch}"] == q_act[f"xb@{right.branch}"] == q_act["xb"]
    # preservation {Copy_L(𝒞), Copy_R(𝒞)}: both copies of 𝒞's result are still required and covered
    assert [r for r, _ in d.preservation.covers] == [("L", ()), ("R", ())]
    assert {t for _, t in d.preservation.covers} == set(outcomes(contract_of(tree)))
    apply(rt, ForkChoice("b0", "fc"))


def test_fork_parallel_row(tmp_path: Path) -> None:
    rt = make(tmp_path)
    d = derived(rt, ForkParallel("b0", "fp"))
    tree = d.record.tree
    assert isinstance(tree, ParNode) and len(tree.parts) == 2
    assert [r for r, _ in d.preservation.covers] == [("L", ()), ("R", ())]
    apply(rt, ForkParallel("b0", "fp"))
    # the two copies of xa share xa's action, so only the first one processed authorizes it
    s = rt.state()
    xs = sorted(x for x in s.current_calls() if x.startswith("xa@"))
    use(rt, xs[0])
    use(rt, xs[1])
    assert [p.mode.value for p in rt.state().processed] == ["new", "reuse"]


def test_restore_replace_row(tmp_path: Path) -> None:
    rt = make(tmp_path)
    rt.checkpoint("k0", "b0")
    # the current branch still requires xa ▷ xb: replacing it drops a still-required result
    assert invalid(rt, RestoreReplace("b0", "k0", "rr")) is DeriveFailure.REQUIRED_RESULT_DROPPED
    use(rt, "xa")
    use(rt, "xb")  # now the current branch's result is satisfied
    d = derived(rt, RestoreReplace("b0", "k0", "rr"))
    assert isinstance(d.record.tree, Leaf) and d.record.tree.branch != "b0"
    assert d.record.tree.gamma == Seq((Call(f"xa@{d.record.tree.branch}"), Call(f"xb@{d.record.tree.branch}")))
    assert d.preservation.satisfied == (("cur", ()),) and [r for r, _ in d.preservation.covers] == [("k", ())]
    apply(rt, RestoreReplace("b0", "k0", "rr"))
    # the copies reuse the recorded authorizations: no new log entry
    for x in sorted(rt.state().current_calls()):
        use(rt, x)
    assert [r.action for r in rt.state().log] == ["da", "db"]


def test_restore_replace_with_authorized_removal(tmp_path: Path) -> None:
    rt = make(tmp_path)
    rt.checkpoint("k0", "b0")
    apply(rt, Extend(removals=(removal_record("b0"),)))
    d = derived(rt, RestoreReplace("b0", "k0", "rr"))
    assert d.preservation.removed == (("cur", ()),)


def removal_record(target: str) -> object:
    from model.edits.runtime.session_script import edit_from_json

    e = edit_from_json({"edit": "extend", "removals": [removal("play", target, "owner")]})
    assert isinstance(e, Extend)
    return e.removals[0]


def test_restore_live_row(tmp_path: Path) -> None:
    rt = make(tmp_path)
    rt.checkpoint("k0", "b0")
    use(rt, "xa")
    d = derived(rt, RestoreLive("b0", "k0", "rl"))
    tree = d.record.tree
    assert isinstance(tree, ParNode)
    kept, copy = tree.parts
    assert isinstance(kept, Leaf) and kept.branch == "b0" and kept.done == ("xa",)  # carry(𝒞) keeps progress
    assert isinstance(copy, Leaf) and set(call_ids(copy.gamma)) == {f"xa@{copy.branch}", f"xb@{copy.branch}"}
    assert [r for r, _ in d.preservation.covers] == [("cur", ()), ("k", ())]
    apply(rt, RestoreLive("b0", "k0", "rl"))
    use(rt, f"xa@{copy.branch}")
    assert rt.state().processed[-1].mode.value == "reuse"


def test_merge_select_row(tmp_path: Path) -> None:
    rt = make(tmp_path)
    apply(rt, ForkChoice("b0", "fc"))
    tree = rt.state().tree
    assert isinstance(tree, ChoiceNode)
    g = tree.group
    # open choice: dropping arm L needs its owner's signed removal
    assert invalid(rt, MergeSelect(g, "R", "ms")) is DeriveFailure.REQUIRED_RESULT_DROPPED
    use(rt, sorted(x for x in rt.state().current_calls() if x.startswith("xa@") and x.endswith(tree.arms[1][1]
                                                                                              .branch))[0])
    d = derived(rt, MergeSelect(g, "R", "ms"))  # arm R selected by progress: arm L is disabled, not required
    new = d.record.tree
    assert isinstance(new, SeqNode)
    head, tail = new.parts
    assert head == dict(rt.state().tree.arms)["R"]  # type: ignore[union-attr]
    assert isinstance(tail, Leaf) and tail.gamma == Seq((Call(f"xj+{tail.branch}"),))
    assert [r for r, _ in d.preservation.covers] == [("R", ())]
    apply(rt, MergeSelect(g, "R", "ms"))


def test_merge_join_row(tmp_path: Path) -> None:
    rt = make(tmp_path)
    apply(rt, ForkParallel("b0", "fp"))
    tree = rt.state().tree
    assert isinstance(tree, ParNode)
    d = derived(rt, MergeJoin(tree.group, "mj"))
    new = d.record.tree
    assert isinstance(new, SeqNode) and isinstance(new.parts[0], JoinNode)
    assert new.parts[0].parts == tree.parts and tree.group in d.record.joined
    assert tree.group not in addressable(new)
    assert [r for r, _ in d.preservation.covers] == [("L", ()), ("R", ())]
    apply(rt, MergeJoin(tree.group, "mj"))
    # a second MergeJoin of the same pair is Invalid, not "unknown"
    assert invalid(rt, MergeJoin(tree.group, "mj")) is DeriveFailure.ALREADY_JOINED


def test_extend_keeps_the_workflow_and_rechecks_everything(tmp_path: Path) -> None:
    rt = make(tmp_path)
    use(rt, "xa")
    before = rt.state()
    d = derived(rt, Extend(templates=(("xz", "da"),)))
    assert d.record.tree == before.tree and d.record.processed == before.processed
    assert d.preservation.still_required == (("ctx", ()),)
    apply(rt, Extend(templates=(("xz", "da"),)))
    assert rt.state().tree == before.tree


def test_extend_refuses_a_smaller_policy_and_a_forged_record(tmp_path: Path) -> None:
    from model.edits.check.edit_policy import from_maximal_words
    from model.edits.runtime.requirements import SignedRecord

    rt = make(tmp_path)
    assert invalid(rt, Extend(policy=from_maximal_words([["a"]]))) is DeriveFailure.POLICY_NOT_SUPERSET
    forged = SignedRecord("removal", "b0", "owner", "A" * 88)
    assert invalid(rt, Extend(removals=(forged,))) is DeriveFailure.UNSIGNED_RECORD


def test_checkpoint_changes_only_k_and_ver(tmp_path: Path) -> None:
    rt = make(tmp_path)
    use(rt, "xa")
    before = rt.state()
    assert type(rt.checkpoint("k0", "b0")).__name__ == "Saved"
    after = rt.state()
    assert after.ver == before.ver + 1 and dict(after.checkpoints)["k0"].done == ("xa",)
    assert (after.tree, after.entries, after.eta, after.log, after.q) == \
        (before.tree, before.entries, before.eta, before.log, before.q)
    assert type(rt.checkpoint("k0", "b0")).__name__ == "CheckpointRefused"  # not fresh
    assert type(rt.checkpoint("k1", "nope")).__name__ == "CheckpointRefused"


def test_restore_refuses_a_forged_checkpoint(tmp_path: Path) -> None:
    from dataclasses import replace

    from model.edits.runtime.runtime import steps

    rt = make(tmp_path)
    rt.checkpoint("k0", "b0")
    s = rt.state()
    k, c = s.checkpoints[0]
    forged = replace(s, checkpoints=((k, Checkpoint(c.branch, c.region, Nil(), (), c.signature)),))
    a = steps.check(forged, RestoreLive("b0", "k0", "rl"))
    assert isinstance(a, EditInvalid) and a.reason is DeriveFailure.CHECKPOINT_FORGED


@pytest.mark.parametrize(("edit", "reason"), [
    (ForkChoice("nope", "fc"), DeriveFailure.UNKNOWN_BRANCH),
    (ForkChoice("b0", "nope"), DeriveFailure.UNKNOWN_RULE),
    (ForkChoice("b0", "fp"), DeriveFailure.RULE_KIND),
    (RestoreLive("b0", "nope", "rl"), DeriveFailure.UNKNOWN_CHECKPOINT),
    (MergeSelect("nope", "L", "ms"), DeriveFailure.UNKNOWN_GROUP),
    (MergeJoin("b0", "mj"), DeriveFailure.WRONG_MODE),
])
def test_unknown_names_and_wrong_kinds_are_invalid(tmp_path: Path, edit: Edit, reason: DeriveFailure) -> None:
    rt = make(tmp_path)
    before = rt.state()
    assert invalid(rt, edit) is reason
    assert rt.state() == before  # an Invalid answer changes nothing


def test_wrong_mode_and_unknown_arm(tmp_path: Path) -> None:
    rt = make(tmp_path)
    apply(rt, ForkParallel("b0", "fp"))
    g = rt.state().tree.group  # type: ignore[union-attr]
    assert invalid(rt, MergeSelect(g, "L", "ms")) is DeriveFailure.WRONG_MODE
    rt2 = make(tmp_path / "two")
    apply(rt2, ForkChoice("b0", "fc"))
    g2 = rt2.state().tree.group  # type: ignore[union-attr]
    assert invalid(rt2, MergeJoin(g2, "mj")) is DeriveFailure.WRONG_MODE
    assert invalid(rt2, MergeSelect(g2, "M", "ms")) is DeriveFailure.UNKNOWN_ARM
    assert invalid(rt2, ForkChoice(g2, "fc")) is DeriveFailure.WRONG_MODE


def test_merge_select_after_the_unselected_arm_made_progress(tmp_path: Path) -> None:
    rt = make(tmp_path)
    apply(rt, ForkChoice("b0", "fc"))
    tree = rt.state().tree
    assert isinstance(tree, ChoiceNode)
    left = tree.arms[0][1]
    assert isinstance(left, Leaf)
    use(rt, f"xa@{left.branch}")
    assert invalid(rt, MergeSelect(tree.group, "R", "ms")) is DeriveFailure.UNSELECTED_ARM_PROGRESSED


def test_derivation_is_deterministic_and_a_rejection_changes_nothing(tmp_path: Path) -> None:
    from model.edits.runtime.scenarios import laptop

    sess = session_from_json(laptop())
    rt, _ = Runtime.create(str(tmp_path / "l.db"), sess.registration, sess.seed)
    use(rt, "xr")
    use(rt, "xa")
    s = rt.state()
    assert derive(s, ForkChoice("b0", "fork")) == derive(s, ForkChoice("b0", "fork"))
    a = rt.check(ForkParallel("b0", "both"))
    assert isinstance(a, EditRejected) and rt.state() == s
    # the target contract is the ⊕/⊗ term of the derived tree
    d = derived(rt, ForkParallel("b0", "both"))
    assert isinstance(d.instance.contract, Par) and not isinstance(d.instance.contract, Choice)
