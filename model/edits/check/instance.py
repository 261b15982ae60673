"""A safety-check instance for one derived edit: contract, action map, labels, log and policy.

Execution-edit-checking.md, Sections IV-A, IV-B3 and V-C1. The full execution record ``H`` and
the six edit forms are the next layer (``model.edits`` runtime); the checker core needs only the
derived target contract ``𝒞_u``, the action map ``q_act``, the labels ``ℓ``, the authorization
log ``Δ`` (the ordered actions that already have authorization records) and the policy ``𝒜_u``.

Choices where the paper is silent:
- Every outcome of the target contract is required (``StillRequired = O_𝒞``, as for a registered
  extension in Appendix A-D2); the coverage maps of edit derivation live in ``runtime/derive.py``.
- ``log`` lists actions; their labels come from ``labels`` (one label per action, ``ℓ(d)``).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.canonical import JSON
from model.edits.check.contract import (
    Call,
    CallId,
    Choice,
    Family,
    Nil,
    Outcome,
    Par,
    Pomset,
    Term,
    outcomes,
)
from model.edits.check.edit_policy import Label, PolicyAutomaton
from model.edits.check.family import family_to_json

ActionId = str


@dataclass(frozen=True, slots=True)
class Instance:
    contract: Term
    actions: tuple[tuple[CallId, ActionId], ...]  # q_act, sorted by call
    labels: tuple[tuple[ActionId, Label], ...]  # ℓ, sorted by action
    log: tuple[ActionId, ...]  # Δ in authorization order
    policy: PolicyAutomaton

    def action_map(self) -> dict[CallId, ActionId]:
        return dict(self.actions)

    def label_map(self) -> dict[ActionId, Label]:
        return dict(self.labels)

    def outcomes(self) -> dict[Outcome, Pomset]:
        return outcomes(self.contract)

    def log_labels(self) -> tuple[Label, ...]:
        lab = self.label_map()
        return tuple(lab[d] for d in self.log)


def make_instance(
    contract: Term,
    actions: dict[CallId, ActionId],
    labels: dict[ActionId, Label],
    log: tuple[ActionId, ...],
    policy: PolicyAutomaton,
) -> Instance:
    return Instance(contract, tuple(sorted(actions.items())), tuple(sorted(labels.items())), tuple(log), policy)


def term_to_json(term: Term) -> JSON:
    if isinstance(term, Call):
        return {"call": term.call}
    if isinstance(term, Nil):
        return {"nil": True}
    if isinstance(term, Family):
        return family_to_json(term)
    if isinstance(term, Choice):
        return {"choice": term.group, "arms": {a: term_to_json(t) for a, t in term.arms}}
    key = "par" if isinstance(term, Par) else "seq"
    return {key: [term_to_json(t) for t in term.parts]}


def instance_to_json(inst: Instance) -> JSON:
    """The canonical JSON of an instance (the policy as an explicit automaton); its digest names it."""
    return {
        "contract": term_to_json(inst.contract),
        "calls": dict(inst.actions),
        "labels": dict(inst.labels),
        "log": list(inst.log),
        "policy": {"automaton": {
            "states": inst.policy.n_states,
            "initial": 0,
            "accepting": list(range(inst.policy.n_states)),
            "transitions": [[q, a, r] for (q, a), r in inst.policy.delta],
        }},
    }
