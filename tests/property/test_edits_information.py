"""Theorem 4 (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section VII and
Appendix A-F) beyond the paper's fixed pairs, on generated check instances: a view that omits
**P** (the workflow: the checker sees which calls exist and their actions, not how the contract
composes them), **I** (which calls refer to the same action: the checker sees each call's label
only) or **E** (earlier authorizations: the checker does not see the log) cannot decide exactly —
perturbing the omitted part of generated instances yields pairs with identical reduced views and
opposite verdicts. The full view ``Keep_PIEC`` is exact: it is the instance itself up to the
spelling of internal identifiers, the checker is deterministic, and a consistent renaming of calls,
actions, choice groups and arms changes neither the verdict nor its counts.
**C** (rule versions) is not part of a check instance: its generalisation over generated runtime
states, and P's there (ForkChoice vs ForkParallel), is tests/property/test_edits_information_runtime.py.
tests/unit/test_edits_table2.py checks the paper's five record pairs, built by runtime steps.

Choices where the paper is silent: a check instance's **P** is its contract term (every outcome is
required); a **P** perturbation rewrites one node of the term — ▷ to ⊗, ⊗ to ▷, a ▷ reversed, a ⊕ to
⊗ or ▷ over its arms, a ⊗ or ▷ to a ⊕ over its parts — so the set of calls (and with it ``q_act``,
kept in **I**) is unchanged. Counts are reported for one derandomized run (``-s`` prints them).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from model.edits.check.answer import Accepted, Invalid, Rejected, Verdict
from model.edits.check.checker import decide
from model.edits.check.contract import Call, Choice, Nil, Par, Seq, Term, call_ids
from model.edits.check.instance import Instance, make_instance
from model.oracle.generators import EDIT_ACTIONS, edit_instances, edit_terms

FRESH = "d-fresh"
EXAMPLES = 400


def run_settings(n: int) -> settings:
    return settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None, derandomize=True)


def _without_p(inst: Instance) -> Any:
    return inst.actions, inst.labels, inst.log, inst.policy


def _without_i(inst: Instance) -> Any:
    q, lab = inst.action_map(), inst.label_map()
    return inst.contract, tuple(sorted((x, lab[q[x]]) for x in q)), tuple(lab[d] for d in inst.log), inst.policy


def _without_e(inst: Instance) -> Any:
    return inst.contract, inst.actions, inst.labels, inst.policy


def _verdict(inst: Instance) -> bool | None:
    v = decide(inst)
    return None if isinstance(v, Invalid) else isinstance(v, Accepted)


def rewrites(t: Term) -> Iterator[Term]:
    """Every term differing from ``t`` in one node's composition, over the same calls."""
    if isinstance(t, Choice):
        arms = tuple(a for _, a in t.arms)
        yield Par(arms)
        yield Seq(arms)
        for i, (name, arm) in enumerate(t.arms):
            for r in rewrites(arm):
                yield Choice(t.group, (*t.arms[:i], (name, r), *t.arms[i + 1:]))
    elif isinstance(t, Par | Seq):
        yield Seq(t.parts) if isinstance(t, Par) else Par(t.parts)
        if isinstance(t, Seq) and t.parts[::-1] != t.parts:
            yield Seq(t.parts[::-1])
        yield Choice("g-p", tuple((f"p{i}", p) for i, p in enumerate(t.parts)))
        for i, part in enumerate(t.parts):
            for r in rewrites(part):
                yield type(t)((*t.parts[:i], r, *t.parts[i + 1:]))


def composite_instances(max_calls: int = 4) -> st.SearchStrategy[Instance]:
    """``edit_instances`` whose contract composes at least two terms (a lone call or ε has no
    composition to perturb)."""
    return edit_terms(max_calls).filter(lambda t: isinstance(t, Choice | Par | Seq)).flatmap(
        lambda t: edit_instances(term=t))


def p_search(n: int, max_calls: int = 4) -> dict[str, int]:
    """P pairs among ``n`` generated composite instances (at most one per instance)."""
    found = {"P": 0, "tried": 0}

    @run_settings(n)
    @given(composite_instances(max_calls))
    def body(inst: Instance) -> None:
        v = _verdict(inst)
        if v is None:
            return
        found["tried"] += 1
        q, lab = inst.action_map(), inst.label_map()
        for t in rewrites(inst.contract):  # one node composed differently, same calls and actions
            other = make_instance(t, q, lab, inst.log, inst.policy)
            assert t != inst.contract and sorted(call_ids(t)) == sorted(call_ids(inst.contract))
            assert _without_p(other) == _without_p(inst)
            if _verdict(other) not in (None, v):
                assert _verdict(other) != _verdict(inst)
                found["P"] += 1
                break

    body()
    return found


def test_omitting_p_is_inexact() -> None:
    found = p_search(EXAMPLES)
    print(f"P pairs among {EXAMPLES} generated composite instances ({found['tried']} well formed): {found['P']}")
    assert found["P"] > 0, found


def ie_search(n: int, max_calls: int = 4) -> dict[str, int]:
    """I and E pairs among ``n`` generated instances (at most one of each per instance)."""
    found = {"I": 0, "E": 0}

    @run_settings(n)
    @given(edit_instances(max_calls))
    def body(inst: Instance) -> None:
        v = _verdict(inst)
        if v is None:
            return
        assert _verdict(inst) == v  # the full view decides: same record, same answer
        q, lab = inst.action_map(), inst.label_map()
        calls = sorted(call_ids(inst.contract))
        for x in calls:  # I: give one call sharing an action a fresh action with the same label
            if any(q[y] == q[x] for y in calls if y != x):
                split = make_instance(inst.contract, {**q, x: FRESH}, {**lab, FRESH: lab[q[x]]}, inst.log, inst.policy)
                assert _without_i(split) == _without_i(inst)
                if _verdict(split) not in (None, v):
                    found["I"] += 1
                break
        for d in EDIT_ACTIONS:  # E: one more earlier authorization (its label kept out of the view)
            if d not in inst.log and inst.policy.accepts([lab[a] for a in (*inst.log, d)]):
                more = make_instance(inst.contract, q, lab, (*inst.log, d), inst.policy)
                assert _without_e(more) == _without_e(inst)
                if _verdict(more) not in (None, v):
                    found["E"] += 1
                break

    body()
    return found


def test_omitting_i_or_e_is_inexact() -> None:
    found = ie_search(EXAMPLES)
    print(f"pairs among {EXAMPLES} generated instances: {found}")
    assert found["I"] > 0 and found["E"] > 0, found


def _renamed(t: Term, ren: dict[str, str]) -> Term:
    if isinstance(t, Call):
        return Call(ren[t.call])
    if isinstance(t, Nil):
        return t
    if isinstance(t, Choice):
        return Choice(ren[t.group], tuple((ren[a], _renamed(s, ren)) for a, s in t.arms))
    assert isinstance(t, Par | Seq)
    return type(t)(tuple(_renamed(p, ren) for p in t.parts))


def _names(t: Term) -> Iterator[str]:
    if isinstance(t, Call):
        yield t.call
    elif isinstance(t, Choice):
        yield t.group
        for a, s in t.arms:
            yield a
            yield from _names(s)
    elif isinstance(t, Par | Seq):
        for p in t.parts:
            yield from _names(p)


def _shape(v: Verdict) -> Any:
    if isinstance(v, Invalid):
        return "invalid", v.reason
    c = v.counts
    kind = "accepted" if isinstance(v, Accepted) else "rejected"
    rounds = len(v.proof.rounds) if isinstance(v, Rejected) else None
    return kind, c.candidates, c.safe, c.prefixes, c.states, rounds


def test_full_view_is_exact_up_to_renaming() -> None:
    """``Keep_PIEC``: instances equal up to a consistent renaming of internal identifiers (calls,
    actions, choice groups, arms; labels and the policy are public) get the same verdict and counts,
    with the names in reverse sorted order so that no canonical order is preserved by accident."""

    @run_settings(200)
    @given(edit_instances())
    def body(inst: Instance) -> None:
        internal = sorted({*_names(inst.contract), *EDIT_ACTIONS}, reverse=True)
        ren = {n: f"z{i:02d}" for i, n in enumerate(internal)}
        q, lab = inst.action_map(), inst.label_map()
        other = make_instance(_renamed(inst.contract, ren), {ren[x]: ren[d] for x, d in q.items()},
                              {ren[d]: a for d, a in lab.items()}, tuple(ren[d] for d in inst.log), inst.policy)
        assert _shape(decide(other)) == _shape(decide(inst))

    body()
