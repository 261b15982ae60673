"""Symmetry reduction for the monitor engine over interchangeable values (our design; the papers are
silent; the technique is the classic one of explicit-state model checkers such as Murphi and TLC, and the
generic search's ``system/symmetry.py``): when some of the agent's values — principals such as two
attackers' addresses, resources, requesters — are interchangeable, the exact visited set keeps one state
per orbit of the group that permutes them.

**The group.** ``classes`` are sets of JSON string values (``SymmetryClasses``); the group is every
permutation of each class, applied at once to every string leaf of a state equal to a value of a class:
the arguments of every admitted call, every result, every binding. A tool's outcome index moves with its
value (the outcome whose value is the permuted one). ``check`` refuses a declaration that is plainly not
a symmetry of the model: a value the model's literals do not hold, a value the policy's text, a query or
an outcome's guard names, a permutation that does not map the literals and each tool's outcomes onto
themselves, and models with approvals, ``copies`` or history rules (their permits and admitted order are
not permuted here). Beyond that the declaration is trusted as a claim about the model, as the generic
search trusts its systems' ``orbit_key``: the policy's glob and type tests are not analysed, and the test
checks the declaration on the corpus model by comparing against the unreduced search.

**The orbit key** of a state is the least (as tuples; by ``repr`` where two hold values of different
types at one place) of the canonical forms of its images under the group, the state itself included
(stored states are canonical already); the canonical form of an image re-sorts the records level by level
as ``canon.canonical`` does (height in the parent DAG first, then content with the parents' new
positions), so two states get one key only when a permutation and a renaming of record IDs map one onto
the other. A state holding no value of a class is its own key (its images are itself). Ties between
identical records keep their order, as in ``canon``: a key may then keep two equivalent states apart
(less reduction, never a wrong merge).

**Why the answers are the unreduced search's.** A permutation of the group maps each transition of a
state to a transition of its image with the same query matches (the monitor and the queries cannot tell
the values apart), so the orbits reachable within ``d`` steps are the orbits of the states reachable
within ``d`` steps: verdicts and shortest lengths agree, and the reduced run's ``states`` counts orbits.
The frontier keeps the *state* that first reached an orbit, not a representative, so every trace is a
path of the unreduced model. The goal's useful completions are those of the states kept, a subset of the
unreduced search's (the others are their images). Without sleep sets only (their independence is not
shown to commute with the permutations).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from model.base.budget import Budget, Meter
from model.base.canonical import canonical_str
from model.base.errors import InputKind, InvalidInput
from model.base.jsonio import read_text
from model.search.compact import OK, OUTCOME, REFS, RESULT, TOOL, Compact, Rec, empty
from model.search.expand import Context, Key, Raw
from model.search.explicit import ExactStore
from model.search.layered import EMPTY, ExplicitRun, Link, Sleep, Tick, layered
from model.search.model import SearchModel

#: interchangeable values: each a set of JSON strings the agent may hold
SymmetryClasses = tuple[tuple[str, ...], ...]
Perm = dict[str, str]


def _leaves(v: Any, g: Perm) -> Any:
    if isinstance(v, str):
        return g.get(v, v)
    if isinstance(v, list):
        return [_leaves(x, g) for x in v]
    if isinstance(v, dict):
        return {k: _leaves(x, g) for k, x in v.items()}
    return v


def permute_text(text: str, g: Perm) -> str:
    """A canonical JSON text with its string leaves permuted (unchanged text when no leaf moves, so a
    number keeps its spelling)."""
    if not text or not any(json.dumps(a) in text for a in g):
        return text
    return canonical_str(_leaves(json.loads(text), g))


class ValueSymmetry:
    """The group of ``classes`` acting on the compact states of ``model`` (module docstring)."""

    def __init__(self, model: SearchModel, classes: SymmetryClasses) -> None:
        self.model = model
        self.classes = classes
        self.values = frozenset(v for c in classes for v in c)
        self.texts = tuple(json.dumps(v) for v in self.values)
        self.perms: list[Perm] = []
        for choice in itertools.product(*(itertools.permutations(c) for c in classes)):
            g = {a: b for c, img in zip(classes, choice, strict=True) for a, b in zip(c, img, strict=True) if a != b}
            if g:
                self.perms.append(g)
        # per permutation, per tool: outcome index -> the index of its image
        self.outcome: list[dict[str, tuple[int, ...]]] = [self._outcomes(g) for g in self.perms]

    def _outcomes(self, g: Perm) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for tool, results in self.model.results:
            texts = [(r.ok, r.value) for r in results]
            try:
                out[tool] = tuple(texts.index((r.ok, permute_text(r.value, g))) for r in results)
            except ValueError:
                raise InvalidInput(self.model.name, f"outcomes of {tool} mapped onto themselves by the symmetry",
                                   f"an outcome whose image under {g} is not one of them", InputKind.VALUE) from None
        return out

    def image(self, s: Compact, j: int) -> Compact:
        """The canonical form of permutation ``j``'s image of ``s``."""
        g, outs = self.perms[j], self.outcome[j]
        recs = tuple((*r[:2], permute_text(r[2], g), *r[3:RESULT],
                      permute_text(r[RESULT], g) if r[OK] else r[RESULT], outs[r[TOOL]][r[OUTCOME]], *r[REFS:])
                     for r in s[0])
        bindings = tuple((sl, g.get(v, v) if isinstance(v, str) else v, i) for sl, v, i in s[1])
        return canonical((recs, bindings, *s[2:]))

    def moves(self, s: Compact) -> bool:
        """Whether some value of a class occurs in ``s`` (else every image of ``s`` is ``s``)."""
        texts = self.texts
        return (any(t in r[2] or (r[OK] and t in r[RESULT]) for r in s[0] for t in texts)
                or any(v in self.values for _, v, _i in s[1]))

    def orbit_key(self, s: Compact) -> Compact:
        """``s`` itself when no value of a class occurs in it (its images are all ``s``: such states form
        orbits of one, keyed as the unreduced search keys them); else the least canonical image."""
        if not self.moves(s):
            return s
        best = s  # stored states are canonical already (``compact.py``): the identity's image is ``s``
        for j in range(len(self.perms)):
            c = self.image(s, j)
            try:
                less = c < best
            except TypeError:  # values of different types at one place: compare their texts
                less = repr(c) < repr(best)
            if less:
                best = c
        return best


def canonical(s: Compact) -> Compact:
    """``canon.canonical`` on a compact state: records re-sorted level by level by content, refs and
    bindings renamed (the permits are empty: no approvals)."""
    recs = s[0]
    n = len(recs)
    perm = [0] * n
    out: list[Rec] = [()] * n
    pos = 0
    for h in sorted({r[0] for r in recs}):
        level = [(tuple((*r[:REFS], tuple((a, perm[d], p) for a, d, p in r[REFS]), *r[REFS + 1:])), i)
                 for i, r in enumerate(recs) if r[0] == h]
        level.sort(key=lambda x: x[0])  # stable: ties keep their order
        for r, i in level:
            perm[i] = pos
            out[pos] = r
            pos += 1
    bindings = tuple((sl, v, perm[i]) for sl, v, i in s[1])
    return (tuple(out), bindings, *s[2:])


def check(model: SearchModel, classes: SymmetryClasses) -> None:
    """``InvalidInput`` when ``classes`` is plainly not a symmetry of ``model`` (module docstring)."""
    where = model.name

    def bad(expected: str, got: str) -> InvalidInput:
        return InvalidInput(where, expected, got, InputKind.VALUE)

    if model.approvals or model.copies or model.policy.histories:
        raise bad("a model without approvals, copies or history rules for value symmetry",
                  "approvals" if model.approvals else "copies" if model.copies else "history rules")
    held = set(model.literals)
    values = [v for c in classes for v in c]
    if len(set(values)) != len(values) or any(len(c) < 2 for c in classes):
        raise bad("disjoint classes of two values or more", repr(classes))
    policy_text = read_text(model.policy_path) if model.policy_path else ""
    for v in values:
        text = json.dumps(v)
        if text not in held:
            raise bad("interchangeable values among the agent's literals", v)
        if v in policy_text:
            raise bad("values the policy does not name", f"{v} in {model.policy_path}")
        if any(v in repr(q) for q in model.queries):
            raise bad("values no query names", v)
        if any(v in repr(r.when) for _, rs in model.results for r in rs):
            raise bad("values no outcome's guard names", v)
    sym = ValueSymmetry(model, classes)  # outcomes mapped onto themselves, or InvalidInput
    for g in sym.perms:
        if {permute_text(lit, g) for lit in model.literals} != held:
            raise bad("literals mapped onto themselves", repr(g))


class OrbitStore(ExactStore):
    """``ExactStore`` keyed by orbit: one state per orbit, the first to reach it (no sleep sets)."""

    __slots__ = ("orbit",)

    def __init__(self, root: Compact, ctx: Context, orbit: Callable[[Compact], Compact]) -> None:
        super().__init__(root, ctx.independence)
        self.orbit = orbit
        self.parent = {orbit(root): None}

    def add(self, s: Compact, n: int, raw: Raw, new: Compact, at: int | None, key: Key, sleep: Sleep | None,
            done: list[tuple[Key, int]], fpi: int) -> None:
        from model.search.expand import transition

        o = self.orbit(new)
        if o not in self.parent:
            self.parent[o] = (s, transition(raw), at)
            self.nxt.append(new)

    def frontier(self) -> Iterator[tuple[int, Compact, Sleep]]:
        for n, s in enumerate(self.cur):
            yield n, s, EMPTY

    def path(self, n: int, s: Compact) -> list[Link]:
        out: list[Link] = []
        link = self.parent[self.orbit(s)]
        while link is not None:
            out.append(link)
            link = self.parent[self.orbit(link[0])]
        return out[::-1]


_UNLIMITED = Budget()


def explore_symmetric(model: SearchModel, classes: Sequence[Sequence[str]], bound: int | None = None,
                      tick: Tick | None = None, budget: Budget = _UNLIMITED, meter: Meter | None = None) -> ExplicitRun:
    """The exact search without sleep sets, one state per orbit of ``classes`` (module docstring);
    ``InvalidInput`` when the declaration is plainly not a symmetry of the model."""
    cls: SymmetryClasses = tuple(tuple(c) for c in classes)
    check(model, cls)
    k = model.bound if bound is None else bound
    ctx = Context(model, renaming=True)
    sym = ValueSymmetry(model, cls)
    return layered(ctx, OrbitStore(empty(model.policy), ctx, sym.orbit_key), k, tick, budget, False, meter)


__all__ = ["OrbitStore", "SymmetryClasses", "ValueSymmetry", "canonical", "check", "explore_symmetric",
           "permute_text"]
