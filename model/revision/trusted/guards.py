"""The checker's step for revisions that change argument origins or flow rules (Agenra Sections 4.3, 4.4 and
7.1): the new guards admit every call the old ones admit, so the old policy is simulated, state for state,
by the old permission lists under the new guards (``relaxed``), whose own certificate is checked as any other.

Why a weaker guard keeps every client: origin (``O``) and flow (``V``) rules only refuse; they change no
state (a record's label comes from its parents or source node and its edge, never from a rule). If every call
the old rules let through is let through by the new ones, a call the old policy admits is admitted by the
old lists under the new rules from the same state, with the same record, labels and counters; so the identity
relates the two monitors, and a certificate for the lists under the new rules completes the proof.

``check_guards(old, relaxed)`` re-decides, from the two policies alone:
- everything but the permission lists, the origin rules and the flow rules is the same (as JSON);
- origins: every new rule is implied by an old rule with the same ``via``, ``argument`` and ``producer``
  whose ``preserving`` set is contained in the new one's (the monitor's ``produced_by`` walks a chain only
  through preserving operations, so a larger set accepts every chain a smaller one does). A rule dropped is
  weaker; a new rule or a changed ``via``/``producer`` is not implied;
- flows: for every tool and every label its output can carry, if the old rules allow it, the new ones do
  (``flow_allows``, the monitor's own). The labels are every label a record can carry: the closure of the
  source nodes' labels under the edges' propagation and joins of parents (``labels``), an over-approximation
  of the labels of reachable records, so the check covers every admitted label path.
A failure names the rule or the tool and label (a place where the new rules refuse what the old let through;
whether a client reaches it is the bounded search's question).
"""

from __future__ import annotations

from dataclasses import replace

from model.monitor.decide.flow import flow_allows, uses_extensions
from model.monitor.language.labels import Label, propagate
from model.monitor.language.policy import Policy
from model.revision.certify.check_verdict import CheckVerdict, Invalid, Valid
from model.revision.identity import monitor_key, same_entries


def relaxed(old: Policy, new: Policy) -> Policy | None:
    """The old permission lists under the new origin and flow rules, when the revision changes those rules and
    nothing else outside the lists; else ``None``."""
    if (old.origins, old.flows) == (new.origins, new.flows):
        return None
    mid = replace(old, origins=new.origins, flows=new.flows)
    return mid if monitor_key(mid) == monitor_key(new) else None


def _weakened(old: Policy, new: Policy) -> str | None:
    for rule in new.origins:
        if not any((o.via, o.argument, o.producer) == (rule.via, rule.argument, rule.producer)
                   and o.preserving <= rule.preserving for o in old.origins):
            return f"origin rule {rule.name} is not implied by an old rule"
    return None


def labels(policy: Policy) -> dict[str, frozenset[Label]]:
    """Per tool, every label its output can carry: from the source node's label or from a join of labels
    records can carry, propagated over the tool's edge, to a fixpoint (a finite lattice)."""
    levels = policy.levels
    edges = {e.name: e for e in policy.edges}
    carried: set[Label] = set()
    out: dict[str, set[Label]] = {t.name: set() for t in policy.tools}
    while True:
        joins = set(carried)
        grew = True
        while grew:
            grew = False
            for a in list(joins):
                for b in list(joins):
                    j = levels.join(a, b)
                    if j not in joins:
                        joins.add(j)
                        grew = True
        size = len(carried)
        for t in policy.tools:
            node = policy.node(t.source)
            inputs = {node.label if node is not None else levels.bottom(), *joins}
            edge = edges.get(t.operation)
            for x in inputs:
                y = propagate(levels, edge.propagation, x) if edge is not None else x
                out[t.name].add(y)
                carried.add(y)
        if len(carried) == size:
            return {k: frozenset(v) for k, v in out.items()}


def check_guards(old: Policy, mid: Policy) -> CheckVerdict:
    """Does ``mid`` (the old lists under the new rules) admit every call ``old`` admits, from every state?"""
    if not same_entries(old.user, mid.user) or not same_entries(old.application, mid.application) or \
            monitor_key(replace(old, origins=mid.origins, flows=mid.flows)) != monitor_key(mid):
        return Invalid("guards: the revision changes more than the lists, origins and flows")
    if uses_extensions(old) or uses_extensions(mid):  # a pause or a sink that flow_allows does not read
        return Invalid("guards: flow pause, request or audience sinks (extensions beyond Agenra) are not compared")
    why = _weakened(old, mid)
    if why is not None:
        return Invalid(f"guards: {why}")
    for t in old.tools:
        for label in sorted(labels(old)[t.name], key=lambda x: (x.sensitivity, sorted(x.categories), x.trusted)):
            if flow_allows(old, t.operation, t.destination, label) and \
                    not flow_allows(mid, t.operation, t.destination, label):
                return Invalid(f"guards: the new flow rules refuse {t.name} -> {t.destination} with label "
                               f"{label.to_json()}, which the old rules allow")
    return Valid()
