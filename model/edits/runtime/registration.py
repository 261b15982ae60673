"""Registration and the checked root rule update: the common initial state ``S_∅ → Reg(ℛ, n) → S_ℛ``
(*Exact Checking for Execution Edits*, Sections IV-C and Appendix A-G, Lemma 14).

A ``Registration`` is the registered call model ℛ in the form the runtime needs: the policy 𝒜, the
call templates and actions (label, certified canonical request, scope), the policy authorities with
their signed requirement (and any removal) records, the edit rules Σ_ζ, the root branch with its
region and contract, and the private namespace (the rule-version prefix). ``bootstrap`` derives
the root record (root calls are the templates named in the root contract), lets the checker
decide it, and on ``Accepted`` performs the initial rule update.

``CheckReg`` of a typed LTS workflow against ℛ is ``model.edits.runtime.checkreg`` (the CLI's
``edit register``); ``bootstrap`` starts from an ℛ whose root contract is the registered model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from model.base.canonical import canonical_str
from model.base.signing import KeyPair
from model.edits.check.answer import Invalid, Rejected
from model.edits.check.checker import decide as check_instance
from model.edits.check.contract import Term, call_ids
from model.edits.check.edit_policy import PolicyAutomaton
from model.edits.check.instance import make_instance
from model.edits.runtime.answers import CheckAnswer, EditAccepted, EditInvalid, EditRejected
from model.edits.runtime.derive import Derived
from model.edits.runtime.derive_failure import DeriveFailure
from model.edits.runtime.forms import Extend
from model.edits.runtime.record import ActionSpec, CallEntry, EditRule, State
from model.edits.runtime.record_json import record_digest, request_digest
from model.edits.runtime.requirements import SignedRecord, SourceRegion, preservation, verify_record
from model.edits.runtime.steps import install
from model.edits.runtime.tree import Leaf, contract_of
from model.edits.runtime.wellformed_record import RUNTIME, record_problems

ROOT_EDIT = Extend()  # the root update is checked like a registered extension of the empty record


@dataclass(frozen=True, slots=True)
class Registration:
    domain: str
    policy: PolicyAutomaton
    templates: tuple[tuple[str, str], ...]
    actions: tuple[tuple[str, ActionSpec], ...]
    authorities: tuple[tuple[str, str], ...]
    requirements: tuple[tuple[str, SignedRecord], ...]
    rules: tuple[tuple[str, EditRule], ...]
    root_region: str
    root: Term
    removals: tuple[SignedRecord, ...] = ()
    namespace: str = "v"


def registered_state(reg: Registration, runtime_public: str) -> State:
    """``Reg(ℛ, n)``: everything registered, the root leaf ``b0`` in place, no rule version yet."""
    templates = dict(reg.templates)
    actions = dict(reg.actions)
    calls = {}
    for x in call_ids(reg.root):
        d = templates.get(x, "")
        spec = actions.get(d)
        if spec is not None:
            calls[x] = CallEntry(d, reg.root_region, spec.scope, request_digest(spec.request))
    return State(
        domain=reg.domain, namespace=reg.namespace, next_id=0, tree=Leaf("b0", reg.root_region, reg.root),
        policy=reg.policy, rules=tuple(sorted(reg.rules)), rules_version=1, templates=tuple(sorted(reg.templates)),
        actions=tuple(sorted(reg.actions)), authorities=tuple(sorted({*reg.authorities, (RUNTIME, runtime_public)})),
        requirements=tuple(sorted(reg.requirements)), removals=reg.removals, calls=tuple(sorted(calls.items())),
        policy_version=1, history=("register",))


def bootstrap(reg: Registration, key: KeyPair) -> tuple[CheckAnswer, State]:
    """The checked root update; on ``Invalid``/``Rejected`` the registered state has no rules in force."""
    import base64

    s = registered_state(reg, base64.b64encode(key.public).decode("ascii"))
    gamma = record_digest(s, {"edit": "root"})
    problems = record_problems(s, rules_in_force=False)
    bad = [r for _, r in s.requirements if not verify_record(r, dict(s.authorities), s.domain)]
    if bad:
        problems.insert(0, f"requirement record for {bad[0].subject} does not verify")
    if problems:
        return EditInvalid(ROOT_EDIT, DeriveFailure.NOT_WELL_FORMED, problems[0], gamma), s
    target = contract_of(Leaf("b0", reg.root_region, reg.root))
    pres = preservation((SourceRegion("ctx", target, frozenset(), "", {x: x for x in call_ids(target)}, {}),),
                        target, s.removals, dict(s.authorities), s.domain)
    q_act = s.q_act()
    inst = make_instance(target, {x: q_act[x] for x in call_ids(target)}, s.labels(), (), s.policy)
    v = check_instance(inst)
    if isinstance(v, Invalid):
        return EditInvalid(ROOT_EDIT, DeriveFailure.NOT_WELL_FORMED, f"{v.reason.value}: {v.detail}", gamma), s
    if isinstance(v, Rejected):
        return EditRejected(ROOT_EDIT, v, gamma), s
    eta = f"{s.namespace}{s.next_id + 1}"
    d = Derived(replace(s, next_id=s.next_id + 1), inst, pres, "", eta)
    new = install(s, d, v, canonical_str({"edit": "root"}), gamma, key, eta)
    return EditAccepted(ROOT_EDIT, v, gamma, None, eta), new
