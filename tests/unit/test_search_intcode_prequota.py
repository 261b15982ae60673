"""The encoded search's compiled decision (``intcode.Static.prequota``: the monitor's steps before
first-fit, per call of literal arguments, computed once per model; then first-fit on each state's
counters): on every corpus model the kernel covers, every decision it makes is the monitor's on the real
state and call — the same verdict (decision, reason, label, allocations on both lists), hence the same
outcomes and successor — and every quota refusal it answers without the monitor is one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from model.monitor.decide.base import Decision, decide
from model.monitor.decide.verdict import DenyReason
from model.search.held import call_of
from model.search.load import load_model
from model.search.native import intcode

SEARCH = Path(__file__).resolve().parents[2] / "corpus" / "search"


def covered() -> list[tuple[str, int]]:
    from tests.unit.test_search_intcode import BOUNDS, MODELS
    return [(n, BOUNDS[n]) for n in MODELS if n in BOUNDS]


@pytest.mark.parametrize(("name", "k"), covered())
def test_the_compiled_decision_is_the_monitors(name: str, k: int, monkeypatch: pytest.MonkeyPatch) -> None:
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
            compared.append(self.trans[out][5] == want)
        elif out == intcode.VALUE_REFUSAL and want.decision is Decision.DENY and want.reason is DenyReason.QUOTA:
            compared.append(True)
        else:  # any other refusal code: the slow path's mapping ran on the compiled verdict
            assert out != intcode.VALUE_REFUSAL or want.decision is not Decision.ALLOW
            compared.append(want.decision is not Decision.ALLOW)
        return out

    monkeypatch.setattr(intcode.Compiler, "decide", both)
    m = load_model(SEARCH / name)
    assert intcode.explore_native(m, k) is not None
    assert all(compared), f"{compared.count(False)} of {len(compared)} compiled decisions differ"
    if intcode.prequota_applies(m) and name == "delete_ab.json":
        assert used, "the quota model's decisions are all compiled"


def test_the_compiled_decision_covers_only_what_it_can_decide() -> None:
    """It is built only where the steps before first-fit read no state for a call without handles; the
    quota model's decisions are then all compiled, and a search counts the ones left to the monitor."""
    ab = load_model(SEARCH / "delete_ab.json")
    assert intcode.prequota_applies(ab)
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
    slotted = [n for n, _ in covered() if not intcode.prequota_applies(load_model(SEARCH / n))]
    assert slotted  # some corpus policies read slots, requirements or permits: they go to the monitor
    for n in slotted:
        assert all(t is None for t in intcode.static_of(load_model(SEARCH / n)).prequota)
