"""The recheck lemma (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C4,
Appendix A-D3) on generated instances: after any permitted partial execution ``z ∈ W†``,

    B̂†(𝒞, Δ)/z = B̂†(𝒞/raw(z), Δ_z)        (and so W†(𝒞, Δ)/z = W†(𝒞/raw(z), Δ_z)),

where the left side is computed once on the original instance and the right side by checking the
residual contract (``model.edits.runtime.tree.residual``) against the log extended by ``z``'s new
authorizations, from scratch."""

from __future__ import annotations

from hypothesis import assume, given, settings

from model.edits.check.answer import Accepted
from model.edits.check.checker import decide
from model.edits.check.contract import Outcome, call_ids
from model.edits.check.instance import Instance, make_instance
from model.edits.check.resolve import Mode, Word
from model.edits.runtime.tree import residual
from model.oracle.generators import edit_instances


def _safe(inst: Instance) -> set[tuple[Outcome, Word]]:
    v = decide(inst)
    return set(v.automaton.completions()) if isinstance(v, Accepted) else set()


@settings(max_examples=150, deadline=None)
@given(edit_instances())
def test_checking_again_after_a_permitted_partial_execution(inst: Instance) -> None:
    v = decide(inst)
    assume(isinstance(v, Accepted))
    assert isinstance(v, Accepted)
    b = set(v.automaton.completions())
    prefixes = {y[:k] for _, y in b for k in range(1, len(y) + 1)}
    q_act = inst.action_map()
    for z in sorted(prefixes):
        after = {(o, y[len(z):]) for o, y in b if y[: len(z)] == z}
        rest = residual(inst.contract, [a.call for a in z])
        log = (*inst.log, *(a.action for a in z if a.mode is Mode.NEW))
        again = make_instance(rest, {x: q_act[x] for x in call_ids(rest)}, inst.label_map(), log, inst.policy)
        assert _safe(again) == after, (z, rest)


def test_a_later_step_of_a_sequence_settles_an_earlier_choice_to_its_arm_without_calls() -> None:
    # found by the property above: after c1 in (c0 | ε) ; c1 the choice can only have been ε, so the
    # residual keeps that arm alone (keeping both let c0 follow c1, which no outcome allows)
    from model.edits.check.contract import Call, Choice, Nil, Seq

    term = Seq((Choice("g0", (("a0", Call("c0")), ("a1", Nil()))), Call("c1")))
    assert residual(term, ["c1"]) == Seq((Choice("g0", (("a1", Nil()),)), Nil()))
    assert residual(term, ["c0"]) == Seq((Choice("g0", (("a0", Nil()),)), Call("c1")))
