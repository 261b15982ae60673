"""The symbolic engine's path for a family accepted after the product lost states (some prefix cannot
be completed safely, but the empty prefix can): the verdict names its engine and carries the same
instance digest as the explicit engine's. Found by mutation testing: no other test reached this return."""

from __future__ import annotations

from model.edits.check import check
from model.edits.contract import Family, Pomset
from model.edits.instance import Instance
from model.edits.policy import PolicyAutomaton
from model.edits.verdict import Accepted, Engine

# One outcome f0 < f1 > f2 < f3 (an N shape) under a policy where "b" then "a" is safe but "a" first is
# not: the product loses the states after f0 or f3 runs first, and keeps a safe completion from the start.
INSTANCE = Instance(
    contract=Family(group="F", members=(("o0", Pomset(preds=(("f0", frozenset()), ("f1", frozenset({"f0", "f2"})),
                                                              ("f2", frozenset()), ("f3", frozenset({"f2"})))),),)),
    actions=(("f0", "d0"), ("f1", "d0"), ("f2", "d1"), ("f3", "d0")),
    labels=(("d0", "a"), ("d1", "b"), ("d2", "a"), ("d3", "a")),
    log=(),
    policy=PolicyAutomaton(n_states=3, delta=(((0, "a"), 1), ((0, "b"), 2), ((2, "a"), 1))),
)


def test_accepted_after_removals_names_the_symbolic_engine_and_the_instance_digest() -> None:
    symbolic, explicit = check(INSTANCE, Engine.SYMBOLIC), check(INSTANCE, Engine.EXPLICIT)
    assert isinstance(symbolic, Accepted) and isinstance(explicit, Accepted)
    assert symbolic.engine is Engine.SYMBOLIC
    assert symbolic.digest == explicit.digest
    assert symbolic.counts.safe == explicit.counts.safe and symbolic.automaton == explicit.automaton
