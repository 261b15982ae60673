"""The integer-encoded search (``model/search/native/intcode.py`` and its compiled loop ``kernel.pyx``)
against the current engine: on every corpus model it covers, the same states, transitions, depth,
verdicts with their shortest traces and completions as the fingerprint search without sleep sets; the
models outside its scope answered None with the reason, so the caller runs the interpreted search."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from model.monitor.decide.compiled import compiled
from model.search.compact import CATS, SENS, TRUSTED
from model.search.fingerprint import explore_fingerprint
from model.search.load import load_model
from model.search.native import intcode
from model.search.search_verdict import Found

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ROOT / "corpus" / "search"
# bounds of a fraction of a second each on the interpreted engine (the slow tier runs deeper ones)
BOUNDS = {"report.json": 4, "report_alice_known.json": 3, "report_trust.json": 3, "delete_ab.json": 3,
          "deploy.json": 2, "deploy_fleet.json": 2, "payments.json": 3, "payments_invoices.json": 3,
          "agentdojo_banking.json": 1, "agentdojo_banking_weak.json": 1, "agentdojo_banking_wide.json": 1,
          "agentdojo_workspace.json": 1, "report_copying.json": 3,
          "report_permit.json": 4}
MODELS = sorted(p.name for p in SEARCH.glob("*.json") if p.name != "manifest.json"
                and "kind" not in json.loads(p.read_text(encoding="utf-8")))


def kernel() -> None:
    if intcode.kernel_module() is None:
        pytest.skip("the kernel is not built (python -m model.search.native.build)")


def same_answers(name: str, k: int) -> None:
    kernel()
    m = load_model(SEARCH / name)
    got = intcode.explore_native(m, k)
    assert got is not None, intcode.supported(m, k)
    want = explore_fingerprint(m, k, reduction=False)
    assert (got.states, got.transitions, got.depth) == (want.states, want.transitions, want.depth)
    assert got.verdicts == want.verdicts
    assert got.completions == want.completions
    assert got.unknown is None and got.mode == "exact" and got.collision == 0.0


@pytest.mark.parametrize("name", [n for n in MODELS if n in BOUNDS])
def test_same_answers_as_the_current_engine(name: str) -> None:
    same_answers(name, BOUNDS[name])


def test_a_found_trace_is_the_shortest_one_replayed() -> None:
    kernel()
    m = load_model(SEARCH / "report.json")
    got = intcode.explore_native(m, 4)
    assert got is not None
    found = [v for _, v in got.verdicts if isinstance(v, Found)]
    assert found, "the report model has attacks within 4 steps"
    want = explore_fingerprint(m, 4, reduction=False)
    assert [v for _, v in want.verdicts if isinstance(v, Found)] == found


def test_every_corpus_model_is_covered_or_says_why() -> None:
    for name in MODELS:
        m = load_model(SEARCH / name)
        why = intcode.supported(m, m.bound)
        assert (name in BOUNDS) == (why is None), (name, why)
    assert intcode.supported(load_model(SEARCH / "report.json"), 70) is not None


def test_outside_the_scope_the_caller_runs_the_interpreted_search() -> None:
    assert intcode.explore_native(load_model(SEARCH / "report.json"), 63) is None  # above the widest vector


def test_a_budget_stops_the_encoded_search_with_unknown() -> None:
    kernel()
    from model.base.budget import Budget

    m = load_model(SEARCH / "deploy.json")
    got = intcode.explore_native(m, 3, budget=Budget(states=2000))
    assert got is not None and got.unknown is not None
    assert got.transitions < 22684  # the whole search to bound 3


def test_a_value_refusal_is_a_refusal_of_the_real_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal the kernel tables by the argument values (``VALUE_REFUSAL``: per decision prefix — tool,
    argument names, the state's projection —; ``SLOT_REFUSAL``: per tool, argument names, slots and invalid
    set; ``argref``: by one argument's value, per tool, argument names, slots and invalid set; ``LABEL_REFUSAL``:
    by the argument names and the join of the handles' labels; ``ORIGIN_REFUSAL - j``: by the argument names
    and the content of argument ``j``) is a refusal by the monitor of every proposal with those values (or
    that label, or that content): in every state Python is asked
    about, each proposal of the asked argument names that a refusal tabled so far covers is decided on the
    real state and call."""
    kernel()
    import itertools

    from model.monitor.decide.base import Decision, decide
    from model.search.held import call_of

    # the ids these sets key on (prefix, slot-prefix and content ids, argument-name indices) are per search,
    # and two models' ids overlap: each model's search checks against the sets its own refusals filled
    by_value: set[tuple[int, tuple[str, ...]]] = set()
    by_slot: set[tuple[int, tuple[str, ...]]] = set()
    by_arg: set[tuple[int, int, str]] = set()
    by_label: set[tuple[int, object]] = set()
    by_origin: set[tuple[int, int, object]] = set()
    kinds: set[str] = set()  # the kinds of tabled refusal met over all models

    def joined(self: intcode.Compiler, s: Any, hs: Any, ix: Sequence[int]) -> object:
        recs = [s[0][hs[i][3][0]] for i in ix if hs[i][3] is not None]
        labs = [self.ctx.mat.label(r[SENS], r[CATS], r[TRUSTED]) for r in recs]
        return compiled(self.model.policy).join(labs) if labs else None
    checked: list[bool] = []
    seen: set[tuple[int, int]] = set()
    full = intcode.Compiler.decide
    argref = intcode.Compiler.argref

    def arg(self: intcode.Compiler, ni: int, j: int, vid: int, p: int) -> int:
        out = argref(self, ni, j, vid, p)
        if out:
            by_arg.add((self.sprefix(ni, p), j, self.texts[vid]))
        return out

    def both(self: intcode.Compiler, sidx: int, ni: int, ix: list[int], same: int, pref: int) -> int:
        out = full(self, sidx, ni, ix, same, pref)
        _, s, hs, mon = self.state_at(sidx)
        tool, names = self.names[ni]
        spref = self.sprefix(ni, self.kernel.state(sidx)[0])
        if out == intcode.LABEL_REFUSAL:
            by_label.add((ni, joined(self, s, hs, ix)))
        elif out == intcode.VALUE_REFUSAL:
            by_value.add((pref, tuple(hs[i][2] for i in ix)))
        elif out == intcode.SLOT_REFUSAL:
            by_slot.add((spref, tuple(hs[i][2] for i in ix)))
        elif out <= intcode.ORIGIN_REFUSAL:
            j = intcode.ORIGIN_REFUSAL - out
            by_origin.add((ni, j, hs[ix[j]][5]))
        if (sidx, ni) in seen:  # each state and argument names once (the product is large)
            return out
        seen.add((sidx, ni))
        for ix2 in itertools.product(range(len(hs)), repeat=len(names)):
            texts = tuple(hs[i][2] for i in ix2)
            if (pref, texts) in by_value or (spref, texts) in by_slot or \
                    any((spref, j, t) in by_arg for j, t in enumerate(texts)) or \
                    (ni, joined(self, s, hs, ix2)) in by_label or \
                    any((ni, j, hs[i][5]) in by_origin for j, i in enumerate(ix2)):
                call, _ = call_of(self.ctx, tool, names, tuple(hs[i] for i in ix2))
                checked.append(decide(self.model.policy, mon, call).decision is not Decision.ALLOW)
        return out

    monkeypatch.setattr(intcode.Compiler, "decide", both)
    monkeypatch.setattr(intcode.Compiler, "argref", arg)
    for name, k in (("deploy.json", 2), ("report.json", 3), ("payments_invoices.json", 3),
                    ("agentdojo_banking.json", 2), ("agentdojo_workspace.json", 1), ("payments.json", 3)):
        for table in (by_value, by_slot, by_arg, by_label, by_origin):
            table.clear()
        seen.clear()
        assert intcode.explore_native(load_model(SEARCH / name), k) is not None
        kinds.update(kind for kind, table in (("value", by_value), ("slot", by_slot), ("arg", by_arg),
                                              ("label", by_label), ("origin", by_origin)) if table)
    assert kinds == {"value", "slot", "arg", "label", "origin"} and len(checked) > 1000, (kinds, len(checked))
    assert all(checked), f"{checked.count(False)} of {len(checked)} proposals a value refusal covers were admitted"


def test_a_decision_reused_by_values_and_labels_is_the_monitors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every verdict the abstract table hands on (same values, same handle labels and paths, same state
    projection) is the verdict the monitor gives on the real state and call; at level 1 the kernel asks
    Python for each such proposal, so each reuse is checked here."""
    kernel()
    from model.monitor.decide.base import decide
    from model.search.held import call_of

    checked: list[bool] = []
    full = intcode.Compiler.decide

    def both(self: intcode.Compiler, sidx: int, ni: int, ix: list[int], same: int, pref: int) -> int:
        out = full(self, sidx, ni, ix, same, pref)
        if same >= 0:
            _, _s, hs, mon = self.state_at(sidx)
            tool, names = self.names[ni]
            call, _ = call_of(self.ctx, tool, names, tuple(hs[i] for i in ix))
            checked.append(decide(self.model.policy, mon, call) == self.trans[same][5])
        return out

    level = intcode.abstract
    monkeypatch.setattr(intcode.Compiler, "decide", both)
    monkeypatch.setattr(intcode, "abstract", lambda model, tool: min(level(model, tool), 1))
    assert intcode.explore_native(load_model(SEARCH / "agentdojo_banking.json"), 2) is not None
    assert checked and all(checked), f"{checked.count(False)} of {len(checked)} reused verdicts differ"


def test_reused_transitions_give_the_same_answers_deeper() -> None:
    """The banking control at bound 2, where most transitions come from the abstract table (level 2)."""
    m = load_model(SEARCH / "agentdojo_banking_weak.json")
    assert {intcode.abstract(m, t.name) for t in m.policy.tools} == {2}
    same_answers("agentdojo_banking_weak.json", 2)


def test_origin_rules_and_permit_grants_turn_the_abstraction_off() -> None:
    m = load_model(SEARCH / "report.json")
    assert intcode.abstract(m, "Send") == 0  # an origin rule reads the producers of Send's handle
    assert intcode.abstract(m, "Read") == 2
    permit = load_model(SEARCH / "report_permit.json")
    assert intcode.abstract(permit, "Send") == 0  # an origin rule, and its grant requires a permit
    assert intcode.reads_permits(permit, "Send") and not intcode.reads_permits(permit, "Read")
    # states hold permits, but no grant of Read's effect requires one and no rule pauses: its verdict never
    # reads them, so the abstraction holds
    assert intcode.abstract(permit, "Read") == 2


def test_approvals_and_permits_give_the_interpreted_answers() -> None:
    """The permit model: approvals before the agent's calls, positional keys once a permit is held, a
    permit consumed by the call it binds; its found trace goes through an approval."""
    m = load_model(SEARCH / "report_permit.json")
    same_answers("report_permit.json", 5)
    got = intcode.explore_native(m, 5)
    assert got is not None
    from model.search.states import Approve

    traces = [v.trace for _, v in got.verdicts if isinstance(v, Found)] + [t for _, ts in got.completions for t in ts]
    assert any(isinstance(step.action, Approve) for t in traces for step in t), "an approval is exercised"


def test_the_per_model_compile_shares_nothing_a_search_fills() -> None:
    """``Static`` is kept per model object across searches: a search's context from it shares with the
    compile's prototype only the fields ``held.Context`` computes from the model alone (``CONTEXT_SHARED``);
    every memo table is a new object, empty but for the literals' ids and the parsed values the model can
    produce (its literals, its tools' result texts and their declared fields); and searches of one model
    object, the compile reused, answer as a search of a freshly loaded one."""
    import dataclasses

    from model.search.held import Context

    kernel()
    m = load_model(SEARCH / "payments.json")
    st = intcode.static_of(m)
    assert intcode.static_of(m) is st
    ctx = st.context()
    for f in dataclasses.fields(Context):
        if f.name in intcode.CONTEXT_SHARED:
            assert getattr(ctx, f.name) is getattr(st.proto, f.name), f.name
        elif not isinstance(getattr(ctx, f.name), bool | int | type(None)):
            assert getattr(ctx, f.name) is not getattr(st.proto, f.name), f.name
    assert ctx.interned == st.interned and ctx.interned is not st.interned
    assert not ctx.trans and not ctx.refused
    texts = {*m.literals, *(r.text for t in st.tools for r in st.proto.results[t] if r.ok)}
    assert ctx.values == st.values and ctx.values is not st.values and ctx.fields is not st.fields
    assert set(ctx.fields) == {(r.text, f) for t in st.tools for r in st.proto.results[t] if r.ok
                               for f in m.fields_of(t)}
    assert set(ctx.values) == texts | {f[1] for f in ctx.fields.values() if f is not None}
    assert all(v == json.loads(t) for t, v in ctx.values.items())
    runs = [intcode.explore_native(m, 4), intcode.explore_native(m, 4),
            intcode.explore_native(load_model(SEARCH / "payments.json"), 4)]
    assert all(r is not None for r in runs)
    assert len({repr((r.states, r.transitions, r.depth, r.verdicts, r.completions)) for r in runs if r}) == 1
    assert not st.interned.keys() - {("L", v) for v in m.literals} - {("V", v) for v in m.literals}


@pytest.mark.parametrize("name", [n for n in MODELS if n in BOUNDS])
def test_the_compiled_argument_refusals_are_the_per_state_ones(name: str) -> None:
    """``Static.argrefs`` — ``argref`` per argument names, argument and value text, compiled once per model
    where no allow pattern of the argument's effects names a slot — answers as ``argref`` computes it
    under a state's slots (the root's, and any bindings: no pattern it holds reads them), for every
    value a state can hold; it holds an entry for every such argument and value; and a refusal it holds is
    the monitor's in the root state, whatever literal the other arguments take."""
    from model.monitor.decide.base import Decision, decide
    from model.monitor.decide.state import Call, State

    kernel()
    m = load_model(SEARCH / name)
    st = intcode.static_of(m)
    bound = State((), (("any", "x", 0),), frozenset({"other"}), (), (), frozenset(), ())
    slot_free = [(ni, j) for ni, (_t, names) in enumerate(st.names) for j in range(len(names))
                 if st.arg_effects(ni, j) and not any(isinstance(p, intcode.SlotPat)
                                                      for _l, sides in st.arg_effects(ni, j)
                                                      for allows in sides for p in allows)]
    assert set(st.argrefs) == {(ni, j, t) for ni, j in slot_free for t in st.values}
    for (ni, j, text), got in st.argrefs.items():
        want = intcode.refused_alone(st.arg_effects(ni, j), json.loads(text), bound)
        assert got == want, (st.names[ni], j, text)
    root = st.context().mat.monitor(st.root)
    refused = [key for key, got in st.argrefs.items() if got]
    assert refused or name != "delete_ab.json"  # there a list is no resource of Delete's single target
    for ni, j, text in refused:
        tool, names = st.names[ni]
        for lit in m.literals:
            args = {n: json.loads(text if i == j else lit) for i, n in enumerate(names)}
            verdict = decide(m.policy, root, Call(m.agent, tool, args, (), ()))
            assert verdict.decision is not Decision.ALLOW, (tool, names, j, text, lit)


def test_a_goal_reached_from_the_initial_state_is_its_own_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Compiler.completions`` takes a goal's cone from the initial state as its one order, read off the new
    record (``goal_call``) without materializing the successor or replaying the order: on every corpus
    model, each time it does, that step is ``completions.cone``'s in the successor built as the
    interpreted search builds it, and ``completions.orders`` (the replay by the monitor from the initial
    state) gives that order and no other."""
    from model.search.completions import cone, orders

    kernel()
    full = intcode.Compiler.completions
    checked: list[str] = []

    def both(self: intcode.Compiler, p: int, s: Any, hpos: list[int], tid: int, k: int, query: int,
             seen: set[str], out: set[Any]) -> None:
        full(self, p, s, hpos, tid, k, query, seen, out)
        if not s[0] and not s[5] and not s[6]:
            rec = self.codec.recs[self.newrec(tid, k, 0, hpos)]
            new = self.ctx.mat.search_state(((rec,), *self.codec.rests[self.rest(p, tid, k, 0, 0)]))
            steps, goal = cone(self.model, new, 0, query)
            assert goal == 0 and steps == (intcode.goal_call(rec),), steps
            assert orders(self.model, steps, goal, query) == {steps} and steps in out
            checked.append(self.model.name)

    monkeypatch.setattr(intcode.Compiler, "completions", both)
    for name in [n for n in MODELS if n in BOUNDS]:
        assert intcode.explore_native(load_model(SEARCH / name), BOUNDS[name]) is not None
    assert "delete_ab" in checked, checked
