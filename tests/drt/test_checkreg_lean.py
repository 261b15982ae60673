"""``CheckReg`` (Definition 6), Python against Lean: Lean's ``checkReg`` is proved to accept exactly when
λ witnesses ``𝒲 ⊑_λ ℛ`` (``registrationReflection``), so agreement checks the Python check against the
definition. Generated registrations (a workflow built from the root contract's linearizations, with
τ-steps and τ-cycles) and mutants of each, some of which keep the registration valid; both verdicts
must occur, so agreement is not agreement on one answer."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from model.base.canonical import canonical_str
from model.edits.runtime.record import ActionSpec
from model.edits.runtime.registration import Registration
from model.edits.runtime.workflow import RegMap, Transition, Workflow
from model.oracle.checkreg_json import compare_check_reg
from model.oracle.lean import LeanOracle
from tests.property.test_edits_checkreg import Case, cases

pytestmark = pytest.mark.lean

KINDS = ("none", "tau-loop", "tau-detour", "cycle", "request", "result", "unmapped", "dead-end",
         "dropped-run", "twin-site", "shared-request", "swap-results")


def mutate(case: Case, kind: str, pick: int) -> tuple[Workflow, RegMap, Registration]:
    reg, w, lam, _, _ = case
    tools = [i for i, t in enumerate(w.transitions) if t.request is not None]
    ts = list(w.transitions)
    if kind == "tau-loop":  # an erased τ self-loop: still a valid registration
        s = w.states[pick % len(w.states)]
        if s not in dict(w.results):
            ts.append(Transition(s, s, None, None))
    elif kind == "tau-detour" and tools:  # a tool call reached through a τ-detour: the same traces
        t = ts[tools[pick % len(tools)]]
        mid = f"d{len(w.states)}"
        ts[tools[pick % len(tools)]] = Transition(t.source, mid, None, None)
        ts.append(Transition(mid, t.target, t.site, t.request))
        return replace(w, states=(*w.states, mid), transitions=tuple(ts)), lam, reg
    elif kind == "cycle" and tools:
        t = ts[tools[pick % len(tools)]]
        ts.append(Transition(t.target, t.source, None, None))
    elif kind == "request" and tools:
        i = tools[pick % len(tools)]
        ts[i] = replace(ts[i], request=canonical_str({"tool": "elsewhere"}))
    elif kind == "result":
        r = lam.results[pick % len(lam.results)][0]
        return w, replace(lam, results=tuple((x, "no-such-outcome" if x == r else o) for x, o in lam.results)), reg
    elif kind == "unmapped" and lam.calls:
        k = pick % len(lam.calls)
        return w, replace(lam, calls=lam.calls[:k] + lam.calls[k + 1:]), reg
    elif kind == "dead-end":
        s = w.states[pick % len(w.states)]
        if s not in dict(w.results):
            dead = f"z{len(w.states)}"
            return replace(w, states=(*w.states, dead), transitions=(*ts, Transition(s, dead, None, None))), lam, reg
    elif kind == "dropped-run":
        s, _ = w.results[pick % len(w.results)]
        ts = [t for t in ts if t.target != s]
    elif kind == "twin-site" and tools:  # a second site name for one call on one transition
        i = tools[pick % len(tools)]
        site = ts[i].site
        assert site is not None
        twin = f"{site}-twin"
        ts.append(replace(ts[i], site=twin))
        return (replace(w, transitions=tuple(ts)),
                replace(lam, calls=tuple(sorted((*lam.calls, (twin, dict(lam.calls)[site]))))), reg)
    elif kind == "shared-request" and len(reg.actions) > 1:
        a0, d1 = reg.actions[0][1], reg.actions[1 + pick % (len(reg.actions) - 1)][0]
        actions = tuple((d, ActionSpec(s.label, a0.request, s.scope) if d == d1 else s) for d, s in reg.actions)
        return w, lam, replace(reg, actions=actions)
    elif kind == "swap-results" and len(lam.results) > 1:
        names = [o for _, o in lam.results]
        return w, replace(lam, results=tuple((r, names[(k + 1) % len(names)]) for k, (r, _) in
                                             enumerate(lam.results))), reg
    return replace(w, transitions=tuple(ts)), lam, reg


def test_check_reg_agrees(oracle: LeanOracle) -> None:
    tally = {"accepted": 0, "refused": 0}

    @settings(max_examples=200, database=None, phases=[Phase.generate], deadline=None)
    @given(cases(), st.sampled_from(KINDS), st.integers(0, 1000))
    def body(case: Case, kind: str, pick: int) -> None:
        w, lam, reg = mutate(case, kind, pick)
        py, lean = compare_check_reg(oracle, w, lam, reg)
        assert py == lean, (kind, w, lam, reg, py, lean)
        tally["accepted" if py else "refused"] += 1

    body()
    print(f"check_reg DRT: {tally}")
    assert tally["accepted"] and tally["refused"], tally
