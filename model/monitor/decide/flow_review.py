"""What a reviewer sees of a call a flow rule paused, and the approval it gives (an extension beyond
Agenra: ``docs/monitor.md``, "Extensions beyond Agenra").

``flow_review(policy, state, call)`` shows every argument of the call with its value, its exact value
identity, its input label and its origin chain: the results it names and, transitively, the results
those were computed from (each with its tool and label), oldest first. ``approve(state, review)``
issues the exact-call permit keyed on the values and sources shown (``Call.review_identity``), so the
approval endorses exactly what the reviewer saw: a call with any value changed (even under the same
handle), or the same bytes taken from another result, is another call and is paused again. A permit
the application issued for the call's plain identity (``Call.identity``, for a grant's ``permit``) does
not answer a flow Pause of a call that reads results.

Choices where nothing fixes them:
- A literal argument has no origin chain and the bottom label (it was given, not read); the reviewer
  sees the literal itself.
- The approval is one exact-call permit, consumed by the Allow it enables (as every permit is), so an
  approval admits one call, not a standing pattern.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.canonical import JSON
from model.monitor.decide.flow import argument_label, lineage
from model.monitor.decide.state import ArgIdentity, Call, State, issue_permit
from model.monitor.language.labels import Label
from model.monitor.language.policy import Policy


@dataclass(frozen=True, slots=True)
class Origin:
    """One result in an argument's origin chain."""

    id: int
    tool: str
    label: Label


@dataclass(frozen=True, slots=True)
class ShownArgument:
    name: str
    value: JSON
    identity: ArgIdentity
    label: Label
    origins: tuple[Origin, ...]  # the named results and their transitive parents, in trace order


@dataclass(frozen=True, slots=True)
class FlowReview:
    """The reviewer's view of one paused call."""

    agent: str
    tool: str
    arguments: tuple[ShownArgument, ...]  # by argument name

    approval: tuple[tuple[str, ArgIdentity], ...]  # what an approval binds (``Call.review_identity``)

    def to_json(self) -> dict[str, JSON]:
        return {"agent": self.agent, "tool": self.tool, "arguments": [
            {"name": a.name, "value": a.value, "label": a.label.to_json(),
             "origins": [{"id": o.id, "tool": o.tool, "label": o.label.to_json()}
                         for o in a.origins]} for a in self.arguments]}


def flow_review(policy: Policy, state: State, call: Call) -> FlowReview:
    """Every argument of ``call`` with its value, identity, input label and origin chain."""
    idents = dict(call.identity())
    shown: list[ShownArgument] = []
    for name in sorted(call.args):
        named = tuple(d for n, d in call.refs if n == name)
        chain = tuple(Origin(r.id, r.tool, r.label) for r in lineage(state, named))
        shown.append(ShownArgument(name, call.args[name], idents[name], argument_label(policy, state, call, name),
                                   chain))
    return FlowReview(call.agent, call.tool, tuple(shown), call.review_identity())


def approve(state: State, review: FlowReview, evidence: str | None = None) -> State:
    """The reviewer approves the values shown: an exact-call permit keyed on their identities."""
    return issue_permit(state, review.tool, review.approval, evidence)[0]
