"""The encoded search's compiled decision (``intcode.Static.prequota``: the monitor's steps before
first-fit, per call of literal arguments, computed once per model; then first-fit on each state's
counters; the outcomes of such a call reused per slots and invalid set, ``Compiler.outs``): on every corpus
model the kernel covers, every decision it makes is the monitor's on the real state and call — the same
verdict (decision, reason, label, allocations on both lists) and the same outcomes (record, query matches,
bindings and invalid set after), recomputed there —, and every quota refusal it answers without the
monitor is one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from model.monitor.decide.base import Decision, decide
from model.monitor.decide.state import Call
from model.monitor.decide.verdict import DenyReason
from model.search.expand import outcome_of
from model.search.fingerprint import explore_fingerprint
from model.search.held import call_of
from model.search.load import load_model
from model.search.model import SearchModel
from model.search.native import intcode
from model.search.native.prequota import prequota_applies
from model.search.search_verdict import Found

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"


def covered() -> list[tuple[str, int]]:
    from tests.unit.test_search_intcode import BOUNDS, MODELS
    return [(n, BOUNDS[n]) for n in MODELS if n in BOUNDS]


def check(monkeypatch: pytest.MonkeyPatch, m: SearchModel, k: int) -> int:
    """Explore ``m`` to ``k`` comparing each compiled decision with the monitor's; how many there were."""
    if intcode.kernel_module() is None:
        pytest.skip("the kernel is not built (python -m model.search.native.build)")
    full = intcode.Compiler.decide
    compared: list[bool] = []
    used: list[int] = []

    def both(self: intcode.Compiler, sidx: int, ni: int, ix: list[int], same: int, pref: int) -> int:
        before = self.fast[0]
        ntrans = len(self.trans)
        out = full(self, sidx, ni, ix, same, pref)
        if self.fast[0] == before:
            return out
        used.append(1)
        _, _s, hs, mon = self.state_at(sidx)
        tool, names = self.names[ni]
        call, _ = call_of(self.ctx, tool, names, tuple(hs[i] for i in ix))
        want = decide(self.model.policy, mon, call)
        if out >= 0:
            assert out == ntrans  # a new decision id, its verdict the one tabled
            ss = self.ctx.mat.search_state(_s, mon)
            outs = tuple(outcome_of(self.ctx, ss, call, (), want, k, res, None, False)
                         for k, res in enumerate(self.ctx.results[tool]))
            compared.append(self.trans[out][5] == want and self.trans[out][2] == outs)
        elif out == intcode.VALUE_REFUSAL and want.decision is Decision.DENY and want.reason is DenyReason.QUOTA:
            compared.append(True)
        else:  # any other refusal code: the slow path's mapping ran on the compiled verdict
            assert out != intcode.VALUE_REFUSAL or want.decision is not Decision.ALLOW
            compared.append(want.decision is not Decision.ALLOW)
        return out

    monkeypatch.setattr(intcode.Compiler, "decide", both)
    assert intcode.explore_native(m, k) is not None
    monkeypatch.undo()
    assert all(compared), f"{compared.count(False)} of {len(compared)} compiled decisions differ"
    return len(used)


@pytest.mark.parametrize(("name", "k"), covered())
def test_the_compiled_decision_is_the_monitors(name: str, k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    m = load_model(SEARCH / name)
    n = check(monkeypatch, m, k)
    assert n > 0 or not prequota_applies(m), "a model the compile applies to uses it"


def test_the_compiled_decision_covers_only_what_it_can_decide() -> None:
    """It is built only where the steps before first-fit read no state for a call without handles; the
    quota model's decisions are then all compiled, and a search counts the ones left to the monitor."""
    ab = load_model(SEARCH / "delete_ab.json")
    assert prequota_applies(ab)
    st = intcode.static_of(ab)
    assert all(t is not None for t in st.prequota)
    if intcode.kernel_module() is None:
        pytest.skip("the kernel is not built (python -m model.search.native.build)")
    seen: list[Any] = []
    full = intcode.Compiler.decide

    def count(self: intcode.Compiler, *a: Any) -> int:
        out = full(self, *a)
        seen.append(tuple(self.fast))
        return out
    mp = pytest.MonkeyPatch()
    mp.setattr(intcode.Compiler, "decide", count)
    try:
        assert intcode.explore_native(ab, 3) is not None
    finally:
        mp.undo()
    assert seen and seen[-1][0] == len(seen) and seen[-1][1] == 0
    slotted = [n for n, _ in covered() if not prequota_applies(load_model(SEARCH / n))]
    assert slotted  # some corpus policies read slots, requirements or permits: they go to the monitor
    for n in slotted:
        assert all(t is None for t in intcode.static_of(load_model(SEARCH / n)).prequota)


def test_reused_outcomes_are_keyed_by_the_slots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The quota model with a slot bound by a deletion of A and a query about a deletion of the bound
    file: the same call of literals admitted before and after the binding has different outcomes (the
    event matches only after), and the compiled decision's outcomes are the monitor's in both."""
    policy = (SEARCH.parent / "policies" / "delete_ab.policy").read_text(encoding="utf-8")
    policy = policy.replace('allow file.delete("A") quota 1', 'allow file.delete("A") quota 2').replace(
        "effects: [file.delete(target)]}", "effects: [file.delete(target)], authoritative: {gone}}")
    (tmp_path / "p.policy").write_text(policy + '\nresolve last: Delete(target: "A") -> gone\n', encoding="utf-8")
    doc = json.loads((SEARCH / "delete_ab.json").read_text(encoding="utf-8"))
    doc["policy"] = "p.policy"
    doc["results"] = {"Delete": [{"ok": True, "value": {"gone": "A"}}],
                      "DeleteBatch": [{"ok": False}]}
    doc["queries"] = [{"name": "again", "kind": "forbidden", "description": "the bound file deleted again",
                       "event": {"tool": "Delete", "when": "admitted", "args": {"target": {"bound_to": "last"}}}}]
    (tmp_path / "m.json").write_text(json.dumps(doc), encoding="utf-8")
    m = load_model(tmp_path / "m.json")
    assert prequota_applies(m)
    check(monkeypatch, m, 3)
    same = explore_fingerprint(m, 3, reduction=False)
    got = intcode.explore_native(m, 3)
    assert got is not None and got.verdicts == same.verdicts and got.states == same.states
    assert any(isinstance(v, Found) for _, v in got.verdicts), got.verdicts


def test_the_per_model_outcomes_are_the_monitors_and_spare_the_search_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``Static.root_outs``: on the quota model every call of literals admitted in the initial state has its
    outcomes compiled per model, each the monitor's in the initial state; a search of that model (whose
    slots never change) then computes no outcome itself, and each compiled decision, its outcomes taken
    from there, is the monitor's (``check``) in every state it is made in."""
    from model.monitor.decide.commit import commit

    if intcode.kernel_module() is None:
        pytest.skip("the kernel is not built (python -m model.search.native.build)")
    m = load_model(SEARCH / "delete_ab.json")
    st = intcode.static_of(m)
    assert st.root_outs
    ctx = st.context()
    mon = ctx.mat.monitor(st.root)
    ss = ctx.mat.search_state(st.root, mon)
    for (ni, key, bindings, invalid), outs in st.root_outs.items():
        assert (bindings, invalid) == st.root[1:3]
        tool, names = st.names[ni]
        lits = dict(zip(st.lits, m.literals, strict=True))
        call = Call(m.agent, tool, {n: json.loads(lits[c]) for n, c in zip(names, key, strict=True)}, (), ())
        want = decide(m.policy, mon, call)
        assert want.decision is Decision.ALLOW
        results = ctx.results[tool]
        committed = commit(m.policy, mon, call, want) if len(results) > 1 else None
        assert outs == tuple(outcome_of(ctx, ss, call, (), want, k, res, committed, False)
                             for k, res in enumerate(results))
    made: list[int] = []
    real = intcode.outcome_of

    def counted(*a: Any) -> Any:
        made.append(1)
        return real(*a)
    monkeypatch.setattr(intcode, "outcome_of", counted)
    assert check(monkeypatch, m, 3) > 0
    assert not made
