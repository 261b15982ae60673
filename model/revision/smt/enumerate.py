"""Matching agreement and independence by explicit enumeration over a finite domain.

The second engine for the judgments of ``agreement.py`` and ``independence.py``, used by the
differential tests: it enumerates effects, argument objects and binding states drawn from a
finite ``Domain`` and asks the monitor's own ``entry_matches`` (model/monitor/decide/matching.py), so a
bug in the monitor's matcher and one in the symbolic encoding cannot hide each other. Its answers
hold only on the domain: "agree" here is evidence, not a proof; "disagree" is a real witness.

Choices: the default domain (``domain_for``) collects every constant the entries mention, range
bounds and their neighbours, samples for each glob, and a few unrelated values; argument objects
are built per tool that can perform the action (required keys present, optional ones present or
not, undeclared ones absent), with a value per predicate path and per resource argument from the
domain; the effects are what the monitor's ``call_effects`` makes of each call.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from model.base.canonical import JSON, canonical_str, json_equal
from model.monitor.decide.matching import Effect, call_effects, entry_matches
from model.monitor.decide.state import State
from model.monitor.language.policy import (
    ArgRes,
    ConstPat,
    Entry,
    EqPred,
    GlobPat,
    ListArgRes,
    OneOfPred,
    RangePred,
    SlotPat,
    Tool,
)
from model.revision.effects import EffectSet
from model.revision.smt.z3_matching import Witness


@dataclass(frozen=True, slots=True)
class Domain:
    scalars: tuple[JSON, ...]  # candidate resources, argument values and slot addresses
    max_args: int = 400  # cap on argument objects per tool (the enumeration is exhaustive below it)


def _glob_samples(glob: str) -> list[str]:
    plain = glob.replace("?", "a").replace("[", "").replace("]", "").replace("!", "")
    return [plain.replace("*", ""), plain.replace("*", "x"), glob]


def domain_for(entries: Sequence[Entry], extra: Sequence[JSON] = ()) -> Domain:
    vals: list[JSON] = ["", "x", 0, True, None, *extra]
    for e in entries:
        if isinstance(e.resource, ConstPat):
            vals.append(e.resource.value)
        elif isinstance(e.resource, GlobPat):
            vals += _glob_samples(e.resource.glob)
        for p in e.where:
            if isinstance(p, EqPred):
                vals.append(p.value)
            elif isinstance(p, OneOfPred):
                vals += list(p.values)
            elif isinstance(p, RangePred):
                for b in (p.low, p.high):
                    if b is not None:
                        vals += [b, b - 1, b + 1]
    out: list[JSON] = []
    for v in vals:
        if not isinstance(v, list | dict) and not any(type(v) is type(w) and v == w for w in out):
            out.append(v)
    return Domain(tuple(out))


def _arg_objects(tool: Tool, entries: Sequence[Entry], domain: Domain) -> Iterator[dict[str, JSON]]:
    resource_args = {d.resource.arg: isinstance(d.resource, ListArgRes) for d in tool.effects
                     if isinstance(d.resource, ArgRes | ListArgRes)}
    paths = sorted({p.path for e in entries for p in e.where if p.path[0] in tool.args}
                   | {(a,) for a in resource_args})
    optional = sorted(tool.args - tool.required)
    count = 0
    for mask in range(2 ** len(optional)):
        keys = sorted(tool.required | {k for i, k in enumerate(optional) if mask >> i & 1})
        live = [p for p in paths if p[0] in keys]
        for values in itertools.product(domain.scalars, repeat=len(live)):
            obj: dict[str, JSON] = {k: "v" for k in keys}
            for path, v in zip(live, values, strict=True):
                cur = obj
                for step in path[:-1]:
                    if not isinstance(cur.get(step), dict):
                        cur[step] = {}
                    cur = cur[step]
                cur[path[-1]] = v
            for arg, is_list in resource_args.items():
                if is_list and arg in obj:
                    obj[arg] = [obj[arg]]
            yield obj
            count += 1
            if count >= domain.max_args:
                return


def _states(entries: Sequence[Entry], domain: Domain) -> Iterator[State]:
    slots = sorted({e.resource.slot for e in entries if isinstance(e.resource, SlotPat)})
    addresses = [v for v in domain.scalars if v is not None and v != ""]
    options: list[list[JSON]] = [[None, *addresses] for _ in slots]  # None: unbound
    for choice in itertools.product(*options):
        bindings = tuple((s, v, 0) for s, v in zip(slots, choice, strict=True) if v is not None)
        yield State(bindings=bindings)


def _cases(entries: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool],
           domain: Domain) -> Iterator[tuple[Effect, dict[str, JSON], State]]:
    for action in effects.actions(frozenset(e.action for e in entries)):
        allowed = effects.resources(action)
        producers = [t for t in tools if any(d.action == action for d in t.effects)]
        for tool in producers:
            for args in _arg_objects(tool, entries, domain):
                effects_of = call_effects(tool, args)  # the monitor's own effects of this call
                if isinstance(effects_of, str):
                    continue
                for eff in _distinct(effects_of, action, allowed):
                    for state in _states(entries, domain):
                        yield eff, args, state


def _distinct(effects: Sequence[Effect], action: str, allowed: tuple[JSON, ...] | None) -> list[Effect]:
    """The effects of ``action`` that ``E`` allows, each once, in order. Distinct by JSON equality: a set of
    ``Effect``s would take ``send(true)`` for ``send(1)`` (Python's ``True == 1``) and drop one of them."""
    seen: set[str] = set()
    out: list[Effect] = []
    for e in effects:
        if e.action != action or (allowed is not None and not any(json_equal(e.resource, c) for c in allowed)):
            continue
        key = canonical_str(e.resource)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


def _witness(eff: Effect, args: dict[str, JSON], state: State) -> Witness:
    return Witness(eff.action, eff.resource, args, tuple((s, v) for s, v, _ in state.bindings))


def disagreement(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool], domain: Domain) -> Witness | None:
    """An effect of the domain matched by exactly one entry, or ``None``."""
    for eff, args, state in _cases((a, b), effects, tools, domain):
        if entry_matches(a, eff, args, state) != entry_matches(b, eff, args, state):
            return _witness(eff, args, state)
    return None


def overlap(a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool], domain: Domain) -> Witness | None:
    """An effect of the domain matched by both entries, or ``None``."""
    for eff, args, state in _cases((a, b), effects, tools, domain):
        if entry_matches(a, eff, args, state) and entry_matches(b, eff, args, state):
            return _witness(eff, args, state)
    return None


def replay_matches(entry: Entry, w: Witness) -> bool:
    """Does ``entry`` match the witness, by the monitor's own matcher?"""
    state = State(bindings=tuple((s, v, 0) for s, v in w.bindings))
    return entry_matches(entry, Effect(w.action, w.resource), w.args, state)
