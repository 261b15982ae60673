"""The canonical runtime automaton Can(W, B) (*Exact Checking for Execution Edits*, Section VI-A).

    Q = {q_z | z ∈ W},  q⁰ = q_ε,  q_z --a--> q_za  iff  za ∈ W,   q_z marked iff z ∈ B

identified up to equality of residuals ``(W/z, B/z)`` — the paper's paired-language derivative
construction, i.e. the minimal deterministic marked partial automaton. Letters are resolved calls
(call, action, new/reuse), so one call cannot use another call's rule entry.

Construction: the safe languages are finite, so any acyclic deterministic automaton for them
(the explicit engine's trie, the symbolic engine's pruned product) is minimized by bottom-up
interning of derivative signatures (Appendix A-A), then renumbered breadth-first with letters in
sorted order, so equal languages give equal values.

Choice where the paper is silent: a state's mark is the *set of outcomes* completed there (the
candidate pairs of B̂† keep result labels, Appendix A-A), not only a bit; so ``Can`` here is the
minimal automaton of the labelled pair (W†, B̂†). It is marked (in the paper's sense) iff that
set is nonempty; its marked language is π₂B̂†, and ``Can.project()`` is exactly the paper's
Can(W†, π₂B̂†) (it can have fewer states: completions of different results merge).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from model.base.canonical import JSON
from model.edits.check.contract import Outcome, show_outcome
from model.edits.check.resolve import Letter, Mode, Word

N = TypeVar("N", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Can:
    n_states: int
    delta: tuple[tuple[tuple[int, Letter], int], ...]  # sorted by (state, letter)
    marks: tuple[tuple[Outcome, ...], ...]  # per state, sorted

    def successors(self) -> list[list[tuple[Letter, int]]]:
        out: list[list[tuple[Letter, int]]] = [[] for _ in range(self.n_states)]
        for (q, a), r in self.delta:
            out[q].append((a, r))
        return out

    def run(self, word: Iterable[Letter]) -> int | None:
        table = dict(self.delta)
        q: int | None = 0
        for a in word:
            q = table.get((q, a)) if q is not None else None
            if q is None:
                return None
        return q

    def generated(self) -> Iterator[Word]:
        """Every word of W, lazily, depth-first in letter order (ε first)."""
        succ = self.successors()
        stack: list[tuple[int, Word]] = [(0, ())]
        while stack:
            q, w = stack.pop()
            yield w
            for a, r in reversed(succ[q]):
                stack.append((r, (*w, a)))

    def completions(self) -> Iterator[tuple[Outcome, Word]]:
        """Every labelled complete execution (o, y) ∈ B̂†, lazily."""
        succ = self.successors()
        stack: list[tuple[int, Word]] = [(0, ())]
        while stack:
            q, w = stack.pop()
            for o in self.marks[q]:
                yield o, w
            for a, r in reversed(succ[q]):
                stack.append((r, (*w, a)))

    def count_prefixes(self) -> int:
        """|W| by counting paths (the automaton is acyclic), without enumerating them."""
        return sum(self._paths())

    def count_completions(self) -> int:
        paths = self._paths()
        return sum(p * len(m) for p, m in zip(paths, self.marks, strict=True))

    def count_both(self) -> tuple[int, int]:
        """``(|B̂|, |W|)`` from one path count."""
        paths = self._paths()
        return sum(p * len(m) for p, m in zip(paths, self.marks, strict=True)), sum(paths)

    def _paths(self) -> list[int]:
        succ = self.successors()
        indeg = [0] * self.n_states
        for (_, _), r in self.delta:
            indeg[r] += 1
        paths = [0] * self.n_states
        paths[0] = 1
        todo = deque(q for q in range(self.n_states) if indeg[q] == 0)
        while todo:
            q = todo.popleft()
            for _, r in succ[q]:
                paths[r] += paths[q]
                indeg[r] -= 1
                if indeg[r] == 0:
                    todo.append(r)
        return paths

    def project(self) -> Can:
        """The paper's Can(W, π₂B): marks forgotten down to one bit, then minimized again.

        A marked state carries the single mark ``()``; states that differed only in *which*
        outcomes they complete merge, so this is the minimal automaton of (W, π₂B̂†).
        """
        succ = self.successors()
        return build_can(0, lambda q: succ[q], lambda q: [()] if self.marks[q] else [])

    def to_json(self) -> JSON:
        return {
            "states": self.n_states,
            "initial": 0,
            "transitions": [[q, a.call, a.action, a.mode.value, r] for (q, a), r in self.delta],
            "marks": [[show_outcome(o) for o in m] for m in self.marks],
        }


def build_can(root: N, succ: Callable[[N], Iterable[tuple[Letter, N]]],
              marks: Callable[[N], Iterable[Outcome]], bottom_up: Iterable[N] | None = None) -> Can:
    """Minimize the acyclic deterministic automaton reachable from ``root``.

    Every node must lie on a path to a marked node (true of W = ↓π₂B by construction).
    ``bottom_up``, when the caller has it, lists exactly the nodes reachable from ``root``, every node
    after all of its successors (the symbolic product's states in reverse discovery order); then no
    search is needed to order them.
    """
    if bottom_up is None:
        bottom_up, edges_of = _post_order(root, succ)
    else:
        edges_of = None
    sig_ids: dict[tuple[tuple[Outcome, ...], tuple[tuple[Letter, int], ...]], int] = {}
    cls: dict[N, int] = {}
    for node in bottom_up:
        if edges_of is None:
            edges = list(succ(node))
            if len(edges) > 1:
                edges.sort(key=_edge_key)
        else:
            edges = edges_of[node]
        m = list(marks(node))
        if len(m) > 1:
            m.sort()
        sig = (tuple(m), tuple([(a, cls[c]) for a, c in edges]))
        cls[node] = sig_ids.setdefault(sig, len(sig_ids))
    by_id = {i: sig for sig, i in sig_ids.items()}
    order = {cls[root]: 0}
    todo = deque([cls[root]])
    delta: list[tuple[tuple[int, Letter], int]] = []
    mark_list: list[tuple[Outcome, ...]] = []
    while todo:
        c = todo.popleft()
        m2, edges2 = by_id[c]
        mark_list.append(m2)
        qc = order[c]
        for a, d in edges2:
            if d not in order:
                order[d] = len(order)
                todo.append(d)
            delta.append(((qc, a), order[d]))
    # Breadth-first numbering with each state's edges in letter order already sorts delta.
    return Can(len(order), tuple(delta), tuple(mark_list))


def _post_order(root: N, succ: Callable[[N], Iterable[tuple[Letter, N]]]
                ) -> tuple[list[N], dict[N, list[tuple[Letter, N]]]]:
    """The nodes reachable from ``root``, each after its successors, and each node's edges in letter order."""
    out: list[N] = []
    edges_of: dict[N, list[tuple[Letter, N]]] = {}
    finished: set[N] = set()
    stack: list[tuple[N, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if node in finished:
            continue
        if expanded:
            finished.add(node)
            out.append(node)
            continue
        edges = list(succ(node))
        if len(edges) > 1:
            edges.sort(key=_edge_key)
        edges_of[node] = edges
        stack.append((node, True))
        for _, child in edges:
            if child not in finished:
                stack.append((child, False))
    return out, edges_of


def _edge_key(e: tuple[Letter, object]) -> tuple[str, str, bool]:
    """An edge's letter order (call, action, new before reuse) without reading the enum's ``value``."""
    a = e[0]
    return (a.call, a.action, a.mode is Mode.REUSE)


def empty_can() -> Can:
    """The automaton of the empty pair (no safe execution): one unmarked initial state, no moves."""
    return Can(1, (), ((),))


def can_of_family(family: Iterable[tuple[Outcome, Word]]) -> Can:
    """Can(↓π₂B̂, B̂) of a finite labelled family, through its trie of words."""
    children: dict[Word, set[Word]] = {}
    children[()] = set()
    marks: dict[Word, set[Outcome]] = {}
    for o, y in family:
        marks.setdefault(y, set()).add(o)
        for i in range(len(y)):
            children.setdefault(y[:i], set()).add(y[: i + 1])
            children.setdefault(y[: i + 1], set())
    root: Word = ()
    return build_can(root, lambda z: [(c[-1], c) for c in children[z]], lambda z: marks.get(z, ()))
