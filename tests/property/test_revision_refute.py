"""Syntactic unsatisfiability (model/revision/smt/refute.py): whenever ``refuted`` says a question
is unsatisfiable, Z3 says so too — on generated ``pay`` grants (constants, globs, slots, key allowlists,
equality / one-of / range predicates on shared paths), a generated match / fail assignment and every
resource allowed or a few. And the rules do fire (a rule that never fires would pass vacuously)."""

from __future__ import annotations

from dataclasses import replace

import z3
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.monitor.language.policy import ConstPat, Entry, EntryKind, EqPred, GlobPat, OneOfPred, RangePred
from model.oracle.generators import REVISION_TOOL, revision_grants
from model.revision.smt.refute import refuted, same_value
from model.revision.smt.z3_matching import Encoder, Unsupported

TOOLS = (REVISION_TOOL,)
RESOURCES = st.none() | st.lists(st.sampled_from(("A", "B", "ab", 0, 1, 2.5, True)), min_size=1, max_size=3)


@settings(max_examples=250, deadline=None)
@given(st.lists(revision_grants(), min_size=1, max_size=4), st.data(), RESOURCES)
def test_a_refuted_question_is_unsatisfiable(entries: list[Entry], data: st.DataObject,
                                             resources: list[JSON] | None) -> None:
    bits = data.draw(st.lists(st.booleans() | st.just(True), min_size=len(entries), max_size=len(entries)))
    literals = list(zip(entries, bits, strict=True))
    assume(refuted("pay", resources, literals))
    try:
        enc = Encoder("pay", entries, TOOLS)
        solver = z3.Solver()
        solver.add(enc.base(resources), *[enc.matches(e) if b else enc.fails(e) for e, b in literals])
    except Unsupported:
        return
    assert solver.check() == z3.unsat


def _grant(*where: RangePred | EqPred | OneOfPred, const: JSON = None) -> Entry:
    pattern = ConstPat(const) if const is not None else ConstPat("A")
    return Entry(EntryKind.ALLOW, "pay", pattern, where=tuple(where))


def test_the_rules_fire_and_stay_silent_where_they_should() -> None:
    amount = ("amount",)
    low, high = _grant(RangePred(amount, 0, 100)), _grant(RangePred(amount, 1000, 5000))
    assert refuted("pay", None, [(low, True), (high, True)])  # disjoint ranges
    assert not refuted("pay", None, [(low, True), (high, False)])  # a fail literal proves nothing here
    assert not refuted("pay", None, [(low, True), (_grant(RangePred(amount, 100, 200)), True)])  # 100 is in both
    assert refuted("pay", None, [(_grant(EqPred(amount, 7)), True), (low, False), (high, True)])
    assert not refuted("pay", None, [(_grant(EqPred(amount, 7)), True), (low, True)])
    assert refuted("pay", None, [(_grant(OneOfPred(amount, ("x", 1))), True), (_grant(EqPred(amount, True)), True)])
    assert refuted("pay", None, [(_grant(const="A"), True), (_grant(const="B"), True)])  # two constants
    assert refuted("pay", ("B",), [(_grant(const="A"), True)])  # outside E
    assert not refuted("pay", ("A",), [(_grant(const="A"), True)])
    assert same_value(1, 1.0) and not same_value(1, True) and not same_value("1", 1)
    # an implied match: the fail literal's every conjunct follows from the match literals
    narrow, wide = _grant(RangePred(amount, 10, 20)), _grant(RangePred(amount, 0, 100))
    assert refuted("pay", None, [(narrow, True), (wide, False)])
    assert not refuted("pay", None, [(wide, True), (narrow, False)])
    assert refuted("pay", None, [(_grant(EqPred(amount, 5)), True), (wide, False)])
    glob = Entry(EntryKind.ALLOW, "pay", GlobPat("a*"))
    assert refuted("pay", None, [(_grant(const="ab"), True), (glob, False)])
    assert not refuted("pay", None, [(_grant(const="ba"), True), (glob, False)])
    keyed = Entry(EntryKind.ALLOW, "pay", ConstPat("A"), keys=frozenset({"target", "amount"}))
    assert refuted("pay", None, [(replace(keyed, keys=frozenset({"target"})), True), (keyed, False)])
    assert not refuted("pay", None, [(_grant(const="A"), True), (keyed, False)])  # no allowlist implies it


def test_the_glob_rules_fire_and_z3_agrees() -> None:
    """Globs' fixed ends: disagreeing prefixes or suffixes, a constant a glob refuses, and a fail literal of a
    wider ``P*`` / ``*S`` glob; each refutation Z3 confirms, and near misses stay unrefuted."""
    def glob(g: str) -> Entry:
        return Entry(EntryKind.ALLOW, "pay", GlobPat(g))

    def unsat(literals: list[tuple[Entry, bool]]) -> bool:
        enc = Encoder("pay", [e for e, _ in literals], TOOLS)
        solver = z3.Solver()
        solver.add(enc.base(None), *[enc.matches(e) if b else enc.fails(e) for e, b in literals])
        return bool(solver.check() == z3.unsat)

    fire = [[(glob("keep/*"), True), (glob("logs/*.log"), True)],
            [(glob("*.log"), True), (glob("*.txt"), True)],
            [(glob("a?c*"), True), (glob("b*"), True)],
            [(glob("logs/old/*"), True), (glob("logs/*"), False)],
            [(glob("logs/*.log"), True), (glob("*.log"), False)],
            [(glob("x[ab]*"), True), (glob("*"), False)],
            [(_grant(const="acct-1"), True), (glob("tmp/*"), True)],
            [(_grant(const=7), True), (glob("*"), True)]]
    silent = [[(glob("logs/*"), True), (glob("logs/old/*"), False)],  # the narrower one may fail
              [(glob("lo*"), True), (glob("logs/*"), True)],  # "lo" is a prefix of "logs/"
              [(glob("[ab]x"), True), (glob("ax"), True)],
              [(glob("log*"), True), (glob("logs/*"), False)],  # "logs/" needs the slash
              [(_grant(const="tmp/x"), True), (glob("tmp/*"), True)]]
    for literals in fire:
        assert refuted("pay", None, literals), literals
        assert unsat(literals), literals
    for literals in silent:
        assert not refuted("pay", None, literals), literals
