"""Concrete samples built without Z3 for "is this conjunction of match / fail literals satisfiable?"
(to make revision checks faster; the questions are those of ``simulation.vectors``, Agenra Section 7.1).

``samples.py`` answers such a question "satisfiable" when a kept sample — a concrete effect, argument
object and binding state read off an earlier Z3 model — satisfies every literal by the monitor's own
matcher. This module makes such a sample from the question itself: a small search over values the
question's entries name (their constants, a range's bounds and their neighbours, a fresh string, the
missing value, an object where a deeper path is named), one tool that can produce the action and one
resource the effect set allows. A candidate is kept only if ``well_formed`` holds — the concrete form of
``Encoder.base`` — and the caller (``leaves.py``) then adds it to the pool and answers the question
through the pool's own check (``Pool.witness``: ``entry_matches`` on every literal). So a question is
answered "satisfiable" only with a concrete point that is a model: read as the encoder's variables (the
resource, each path's value or ``missing``, ``other_key`` false, each slot bound to its value or unbound)
it satisfies the base by ``well_formed`` and every literal by the encoding's exactness, the fact
``samples.py`` rests on. Unsatisfiability is never concluded here: a search that finds nothing says
nothing, and the question goes to Z3.

Choices where the source is silent (none affects an answer, only how often Z3 is spared):
- Only exact values are made (strings, booleans, integers within ±(2^53−1)), so a sample is the model
  ``Pool.add`` keeps as is.
- A slot a match literal names is bound to the resource; every other slot is left unbound.
- The search visits at most ``MAX_CANDIDATES`` complete assignments and ``MAX_NODES`` partial ones
  (a value chosen for one path) per question, so a question it cannot answer costs little before Z3.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import pairwise

from model.base.canonical import JSON, json_equal
from model.monitor.decide.matching import Effect, entry_matches, predicate_holds
from model.monitor.decide.state import State
from model.monitor.language.policy import ArgRes, ConstPat, ConstRes, Entry, GlobPat, RangePred, SlotPat, Tool
from model.revision.smt.refute import constants
from model.revision.smt.z3_matching import Witness

MAX_CANDIDATES = 48
MAX_NODES = 400
_SAFE = 2**53 - 1


class _Object:
    """The candidate "an object", filled by the values of the paths below it."""


class _Missing:
    """The candidate "absent"."""


_OBJ, _MISSING = _Object(), _Missing()
Value = JSON | _Object | _Missing


def _exact(v: JSON) -> bool:
    return isinstance(v, str | bool) or (isinstance(v, int) and -_SAFE <= v <= _SAFE)


def well_formed(w: Witness, resources: Sequence[JSON] | None, tools: Sequence[Tool]) -> bool:
    """``Encoder.base`` on the concrete point ``w``: a resource ``E`` allows; every bound slot a boolean, a
    number or a non-empty string; and some tool producing the action whose required arguments are present,
    whose arguments include every key present (so no other key is), and which reads the resource where ``w``
    has it (its constant, a null one too; or, a scalar, the named argument or a list argument)."""
    r = w.resource
    if isinstance(r, list | dict):
        return False
    if resources is not None and not any(json_equal(r, c) for c in resources):
        return False
    for _, v in w.bindings:
        if not (isinstance(v, bool | int | float) or (isinstance(v, str) and v)):
            return False
    keys = set(w.args)
    for t in tools:
        if not (t.required <= keys <= t.args):
            continue
        for d in t.effects:
            if d.action != w.action:
                continue
            if isinstance(d.resource, ConstRes):
                value = d.resource.value
                if not isinstance(value, list | dict) and json_equal(r, value):
                    return True
            elif r is None:
                continue  # the monitor refuses a null argument (or list element) as a resource
            elif isinstance(d.resource, ArgRes):
                got = w.args.get(d.resource.arg)
                if got is not None and not isinstance(got, list | dict) and json_equal(r, got):
                    return True
            elif isinstance(w.args.get(d.resource.arg), list):
                return True
    return False


def _fresh(taken: set[str]) -> str:
    text = "~"
    while text in taken:
        text += "~"
    return text


def _numbers(preds: Sequence[Entry], path: tuple[str, ...]) -> list[int]:
    """Integers around the numeric constants the entries compare ``path`` with."""
    found: set[int] = set()
    for e in preds:
        for p in e.where:
            if p.path != path:
                continue
            values = [v for v in (p.low, p.high) if v is not None] if isinstance(p, RangePred) else constants(p)
            for v in values:
                if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
                    found |= {math.floor(v) - 1, math.floor(v), math.ceil(v), math.ceil(v) + 1}
    ordered = sorted(found)
    mids = {(a + b) // 2 for a, b in pairwise(ordered)}
    return [n for n in sorted(found | mids) if -_SAFE <= n <= _SAFE]


def _nest(path: tuple[str, ...], value: JSON) -> dict[str, JSON]:
    out: JSON = value
    for step in reversed(path):
        out = {step: out}
    assert isinstance(out, dict)
    return out


def _resources(action: str, resources: Sequence[JSON] | None, entries: Sequence[Entry],
               producers: Sequence[Tool], taken: set[str]) -> list[JSON]:
    if resources is not None:
        return [r for r in dict.fromkeys(resources) if r is not None and _exact(r)]
    named: list[JSON] = [e.resource.value for e in entries if isinstance(e.resource, ConstPat)]
    made = [d.resource.value for t in producers for d in t.effects
            if d.action == action and isinstance(d.resource, ConstRes)]
    named += made
    globs = [e.resource.glob.replace("*", "").replace("?", "a") for e in entries
             if isinstance(e.resource, GlobPat) and "[" not in e.resource.glob]
    # two globs' shortest strings joined: matched by both when the first ends and the second starts with ``*``
    named += globs + [a + b for a in globs for b in globs if a != b]
    # null only where a tool's constant makes it (``well_formed`` refuses it otherwise)
    null: list[JSON] = [None] if None in made else []
    return [r for r in dict.fromkeys([*named, _fresh(taken), 0, True]) if r is not None and _exact(r)] + null


def synthesize(action: str, resources: Sequence[JSON] | None, tools: Sequence[Tool],
               literals: Sequence[tuple[Entry, bool]]) -> Witness | None:
    """A concrete point satisfying ``well_formed`` and, by ``entry_matches``, every literal (entry, must
    match), or ``None`` when the bounded search finds none (which proves nothing)."""
    must = [e for e, b in literals if b]
    if any(e.action != action for e in must):
        return None
    avoid = [e for e, b in literals if not b and e.action == action]
    every = [*must, *avoid]
    taken = {v for e in every for p in e.where for v in constants(p) if isinstance(v, str)}
    taken |= {e.resource.value for e in every if isinstance(e.resource, ConstPat) and isinstance(e.resource.value, str)}
    producers = [t for t in tools if any(d.action == action for d in t.effects)]
    slots = sorted({e.resource.slot for e in must if isinstance(e.resource, SlotPat)})
    budget = [MAX_CANDIDATES, MAX_NODES]  # complete assignments, then partial ones, left to visit
    for r in _resources(action, resources, every, producers, taken):
        if slots and not (isinstance(r, bool | int) or (isinstance(r, str) and r)):
            continue
        state = State(bindings=tuple((s, r, 0) for s in slots))
        effect = Effect(action, r)
        if not all(_resource_fits(e, r, state) for e in must):
            continue
        for t in producers:
            for fixed in _readings(action, t, r):
                for args in _assignments(t, fixed, must, avoid, effect, state, taken, budget):
                    w = Witness(action, r, args, tuple((s, r) for s in slots))
                    if well_formed(w, resources, tools) and \
                            all(entry_matches(e, effect, args, state) == b for e, b in literals):
                        return w
                if min(budget) <= 0:
                    return None
    return None


def _resource_fits(e: Entry, r: JSON, state: State) -> bool:
    return entry_matches(Entry(e.kind, e.action, e.resource), Effect(e.action, r), {}, state)


def _readings(action: str, t: Tool, r: JSON) -> Iterator[dict[str, JSON]]:
    """The arguments fixed by where ``t`` reads the resource ``r`` of an ``action`` effect."""
    for d in t.effects:
        if d.action != action:
            continue
        if isinstance(d.resource, ConstRes):
            if json_equal(d.resource.value, r):
                yield {}
        elif r is None:
            continue  # only a constant makes a null resource
        elif isinstance(d.resource, ArgRes):
            yield {d.resource.arg: r}
        else:
            yield {d.resource.arg: [r]}


def _assignments(t: Tool, fixed: dict[str, JSON], must: Sequence[Entry], avoid: Sequence[Entry], effect: Effect,
                 state: State, taken: set[str], budget: list[int]) -> Iterator[dict[str, JSON]]:
    """Argument objects for tool ``t`` with ``fixed`` in place, depth first over each path's candidates;
    an entry that must fail is checked as soon as the paths it reads are chosen (paths in order of length,
    so a path's prefixes come first)."""
    every = [*must, *avoid]
    named = {p.path[:i] for e in every for p in e.where for i in range(1, len(p.path) + 1)}
    named |= {(k,) for k in t.args if any(e.keys is not None for e in every)} | {(k,) for k in t.required}
    paths = sorted((p for p in named if p[0] in t.args), key=lambda p: (len(p), p))
    options = [_options(p, t, fixed, must, every, named, taken) for p in paths]
    if any(not o for o in options):
        return
    # an entry that must fail, checked once the last path it reads is chosen (an allowlist reads every key)
    last = {id(e): max((i for i, p in enumerate(paths) if any(q.path[:len(p)] == p for q in e.where)), default=-1)
            for e in avoid}
    for e in avoid:
        if e.keys is not None:
            last[id(e)] = len(paths) - 1
    chosen: list[Value] = []
    if any(last[id(e)] == -1 and entry_matches(e, effect, dict(fixed), state) for e in avoid):
        return  # an entry that must fail matches on the resource alone

    def build() -> dict[str, JSON]:
        args: dict[str, JSON] = {}
        for p, v in zip(paths, chosen, strict=False):
            if isinstance(v, _Missing):
                continue
            parent: JSON = args
            for step in p[:-1]:
                assert isinstance(parent, dict)
                parent = parent[step]
            assert isinstance(parent, dict)
            parent[p[-1]] = {} if isinstance(v, _Object) else v
        args.update(fixed)
        return args

    def go(i: int) -> Iterator[dict[str, JSON]]:
        if min(budget) <= 0:
            return
        if i == len(paths):
            budget[0] -= 1
            yield build()
            return
        p = paths[i]
        parent = None if len(p) == 1 else chosen[paths.index(p[:-1])]
        for v in options[i] if parent is None or isinstance(parent, _Object) else [_MISSING]:
            budget[1] -= 1
            chosen.append(v)
            checked = [e for e in avoid if last[id(e)] == i]
            if not checked or not any(entry_matches(e, effect, build(), state) for e in checked):
                yield from go(i + 1)
            chosen.pop()

    yield from go(0)


def _options(p: tuple[str, ...], t: Tool, fixed: dict[str, JSON], must: Sequence[Entry], every: Sequence[Entry],
             named: set[tuple[str, ...]], taken: set[str]) -> list[Value]:
    """The values path ``p`` may take: those every entry that must match allows there."""
    if p[0] in fixed:
        return [fixed[p[0]] if len(p) == 1 else _MISSING]
    values: list[Value] = [_MISSING] if len(p) > 1 or p[0] not in t.required else []
    if any(q != p and q[:len(p)] == p for q in named):
        values.append(_OBJ)
    for e in every:
        values += [v for q in e.where if q.path == p for v in constants(q) if _exact(v)]
    values += [*_numbers(every, p), _fresh(taken), True]
    out: list[Value] = []
    for v in values:
        if any(v is o or (type(v) is type(o) and v == o) for o in out):
            continue
        if all(_allows(e, p, v) for e in must):
            out.append(v)
    return out


def _allows(e: Entry, p: tuple[str, ...], v: Value) -> bool:
    """Whether ``e`` can match with ``v`` at ``p``: its allowlist admits the key, its predicates on ``p``
    hold of ``v``, and one on a path below ``p`` finds an object there."""
    if len(p) == 1 and e.keys is not None and p[0] not in e.keys and not isinstance(v, _Missing):
        return False
    for q in e.where:
        if q.path == p:
            if isinstance(v, _Missing | _Object) or not predicate_holds(q, _nest(p, v)):
                return False
        elif q.path[:len(p)] == p and not isinstance(v, _Object):
            return False
    return True
