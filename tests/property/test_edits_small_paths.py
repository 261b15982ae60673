"""The small-check shortcuts of the symbolic engine against the general paths, on
generated families shaped like the artifact's benchmark ones: outcomes sharing one call ``x`` plus a
call ``y_i`` of their own (sometimes a second shared call ``z``), each ordered at random, under a
policy listing some of the label orders. Such families are rejected over several rounds or accepted
with states removed far more often than ``model.oracle.generators``' instances (whose rejections are mostly
one round), so they exercise the rounds found by passes.

Checked: ``ranks`` by passes equals ``ranks`` by incremental updates; ``can_of_product`` equals
``build_can``; the rejection proof walked recursively equals the one walked with an explicit stack;
the symbolic verdict equals the explicit engine's (proof, automaton, counts) and a rejection proof
passes the independent verifier.
"""

from __future__ import annotations

from itertools import permutations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from model.base.budget import Budget
from model.edits.check.answer import Engine, Rejected
from model.edits.check.can import build_can
from model.edits.check.checker import check
from model.edits.check.contract import Family
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.family import pomset_of
from model.edits.check.instance import Instance, make_instance
from model.edits.check.outcome_bits import bits
from model.edits.check.symbolic_engine import build_product, can_of_product
from model.edits.check.symbolic_rounds import proof_from_ranks, ranks
from model.edits.check.verify import verify


@st.composite
def shared_families(draw: st.DrawFn) -> Instance:
    n = draw(st.integers(2, 4))
    with_z = draw(st.booleans())
    members = []
    for i in range(n):
        calls = ["x", f"y{i}", *(["z"] if with_z and draw(st.booleans()) else [])]
        order = draw(st.permutations(calls))
        pairs = [(order[a], order[b]) for a in range(len(order)) for b in range(a + 1, len(order))
                 if draw(st.integers(0, 3)) == 0]  # mostly unordered, as in shared_reject
        members.append((f"o{i}", pomset_of(calls, pairs)))
    all_calls = sorted({c for _, p in members for c in p.calls})
    shared_action = draw(st.booleans())  # two calls on one action: reuse letters
    actions = {c: ("dx" if shared_action and c == "z" else f"d{c}") for c in all_calls}
    labels = {d: d[1:] for d in actions.values()}
    # One allowed order per outcome (as shared_reject: y0·x, then x·y_i), sometimes a few more.
    kept = [[labels[actions[c]] for c in draw(st.permutations(sorted(p.calls)))] for _, p in members]
    words = [[labels[actions[c]] for c in w] for _, p in members for w in permutations(sorted(p.calls))]
    kept += draw(st.lists(st.sampled_from(words), max_size=2))
    return make_instance(Family("F", tuple(members)), actions, labels, (), from_maximal_words(kept))


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(shared_families())
def test_small_paths_equal_the_general_ones(inst: Instance) -> None:
    prod = build_product(inst, Budget().start())
    by_passes = ranks(prod, small=len(prod.compat))
    assert by_passes == ranks(prod, small=0)
    rank = by_passes[0]
    event(f"rounds with removals: {1 + max((r for r in rank if r is not None), default=-1)}, "
          f"initial state removed: {rank[0] is not None}")
    outs, done = prod.outcomes, prod.done

    def marks(i: int) -> list[object]:
        return [outs[o] for o in bits(done[i])]

    assert can_of_product(prod) == build_can(0, prod.succ.__getitem__, marks)
    if rank[0] is not None:  # the proof walked recursively and with an explicit stack
        walked = proof_from_ranks(prod, *by_passes, Budget().start(), recurse=len(prod.levels))
        assert walked == proof_from_ranks(prod, *by_passes, Budget().start(), recurse=0)
    sym, exp = check(inst), check(inst, Engine.EXPLICIT)
    assert type(sym) is type(exp)
    assert sym.counts == exp.counts  # type: ignore[union-attr]
    if isinstance(sym, Rejected):
        assert isinstance(exp, Rejected)
        assert sym.proof == exp.proof
        assert verify(inst, sym.proof).valid
    else:
        assert sym.automaton == exp.automaton  # type: ignore[union-attr]
