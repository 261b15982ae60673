"""Whole-monitor DRT inputs with the monitor-language extensions beyond Agenra (docs/monitor.md,
"Extensions beyond Agenra"): ``extended_policies(policy)`` adds pause rules, request sinks and audiences
to a generated policy (``generators.whole_monitor_runs`` extends half of its policies with it).

Choices: rules are drawn so that the extension stage is reached and its rankings are visible (a deny
and a pause on one request-sink argument, a deny or pause rule into each audience sink, empty guards
half the time, a friendlier variant with unlimited grants and no origin or history rule); a sink node
is added when the policy has none, since an audience names a sink.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from hypothesis import strategies as st

from model.base.canonical import JSON
from model.monitor.language import policy as P
from model.monitor.language.labels import Label

T = TypeVar("T")
_BOOL = st.booleans()
_EFFECTS = tuple(P.FlowEffect)


def _coin(draw: st.DrawFn) -> bool:
    # a named draw: inside `xs and draw(...)` mypy would type the draw by the list on the left
    return draw(_BOOL)


@functools.cache
def _below(n: int) -> st.SearchStrategy[int]:
    # (built once per bound: building a strategy inside a draw costs more than drawing from it)
    return st.integers(0, n - 1)


def _pick(draw: st.DrawFn, pool: Sequence[T]) -> T:
    return pool[draw(_below(len(pool)))]


def _shuffled(draw: st.DrawFn, xs: list[T]) -> list[T]:
    """A uniform permutation (Fisher–Yates), as ``st.permutations`` draws without a strategy per list."""
    xs = list(xs)
    for i in range(len(xs) - 1, 0, -1):
        j = draw(_below(i + 1))
        xs[i], xs[j] = xs[j], xs[i]
    return xs


def _subset(draw: st.DrawFn, pool: Sequence[str]) -> frozenset[str]:
    return frozenset(x for x in pool if _coin(draw))


def _maybe(draw: st.DrawFn, pool: Sequence[str]) -> str | None:
    return _pick(draw, pool) if _coin(draw) else None


def _label(draw: st.DrawFn, levels: Sequence[str], cats: Sequence[str]) -> Label:
    return Label(_pick(draw, levels), _subset(draw, cats), _coin(draw))


def _guard(draw: st.DrawFn, levels: Sequence[str], cats: Sequence[str]) -> P.LabelGuard:
    """A guard of a few conditions (each present half the time), or none."""
    return P.LabelGuard(_maybe(draw, levels), _maybe(draw, levels), _subset(draw, cats), _subset(draw, cats),
                        _coin(draw) if _coin(draw) else None)


def _values(policy: P.Policy) -> list[JSON]:
    """Scalars an effect's resource may take: a few fixed ones and the policy's constants."""
    vals: list[JSON] = ["a", 0, 1]
    for e in (*policy.user, *policy.application):
        if isinstance(e.resource, P.ConstPat) and isinstance(e.resource.value, str | int) \
                and not isinstance(e.resource.value, bool):
            vals.append(e.resource.value)
    for t in policy.tools:
        for d in t.effects:
            if isinstance(d.resource, P.ConstRes) and isinstance(d.resource.value, str | int) \
                    and not isinstance(d.resource.value, bool):
                vals.append(d.resource.value)
    return vals


@st.composite
def extended_policies(draw: st.DrawFn, policy: P.Policy) -> P.Policy:
    """The policy with the monitor-language extensions beyond Agenra: some flow rules turned into
    ``pause``, request-sink rules on tools' arguments (or ``*``), and audiences of sink nodes over the
    tools' effect actions with constant, glob, any or slot patterns."""
    levels, cats = list(policy.levels.order), sorted(policy.categories)
    flows = [replace(f, effect=P.FlowEffect.PAUSE) if draw(_below(3)) == 0 else f for f in policy.flows]
    for t in policy.tools:
        if t.args and _coin(draw):
            for _ in range(1 + draw(_below(3))):
                # an empty guard half the time, so that rules of different effects often hold together
                guard = _guard(draw, levels, cats) if _coin(draw) else P.LabelGuard()
                flows.append(P.FlowRule(_pick(draw, _EFFECTS), _pick(draw, ["*", t.operation]), t.name,
                                        guard, _pick(draw, ["*", *sorted(t.args)])))
    with_args = [t for t in policy.tools if t.args]
    if with_args and _coin(draw):  # a deny and a pause on one argument: which one ranks first is visible
        t = _pick(draw, with_args)
        arg = _pick(draw, ["*", *sorted(t.args)])
        flows += [P.FlowRule(P.FlowEffect.DENY, "*", t.name, _guard(draw, levels, cats), arg),
                  P.FlowRule(P.FlowEffect.PAUSE, "*", t.name, P.LabelGuard(), arg)]
    for node in [n.name for n in policy.nodes if _coin(draw)]:  # a pause into a node (or an audience)
        flows.append(P.FlowRule(P.FlowEffect.PAUSE, "*", node, P.LabelGuard() if _coin(draw)
                                else _guard(draw, levels, cats)))
    if _coin(draw):  # an open route to every node, so that the extension stage is reached
        flows.append(P.FlowRule(P.FlowEffect.ALLOW, "*", "*", P.LabelGuard()))
    nodes = list(policy.nodes)
    if not any(n.kind is P.NodeKind.SINK for n in nodes):  # an audience names a sink: add one
        taken = {m.name for m in nodes}
        nodes.append(P.Node(next(f"sink{i}" for i in range(len(nodes) + 1) if f"sink{i}" not in taken),
                            P.NodeKind.SINK, _label(draw, levels, cats)))
    sinks = [n.name for n in nodes if n.kind is P.NodeKind.SINK]
    for node in sinks:  # a rule into the audience that denies or pauses some labels
        flows.append(P.FlowRule(_pick(draw, (P.FlowEffect.DENY, P.FlowEffect.PAUSE)), "*", node,
                                _guard(draw, levels, cats) if _coin(draw) else P.LabelGuard()))
    flows = _shuffled(draw, flows)
    actions = sorted({d.action for t in policy.tools for d in t.effects})
    values = _values(policy)
    slots = [r.slot for r in policy.resolvers]

    def pattern() -> P.ResourcePattern:  # any, a constant, a glob or (when there are slots) a slot, uniformly
        kind = draw(_below(4 if slots else 3))
        if kind == 0:
            return P.AnyRes()
        if kind == 1:
            return P.ConstPat(_pick(draw, values))
        return P.GlobPat(_pick(draw, ["*", "a*", "?"])) if kind == 2 else P.SlotPat(_pick(draw, slots))

    audiences = [P.Audience(_pick(draw, sinks), tuple(
        P.AudienceEffect(_pick(draw, actions), pattern()) for _ in range(1 + draw(_below(2)))))
        for _ in range(draw(_below(3)))] if actions else []
    policy = replace(policy, nodes=tuple(nodes), flows=tuple(flows), audiences=tuple(audiences))
    if _coin(draw):  # friendlier: unlimited grants behind the drawn ones and no origin or history rule, so
        # that more calls reach the extension stage (asked only of calls the paper's cascade admits)
        grants = tuple(P.Entry(P.EntryKind.ALLOW, a, P.AnyRes(), quota=None) for a in actions)
        policy = replace(policy, origins=(), histories=(), user=(*policy.user, *grants),
                         application=(*policy.application, *grants))
    return policy
