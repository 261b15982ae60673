"""Proposition 1 (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section V-C2) and its
strictness example (Sections III and V-C2); the Lean proofs are ``prop1`` and ``prop1Strict`` in
lean/AgentWarrant/Thm/Edits/.

Proposition 1 on generated instances and arbitrary subfamilies ``B ⊆ B̂₀``: ``B ⊆ Φ̂(B)`` iff the prefix
tree of ``B`` is ``(possible_o, done_o)``-nonblocking for every outcome ``o`` (reachability computed on
the tree, state by state). Strictness: for ``X ⊗ (Y ⊕ Z)`` under ``{ε, x, y, xz, yx}`` the projected
family ``{ȳx̄, x̄z̄}`` is nonblocking and each result alone is safe, yet the indexed fixed point is empty."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.edits.check.answer import Accepted, Rejected
from model.edits.check.candidates import enumerate_candidates
from model.edits.check.checker import decide
from model.edits.check.contract import Call, Choice, Outcome, Par
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.instance import Instance, make_instance
from model.edits.check.resolve import Word
from model.oracle.generators import edit_instances

Fam = set[tuple[Outcome, Word]]


def _post_fixed(b: Fam, compat: dict[Word, frozenset[Outcome]]) -> bool:
    return all(any(o2 == o3 and y3[:k] == y[:k] for o3, y3 in b)
               for _, y in b for k in range(len(y) + 1) for o2 in compat[y[:k]])


def _nonblocking(b: Fam, compat: dict[Word, frozenset[Outcome]], o: Outcome) -> bool:
    states = {y[:k] for _, y in b for k in range(len(y) + 1)}
    succ: dict[Word, list[Word]] = {}
    for s in states:
        if s:
            succ.setdefault(s[:-1], []).append(s)
    reachable, todo = ({()} if states else set()), ([()] if states else [])
    while todo:
        for t in succ.get(todo.pop(), []):
            reachable.add(t)
            todo.append(t)
    for z in reachable:
        if o not in compat[z]:
            continue
        seen, todo2 = {z}, [z]
        while todo2:
            for t in succ.get(todo2.pop(), []):
                seen.add(t)
                todo2.append(t)
        if not any((o, t) in b for t in seen):
            return False
    return True


@settings(max_examples=200, deadline=None)
@given(edit_instances(), st.data())
def test_post_fixed_iff_marker_nonblocking(inst: Instance, data: st.DataObject) -> None:
    if not isinstance(decide(inst), Accepted | Rejected):
        return
    cands = enumerate_candidates(inst)
    b = {c for c in cands.b0 if data.draw(st.booleans())}
    outs = {o for s in cands.compat.values() for o in s}
    assert _post_fixed(b, cands.compat) == all(_nonblocking(b, cands.compat, o) for o in outs)


def _xyz(contract: object) -> Instance:
    return make_instance(contract, {"x": "dx", "y": "dy", "z": "dz"}, {"dx": "x", "dy": "y", "dz": "z"}, (),  # type: ignore[arg-type]
                         from_maximal_words([["x", "z"], ["y", "x"]]))


def test_strictness_example() -> None:
    inst = _xyz(Par((Call("x"), Choice("g", (("Y", Call("y")), ("Z", Call("z")))))))
    cands = enumerate_candidates(inst)
    projected = {tuple(a.call for a in y) for _, y in cands.b0}
    assert projected == {("y", "x"), ("x", "z")}
    assert _nonblocking({((), y) for _, y in cands.b0}, {y[:k]: frozenset({()}) for _, y in cands.b0
                                                         for k in range(len(y) + 1)}, ())
    v = decide(inst)
    assert isinstance(v, Rejected)
    assert [[tuple(a.call for a in r.word) for r in e] for e in v.proof.rounds] == [[("x", "z")], [("y", "x")]]
    for alone in (Par((Call("x"), Call("y"))), Par((Call("x"), Call("z")))):
        assert isinstance(decide(_xyz(alone)), Accepted)
