"""The compiled monitor: a registered policy compiled once into an indexed form, and ``D(S, c)`` over it
(the decision itself is Agenra Section 6.2 exactly as ``decide.decide_source`` states it).

What compiling does, and why each piece keeps the source decision:

- **entries indexed by action and constant resource.** Per list and action, the allow and the deny
  entries are kept in declaration order; those whose pattern is a constant scalar are also indexed by
  the scalar's *equality key* (``scalar_key``: RFC 8785 equality, so ``1`` and ``1.0`` share a key and
  ``true`` never meets ``1``). The candidates for an effect ``(α, r)`` are the entries of ``α`` that
  are not constants, merged in declaration order with the constants whose key is ``r``'s: exactly the
  entries that can match, in first-fit order. A resource without a key (a non-finite float) falls
  back to every entry of ``α`` with the source matcher, so no value is ever judged differently.
- **constant patterns pre-canonicalized**: keys computed once; globs compiled to one regex each
  (``fnmatch.translate``, the definition ``fnmatchcase`` uses); predicate paths split once.
- **labels and flow pre-resolved**: tool → edge, source label, Struct checks per (tool, agent); flow
  verdicts cached per (operation, destination, label), a finite set for a given policy; so are the
  extensions' verdicts (``flow.extension_flow``) per (tool, output label) when the policy has no audience
  and no request sink, the only parts of them that read the state or the arguments.
- **allocation reuses the matching**: the allow entries that matched each effect (computed for the
  Deny/Pause cases) are the entries first-fit scans, in the same order, at the same state.

This module also holds the matchers (the equality key of a JSON scalar, a permission entry with its
pattern and predicates pre-resolved, the per-action index; each decides exactly what
``matching.entry_matches`` decides for the entries the index hands it); the decision over the compiled
form is ``compiled_decide.py``.
``decide`` keeps its signature and is the one every caller uses; ``decide.decide_source`` is the
literal transcription kept for ``explain``, the differential test (tests/property/test_monitor_compiled.py:
decisions, reasons, details and state updates equal on generated policies and runs) and the baseline of
``experiments/monitor_overhead.py``. The compiled form is cached per policy *object* (a weak reference,
so a policy that dies takes its compiled form with it); policies are frozen, so it never goes stale.
"""

from __future__ import annotations

import fnmatch
import math
import re
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from model.base.canonical import JSON, canonical_str, json_equal
from model.monitor.decide.flow import combine, uses_extensions
from model.monitor.decide.matching import Effect
from model.monitor.decide.verdict import DenyReason, Verdict, deny_verdict
from model.monitor.language.labels import Inherit, Label
from model.monitor.language.policy import (
    AnyRes,
    ArgPredicate,
    ConstPat,
    ConstRes,
    Entry,
    EntryKind,
    EqPred,
    FlowEffect,
    GlobPat,
    OneOfPred,
    OriginRule,
    Policy,
    RangePred,
    Resolver,
    SlotPat,
    Tool,
)


class Slots(Protocol):
    """What matching reads of a state: a ``State``, or the Adapter's live ``session.Session``."""

    @property
    def invalid(self) -> frozenset[str]: ...
    @property
    def bindings(self) -> tuple[tuple[str, JSON, int], ...]: ...

_SAFE = 2**53 - 1
NOKEY = object()  # the value has no equality key: use the source matcher
_TRUE, _FALSE, _NULL = object(), object(), object()  # keys of true, false, null, distinct from 1, 0, ...


def scalar_key(v: JSON) -> object:
    """A hashable key with ``scalar_key(a) == scalar_key(b)`` iff ``json_equal(a, b)`` for JSON scalars
    (``NOKEY`` for anything else: containers, non-finite or out-of-range numbers)."""
    t = type(v)
    if t is str:
        return v
    if t is bool:
        return _TRUE if v else _FALSE
    if v is None:
        return _NULL
    if (t is int and -_SAFE <= v <= _SAFE) or (t is float and math.isfinite(v) and abs(v) <= _SAFE):
        return v  # Python's 1 == 1.0 (and equal hashes) is RFC 8785 number equality in the safe range
    return NOKEY


_ANY, _CONST, SLOT, _GLOB, _CONSTX = range(5)
_MISSING = object()


class _Pred:
    __slots__ = ("first", "high", "keys", "kind", "low", "rest", "value", "values")

    def __init__(self, p: ArgPredicate) -> None:
        self.first = p.path[0] if p.path else None
        self.rest = p.path[1:]
        self.kind = 0 if isinstance(p, EqPred) else 1 if isinstance(p, OneOfPred) else 2
        self.value: JSON = p.value if isinstance(p, EqPred) else None
        self.values: tuple[JSON, ...] = p.values if isinstance(p, OneOfPred) else ()
        keys = [scalar_key(v) for v in self.values]
        self.keys = None if any(k is NOKEY for k in keys) else frozenset(keys)
        self.low = p.low if isinstance(p, RangePred) else None
        self.high = p.high if isinstance(p, RangePred) else None

    def holds(self, args: Mapping[str, JSON]) -> bool:
        if self.first is None:
            v: Any = dict(args)
        elif self.first in args:
            v = args[self.first]
        else:
            return False
        for step in self.rest:
            if not isinstance(v, dict) or step not in v:
                return False
            v = v[step]
        if self.kind == 0:
            return json_equal(v, self.value)
        if self.kind == 1:
            if self.keys is not None:
                k = scalar_key(v)
                if k is not NOKEY:
                    return k in self.keys
            return any(json_equal(v, c) for c in self.values)
        if not isinstance(v, int | float) or isinstance(v, bool):
            return False
        return (self.low is None or self.low <= v) and (self.high is None or v <= self.high)


class CompiledEntry:
    """One permission entry with its pattern pre-resolved; ``pos`` is its first-fit position."""

    __slots__ = ("allow", "glob", "keys", "pos", "preds", "quota", "requires", "res", "slot", "value")

    def __init__(self, pos: int, e: Entry) -> None:
        self.pos = pos
        self.allow = e.kind is EntryKind.ALLOW
        self.keys = e.keys
        self.preds = tuple(_Pred(p) for p in e.where)
        self.quota = e.quota
        self.requires = e.requires
        r = e.resource
        self.value: JSON = None
        self.slot = ""
        self.glob: Callable[[str], object] | None = None
        if isinstance(r, AnyRes):
            self.res = _ANY
        elif isinstance(r, ConstPat):
            self.value = r.value
            self.res = _CONST if scalar_key(r.value) is not NOKEY else _CONSTX
        elif isinstance(r, SlotPat):
            self.res, self.slot = SLOT, r.slot
        else:
            assert isinstance(r, GlobPat)
            self.res, self.glob = _GLOB, re.compile(fnmatch.translate(r.glob)).match

    def matches(self, resource: JSON, indexed: bool, args: Mapping[str, JSON], state: Slots) -> bool:
        """The matching predicate; ``indexed``: the index already established a constant's equality."""
        res = self.res
        if res == SLOT:
            if self.slot in state.invalid:
                return False
            for s, v, _ in state.bindings:
                if s == self.slot:
                    if type(v) is str and type(resource) is str:  # json_equal's own first case, inlined
                        if v != resource:
                            return False
                    elif not json_equal(v, resource):
                        return False
                    break
            else:
                return False
        elif res == _GLOB:
            assert self.glob is not None
            if not isinstance(resource, str) or self.glob(resource) is None:
                return False
        elif res == _CONSTX or (res == _CONST and not indexed):
            if not json_equal(self.value, resource):
                return False
        if self.keys is not None and not self.keys.issuperset(args):
            return False
        if self.preds:
            for p in self.preds:
                if not p.holds(args):
                    return False
        return True


class Action:
    """The entries of one action on one list: allows and denies, each by constant key and in order."""

    __slots__ = ("allow_all", "allow_by", "allow_other", "deny_all", "deny_by", "deny_other", "slot_allows")

    def __init__(self, entries: list[CompiledEntry]) -> None:
        self.allow_all = tuple(e for e in entries if e.allow)
        self.deny_all = tuple(e for e in entries if not e.allow)
        self.allow_other, self.allow_by = _index(self.allow_all)
        self.deny_other, self.deny_by = _index(self.deny_all)
        self.slot_allows = tuple(e for e in self.allow_all if e.res == SLOT)


def _index(entries: tuple[CompiledEntry, ...]
           ) -> tuple[tuple[CompiledEntry, ...], dict[object, tuple[CompiledEntry, ...]]]:
    other = tuple(e for e in entries if e.res != _CONST)
    by: dict[object, list[CompiledEntry]] = {}
    for e in entries:
        if e.res == _CONST:
            by.setdefault(scalar_key(e.value), []).append(e)
    merged = {k: tuple(sorted((*v, *other), key=lambda e: e.pos)) for k, v in by.items()}
    return other, merged


class _Side:
    __slots__ = ("actions", "name", "permit", "quotas", "size")

    def __init__(self, name: str, entries: tuple[Entry, ...]) -> None:
        self.name = name
        self.size = len(entries)
        self.permit = tuple(e.permit for e in entries)
        self.quotas = tuple(e.quota for e in entries)
        grouped: dict[str, list[CompiledEntry]] = {}
        for k, e in enumerate(entries):
            grouped.setdefault(e.action, []).append(CompiledEntry(k, e))
        self.actions = {a: Action(es) for a, es in grouped.items()}


class CompiledTool:
    """A tool's static facts: its declaration, constant effects, source label, edge, origin rules."""

    __slots__ = ("args", "const_effects", "decl", "edge", "origins", "required", "source_label", "struct")

    def __init__(self, policy: Policy, tool: Tool) -> None:
        self.decl = tool
        self.args = tool.args
        self.required = tool.required
        consts = [Effect(d.action, d.resource.value) for d in tool.effects if isinstance(d.resource, ConstRes)]
        self.const_effects = tuple(consts) if len(consts) == len(tool.effects) else None
        node = policy.node(tool.source)
        self.source_label = node.label if node is not None else policy.levels.bottom()
        self.edge = policy.edge(tool.operation)
        self.origins: tuple[OriginRule, ...] = tuple(r for r in policy.origins
                                                     if r.via in (tool.name, tool.operation))
        self.struct: dict[str, tuple[Verdict | None, int | None]] = {}


class Compiled:
    """The indexed form of one policy (built by ``compiled``; never mutated except its memo tables)."""

    def __init__(self, policy: Policy) -> None:
        # a weak reference: ``compiled``'s cache drops this object when the policy is collected, which a
        # strong one would prevent, so every policy ever compiled stayed alive (the DRT compiles one per
        # generated run: 2 GB after 10^5 runs)
        self._policy = weakref.ref(policy)
        self.rank = {lvl: i for i, lvl in enumerate(policy.levels.order)}
        self.tools = {t.name: CompiledTool(policy, t) for t in policy.tools}
        self.agents = {a.name: a for a in policy.agents}
        self.sides = (_Side("user", policy.user), _Side("application", policy.application))
        self.deny_sides = tuple(s for s in self.sides if any(a.deny_all for a in s.actions.values()))
        self.permits = any(any(s.permit) for s in self.sides)  # some grant requires an exact-call permit
        self.extended = uses_extensions(policy)  # pause, request or audience sinks (flow.extension_flow)
        # without audience and request sinks the extensions' verdict reads only the tool and the output label
        # (``flow.extension_flow``: one rule set into the tool's destination), so it is kept per both
        self.label_only_extensions = not policy.audiences and all(f.argument is None for f in policy.flows)
        self.extension_memo: dict[tuple[str, str, frozenset[str], bool], tuple[FlowEffect, str]] = {}
        # resolvers by tool, each with the canonical text of its exact arguments (compared with a
        # record's canonical ``args_json``: equal texts are equal JSON values)
        self.resolvers: dict[str, list[tuple[Resolver, str]]] = {}
        for r in policy.resolvers:
            self.resolvers.setdefault(r.tool, []).append((r, canonical_str(dict(r.args))))
        self._flow: dict[tuple[str, str, str, frozenset[str], bool], bool] = {}
        self._pause: dict[tuple[str, str, str, frozenset[str], bool], bool] = {}
        # the Adapter's call plans (``plan.Plan`` or None; plan.py imports this module), by (tool, agent)
        self.plans: dict[tuple[str, str], Any] = {}


    @property
    def policy(self) -> Policy:
        """The policy compiled (alive while a caller holds it, as every caller of ``compiled`` does)."""
        p = self._policy()
        if p is None:
            raise ReferenceError("the compiled form outlived its policy")
        return p

    def is_for(self, policy: Policy) -> bool:
        """Whether this is the compiled form of ``policy`` (False once its own policy was collected)."""
        return self._policy() is policy

    def struct(self, ct: CompiledTool, agent_name: str) -> tuple[Verdict | None, int | None]:
        """The first label-independent Struct failure of (tool, agent) and the agent's ceiling rank."""
        hit = ct.struct.get(agent_name)
        if hit is not None:
            return hit
        tool, agent, edge = ct.decl, self.agents.get(agent_name), ct.edge
        fail: Verdict | None = None
        if agent is None:
            fail = deny_verdict(DenyReason.UNKNOWN_AGENT, f"no agent {agent_name!r}")
        elif tool.operation not in agent.operations:
            fail = deny_verdict(DenyReason.OPERATION_NOT_PERMITTED, f"{agent.name} may not perform {tool.operation}")
        elif edge is None or (tool.source, tool.destination) not in edge.endpoints:
            fail = deny_verdict(DenyReason.ENDPOINT,
                         f"{tool.source} -> {tool.destination} is not an endpoint of {tool.operation}")
        out = (fail, None if agent is None else self.rank[agent.ceiling])
        if len(ct.struct) < 64:  # agent names come from calls: keep the memo bounded
            ct.struct[agent_name] = out
        return out

    def flow_allows(self, operation: str, destination: str, label: Label) -> bool:
        # keyed by the label's fields: strings and a frozenset hash in C (a Label's hash runs Python code)
        key = (operation, destination, label.sensitivity, label.categories, label.trusted)
        hit = self._flow.get(key)
        if hit is not None:
            return hit
        allowed = False
        levels = self.policy.levels
        for rule in self.policy.flows:
            if rule.argument is not None:  # a request sink: not about the output label (flow.flow_allows)
                continue
            if rule.operation not in ("*", operation) or rule.destination not in ("*", destination):
                continue
            if not rule.guard.holds(levels, label):
                continue
            if rule.effect is FlowEffect.DENY:
                allowed = False
                break
            allowed = True
        self._flow[key] = allowed
        return allowed

    def destination_pauses(self, operation: str, destination: str, label: Label) -> bool:
        """Whether the flow rules into a tool's own destination ask a reviewer to approve ``label``: the
        first check of ``flow.extension_flow``, which then answers Pause or Deny whatever the audience and
        request sinks give (kept per operation, destination and label, as ``flow_allows``)."""
        key = (operation, destination, label.sensitivity, label.categories, label.trusted)
        hit = self._pause.get(key)
        if hit is None:
            policy = self.policy
            rules = [r for r in policy.flows if r.argument is None and r.operation in ("*", operation)
                     and r.destination in ("*", destination)]
            hit = self._pause[key] = combine(policy, rules, label) is FlowEffect.PAUSE
        return hit

    def join(self, labels: list[Label]) -> Label:
        rank = self.rank
        sens, cats, trusted = self.policy.levels.order[0], frozenset[str](), True
        for lab in labels:
            if rank[lab.sensitivity] > rank[sens]:
                sens = lab.sensitivity
            cats = cats | lab.categories
            trusted = trusted and lab.trusted
        return Label(sens, cats, trusted)

    def propagate(self, ct: CompiledTool, label: Label) -> Label:
        edge = ct.edge
        if edge is None or isinstance(edge.propagation, Inherit):
            return label
        rule = edge.propagation
        order = self.policy.levels.order
        sens = order[max(0, self.rank[label.sensitivity] - rule.decrement)]
        if rule.set_sensitivity is not None:
            sens = rule.set_sensitivity
        trusted = label.trusted if rule.set_trusted is None else rule.set_trusted
        return Label(sens, label.categories - rule.remove, trusted)


_CACHE: dict[int, tuple[weakref.ref[Policy], Compiled]] = {}


def compiled(policy: Policy) -> Compiled:
    """The compiled form of ``policy``, built on first use and kept while the policy lives."""
    key = id(policy)
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is policy:
        return hit[1]
    c = Compiled(policy)
    cache = _CACHE  # bound now: at interpreter exit the module global may already be gone

    def forget(_ref: weakref.ref[Policy]) -> None:
        cache.pop(key, None)

    _CACHE[key] = (weakref.ref(policy, forget), c)
    return c
