"""Samples made without Z3 (model/revision/smt/synth.py) are models of their questions.

- On generated ``pay`` grants (constants, globs, slots, key allowlists, predicates) and a generated
  match / fail assignment, with every resource allowed or a few: whenever ``synthesize`` returns a point,
  Z3 finds the question satisfiable with every encoder variable pinned to that point's value (the
  resource, each path's value or ``missing``, ``other_key`` false, each slot as bound), and the monitor's
  matcher agrees with every literal on it. So a "satisfiable" it gives is one Z3 would give.
- ``well_formed`` refuses what ``Encoder.base`` refuses: a resource ``E`` does not allow, a key no
  producing tool takes, a required argument missing, a resource that is not where the tool reads it.
- On the corpus's payment policy it does answer questions (a search that never succeeds would pass the
  first property vacuously).
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import z3
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.monitor.decide.matching import MISSING, Effect, entry_matches, lookup_path
from model.monitor.decide.state import State
from model.monitor.language.policy import Entry
from model.monitor.language.syntax import load_policy
from model.oracle.generators import REVISION_TOOL, revision_grants
from model.revision.smt.synth import synthesize, well_formed
from model.revision.smt.z3_matching import JV, Encoder, Unsupported, Witness, const

TOOLS = (REVISION_TOOL,)
ROOT = Path(__file__).resolve().parents[2]
RESOURCES = st.none() | st.lists(st.sampled_from(("A", "B", "ab", "x", 0, 1, True)), min_size=1, max_size=3)


def _pin(enc: Encoder, w: Witness) -> list[z3.BoolRef]:
    def value(v: z3.DatatypeRef, got: JSON | object) -> z3.BoolRef:
        if got is MISSING:
            return JV.is_missing(v)
        if isinstance(got, list):
            return JV.is_jarr(v)
        if isinstance(got, dict):
            return JV.is_jobj(v)
        assert not isinstance(got, float)  # synth makes exact values only
        return v == const(got)  # type: ignore[arg-type]

    pins = [value(v, lookup_path(w.args, p)) for p, v in enc.val.items()]
    pins += [enc.r == const(w.resource), z3.Not(enc.other)]
    bound = dict(w.bindings)
    for s, b in enc.bound.items():
        pins.append(b if s in bound else z3.Not(b))
        if s in bound:
            pins.append(enc.sval[s] == const(bound[s]))
    return pins


@settings(max_examples=150, deadline=None)
@given(st.lists(revision_grants(), min_size=1, max_size=4), st.data(), RESOURCES)
def test_a_synthesized_point_is_a_model_of_its_question(entries: list[Entry], data: st.DataObject,
                                                         resources: list[JSON] | None) -> None:
    bits = data.draw(st.lists(st.booleans(), min_size=len(entries), max_size=len(entries)))
    w = synthesize("pay", resources, TOOLS, list(zip(entries, bits, strict=True)))
    assume(w is not None)
    assert w is not None
    state = State(bindings=tuple((s, v, 0) for s, v in w.bindings))
    assert [entry_matches(e, Effect("pay", w.resource), w.args, state) for e in entries] == bits
    try:
        enc = Encoder("pay", entries, TOOLS)
        lits = [enc.matches(e) if b else enc.fails(e) for e, b in zip(entries, bits, strict=True)]
        base = enc.base(resources)
    except Unsupported:
        return
    solver = z3.Solver()
    solver.add(base, *lits, *_pin(enc, w))
    assert solver.check() == z3.sat


def test_well_formed_refuses_what_the_base_refuses() -> None:
    ok = Witness("pay", "A", {"target": "A", "amount": 3}, ())
    assert well_formed(ok, None, TOOLS) and well_formed(ok, ("A", "B"), TOOLS)
    assert not well_formed(ok, ("B",), TOOLS)  # a resource E does not allow
    assert not well_formed(Witness("pay", "A", {"target": "A", "other": 1}, ()), None, TOOLS)  # a key Pay lacks
    assert not well_formed(Witness("pay", "A", {"amount": 3}, ()), None, TOOLS)  # required target missing
    assert not well_formed(Witness("pay", "A", {"target": "B"}, ()), None, TOOLS)  # not where Pay reads it
    assert not well_formed(Witness("pay", None, {"target": None}, ()), None, TOOLS)  # null is no resource
    assert not well_formed(Witness("pay", "A", {"target": "A"}, (("s", ""),)), None, TOOLS)  # empty address
    assert not well_formed(Witness("send", "A", {"target": "A"}, ()), None, TOOLS)  # Pay does not send


def test_it_answers_questions_on_the_payment_policy() -> None:
    pay = load_policy(ROOT / "corpus" / "policies" / "payments.policy")
    entries = [e for e in pay.user if e.action == pay.user[0].action][:4]
    made = 0
    for bits in product((True, False), repeat=len(entries)):
        w = synthesize(entries[0].action, None, pay.tools, list(zip(entries, bits, strict=True)))
        if w is not None:
            assert well_formed(w, None, pay.tools)
            made += 1
    assert made >= 3
