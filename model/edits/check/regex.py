"""Regular expressions over authorization labels, compiled to a policy automaton (Section IV-B3).

Syntax (our choice; the paper only says the policy is regular): labels are identifiers
``[A-Za-z0-9_.-]+`` separated by whitespace for concatenation; ``|`` is union, postfix ``*``,
``+`` and ``?`` are repetition and option, parentheses group, and ``ε`` (or ``()``) is the empty
word. ``prefixes(E)`` is not syntax: pass ``prefix_closure=True`` to take the closure explicitly.

Compilation is Thompson's construction and the subset construction; the DFA then goes through
``policy.from_automaton``, so a non-prefix-closed language is refused with a witness.
Syntax errors raise ``InvalidInput`` with the column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from model.base.errors import InputKind, InvalidInput
from model.edits.check.edit_policy import NotPrefixClosed, PolicyAutomaton, from_automaton

_TOKEN = re.compile(r"\s*(?:(?P<label>[A-Za-z0-9_.\-]+)|(?P<eps>ε)|(?P<op>[|*+?()]))")


@dataclass(slots=True)
class _Nfa:
    eps: list[list[int]] = field(default_factory=list)
    edges: list[list[tuple[str, int]]] = field(default_factory=list)

    def state(self) -> int:
        self.eps.append([])
        self.edges.append([])
        return len(self.eps) - 1


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.text, self.source, self.pos = text, source, 0
        self.nfa = _Nfa()

    def error(self, expected: str) -> InvalidInput:
        found = repr(self.text[self.pos:self.pos + 10]) if self.pos < len(self.text) else "end of input"
        return InvalidInput(f"{self.source}:1:{self.pos + 1}", expected, found, InputKind.SYNTAX)

    def peek(self) -> tuple[str, str] | None:
        m = _TOKEN.match(self.text, self.pos)
        if m is None:
            return None
        kind = m.lastgroup or ""
        return kind, m.group(kind)

    def take(self) -> None:
        m = _TOKEN.match(self.text, self.pos)
        assert m is not None
        self.pos = m.end()

    def parse(self) -> tuple[int, int]:
        frag = self.union()
        if self.text[self.pos:].strip():
            raise self.error("a label, '|', '*', '+', '?', '(' or ')'")
        return frag

    def union(self) -> tuple[int, int]:
        s, t = self.concat()
        tok = self.peek()
        while tok == ("op", "|"):
            self.take()
            s2, t2 = self.concat()
            ns, nt = self.nfa.state(), self.nfa.state()
            self.nfa.eps[ns] += [s, s2]
            self.nfa.eps[t].append(nt)
            self.nfa.eps[t2].append(nt)
            s, t = ns, nt
            tok = self.peek()
        return s, t

    def concat(self) -> tuple[int, int]:
        s = t = self.nfa.state()
        tok = self.peek()
        while tok is not None and (tok[0] in ("label", "eps") or tok == ("op", "(")):
            s2, t2 = self.postfix()
            self.nfa.eps[t].append(s2)
            t = t2
            tok = self.peek()
        return s, t

    def postfix(self) -> tuple[int, int]:
        s, t = self.atom()
        tok = self.peek()
        while tok is not None and tok[0] == "op" and tok[1] in "*+?":
            self.take()
            ns, nt = self.nfa.state(), self.nfa.state()
            self.nfa.eps[ns].append(s)
            self.nfa.eps[t].append(nt)
            if tok[1] in "*?":
                self.nfa.eps[ns].append(nt)
            if tok[1] in "*+":
                self.nfa.eps[t].append(s)
            s, t = ns, nt
            tok = self.peek()
        return s, t

    def atom(self) -> tuple[int, int]:
        tok = self.peek()
        if tok is None:
            raise self.error("a label, 'ε' or '('")
        self.take()
        if tok[0] == "label":
            s, t = self.nfa.state(), self.nfa.state()
            self.nfa.edges[s].append((tok[1], t))
            return s, t
        if tok[0] == "eps":
            s = self.nfa.state()
            return s, s
        if tok == ("op", "("):
            frag = self.union()
            if self.peek() != ("op", ")"):
                raise self.error("')'")
            self.take()
            return frag
        raise self.error("a label, 'ε' or '('")


def _closure(nfa: _Nfa, states: frozenset[int]) -> frozenset[int]:
    seen = set(states)
    stack = list(states)
    while stack:
        q = stack.pop()
        for r in nfa.eps[q]:
            if r not in seen:
                seen.add(r)
                stack.append(r)
    return frozenset(seen)


def compile_regex(text: str, source: str = "<regex>") -> tuple[int, int, frozenset[int], dict[tuple[int, str], int]]:
    """The subset-construction DFA ``(n, initial, accepting, delta)`` of the expression."""
    p = _Parser(text, source)
    start, final = p.parse()
    nfa = p.nfa
    init = _closure(nfa, frozenset({start}))
    ids = {init: 0}
    todo = [init]
    delta: dict[tuple[int, str], int] = {}
    while todo:
        cur = todo.pop()
        moves: dict[str, set[int]] = {}
        for q in cur:
            for a, r in nfa.edges[q]:
                moves.setdefault(a, set()).add(r)
        for a, targets in sorted(moves.items()):
            nxt = _closure(nfa, frozenset(targets))
            if nxt not in ids:
                ids[nxt] = len(ids)
                todo.append(nxt)
            delta[(ids[cur], a)] = ids[nxt]
    accepting = frozenset(i for s, i in ids.items() if final in s)
    return len(ids), 0, accepting, delta


def from_regex(text: str, prefix_closure: bool = False, source: str = "<regex>") -> PolicyAutomaton | NotPrefixClosed:
    """The policy denoted by ``text`` (or the prefix closure of it, when asked explicitly)."""
    n, init, acc, delta = compile_regex(text, source)
    if prefix_closure:
        acc = _coreachable(n, acc, delta)
    return from_automaton(n, init, acc, delta)


def _coreachable(n: int, acc: frozenset[int], delta: dict[tuple[int, str], int]) -> frozenset[int]:
    live = set(acc)
    changed = True
    while changed:
        changed = False
        for (q, _), r in delta.items():
            if r in live and q not in live:
                live.add(q)
                changed = True
    return frozenset(q for q in range(n) if q in live)
