"""``build_can`` given the symbolic product's states in reverse discovery order (``bottom_up``) builds
the same canonical automaton as when it orders the nodes by its own depth-first search, and so does
``can_of_product``, the specialized form the accepted-without-removals path of
``model/edits/check/symbolic_engine.py`` takes. Likewise the two ways ``ranks`` finds the rounds after
the first (whole passes on small products, incremental updates otherwise) give the same ranks."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings

from model.base.budget import Budget
from model.edits.check.can import build_can
from model.edits.check.instance import Instance
from model.edits.check.instance_wellformed import check_wellformed
from model.edits.check.outcome_bits import bits
from model.edits.check.symbolic_engine import build_product, can_of_product
from model.edits.check.symbolic_rounds import ranks
from model.oracle.generators import edit_instances, family_instances


def _both_orders(inst: Instance) -> None:
    assume(check_wellformed(inst) is None)  # the product presupposes a well-formed instance
    prod = build_product(inst, Budget().start())
    _, missing, _ = ranks(prod)
    outs, done = prod.outcomes, prod.done

    def marks(i: int) -> list[object]:
        return [outs[o] for o in bits(done[i])]

    given_order = build_can(0, prod.succ.__getitem__, marks, bottom_up=range(len(prod.succ) - 1, -1, -1))
    own_order = build_can(0, prod.succ.__getitem__, marks)
    assert given_order == own_order, (missing, inst)
    assert can_of_product(prod) == given_order, inst
    assert ranks(prod, small=0) == ranks(prod, small=len(prod.compat)), inst  # incremental, by passes


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_instances())
def test_the_given_bottom_up_order_builds_the_same_automaton(inst: Instance) -> None:
    _both_orders(inst)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(family_instances())
def test_the_same_on_explicit_outcome_families(inst: Instance) -> None:
    _both_orders(inst)
