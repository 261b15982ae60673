"""The per-process context of one explicit search and what the agent holds in a state (``space.sources``
and ``space.agent_calls`` over compact states): literal, result and field values parsed once, each held
value with its canonical text, its handle position, its sleep-set key and its interned *content* (what the
decision memo of ``expand.successors`` keys on). Split from ``expand.py``, which steps the states.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.monitor.decide.matching import Missing, lookup_path
from model.monitor.decide.state import Call
from model.monitor.decide.verdict import Verdict
from model.search.compact import OK, REFS, RESULT, TOOL, Materializer, PermitT, Rec
from model.search.model import QueryKind, SearchModel
from model.search.por import SPECIAL, Independence
from model.search.states import AgentCall, ArgSource, Lit, Ref

SrcKey = tuple[str, str] | tuple[str, int, str]

# What one admitted call with one outcome does, as far as it does not depend on positions: the new
# record's content (without height and refs), its matched and premise queries, the bindings after
# (slot, value, whether the new record made it), the invalid set, the footprint, and the permits when
# one was consumed (positional: never memoized). None: the outcome's guard does not hold.
Outcome_ = tuple[tuple[object, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[str, object, bool], ...] | None,
                 frozenset[str], int, tuple[PermitT, ...] | None]


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    ok: bool
    text: str  # canonical JSON of the value ("" on failure)
    value: JSON
    when: tuple[tuple[str, object], ...]


@dataclass
class Context:
    """The model and the per-process memo tables of one search."""

    model: SearchModel
    renaming: bool
    mat: Materializer = field(init=False)
    independence: Independence = field(init=False)
    special: int = field(init=False)
    values: dict[str, JSON] = field(default_factory=dict)  # canonical text -> parsed value
    fields: dict[tuple[str, str], tuple[JSON, str] | None] = field(default_factory=dict)
    results: dict[str, tuple[ToolOutcome, ...]] = field(default_factory=dict)
    names: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    goals: frozenset[int] = frozenset()
    # Decision memo: the monitor's verdict on a proposal is a function of the call's content (tool,
    # argument values, and the records its handles name: their label, success and producer) and of the
    # state's slots, invalid set, counters, Q and permits — not of the other records. Keys are interned
    # to small ints per state, so a lookup hashes a few ints. Off when the policy has history rules (they
    # read every record). A handle's content is its record's *deep* id: the record with the deep ids of the
    # records it names, transitively (producers behind ``preserving`` operations, ``produced_by`` patterns).
    memo: dict[tuple[object, ...], Verdict] | None = field(default_factory=dict)
    trans: dict[tuple[object, ...], tuple[tuple[Outcome_ | None, ...], tuple[int, ...], tuple[int, ...]]] = \
        field(default_factory=dict)
    refused: set[tuple[object, ...]] = field(default_factory=set)  # memo keys the monitor refused
    interned: dict[object, int] = field(default_factory=dict)
    # the monitor semantics the successors are computed with: None for the Python monitor, else an object
    # with ``decide(state, call)`` and ``step(state, call, outcome)`` (model/oracle/lean_step.py)
    semantics: Any = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        m = self.model
        self.mat = Materializer(m.agent, m.policy)
        self.independence = Independence()
        self.special = self.independence.id(SPECIAL)
        for tool in m.policy.tools:
            self.results[tool.name] = tuple(
                ToolOutcome(r.ok, canonical_str(json.loads(r.value)) if r.ok else "", json.loads(r.value), r.when)
                for r in m.results_of(tool.name))
            optional = sorted(tool.args - tool.required - self.model.omitted(tool.name))
            self.names[tool.name] = tuple(tuple(sorted(tool.required | set(extra)))
                                          for k in range(len(optional) + 1)
                                          for extra in itertools.combinations(optional, k))
        self.goals = frozenset(i for i, q in enumerate(m.queries) if q.kind is QueryKind.GOAL)
        if m.policy.histories:
            self.memo = None

    def forget(self) -> None:
        """Empty the decision memo (a cache: what it held is recomputed on demand). The fingerprint mode
        bounds its memory this way; interned contents stay, as held values carry their ids."""
        if self.memo is not None:
            self.memo.clear()
        self.trans.clear()
        self.refused.clear()

    def intern(self, value: object) -> int:
        n = self.interned.get(value)
        if n is None:
            n = self.interned[value] = len(self.interned)
        return n

    def value(self, text: str) -> JSON:
        v = self.values.get(text)
        if v is None and text not in self.values:
            v = self.values[text] = json.loads(text)
        return v

    def field(self, result: str, path: str) -> tuple[JSON, str] | None:
        key = (result, path)
        if key not in self.fields:
            sub = lookup_path(self.value(result), tuple(path.split(".")))
            self.fields[key] = None if isinstance(sub, Missing) else (sub, canonical_str(sub))
        return self.fields[key]


# a held value: (source, concrete value, canonical text, (position, path) for a handle, sleep-set key part,
# interned content for the decision memo)
Held = tuple[ArgSource, JSON, str, tuple[int, str] | None, SrcKey, int]


def held(ctx: Context, recs: tuple[Rec, ...], positional: bool) -> list[Held]:
    """``space.sources`` in its order: literals, per successful result its handle and declared fields,
    then (with ``copies``) the values read, retyped as literals. ``positional``: the memo content of a
    handle includes its position (permits bind positions)."""
    m = ctx.model
    intern = ctx.intern
    out: list[Held] = [(Lit(v), ctx.value(v), v, None, ("L", v), intern(("L", v))) for v in m.literals]
    copies: list[str] = []
    deep: list[int] = []
    for r in recs:  # parents precede children in canonical order, and in admission order
        deep.append(intern((r[:REFS], tuple((a, deep[d], p) for a, d, p in r[REFS]), r[REFS + 1:])))
    for pos, r in enumerate(recs):
        if not r[OK]:
            continue
        result = r[RESULT]
        where = pos if positional else -1
        out.append((Ref(pos), ctx.value(result), result, (pos, ""), ("R", pos, ""),
                    intern(("R", deep[pos], "", where))))
        copies.append(result)
        for path in m.fields_of(r[TOOL]):
            f = ctx.field(result, path)
            if f is not None:
                out.append((Ref(pos, path), f[0], f[1], (pos, path), ("R", pos, path),
                            intern(("R", deep[pos], path, where))))
                copies.append(f[1])
    if m.copies:
        have = {h[0] for h in out}
        for text in dict.fromkeys(copies):
            if Lit(text) not in have:
                out.append((Lit(text), ctx.value(text), text, None, ("L", text), intern(("L", text))))
    return out


def proposals(ctx: Context, recs: tuple[Rec, ...], hs: list[Held]
               ) -> Iterator[tuple[str, tuple[str, ...], Iterator[tuple[tuple[int, ...], tuple[int, ...]]]]]:
    """``space.agent_calls`` in its order: per (tool, argument names), the index tuples into ``hs`` and,
    in lockstep, the content ids of the chosen values (both products run in C)."""
    m = ctx.model
    cids = [h[5] for h in hs]
    idx = range(len(hs))
    for tool in m.policy.tools:
        cap = m.max_calls_of(tool.name)
        if cap is not None and sum(1 for r in recs if r[TOOL] == tool.name) >= cap:
            continue
        for names in ctx.names[tool.name]:
            r = len(names)
            yield tool.name, names, zip(itertools.product(idx, repeat=r), itertools.product(cids, repeat=r),
                                        strict=True)


def call_of(ctx: Context, tool: str, names: tuple[str, ...],
          choice: tuple[Held, ...]) -> tuple[Call, tuple[tuple[str, int, str], ...]]:
    args = {n: h[1] for n, h in zip(names, choice, strict=True)}
    refs3 = tuple((n, h[3][0], h[3][1]) for n, h in zip(names, choice, strict=True) if h[3] is not None)
    refs = tuple(sorted((n, d) for n, d, _ in refs3))
    paths = tuple(sorted((n, p) for n, _, p in refs3 if p))
    return Call(ctx.model.agent, tool, args, refs, paths), refs3


def action_of(tool: str, names: tuple[str, ...], choice: tuple[Held, ...]) -> AgentCall:
    return AgentCall(tool, tuple(zip(names, (h[0] for h in choice), strict=True)))
