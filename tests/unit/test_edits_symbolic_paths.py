"""The symbolic engine's path for a family accepted after the product lost states (some prefix cannot
be completed safely, but the empty prefix can): the verdict names its engine and carries the same
instance digest as the explicit engine's. Found by mutation testing: no other test reached this return.
Also: the product and the rejection proof hand their budget ticks over in batches, exactly as one call
per state (per word) would."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from model.base import budget
from model.base.budget import Budget, BudgetExhausted, Meter
from model.edits.check.answer import Accepted, Engine
from model.edits.check.checker import check
from model.edits.check.contract import Family, Pomset
from model.edits.check.edit_policy import PolicyAutomaton, from_maximal_words
from model.edits.check.family import pomset_of
from model.edits.check.instance import Instance, make_instance
from model.edits.check.symbolic_engine import build_product
from model.edits.check.symbolic_rounds import proof_from_ranks, ranks

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


class _Recording(Meter):
    """A meter that notes the tick count at every clock check."""

    def __init__(self, budget: Budget) -> None:
        super().__init__(budget)
        self.checks: list[int] = []

    def check_time(self) -> None:
        self.checks.append(self.states)
        super().check_time()


def _ticks(limit: int | None, phase: int, drive: Callable[[Meter], object]) -> tuple[list[int], str, int]:
    meter = _Recording(Budget(states=limit))
    meter._until_clock = phase  # the clock check falls on a different state in each phase
    try:
        drive(meter)
    except BudgetExhausted:
        return meter.checks, "exhausted", meter.states
    return meter.checks, "done", meter.states


def test_the_product_ticks_as_one_call_per_state(monkeypatch: pytest.MonkeyPatch) -> None:
    # The product hands its ticks to the meter in batches; whatever the state limit and wherever the
    # clock checks fall, the meter must read the clock and run out at the same tick counts as with one
    # tick() per state, and end with one tick per state. Found by mutation testing: the batching
    # arithmetic was not observed by any test.
    monkeypatch.setattr(budget, "_CLOCK_EVERY", 3)
    n = len(build_product(INSTANCE, Meter(Budget())).succ)
    assert n > 6  # several clock checks and limits inside the product
    for limit in [None, *range(1, n + 2)]:
        for phase in range(1, 4):
            got = _ticks(limit, phase, lambda m: build_product(INSTANCE, m))
            want = _ticks(limit, phase, lambda m: [m.tick() for _ in range(n)])
            assert got == want, (limit, phase)


def _shared_reject(n: int) -> Instance:
    """n outcomes {x, y_i}, unordered, under a policy whose words are y_0·x and x·y_i (i ≥ 1): rejected."""
    members = tuple((f"o{i}", pomset_of(("x", f"y{i}"), ())) for i in range(n))
    calls = {"x": "dx", **{f"y{i}": f"dy{i}" for i in range(n)}}
    labels = {"dx": "x", **{f"dy{i}": f"y{i}" for i in range(n)}}
    words = [["y0", "x"]] + [["x", f"y{i}"] for i in range(1, n)]
    return make_instance(Family("F", members), calls, labels, (), from_maximal_words(words))


def test_the_rejection_proof_ticks_as_one_call_per_candidate_word(monkeypatch: pytest.MonkeyPatch) -> None:
    # The proof hands its ticks (one per letter of each word it emits) to the meter in batches: the meter
    # must read the clock and run out at the same tick counts as with one tick(len(word)) per word, in
    # the depth-first (lexicographic) order the proof visits them.
    monkeypatch.setattr(budget, "_CLOCK_EVERY", 3)
    inst = _shared_reject(5)
    prod = build_product(inst, Meter(Budget()))
    rk = ranks(prod)
    proof = proof_from_ranks(prod, *rk, Meter(Budget()))
    words = sorted({tuple(a.call for a in w) for _, w in proof.candidates})
    assert len(words) == 5 and sum(map(len, words)) > 6  # several clock checks and limits inside the proof
    total = sum(map(len, words))
    for limit in [None, *range(1, total + 2)]:
        for phase in range(1, 4):
            got = _ticks(limit, phase, lambda m: proof_from_ranks(prod, *rk, m))
            want = _ticks(limit, phase, lambda m: [m.tick(len(w)) for w in words])
            assert got == want, (limit, phase)
