"""A leaf's remaining contract ``Γ_b / raw(χ_b)`` (``model.edits.runtime.tree.residual``, *When Can Agents
Safely Checkpoint, Fork, Restore, and Merge?*, Section IV-B1) against its definition on outcomes: the
outcomes of ``Γ_b`` of which ``χ_b`` is a prefix of a linearization, each without ``χ_b``'s calls (what
Lean's ``tcLeaf`` computes). The structural residual must give the same multiset of pomsets, also when a
choice nested in an earlier sequence part, or beside a started part, was taken by an arm without calls
(the cases the ``tree_contract`` DRT campaign found)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from model.edits.check.contract import Call, Choice, Nil, Par, Pomset, Seq, Term, outcomes
from model.edits.runtime.tree import residual

Key = tuple[tuple[str, tuple[str, ...]], ...]


def _key(preds: dict[str, frozenset[str]]) -> Key:
    return tuple(sorted((c, tuple(sorted(ps))) for c, ps in preds.items()))


def _by_definition(gamma: Term, chi: list[str]) -> Counter[Key]:
    out: Counter[Key] = Counter()
    gone = set(chi)
    for p in outcomes(gamma).values():
        preds = p.pred_map()
        if all(c in preds and preds[c] <= set(chi[:i]) for i, c in enumerate(chi)):
            out[_key({c: ps - gone for c, ps in preds.items() if c not in gone})] += 1
    return out


def _structural(gamma: Term, chi: list[str]) -> Counter[Key]:
    return Counter(_key(p.pred_map()) for p in outcomes(residual(gamma, chi)).values())


def _prefix(data: st.DataObject, p: Pomset) -> list[str]:
    preds = p.pred_map()
    done: list[str] = []
    for _ in range(data.draw(st.integers(0, len(preds)))):
        ready = sorted(c for c, ps in preds.items() if c not in done and ps <= set(done))
        done.append(data.draw(st.sampled_from(ready)))
    return done


@st.composite
def _terms(draw: st.DrawFn) -> Term:
    """Terms of up to six calls in which ``ε`` and choices are as common as calls (``edit_terms`` rarely puts
    an arm without calls in an earlier sequence part, the shape the structural residual missed)."""
    n, g = [0], [0]

    def build(depth: int) -> Term:
        kind = draw(st.sampled_from(("nil", "call", "choice", "par", "seq") if depth < 3 and n[0] < 6
                                    else ("nil", "call")))
        if kind == "nil":
            return Nil()
        if kind == "call":
            n[0] += 1
            return Call(f"c{n[0]}")
        parts = tuple(build(depth + 1) for _ in range(draw(st.integers(2, 3))))
        if kind == "choice":
            g[0] += 1
            return Choice(f"g{g[0]}", tuple((f"a{i}", t) for i, t in enumerate(parts)))
        return Par(parts) if kind == "par" else Seq(parts)

    return build(0)


@settings(max_examples=1000, deadline=None)
@given(_terms(), st.data())
def test_structural_residual_is_the_outcome_residual(gamma: Term, data: st.DataObject) -> None:
    outs = list(outcomes(gamma).values())
    chi = _prefix(data, outs[data.draw(st.integers(0, len(outs) - 1))])
    assert _structural(gamma, chi) == _by_definition(gamma, chi), (gamma, chi)


def test_a_nested_choice_before_a_started_part() -> None:
    # ((nil ⊕ c0) ⊕ c1) ; c2 after c2: only the all-nil outcome admits c2 first
    gamma = Seq((Choice("g1", (("a0", Choice("g0", (("a0", Nil()), ("a1", Call("c0"))))), ("a1", Call("c1")))),
                 Call("c2")))
    assert _structural(gamma, ["c2"]) == _by_definition(gamma, ["c2"])
    assert sum(_by_definition(gamma, ["c2"]).values()) == 1


def test_a_choice_beside_a_started_part() -> None:
    # ((nil ⊕ c0) ∥ c1) ; c2 after c1, c2 (and the arm with progress is the one taken)
    gamma = Seq((Par((Choice("g0", (("a0", Nil()), ("a1", Call("c0")))), Call("c1"))), Call("c2")))
    for chi in (["c1", "c2"], ["c0", "c1", "c2"], ["c1", "c0", "c2"]):
        assert _structural(gamma, chi) == _by_definition(gamma, chi), chi
        assert sum(_by_definition(gamma, chi).values()) == 1
