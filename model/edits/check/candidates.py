"""Candidate executions B̂₀ and compatibility, word by word (Section V-C1).

    R_o = {Resolve_Δ(w) | w ∈ Lin(p_o)}
    M_o = {z ∈ R_o | lab(Δ)·auth(z) ∈ 𝒜}
    B̂₀  = ⊎_o {o} × M_o
    Compat(z) = {o | z ∈ ↓R_o}          (compatible with the *workflow*, regardless of policy)

``Compat`` is over ``R_o``, not ``M_o``: in the release example of Section V-C2 the prefix ``x`` is
compatible with ``X⊗Y`` through the forbidden ``xy``, which is exactly why ``x·z`` is removed.
Linearizations are enumerated by backtracking over minimal remaining calls (Appendix A-A), in
sorted call order, so the enumeration is canonical. Each linearization is one tick of the caller's
budget, and a states budget smaller than the (exactly counted) linearizations is refused before
enumeration starts, so the word-level engines answer ``Unknown`` instead of running for hours.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from model.base.budget import Budget, BudgetExhausted, Meter
from model.edits.check.contract import CallId, Outcome, Pomset
from model.edits.check.instance import Instance
from model.edits.check.resolve import Word, auth, resolve

Candidate = tuple[Outcome, Word]


def linearizations(p: Pomset) -> Iterator[tuple[CallId, ...]]:
    """Every linearization of ``p`` (backtracking topological orders, sorted call order)."""
    preds = p.pred_map()
    calls = sorted(preds)
    n = len(calls)
    chosen: list[CallId] = []
    done: set[CallId] = set()

    def rec() -> Iterator[tuple[CallId, ...]]:
        if len(chosen) == n:
            yield tuple(chosen)
            return
        for c in calls:
            if c not in done and preds[c] <= done:
                done.add(c)
                chosen.append(c)
                yield from rec()
                chosen.pop()
                done.discard(c)

    yield from rec()


def count_linearizations(p: Pomset, limit: int, max_downsets: int = 100_000) -> int | None:
    """|Lin(p)| by counting paths through the downsets of ``p`` (no word is built).

    Returns ``None`` when the count exceeds ``limit`` or the downsets exceed ``max_downsets``,
    so a budget can refuse before any enumeration starts.
    """
    preds = p.pred_map()
    calls = sorted(preds)
    idx = {c: i for i, c in enumerate(calls)}
    pm = [sum(1 << idx[d] for d in preds[c]) for c in calls]
    full = (1 << len(calls)) - 1
    ways: dict[int, int] = {0: 1}
    layer = {0}
    for _ in range(len(calls)):
        nxt: set[int] = set()
        for s in layer:
            for i in range(len(calls)):
                if not (s >> i) & 1 and pm[i] & s == pm[i]:
                    t = s | (1 << i)
                    ways[t] = ways.get(t, 0) + ways[s]
                    nxt.add(t)
        if len(ways) > max_downsets:
            return None
        layer = nxt
    total = ways.get(full, 0)
    return total if total <= limit else None


def refuse_beyond_budget(outs: dict[Outcome, Pomset], meter: Meter) -> None:
    """Answer ``Unknown`` before enumerating when the linearizations alone exceed the states left in
    the budget (the count is exact and cheap, so a hopeless enumeration never starts)."""
    limit = meter.budget.states
    if limit is None:
        return
    left = limit - meter.states
    total = 0
    for p in outs.values():
        # Every downset prefixes some linearization, so |Lin| ≥ downsets / (calls + 1): stopping the
        # count at that many downsets never refuses an enumeration that fits.
        n = count_linearizations(p, left - total, (len(p) + 1) * max(left - total, 1))
        if n is None:
            raise BudgetExhausted(meter.budget, meter.spent, "states")
        total += n


def candidate_key(c: Candidate) -> tuple[Outcome, tuple[tuple[str, str, str], ...]]:
    return c[0], tuple((a.call, a.action, a.mode.value) for a in c[1])


def word_key(w: Word) -> tuple[tuple[str, str, str], ...]:
    return tuple((a.call, a.action, a.mode.value) for a in w)


@dataclass(frozen=True, slots=True)
class Candidates:
    b0: tuple[Candidate, ...]  # canonical order
    compat: dict[Word, frozenset[Outcome]]  # every prefix of every R_o word
    outcomes: tuple[Outcome, ...]


def enumerate_candidates(inst: Instance, meter: Meter | None = None) -> Candidates:
    """B̂₀ and Compat; one budget tick per linearization (``Unknown`` upstream when it runs out)."""
    meter = meter if meter is not None else Budget().start()
    q_act = inst.action_map()
    labels = inst.label_map()
    start = inst.policy.run(inst.log_labels())
    assert start is not None, "check_wellformed guarantees lab(Δ) ∈ 𝒜"
    compat: dict[Word, set[Outcome]] = {}
    b0: list[Candidate] = []
    outs = inst.outcomes()
    refuse_beyond_budget(outs, meter)
    for o, p in outs.items():
        for lin in linearizations(p):
            meter.tick()
            z: Word = resolve(lin, q_act, inst.log)
            for i in range(len(z) + 1):
                compat.setdefault(z[:i], set()).add(o)
            if inst.policy.run((labels[d] for d in auth(z)), start) is not None:
                b0.append((o, z))
    b0.sort(key=candidate_key)
    return Candidates(tuple(b0), {w: frozenset(s) for w, s in compat.items()}, tuple(outs))
