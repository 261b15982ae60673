"""CheckReg (model/edits/runtime/checkreg.py) on generated workflows.

Reflection: a workflow LTS built from a registered contract's linearizations (a trie over the calls,
with τ-steps and τ-cycles thrown in, result states reached by τ) is accepted, and its traces mapped
through λ give the *same* safety answer and the same largest safe execution set as the registered
contract — computed on the workflow side by a direct fixed point over the traces (written here, not
the checker) and on the registered side by the checker. Mutants of the workflow are refused with the
reason their mutation breaks.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from model.base.canonical import canonical_str
from model.edits.check.answer import Accepted, Rejected
from model.edits.check.candidates import linearizations
from model.edits.check.checker import decide
from model.edits.check.contract import Term, call_ids, outcomes, show_outcome
from model.edits.check.edit_policy import PolicyAutomaton, from_maximal_words
from model.edits.check.instance import make_instance
from model.edits.check.resolve import Mode, Word, resolve
from model.edits.runtime.checkreg import RegAccepted, RegRefusal, RegRefused, check_reg
from model.edits.runtime.record import ActionSpec
from model.edits.runtime.registration import Registration
from model.edits.runtime.workflow import RegMap, Transition, Workflow
from model.oracle.generators import EDIT_ACTIONS, EDIT_LABELS, edit_terms

Case = tuple[Registration, Workflow, RegMap, dict[str, str], dict[str, str]]


def _registration(term: Term, q_act: dict[str, str], labels: dict[str, str], policy: PolicyAutomaton) -> Registration:
    actions = tuple((d, ActionSpec(labels[d], canonical_str({"tool": d}), "s")) for d in EDIT_ACTIONS)
    return Registration("dom", policy, tuple(sorted(q_act.items())), actions, (), (), (), "root", term)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    term = draw(edit_terms(4))
    calls = sorted(set(call_ids(term)))
    q_act = {c: draw(st.sampled_from(EDIT_ACTIONS[:3])) for c in calls}
    labels = {d: draw(st.sampled_from(EDIT_LABELS)) for d in EDIT_ACTIONS}
    words = draw(st.lists(st.lists(st.sampled_from(EDIT_LABELS), max_size=4), min_size=1, max_size=4))
    reg = _registration(term, q_act, labels, from_maximal_words(words))
    states, ts, results, node = ["n"], [], [], {(): "n"}
    lam_calls: dict[str, str] = {}
    lam_results: dict[str, str] = {}
    for k, (o, p) in enumerate(outcomes(term).items()):
        lam_results[f"R{k}"] = show_outcome(o)
        for lin in linearizations(p):
            for i in range(len(lin)):
                if lin[: i + 1] in node:
                    continue
                a, b = node[lin[:i]], f"n{len(states)}"
                states.append(b)
                node[lin[: i + 1]] = b
                lam_calls[f"site-{lin[i]}"] = lin[i]
                ts.append(Transition(a, b, f"site-{lin[i]}", canonical_str({"tool": q_act[lin[i]]})))
                if draw(st.integers(0, 3)) == 0:  # an internal step and a τ-cycle after the call
                    c = f"n{len(states)}"
                    states.append(c)
                    ts += [Transition(b, c, None, None), Transition(c, b, None, None)]
            r = f"r{len(states)}"
            states.append(r)
            results.append((r, f"R{k}"))
            ts.append(Transition(node[lin], r, None, None))
    w = Workflow("n", tuple(states), tuple(sorted(results)), tuple(ts))
    return reg, w, RegMap(tuple(sorted(lam_calls.items())), tuple(sorted(lam_results.items()))), q_act, labels


def _direct(runs: tuple[tuple[str, tuple[str, ...]], ...], q_act: dict[str, str], labels: dict[str, str],
            policy: PolicyAutomaton) -> set[tuple[str, Word]]:
    """B̂† straight from the traces: candidates, Compat and Φ̂ iterated to its greatest fixed point."""
    resolved = [(o, resolve(raw, q_act, ())) for o, raw in runs]
    fam = {(o, z) for o, z in resolved if policy.accepts([labels[a.action] for a in z if a.mode is Mode.NEW])}

    def compat(z: Word) -> set[str]:
        return {o for o, y in resolved if y[: len(z)] == z}

    while True:
        keep = {(o, y) for o, y in fam if all(any(o3 == o2 and y3[:k] == y[:k] for o3, y3 in fam)
                                              for k in range(len(y) + 1) for o2 in compat(y[:k]))}
        if keep == fam:
            return fam
        fam = keep


@settings(max_examples=150, deadline=None)
@given(cases())
def test_registration_reflects_the_safety_answer(case: Case) -> None:
    reg, w, lam, q_act, labels = case
    answer = check_reg(w, lam, reg)
    assert isinstance(answer, RegAccepted), answer
    registered = {(show_outcome(o), lin) for o, p in outcomes(reg.root).items() for lin in linearizations(p)}
    assert set(answer.runs) == registered
    v = decide(make_instance(reg.root, q_act, labels, (), reg.policy))
    assume(isinstance(v, Accepted | Rejected))  # an ill-formed root contract is Invalid: no answer to reflect
    direct = _direct(answer.runs, q_act, labels, reg.policy)
    if isinstance(v, Accepted):
        assert direct == {(show_outcome(o), y) for o, y in v.automaton.completions()}
    else:
        assert direct == set()


@settings(max_examples=100, deadline=None)
@given(cases(), st.data())
def test_mutants_are_refused(case: Case, data: st.DataObject) -> None:
    reg, w, lam, q_act, _ = case
    tools = [i for i, t in enumerate(w.transitions) if t.request is not None]
    kind = data.draw(st.sampled_from(["cycle", "request", "non-injective", "result", "unmapped", "extra-run",
                                             "dropped-run"]))
    if kind == "cycle" and tools:
        i = data.draw(st.sampled_from(tools))
        back = Transition(w.transitions[i].target, w.transitions[i].source, None, None)
        bad = replace(w, transitions=(*w.transitions, back))
        got = check_reg(bad, lam, reg)
        assert isinstance(got, RegRefused) and got.reason is RegRefusal.TOOL_CALL_CYCLE, got
    elif kind == "request" and tools:
        i = data.draw(st.sampled_from(tools))
        ts = list(w.transitions)
        ts[i] = replace(ts[i], request=canonical_str({"tool": "elsewhere"}))
        got = check_reg(replace(w, transitions=tuple(ts)), lam, reg)
        assert isinstance(got, RegRefused) and got.reason is RegRefusal.REQUEST_MISMATCH, got
    elif kind == "non-injective" and tools:
        # a second site for the same call, on a copy of a whole run: two traces, one registered run
        first = w.transitions[tools[0]]
        assert first.site is not None
        twin = f"{first.site}-twin"
        extra = tuple(replace(t, site=twin) if t.site == first.site else t for t in w.transitions)
        renamed = {s: f"{s}'" for s in w.states}
        copy = tuple(Transition(renamed[t.source], renamed[t.target], t.site, t.request) for t in extra)
        bad = Workflow(w.initial, (*w.states, *renamed.values()),
                       (*w.results, *((renamed[s], r) for s, r in w.results)),
                       (*w.transitions, *copy, Transition(w.initial, renamed[w.initial], None, None)))
        got = check_reg(bad, replace(lam, calls=tuple(sorted((*lam.calls, (twin, dict(lam.calls)[first.site]))))), reg)
        assert isinstance(got, RegRefused) and got.reason is RegRefusal.MAP_NOT_INJECTIVE, got
    elif kind == "result":
        r = lam.results[0][0]
        got = check_reg(w, replace(lam, results=((r, "no-such-outcome"), *lam.results[1:])), reg)
        assert isinstance(got, RegRefused) and got.reason is RegRefusal.UNREGISTERED_RESULT, got
    elif kind == "unmapped" and tools:
        got = check_reg(w, replace(lam, calls=lam.calls[1:]), reg)
        assert isinstance(got, RegRefused) and got.reason is RegRefusal.MAP_NOT_TOTAL, got
    elif kind == "extra-run" and tools:
        # a run of every call in one order, ending in the first result: registered only by accident
        calls = sorted(set(call_ids(reg.root)))
        states, ts = list(w.states), list(w.transitions)
        prev, lam_calls = w.initial, dict(lam.calls)
        for x in (*calls, *calls[:1]):  # one call twice: never a linearization
            nxt = f"x{len(states)}"
            states.append(nxt)
            lam_calls[f"extra-{x}"] = x
            ts.append(Transition(prev, nxt, f"extra-{x}", canonical_str({"tool": q_act[x]})))
            prev = nxt
        res = f"x{len(states)}"
        ts.append(Transition(prev, res, None, None))
        bad = Workflow(w.initial, (*states, res), (*w.results, (res, lam.results[0][0])), tuple(ts))
        got = check_reg(bad, RegMap(tuple(sorted(lam_calls.items())), lam.results), reg)
        assert isinstance(got, RegRefused) and got.reason in {RegRefusal.TRACE_NOT_REGISTERED,
                                                                RegRefusal.MAP_NOT_INJECTIVE}, got
    elif kind == "dropped-run":
        # the last result becomes unreachable: its run is no longer covered (or a state is stuck)
        s, _ = w.results[-1]
        ts = tuple(t for t in w.transitions if t.target != s)
        got = check_reg(replace(w, transitions=ts), lam, reg)
        assert isinstance(got, RegRefused) and got.reason in {RegRefusal.RUN_NOT_COVERED,
                                                                RegRefusal.STUCK_STATE}, got
