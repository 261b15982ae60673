"""Flow rules ``V(S, σ)`` and history rules ``H(S, σ)`` (Agenra Section 4.3).

Flow: a rule matches when its operation and destination patterns match the proposed record and
its guard holds on ``ℓ_out``. A matching deny wins; otherwise some allow must match (default
deny for every destination — our choice, the fail-closed reading of "no matching allow means
denial").

History: for a rule ``{scope, after: A, require: R, before: S}`` and a proposed ``S`` call, every
``A`` in scope must be followed (strictly later in the trace) by an ``R`` in scope. ``lineage`` is
the proposed call's transitive parents; ``session`` is every admitted attempt. Both include the
proposed call (Section 4.3): it may close an interval (when ``S`` is also an ``R``) but does not
open one. Operations are matched
by tool or operation name, as for origins. Failed attempts are admitted attempts and count in
``session``; they never appear in a lineage because only successful results have handles.

Extensions beyond Agenra (``docs/monitor.md``): ``extension_flow`` is asked of a call the paper's cascade
admits, after first-fit and before the exact-call permit, so a policy without extensions decides as the
paper's monitor and a reviewer is never asked to approve a call the monitor would deny anyway.
- *Pause*: ``flow pause`` rules rank between deny and allow (deny > pause > allow > default deny). A
  paused call is admitted only with an unused exact-call permit binding it (the reviewer's approval of
  the values shown, ``model.monitor.decide.flow_review``); one permit is consumed per call, as for grants.
  A deny rule, or no matching rule, is never overridden by a permit.
- *Audience*: a call whose effect matches an ``audience NODE`` pattern also sends its output label to
  sink ``NODE``, checked by the flow rules into ``NODE`` (default deny), as an outbound flow.
- *Request sink*: ``flow ... -> TOOL(ARG)`` rules guard the input label of argument ``ARG`` of ``TOOL``
  (the join of the labels of the results the argument names; a literal has the bottom label). An
  argument named by some request rule is a sink: default deny, as for nodes. An absent argument
  carries nothing and is not checked.
"""

from __future__ import annotations

from collections.abc import Iterable

from model.monitor.decide.matching import Effect, resource_matches
from model.monitor.decide.state import Call, Record, State
from model.monitor.language.labels import Label
from model.monitor.language.policy import FlowEffect, FlowRule, HistoryRule, HistoryScope, Policy, Tool

# What a call paused by a flow rule waits for: a reviewer's exact-call approval. Not a name, so it never
# meets a declared requirement.
FLOW_APPROVAL = "flow approval"


def flow_allows(policy: Policy, operation: str, destination: str, label: Label) -> bool:
    """``V`` of Section 4.3 (case 5): a matching deny wins, else some matching allow is needed. A ``pause``
    rule counts as an allow here: its Pause is asked after every other check (``extension_flow``);
    request-sink rules are not about the output label and are skipped."""
    allowed = False
    for rule in policy.flows:
        if rule.argument is not None:
            continue
        if rule.operation not in ("*", operation) or rule.destination not in ("*", destination):
            continue
        if not rule.guard.holds(policy.levels, label):
            continue
        if rule.effect is FlowEffect.DENY:
            return False
        allowed = True
    return allowed


def uses_extensions(policy: Policy) -> bool:
    """Whether the policy uses a monitor-language extension beyond Agenra (pause, request sink, audience)."""
    return bool(policy.audiences) or any(f.effect is FlowEffect.PAUSE or f.argument is not None
                                         for f in policy.flows)


def combine(policy: Policy, rules: Iterable[FlowRule], label: Label) -> FlowEffect | None:
    """The rules' verdict on ``label``: a matching deny wins, then a matching pause, then a matching allow;
    ``None`` when none matches (default deny)."""
    seen: set[FlowEffect] = set()
    for rule in rules:
        if rule.guard.holds(policy.levels, label):
            seen.add(rule.effect)
    for effect in (FlowEffect.DENY, FlowEffect.PAUSE, FlowEffect.ALLOW):
        if effect in seen:
            return effect
    return None


def _into(policy: Policy, operation: str, destination: str) -> list[FlowRule]:
    return [r for r in policy.flows if r.argument is None and r.operation in ("*", operation)
            and r.destination in ("*", destination)]


def argument_label(policy: Policy, state: State, call: Call, name: str) -> Label:
    """The input label of one argument: the join of the labels of the results it names (a literal names
    none and has the bottom label: the value was given, not read)."""
    return policy.levels.join_all(state.trace[d].label for n, d in call.refs if n == name)


def audiences_of(policy: Policy, state: State, effects: tuple[Effect, ...]) -> tuple[str, ...]:
    """The audience sinks the call's effects reach, in declaration order, each once."""
    out: list[str] = []
    for a in policy.audiences:
        if a.node not in out and any(p.action == e.action and resource_matches(p.resource, e.resource, state)
                                     for p in a.effects for e in effects):
            out.append(a.node)
    return tuple(out)


def extension_flow(policy: Policy, state: State, call: Call, tool: Tool, effects: tuple[Effect, ...],
                   label: Label) -> tuple[FlowEffect, str]:
    """The extensions' verdict on a call the paper's cascade admits (before its permit check): DENY with the
    first failing sink, else PAUSE when some rule asks for review, else ALLOW. Checked in order: the
    output label into the tool's destination (only a ``pause`` can still apply), into each audience sink,
    then each request-sink argument's input label (arguments by name)."""
    paused: list[str] = []
    if combine(policy, _into(policy, tool.operation, tool.destination), label) is FlowEffect.PAUSE:
        paused.append(tool.destination)
    for node in audiences_of(policy, state, effects):
        got = combine(policy, _into(policy, tool.operation, node), label)
        if got is None or got is FlowEffect.DENY:
            return FlowEffect.DENY, f"no flow rule lets {label.sensitivity} data reach the audience {node}"
        if got is FlowEffect.PAUSE:
            paused.append(node)
    for name in sorted(call.args):
        rules = [r for r in policy.flows if r.argument in ("*", name) and r.destination == tool.name
                 and r.operation in ("*", tool.operation)]
        if not rules:
            continue
        arg_label = argument_label(policy, state, call, name)
        got = combine(policy, rules, arg_label)
        if got is None or got is FlowEffect.DENY:
            return FlowEffect.DENY, (f"no flow rule lets {arg_label.sensitivity} data reach the request sink "
                                     f"{tool.name}({name})")
        if got is FlowEffect.PAUSE:
            paused.append(f"{tool.name}({name})")
    if paused:
        return FlowEffect.PAUSE, "a flow rule asks a reviewer to approve the flow into " + ", ".join(paused)
    return FlowEffect.ALLOW, ""


def lineage(state: State, parents: tuple[int, ...]) -> tuple[Record, ...]:
    seen: set[int] = set()
    stack = list(parents)
    while stack:
        d = stack.pop()
        if d in seen:
            continue
        seen.add(d)
        rec = state.record(d)
        if rec is not None:
            stack.extend(rec.parents)
    return tuple(state.trace[d] for d in sorted(seen) if state.record(d) is not None)


def _is(rec: Record, name: str) -> bool:
    return rec.tool == name or rec.operation == name


def history_violations(policy: Policy, state: State, proposed: Record) -> tuple[str, ...]:
    bad: list[str] = []
    for rule in policy.histories:
        if not _is(proposed, rule.before):
            continue
        scope = lineage(state, proposed.parents) if rule.scope is HistoryScope.LINEAGE else state.trace
        if not _satisfied(rule, scope, proposed):
            bad.append(rule.name)
    return tuple(bad)


def _satisfied(rule: HistoryRule, scope: tuple[Record, ...], proposed: Record) -> bool:
    pending = False  # an `after` not yet followed by a `require`
    for rec in scope:
        if _is(rec, rule.require):
            pending = False
        elif _is(rec, rule.after):
            pending = True
    # The proposed call is in scope but can only close an interval, never open one that it must
    # then close itself (otherwise `after: Send, before: Send` would forbid every send).
    return not pending or _is(proposed, rule.require)
