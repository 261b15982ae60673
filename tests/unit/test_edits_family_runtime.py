"""Explicit outcome families beyond the checker: the runtime with a family as its registered
root — registration and the checked root update, tool calls that select outcomes by their order, a fork
that clones the family's residual, AgentSec after the steps — and the Lean oracle's translation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model.edits.check.contract import Family, Seq
from model.edits.check.family import family_residual
from model.edits.check.verify import verify
from model.edits.runtime.answers import EditAccepted, EditRejected
from model.edits.runtime.invariant import agent_sec
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import registration, seq_term
from model.edits.runtime.session_script import run_session, session_from_json
from model.edits.runtime.tree import Leaf, contract_of, leaves, show_node

ROOT = {"family": "F", "outcomes": [
    {"name": "ab", "calls": ["xa", "xb"], "order": [["xa", "xb"]]},
    {"name": "ba", "calls": ["xa", "xb", "xc"], "order": [["xb", "xa"], ["xb", "xc"]]},
]}


def _script(policy: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    rules = {"fc": {"kind": "fork-choice", "left": seq_term("xj"), "right": seq_term("xj")}}
    acts = {"da": ("a", {"op": "a"}), "db": ("b", {"op": "b"}), "dc": ("c", {"op": "c"}), "dj": ("j", {"op": "j"})}
    reg = registration("fam", policy, acts, {"xa": "da", "xb": "db", "xc": "dc", "xj": "dj"}, rules, ROOT,
                       {"root": "owner"}, "fam")
    return {"description": "family root", "registration": reg, "steps": steps}


def test_family_root_registers_runs_and_forks(tmp_path: Path) -> None:
    steps = [{"use": "xb", "expect": "new"},
             {"update": {"edit": "fork-choice", "branch": "b0", "rule": "fc"}, "expect": "updated"}]
    sess = session_from_json(_script({"regex": "(a|b|c|j)*", "prefix_closure": True}, steps))
    out = run_session(sess, str(tmp_path / "rt.db"))
    assert [a["answer"] for a in out] == ["accepted", "new", "updated"]  # type: ignore[index]
    rt = Runtime(str(tmp_path / "rt.db"))
    s = rt.state()
    rt.close()
    assert agent_sec(s) == []
    # After xb only outcome "ba" is compatible; each forked branch starts with a clone of that residual
    # (its remaining calls renamed for the branch), followed by the rule's added step.
    for lf in leaves(s.tree):  # type: ignore[arg-type]
        assert isinstance(lf.gamma, Seq)
        fam = lf.gamma.parts[0]
        assert isinstance(fam, Family) and fam.group == f"F@{lf.branch}"
        (only,) = fam.members
        assert only[0] == "ba" and only[1].calls == {f"xa@{lf.branch}", f"xc@{lf.branch}"}
    assert "F@b2{ba:" in show_node(s.tree)  # type: ignore[arg-type]


def test_family_residual_follows_the_order_of_processed_calls() -> None:
    sess = session_from_json(_script({"regex": "(a|b|c|j)*", "prefix_closure": True}, []))
    fam = sess.registration.root
    assert isinstance(fam, Family)
    assert [n for n, _ in family_residual(fam, ("xa",)).members] == ["ab"]
    assert [n for n, _ in family_residual(fam, ("xb",)).members] == ["ba"]
    assert [n for n, _ in family_residual(fam, ("xa", "xb")).members] == ["ab"]  # not "ba": order matters
    assert family_residual(fam, ("xc", "xb")).members == ()
    leaf = Leaf("b0", "root", fam, ("xb", "xa"))
    (only,) = family_residual(fam, leaf.done).members
    assert only[0] == "ba" and only[1].calls == frozenset({"xc"})


def test_family_root_rejected_by_policy_gets_a_verified_proof(tmp_path: Path) -> None:
    """Outcome "ba" needs b before a, which the policy never allows: the root update is Rejected with a
    proof built from the symbolic fixed point, and the store keeps no rules in force."""
    sess = session_from_json(_script({"maximal": [["a", "b"]]}, [{"use": "xa", "expect": "deny"}]))
    rt, root = Runtime.create(str(tmp_path / "rt.db"), sess.registration, sess.seed)
    try:
        assert isinstance(root, EditRejected), root
        assert root.verdict.proof.sizes()[-1] == 0
        from model.edits.check.checker import decide  # the instance the root update checked
        from model.edits.check.instance import make_instance

        s = rt.state()
        target = contract_of(Leaf("b0", "root", sess.registration.root))
        q_act = s.q_act()
        from model.edits.check.contract import call_ids

        inst = make_instance(target, {x: q_act[x] for x in call_ids(target)}, s.labels(), (), s.policy)
        assert verify(inst, root.verdict.proof).valid
        assert decide(inst) == root.verdict
        assert s.eta is None
    finally:
        rt.close()
    assert not isinstance(root, EditAccepted)


def test_oracle_translation_lists_each_outcome_with_its_own_orders() -> None:
    """The Lean oracle's input (model/oracle/edits_json.py) for a family: one entry per outcome with its pomset
    over shared call numbers, so "xa before xb" and "xb before xa" stay distinct."""
    from model.edits.check.edit_policy import from_maximal_words
    from model.edits.check.instance import make_instance
    from model.oracle.edits_json import edit_check_input, python_edit_check, python_finite_form

    fam = session_from_json(_script({"regex": "(a|b|c|j)*", "prefix_closure": True}, [])).registration.root
    inst = make_instance(fam, {"xa": "da", "xb": "db", "xc": "dc"}, {"da": "a", "db": "b", "dc": "c"}, (),
                         from_maximal_words([["a", "b"], ["b", "a", "c"], ["b", "c", "a"]]))
    payload, names = edit_check_input(inst)
    assert names.calls == ("xa", "xb", "xc") and names.outcomes == ((("F", "ab"),), (("F", "ba"),))
    assert payload["outcomes"] == [{"id": 0, "events": [0, 1], "order": [[0, 1]]},
                                   {"id": 1, "events": [0, 1, 2], "order": [[1, 0], [1, 2]]}]
    assert python_finite_form(inst, names).lins == (frozenset({(0, 1)}), frozenset({(1, 0, 2), (1, 2, 0)}))
    view = python_edit_check(inst)
    assert view.verdicts == ("accepted", "accepted") and view.rounds == (3,)
