"""Policy inclusion ``𝒜 ⊆ 𝒜⁺`` for a registered extension (*Exact Checking for Execution Edits*, Appendix A-D3:
"the verified extension preserves … 𝒜 ⊆ 𝒜⁺", so every earlier safe completion stays allowed).

Both policies are trim all-accepting partial DFAs (``model.edits.check.edit_policy``), so inclusion fails
exactly when some word runs in the old automaton but falls off the new one. A breadth-first search
over state pairs returns the shortest such word (the witness), or ``None`` when included.
"""

from __future__ import annotations

from collections import deque

from model.edits.check.edit_policy import Label, PolicyAutomaton


def included(old: PolicyAutomaton, new: PolicyAutomaton) -> tuple[Label, ...] | None:
    """``None`` if ``L(old) ⊆ L(new)``, else a shortest word of ``old`` that ``new`` refuses."""
    t_old, t_new = old.table(), new.table()
    moves: dict[int, list[tuple[Label, int]]] = {}
    for (q, a), r in sorted(t_old.items()):
        moves.setdefault(q, []).append((a, r))
    seen: dict[tuple[int, int], tuple[Label, ...]] = {(0, 0): ()}
    todo: deque[tuple[int, int]] = deque([(0, 0)])
    while todo:
        q, p = todo.popleft()
        word: tuple[Label, ...] = seen[(q, p)]
        for a, r in moves.get(q, []):
            p2 = t_new.get((p, a))
            if p2 is None:
                return (*word, a)
            if (r, p2) not in seen:
                seen[(r, p2)] = (*word, a)
                todo.append((r, p2))
    return None
