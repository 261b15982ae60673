"""Opening chains of the whole-monitor DRT's runs (``generators.whole_monitor_runs``): calls built for a
rule that random calls seldom line up (origin and history rules: :func:`rule_chains`; request sinks that
tell an argument's own inputs from the call's: :func:`argument_sources`), on a friendly policy (agent
``drt``), extended where the rule needs it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from model.base.canonical import JSON
from model.monitor.language import policy as P
from model.monitor.language.labels import Inherit, Label
from model.oracle.draws import (
    BOOL,
    POLICY_NAMES,
    below,
    coin,
    count,
    pick,
    policy_values,
    shuffled,
    subset,
    unique_names,
)

SCOPES = tuple(P.HistoryScope)


def list_arg(tool: P.Tool, name: str) -> bool:
    return any(isinstance(d.resource, P.ListArgRes) and d.resource.arg == name for d in tool.effects)


def handle_args(tool: P.Tool) -> list[str]:
    return [a for a in sorted(tool.args) if not list_arg(tool, a)]


@st.composite
def rule_chains(draw: st.DrawFn, policy: P.Policy) -> tuple[P.Policy, list[tuple[Any, ...]]]:
    """A friendly policy and the opening calls of a run (agent ``drt``, successful, each with its own
    exact-call permit) built for an origin or a history rule, adding one such rule when there is none.

    Random calls seldom line these up: an origin chain is producer → middle (handle to the producer's
    result) → ``via`` (handle to the middle's), the middle sometimes listed in ``preserving`` and
    sometimes not; a history chain is an ``after`` call then a ``before`` call, the second sometimes
    holding a handle to the first (same lineage) and sometimes not (same session only). Handles assume
    every chain call is admitted (trace positions 0, 1, ...); when one is not, the run still checks
    the refusal."""
    from dataclasses import replace

    from model.monitor.decide.commit import Outcome
    from model.monitor.decide.state import Call

    # Unlimited grants behind the drawn ones, and (half the time) no flow denies, so that the chain's
    # calls are mostly admitted and its last call reaches the rule it was built for.
    grants = tuple(P.Entry(P.EntryKind.ALLOW, a, P.AnyRes())
                   for a in sorted({d.action for t in policy.tools for d in t.effects}))
    flows = policy.flows if draw(BOOL) else tuple(f for f in policy.flows if f.effect is P.FlowEffect.ALLOW)
    policy = replace(policy, flows=flows, user=(*policy.user, *grants), application=(*policy.application, *grants))
    # strings, so that an argument naming a resource is well formed
    strings: list[JSON] = sorted({v for v in policy_values(policy) if isinstance(v, str)} | {"a", "b"})
    tools = list(policy.tools)

    def named(name: str) -> list[P.Tool]:
        return [t for t in tools if name in (t.name, t.operation)]

    def call(tool: P.Tool, refs: tuple[tuple[str, int], ...] = ()) -> tuple[Any, ...]:
        args: dict[str, JSON] = {n: [pick(draw, strings) for _ in range(count(draw, 1, 2))]
                                 if list_arg(tool, n) else pick(draw, strings) for n in sorted(tool.args)}
        c = Call("drt", tool.name, args, refs)
        result: JSON = pick(draw, strings) if coin(draw) else \
            {k: pick(draw, strings) for k in unique_names(draw, 0, 2)}
        return (c, Outcome(True, result), ((tool.name, c),))

    def fresh(taken: set[str]) -> str:
        return pick(draw, [n for n in POLICY_NAMES if n not in taken])

    holders = [t for t in tools if handle_args(t)]
    if draw(BOOL) and holders:  # origin chain
        if not policy.origins:
            via = pick(draw, holders)
            rule = P.OriginRule(fresh(set()), via.name, pick(draw, handle_args(via)), pick(draw, tools).name,
                                subset(draw, sorted(t.name for t in tools), 2))
            policy = replace(policy, origins=(rule,))
        i = draw(below(len(policy.origins)))
        rule = policy.origins[i]
        vias = [t for t in named(rule.via) if rule.argument in handle_args(t)]
        # The producer and the middle must themselves be admitted for the chain to reach `via`: neither
        # may be a `via` of the rule (it would need a handle it lacks), and the middle must not be a
        # producer (the walk would stop there, before `preserving` is read). Other origin rules are
        # dropped for the same reason; runs without a chain keep policies with several rules.
        unguarded = [t for t in tools if rule.via not in (t.name, t.operation)]
        producers = [t for t in named(rule.producer) if t in unguarded]
        mids = [t for t in holders if t in unguarded and rule.producer not in (t.name, t.operation)]
        if not vias or not producers or not mids:
            return policy, []
        mid = pick(draw, mids)
        if draw(BOOL):  # the middle preserves, or (drawn as often) is not listed
            rule = replace(rule, preserving=rule.preserving | {mid.name})
        else:
            rule = replace(rule, preserving=rule.preserving - {mid.name, mid.operation})
        policy = replace(policy, origins=(rule,))
        return policy, [call(pick(draw, producers)), call(mid, ((pick(draw, handle_args(mid)), 0),)),
                        call(pick(draw, vias), ((rule.argument, 1),))]
    if not policy.histories:
        names = sorted(t.name for t in tools)
        policy = replace(policy, histories=(P.HistoryRule(fresh(set()), P.HistoryScope.SESSION, pick(draw, names),
                                                          pick(draw, names), pick(draw, names)),))
    i = draw(below(len(policy.histories)))
    hrule = replace(policy.histories[i], scope=pick(draw, SCOPES))
    policy = replace(policy, histories=(*policy.histories[:i], hrule, *policy.histories[i + 1:]))
    afters, befores = named(hrule.after), named(hrule.before)
    if not afters or not befores:
        return policy, []
    before = pick(draw, befores)
    linked = bool(handle_args(before)) and coin(draw)
    return policy, [call(pick(draw, afters)),
                    call(before, ((pick(draw, handle_args(before)), 0),) if linked else ())]


def argument_sources(draw: st.DrawFn, policy: P.Policy) -> tuple[P.Policy, list[tuple[Any, ...]]]:
    """A friendly policy extended so that a call's arguments come from sources of different labels, and
    the opening calls of a run (agent ``drt``) that read from them and pass what they read on.

    Added: a high source (the top level, a category when the policy has one, untrusted) and a low one
    (the bottom level, no category, trusted), a reader tool from each into a memory node, and a tool
    ``DrtPut`` from there into a new sink with arguments ``a`` and ``b``, guarded by request-sink rules
    on one argument (or ``*``) whose guards let the low label through and not the high one (by
    sensitivity, trust or category), the other argument sometimes under a rule with an empty guard.
    The run reads from both sources (trace positions 0 and 1, assuming both reads are admitted), then
    calls ``DrtPut`` once or twice, each argument a handle to one read, to the other, or a literal: an
    argument's input label is the join of its own handles' labels only, so labelling it from all of
    the call's handles changes the verdict."""
    from dataclasses import replace

    from model.monitor.decide.commit import Outcome
    from model.monitor.decide.state import Call

    levels = list(policy.levels.order)
    cats = sorted(policy.categories)
    hi = Label(levels[-1], frozenset(cats[:1]) if cats and coin(draw) else frozenset(), False)
    lo = Label(levels[0], frozenset(), True)
    nodes = (*policy.nodes, P.Node("drt_hi", P.NodeKind.SOURCE, hi), P.Node("drt_lo", P.NodeKind.SOURCE, lo),
             P.Node("drt_mem", P.NodeKind.MEMORY, lo), P.Node("drt_out", P.NodeKind.SINK, lo))
    edges = (*policy.edges, P.Edge("drt_read_hi", (("drt_hi", "drt_mem"),), Inherit()),
             P.Edge("drt_read_lo", (("drt_lo", "drt_mem"),), Inherit()),
             P.Edge("drt_put", (("drt_mem", "drt_out"),), Inherit()))
    read = P.EffectDecl("record.read", P.ConstRes("a"))
    tools = (*policy.tools,
             P.Tool("DrtReadHi", "drt_read_hi", "drt_hi", "drt_mem", frozenset(), frozenset(), (read,)),
             P.Tool("DrtReadLo", "drt_read_lo", "drt_lo", "drt_mem", frozenset(), frozenset(), (read,)),
             P.Tool("DrtPut", "drt_put", "drt_mem", "drt_out", frozenset({"a", "b"}), frozenset(),
                    (P.EffectDecl("message.send", P.ConstRes("a")),)))
    # guards that hold for the low label and not for the high one
    tells = [P.LabelGuard(trusted=True)]
    if len(levels) > 1:
        tells.append(P.LabelGuard(max_sensitivity=levels[0]))
    if hi.categories:
        tells.append(P.LabelGuard(no_category=hi.categories))
    guarded = pick(draw, ["a", "b", "b", "*"])
    sinks = [P.FlowRule(P.FlowEffect.ALLOW, "*", "DrtPut", pick(draw, tells), guarded)]
    if guarded != "*" and coin(draw):  # the other argument a sink too, open to every label
        sinks.append(P.FlowRule(P.FlowEffect.ALLOW, "*", "DrtPut", P.LabelGuard(), "b" if guarded == "a" else "a"))
    if coin(draw):  # a pause for the high label as well, so that a wrong label pauses rather than denies
        sinks.append(P.FlowRule(P.FlowEffect.PAUSE, "*", "DrtPut", P.LabelGuard(trusted=False), guarded))
    # as for the rule chains: no flow denies half the time, and unlimited grants for the new actions
    flows = policy.flows if coin(draw) else tuple(f for f in policy.flows if f.effect is not P.FlowEffect.DENY)
    grants = (P.Entry(P.EntryKind.ALLOW, "record.read", P.AnyRes()), P.Entry(P.EntryKind.ALLOW, "message.send",
                                                                               P.AnyRes()))
    agents = tuple(replace(a, operations=a.operations | {"drt_read_hi", "drt_read_lo", "drt_put"})
                   if a.name == "drt" else a for a in policy.agents)
    policy = replace(policy, nodes=nodes, edges=edges, tools=tools, agents=agents,
                     flows=(*shuffled(draw, [*flows, *sinks]),),
                     user=(*policy.user, *grants), application=(*policy.application, *grants))

    def call(tool: str, args: dict[str, JSON], refs: tuple[tuple[str, int], ...]) -> tuple[Any, ...]:
        c = Call("drt", tool, args, refs)
        return c, Outcome(True, pick(draw, ["a", "b", 1])), ((tool, c),)

    out = [call("DrtReadHi", {}, ()), call("DrtReadLo", {}, ())]
    if coin(draw):
        out.reverse()  # (the high read at position 1, the low one at 0)
    for _ in range(count(draw, 1, 2)):
        refs = tuple((name, d) for name in ("a", "b") for d in (draw(below(3)),) if d < 2)
        out.append(call("DrtPut", {"a": pick(draw, ["a", "b"]), "b": pick(draw, ["a", "b"])}, refs))
    return policy, out
