"""The authorization policy 𝒜 ⊆ 𝒰* as a deterministic automaton closed under truncation (Section IV-B3).

The policy is a regular language over authorization labels that contains every prefix of each
of its words. We keep it as a *trim* partial DFA in which every state accepts: after removing
states that are unreachable or cannot reach acceptance, a language is prefix-closed exactly when
every remaining state accepts (any prefix of an accepted word leads to a live state). So
"the run of w is defined" is the membership test, and the missing transition is the dead state.

Three constructors: ``from_maximal_words`` (the prefix closure of finitely many words),
``from_regex`` (``model.edits.check.regex``) and ``from_automaton`` (a given DFA). A given language
that is not prefix-closed is refused with ``NotPrefixClosed`` carrying a witness word — the
caller (the loader) turns it into ``InvalidInput``; we never silently close it.
Choices where the paper is silent: the automaton is minimized (Moore partition refinement) so
that equal policies are equal values; the empty language (not even ε) is refused as well, since
``lab(Δ) ∈ 𝒜`` can never hold for it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

Label = str


@dataclass(frozen=True, slots=True)
class PolicyAutomaton:
    """Trim, minimal, partial DFA; every state accepts; state 0 is initial.

    ``delta`` is sorted ``((state, label), target)``.
    """

    n_states: int
    delta: tuple[tuple[tuple[int, Label], int], ...]
    # The transition table, built once: every check asks for it several times. Not part of the value.
    _table: dict[tuple[int, Label], int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_table", dict(self.delta))

    def table(self) -> dict[tuple[int, Label], int]:
        """The transition table (shared: callers must not mutate it)."""
        return self._table

    def run(self, word: Iterable[Label], start: int = 0) -> int | None:
        """The state after ``word`` from ``start``, or ``None`` when the word leaves 𝒜."""
        t = self.table()
        q: int | None = start
        for a in word:
            q = t.get((q, a)) if q is not None else None
            if q is None:
                return None
        return q

    def accepts(self, word: Iterable[Label]) -> bool:
        return self.run(word) is not None

    @property
    def alphabet(self) -> frozenset[Label]:
        return frozenset(a for (_, a), _ in self.delta)


@dataclass(frozen=True, slots=True)
class NotPrefixClosed:
    """Why a candidate policy was refused: ``word`` is a prefix of an accepted word but not accepted."""

    word: tuple[Label, ...]


def from_maximal_words(words: Iterable[Iterable[Label]]) -> PolicyAutomaton:
    """The prefix closure of finitely many words (ε is always included)."""
    delta: dict[tuple[int, Label], int] = {}
    n = 1
    for w in words:
        q = 0
        for a in w:
            nxt = delta.get((q, a))
            if nxt is None:
                nxt = n
                n += 1
                delta[(q, a)] = nxt
            q = nxt
    return minimize(n, delta)


def from_automaton(
    n_states: int, initial: int, accepting: Iterable[int], delta: dict[tuple[int, Label], int]
) -> PolicyAutomaton | NotPrefixClosed:
    """A given DFA, checked to be prefix-closed; states are ``0..n_states-1``."""
    acc = frozenset(accepting)
    succ: dict[int, list[tuple[Label, int]]] = {}
    for (q, a), r in delta.items():
        succ.setdefault(q, []).append((a, r))
    # Reachable states with a shortest access word each (for the witness).
    access: dict[int, tuple[Label, ...]] = {initial: ()}
    todo = deque([initial])
    while todo:
        q = todo.popleft()
        for a, r in sorted(succ.get(q, [])):
            if r not in access:
                access[r] = (*access[q], a)
                todo.append(r)
    # Co-reachable: can reach an accepting state.
    pred: dict[int, list[int]] = {}
    for (q, _), r in delta.items():
        pred.setdefault(r, []).append(q)
    live = {q for q in acc if q in access}
    todo = deque(live)
    while todo:
        r = todo.popleft()
        for q in pred.get(r, []):
            if q in access and q not in live:
                live.add(q)
                todo.append(q)
    if initial not in live:
        return NotPrefixClosed(())
    for q in sorted(live, key=lambda s: (len(access[s]), access[s])):
        if q not in acc:
            return NotPrefixClosed(access[q])
    ids = {q: i for i, q in enumerate([initial, *sorted(live - {initial})])}
    trimmed = {(ids[q], a): ids[r] for (q, a), r in delta.items() if q in live and r in live}
    return minimize(len(ids), trimmed)


def minimize(n: int, delta: dict[tuple[int, Label], int]) -> PolicyAutomaton:
    """Moore refinement of a trim all-accepting partial DFA, renumbered in BFS order from 0."""
    block = [0] * n
    alphabet = sorted({a for (_, a) in delta})
    while True:
        sig = {q: (block[q], tuple(block[delta[(q, a)]] if (q, a) in delta else -1 for a in alphabet))
               for q in range(n)}
        ids: dict[tuple[int, tuple[int, ...]], int] = {}
        new = [ids.setdefault(sig[q], len(ids)) for q in range(n)]
        if len(ids) == len(set(block)):
            break
        block = new
    # Renumber blocks in BFS order so the value is canonical.
    order: dict[int, int] = {block[0]: 0}
    todo = deque([0])
    rep: dict[int, int] = {}
    for q in range(n):
        rep.setdefault(block[q], q)
    while todo:
        q = todo.popleft()
        for a in alphabet:
            r = delta.get((q, a))
            if r is not None and block[r] not in order:
                order[block[r]] = len(order)
                todo.append(rep[block[r]])
    out = {(order[block[q]], a): order[block[r]] for (q, a), r in delta.items() if block[q] in order}
    return PolicyAutomaton(len(order), tuple(sorted(out.items())))
