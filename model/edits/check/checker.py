"""``check(instance, engine, budget=…) -> Accepted | Rejected | Invalid | Unknown`` (Section V-C5).

Well-formedness first (``Invalid`` with its reason: the paper's undefined derivation), then one
of the three engines. Every answer carries the digest of the checked instance — the SHA-256 of
its canonical JSON (``instance_to_json``), our stand-in for the record digest γ(Θ) of Appendix
A-C — computed when first read (``model.edits.check.digest``): no part of a verdict needs it.

Budgets: each engine ticks the caller's ``Budget`` — the symbolic engine per product
state (and per letter of a rejection proof), the explicit engine per linearization, the
declarative engine per linearization and per subset it tries — and ``check`` answers ``Unknown``
when it runs out. The explicit and declarative engines' former size caps (100,000 linearizations,
12 candidates) were limits on work, not on what is a valid instance, so they are budgets now: an
instance beyond them is ``Unknown`` under a small budget, never ``InvalidInput``. ``decide`` is the
unbudgeted form for the runtime, whose answers are never Unknown.

Engine choice: ``check`` and ``decide`` default to the symbolic engine, for every
size — it is the fastest of the three from the smallest instances up (the explicit engine builds a
trie of words, the declarative one tries subsets), so no separate engine is taken for tiny
families and the answer's ``engine`` is always the one asked for. The fixed work of a check is kept
small instead: the contract is compiled once (``compile_contract``) and, with the action and label
maps, shared by well-formedness and the symbolic product; well-formedness is one walk of the term
(none for a family, whose compiled calls are its calls) plus the prefix search only when outcome
sizes differ; the digest is computed when read. Inside the symbolic engine, the parts whose set-up
dominated tiny checks take cheaper forms that compute the same values, each tested against the
general one (``tests/property/test_edits_small_paths.py``): later rounds by passes on small products,
the automaton of a product with nothing removed by a specialized minimization, answer objects built
through their slots (``make_letter``, ``make_counts``, …). ``experiments/edit_timing.py`` measures
this default against the published artifact.
"""

from __future__ import annotations

from collections.abc import Callable

from model.base.budget import Budget, BudgetExhausted, Meter, Spent, Unknown
from model.edits.check import declarative
from model.edits.check import explicit_engine as explicit
from model.edits.check import symbolic_engine as symbolic
from model.edits.check.answer import Engine as Engine  # re-exported: the API imports one module per check
from model.edits.check.answer import Invalid, Verdict
from model.edits.check.digest import InstanceDigest
from model.edits.check.instance import Instance as Instance  # re-exported, as Engine
from model.edits.check.instance_wellformed import check_wellformed
from model.edits.check.outcome_bits import compile_contract


def _check(inst: Instance, engine: Engine, meter: Meter) -> Verdict:
    dg = InstanceDigest(inst)  # computed only if a caller reads it
    comp = compile_contract(inst.contract)  # once, for the prefix condition and the explicit or symbolic engine
    q_act, labels = dict(inst.actions), dict(inst.labels)  # likewise shared
    bad = check_wellformed(inst, meter, comp, q_act, labels)
    if bad is not None:
        return Invalid(bad[0], bad[1], dg)
    if engine is Engine.DECLARATIVE:
        return declarative.run(inst, dg, meter)
    if engine is Engine.EXPLICIT:
        return explicit.run(inst, dg, meter, comp, q_act, labels)
    return symbolic.run(inst, dg, meter, comp, q_act, labels)


UNLIMITED = Budget()
#: The engines by name (``Engine(name)`` as a plain dict look-up, for callers on a per-check path).
ENGINES: dict[str, Engine] = {e.value: e for e in Engine}


def check(inst: Instance, engine: Engine = Engine.SYMBOLIC, *, budget: Budget = UNLIMITED,
          progress: Callable[[Spent], None] | None = None) -> Verdict | Unknown:
    try:
        return _check(inst, engine, budget.start(progress))
    except BudgetExhausted as exc:
        return Unknown.of(exc, f"the {engine.value} engine did not finish")


def decide(inst: Instance, engine: Engine = Engine.SYMBOLIC) -> Verdict:
    """``check`` without a budget (the runtime's rule updates): an unlimited meter never raises."""
    return _check(inst, engine, UNLIMITED.start())
