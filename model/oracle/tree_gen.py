"""Record branch trees for the ``tree_contract`` DRT (``model.oracle.drt_tree_contract``; the record's tree
of *When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Section IV-B1), as a hypothesis
strategy that ``model.oracle.generators`` exports (``contract_trees``, with ``edit_terms`` of at most three
calls as the leaves' terms) and the campaign draws (``model/oracle/direct.py``).

Choices: a leaf's ``Γ_b`` is a small term with its calls and choice IDs cloned for the branch
(``clone_term``, ``c@b``), so no two leaves share a call (as on the runtime, where a branch's calls are its
own); its progress ``χ_b`` is a prefix of a linearization of one of its outcomes, the only progress tool calls make;
groups have two parts (a choice two or three arms), so every tree has the arities the runtime's have,
except that a choice may have three arms.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from model.edits.check.contract import Term, outcomes
from model.edits.runtime.tree import OPEN, ChoiceNode, JoinNode, Leaf, ParNode, SeqNode, clone_term
from model.oracle.draws import below as _below
from model.oracle.draws import count as _count
from model.oracle.draws import pick as _pick


def _progress(draw: st.DrawFn, gamma: Term) -> tuple[str, ...]:
    """``χ_b``: a prefix of a linearization of one outcome of ``Γ_b`` (downward closed and choice
    consistent, as the runtime's tool calls make it)."""
    outs = list(outcomes(gamma).values())
    preds = outs[draw(_below(len(outs)))].pred_map()
    done: list[str] = []
    for _ in range(_count(draw, 0, len(preds))):
        ready = sorted(c for c, ps in preds.items() if c not in done and ps <= set(done))
        done.append(_pick(draw, ready))
    return tuple(done)


@st.composite
def contract_trees(draw: st.DrawFn, terms: st.SearchStrategy[Term], max_depth: int = 3, max_leaves: int = 4) -> Any:
    """A record branch tree with every node kind the runtime builds: leaves whose ``Γ_b`` is drawn from
    ``terms`` (its calls made disjoint between leaves) with progress ``χ_b``, open and selected
    choices of two or three arms, parallel groups, join barriers and sequences of two parts, nested up to
    ``max_depth``, with at most ``max_leaves`` leaves."""
    n = {"leaf": 0, "group": 0}

    def node(depth: int, room: int) -> Any:
        """A subtree of at most ``room`` leaves."""
        inner = depth < max_depth and room >= 2
        kind = _pick(draw, ("leaf", "leaf", "choice", "par", "join", "seq") if inner else ("leaf",))
        if kind == "leaf":
            b = f"b{n['leaf']}"
            n["leaf"] += 1
            gamma = clone_term(draw(terms), b)[0]  # the branch's own calls, as the runtime clones them
            return Leaf(b, "r", gamma, _progress(draw, gamma))
        k = _count(draw, 2, min(room, 3 if kind == "choice" else 2))
        end = n["leaf"] + room
        kids = tuple(node(depth + 1, end - (k - i - 1) - n["leaf"]) for i in range(k))
        if kind == "seq":
            return SeqNode(kids)
        g = f"g{n['group']}"
        n["group"] += 1
        if kind == "choice":
            arms = tuple((f"{g}.a{i}", t) for i, t in enumerate(kids))
            return ChoiceNode(g, _pick(draw, (OPEN, *(a for a, _ in arms))), arms)
        return ParNode(g, kids) if kind == "par" else JoinNode(g, kids)

    return node(0, max_leaves)
