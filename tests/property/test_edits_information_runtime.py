"""Theorem 4 (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section VII and
Appendices A-F, A-G) on generated runtime states: the record pairs of Table II for **P**, **E** and **C**,
generalised from the paper's one fixed pair each to every state that generated sessions reach
(``tests/edits_pure_sessions``: the runtime's atomic steps from the checked root update of three
registrations), and the exactness of the full view.

- **C**: the same session under two private namespaces that differ only in the rule-version supply
  (``v…`` and ``w…``). The reduced views ``Keep_PIE`` are identical and the full views differ; every
  request ``Decide(u)`` gets the same verdict in both, and every ``TryUpdate(u, Y₀)`` with ``Y₀``
  checked at ``V⁰`` takes effect at ``V⁰`` and is ``NoCommit`` at ``V¹``.
- **P**: at a generated state, the same branch forked by a ForkChoice rule (``V⁰``) or by a
  ForkParallel rule with the same arms (``V¹``), both accepted. The reduced views ``Keep_IEC`` are
  identical; the pairs are the requests ``Decide(u)`` (every edit the rules allow) whose answers are
  opposite (accepted, rejected or invalid).
- **E**: ``V¹`` is a generated ``V⁰`` after a Dispatch or a completion update, which change only
  progress. The reduced views ``Keep_PIC`` are identical; ``Decide(u)`` gets the same verdict, and
  ``TryUpdate(u, Y₀)`` with ``Y₀`` checked at ``V⁰`` takes effect at ``V⁰`` and is ``NoCommit`` at ``V¹``
  (the instance-level E pairs of tests/property/test_edits_information.py add an authorization instead).
- ``Keep_PIEC`` is exact: the state is rebuilt from its full view alone (every answer of the runtime is
  a function of the state), and check answers on the rebuilt state equal those on the original.

Counts are for one derandomized run (``-s`` prints them); tests/slow/test_edits_information_deep.py
runs more and longer sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.edits.runtime import steps
from model.edits.runtime.answers import CheckAnswer, EditAccepted, EditInvalid, NoCommit, Updated
from model.edits.runtime.forms import ForkChoice, ForkParallel
from model.edits.runtime.record import State
from model.edits.runtime.record_json import state_from_json, state_to_json
from model.edits.runtime.sec import PARTS, keep, omit, sec
from model.edits.runtime.tree import leaves
from tests.edits_pure_sessions import edits, registrations, replay, run

REGS = registrations()
EXAMPLES = 25
LENGTH = 5


def sessions(length: int = LENGTH) -> st.SearchStrategy[tuple[int, list[int]]]:
    return st.tuples(st.integers(0, len(REGS) - 1), st.lists(st.integers(0, 999), max_size=length))


def run_settings(n: int) -> settings:
    return settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None, derandomize=True)


def answer_kind(y: CheckAnswer) -> str:
    return type(y).__name__


def verdict_shape(y: CheckAnswer) -> Any:
    """A check answer without the names that depend on C (γ and the rule versions)."""
    if isinstance(y, EditInvalid):
        return "invalid", y.reason, y.detail
    c = y.verdict.counts
    return answer_kind(y), c.candidates, c.safe, c.prefixes, c.states, c.rounds


def c_pairs(reg_index: int, picks: list[int], found: dict[str, int]) -> None:
    _, reg, key = REGS[reg_index]
    v0, acts = run(reg, key, picks)
    v1 = replay(reg, key, acts, "w")
    assert omit(v0, "C") == omit(v1, "C")
    assert keep(v0, PARTS) != keep(v1, PARTS)
    found["states"] += 1
    for u in edits(v0):
        y0, y1 = steps.check(v0, u), steps.check(v1, u)
        assert verdict_shape(y0) == verdict_shape(y1), u  # Decide does not read C
        if not isinstance(y0, EditAccepted):
            continue
        a0, a1 = steps.try_update(v0, u, y0, key)[0], steps.try_update(v1, u, y0, key)[0]
        assert isinstance(a0, Updated), (u, a0)  # a fresh answer takes effect where it was checked
        if isinstance(a1, NoCommit):
            found["C"] += 1
        else:
            found["same"] += 1


def e_pairs(reg_index: int, picks: list[int], found: dict[str, int]) -> None:
    """``V¹`` is ``V⁰`` after a Dispatch or a completion update (progress only)."""
    _, reg, key = REGS[reg_index]
    v0, _ = run(reg, key, picks)
    later = [steps.dispatch(v0)[1], *(steps.settle(v0, r.action, {"ok": True})[1] for r in v0.log)]
    for v1 in [v for v in later if v != v0]:
        assert omit(v0, "E") == omit(v1, "E") and keep(v0, PARTS) != keep(v1, PARTS)
        found["records"] += 1
        for u in edits(v0):
            y0 = steps.check(v0, u)
            assert verdict_shape(steps.check(v1, u)) == verdict_shape(y0)
            if isinstance(y0, EditAccepted):
                a0, a1 = steps.try_update(v0, u, y0, key)[0], steps.try_update(v1, u, y0, key)[0]
                assert isinstance(a0, Updated), (u, a0)
                found["E" if isinstance(a1, NoCommit) else "same"] += 1


def p_pairs(reg_index: int, picks: list[int], found: dict[str, int]) -> None:
    _, reg, key = REGS[reg_index]
    s, _ = run(reg, key, picks, max_edits=1)  # the fork is the second edit
    choice = [r for r, e in reg.rules if e.kind == "fork-choice"]
    par = [r for r, e in reg.rules if e.kind == "fork-parallel"]
    rules = dict(reg.rules)
    for fc in choice:
        for fp in par:
            if (rules[fc].left, rules[fc].right) != (rules[fp].left, rules[fp].right) or s.tree is None:
                continue
            for lf in leaves(s.tree):
                a, b = ForkChoice(lf.branch, fc), ForkParallel(lf.branch, fp)
                ya, yb = steps.check(s, a), steps.check(s, b)
                if not (isinstance(ya, EditAccepted) and isinstance(yb, EditAccepted)):
                    continue
                v0, v1 = steps.try_update(s, a, ya, key)[1], steps.try_update(s, b, yb, key)[1]
                assert omit(v0, "P") == omit(v1, "P") and keep(v0, PARTS) != keep(v1, PARTS)
                found["records"] += 1
                for u in edits(v0):
                    k0, k1 = answer_kind(steps.check(v0, u)), answer_kind(steps.check(v1, u))
                    if k0 != k1:
                        found["P"] += 1
                        found[f"{k0}/{k1}"] = found.get(f"{k0}/{k1}", 0) + 1


def search(pairs: Callable[[int, list[int], dict[str, int]], None], n: int, length: int,
           found: dict[str, int]) -> dict[str, int]:
    """Run ``pairs`` on ``n`` generated sessions of at most ``length`` actions, adding to ``found``."""

    @run_settings(n)
    @given(sessions(length))
    def body(case: tuple[int, list[int]]) -> None:
        pairs(*case, found)

    body()
    return found


def test_omitting_c_is_inexact() -> None:
    found = search(c_pairs, EXAMPLES, LENGTH, {"C": 0, "same": 0, "states": 0})
    print(f"C pairs among {found['states']} generated states: {found}")
    assert found["C"] > 0 and found["same"] == 0, found


def test_omitting_e_is_inexact_on_runtime_states() -> None:
    found = search(e_pairs, EXAMPLES, LENGTH, {"E": 0, "same": 0, "records": 0})
    print(f"E pairs (Dispatch or completion update) from {EXAMPLES} generated sessions: {found}")
    assert found["E"] > 0 and found["same"] == 0, found


def test_omitting_p_is_inexact_on_runtime_states() -> None:
    found = search(p_pairs, EXAMPLES, LENGTH, {"P": 0, "records": 0})
    print(f"P pairs (ForkChoice vs ForkParallel) from {EXAMPLES} generated sessions: {found}")
    assert found["P"] > 0, found


def unsec(v: dict[str, Any]) -> JSON:
    """The committed state's JSON rebuilt from the full view ``Keep_PIEC`` alone (inverse of ``sec``)."""
    p, i, e, c, comp = v["P"], v["I"], v["E"], v["C"], v["computed"]

    def tree(node: Any) -> Any:
        if node is None:
            return None
        if "leaf" in node:
            return {**node, "done": e["progress"][node["leaf"]]}
        if "arms" in node:
            return {**node, "arms": [[a, tree(t)] for a, t in node["arms"]]}
        key = "seq" if "seq" in node else "parts"
        return {**node, key: [tree(t) for t in node[key]]}

    return {
        "domain": v["domain"], "namespace": c["namespace"], "next_id": c["next_id"], "tree": tree(p["tree"]),
        "policy": e["policy"], "history": p["history"], "joined": p["joined"],
        "checkpoints": [[k, {**shape, "done": e["checkpoint_progress"][k]}] for k, shape in p["checkpoints"]],
        "rules": p["rules"], "rules_version": c["rules_version"], "templates": i["templates"],
        "actions": i["actions"], "authorities": p["authorities"], "requirements": p["requirements"],
        "removals": p["removals"], "calls": i["calls"], "entries": comp["entries"],
        "processed": [{**q, **u} for q, u in zip(e["processed"], comp["used"], strict=True)],
        "ver": c["ver"], "eta": c["eta"], "policy_version": c["policy_version"], "log": e["log"], "out": e["out"],
        "versions": c["versions"], "automaton": comp["automaton"], "q": e["q"], "installed": comp["installed"],
        "prepared": comp["prepared"],
    }


def full_view_decides(s: State) -> None:
    back = state_from_json(unsec(keep(s, PARTS)))
    assert back == s
    for u in edits(s):
        assert steps.check(back, u) == steps.check(s, u)


def full_view_case(reg_index: int, picks: list[int], found: dict[str, int]) -> None:
    _, reg, key = REGS[reg_index]
    full_view_decides(run(reg, key, picks)[0])
    found["states"] += 1


def test_full_view_is_exact() -> None:
    assert search(full_view_case, EXAMPLES, LENGTH, {"states": 0})["states"] == EXAMPLES


def test_sec_splits_every_field() -> None:
    """Nothing of the state is outside the four parts and the computed values."""
    _, reg, key = REGS[0]
    s, _ = run(reg, key, [3, 1, 4, 1, 5])
    assert set(sec(s)) == {"domain", *PARTS, "computed"}
    assert unsec(keep(s, PARTS)) == state_to_json(s)
