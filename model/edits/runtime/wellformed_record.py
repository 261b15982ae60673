"""Well-formedness of the execution record, checked rather than assumed (*Exact Checking for Execution Edits*,
Sections IV-B2 and IV-B3).

``record_problems(state)`` lists every violated condition (empty when well formed):

1. Structure: branch, group and checkpoint IDs unique; every leaf's region has a requirement record
   signed by its authority; every checkpoint carries the runtime's signature.
2. Identity and progress: every call of the workflow, a checkpoint or χ is registered in ρ with a
   registered action; calls sharing an action agree on request digest and scope;
   χ names each call once, points at an authorization record it created (``new``) or reused
   (``reuse``), and processed calls are absent from ``⟦T⟧``; each leaf's progress is in χ.
3. Current workflow (only once rules are in force): ``dom β = X_⟦T⟧``, every entry under η.
4. Authorization: at most one record per action, ``lab(Δ) ∈ 𝒜``, the queue lists exactly the
   records in creation order and the sent requests are its oldest ones.

Choices where the paper is silent: the source region is kept per call (the region that introduced
it; a copy keeps its original's), so two registered steps of one action may come from different
regions and only request and scope must agree across an action. The checker's own contract
conditions (unique call IDs, the prefix condition) are decided by ``model.edits.check.instance_wellformed`` on
the derived instance, not repeated here.
"""

from __future__ import annotations

from collections import Counter

from model.base.signing import public_key_from_text, verify_payload
from model.edits.check.contract import call_ids
from model.edits.check.instance import term_to_json
from model.edits.check.resolve import Mode
from model.edits.runtime.record import Checkpoint, State
from model.edits.runtime.record_json import request_digest
from model.edits.runtime.requirements import verify_record
from model.edits.runtime.tree import contract_of, groups, leaves

RUNTIME = "@runtime"  # the authority ID under which the runtime's own public key is registered


def checkpoint_payload(domain: str, k: str, c: Checkpoint) -> dict[str, object]:
    return {"kind": "checkpoint", "domain": domain, "checkpoint": k, "branch": c.branch, "region": c.region,
            "gamma": term_to_json(c.gamma), "done": list(c.done)}


def checkpoint_verifies(s: State, k: str, c: Checkpoint) -> bool:
    key = dict(s.authorities).get(RUNTIME)
    return key is not None and verify_payload(public_key_from_text(key), checkpoint_payload(s.domain, k, c),
                                              c.signature)


def record_problems(s: State, *, rules_in_force: bool = True) -> list[str]:
    out: list[str] = []
    auth = dict(s.authorities)
    reqs = dict(s.requirements)
    rho = dict(s.calls)
    acts = dict(s.actions)
    if s.tree is None:
        return ["no workflow"]
    lvs = list(leaves(s.tree))
    ids = [lf.branch for lf in lvs] + list(groups(s.tree)) + [k for k, _ in s.checkpoints]
    out += [f"ID {i} is used twice" for i, n in Counter(ids).items() if n > 1]
    for lf in lvs:
        rec = reqs.get(lf.region)
        if rec is None or rec.subject != lf.region or not verify_record(rec, auth, s.domain):
            out.append(f"region {lf.region} of branch {lf.branch} has no signed requirement record")
    for k, c in s.checkpoints:
        if not checkpoint_verifies(s, k, c):
            out.append(f"checkpoint {k} is not signed by the runtime")
    used = [x for lf in lvs for x in call_ids(lf.gamma)] + [x for _, c in s.checkpoints for x in call_ids(c.gamma)]
    for x in sorted(set(used)):
        if x not in rho:
            out.append(f"call {x} is not registered")
        elif rho[x].action not in acts:
            out.append(f"action {rho[x].action} of call {x} is not registered")
        elif rho[x].digest != request_digest(acts[rho[x].action].request):
            out.append(f"call {x} does not carry its action's request digest")
    by_action: dict[str, tuple[str, str]] = {}
    for x, e in s.calls:
        seen = by_action.setdefault(e.action, (e.digest, e.scope))
        if seen != (e.digest, e.scope):
            out.append(f"calls of action {e.action} disagree on request or scope ({x})")
    records = {r.id: r for r in s.log}
    chi = [p.call for p in s.processed]
    out += [f"call {x} is processed twice" for x, n in Counter(chi).items() if n > 1]
    for p in s.processed:
        r = records.get(p.record)
        if r is None or r.action != p.action or rho.get(p.call) is None or rho[p.call].action != p.action:
            out.append(f"processed call {p.call} does not point at a record of its action")
        elif (p.mode is Mode.NEW) != (r.creator == p.call):
            out.append(f"processed call {p.call} is marked {p.mode.value} but the record's creator is {r.creator}")
    current = set(call_ids(contract_of(s.tree)))
    out += [f"processed call {x} is still in the workflow" for x in chi if x in current]
    for lf in lvs:
        out += [f"progress {x} of branch {lf.branch} is not in χ" for x in lf.done if x not in set(chi)]
    if rules_in_force:
        dom = {x for x, _ in s.entries}
        if dom != current:
            out.append(f"dom β differs from the current calls: {sorted(dom ^ current)}")
        out += [f"entry of {x} is not under the current version" for x, e in s.entries if e.version != s.eta]
        active = [v for v, ph in s.versions if ph == "active"]
        if active != ([s.eta] if s.eta is not None else []):
            out.append(f"active versions {active} differ from η = {s.eta}")
    out += [f"action {d} has {n} authorization records" for d, n in Counter(r.action for r in s.log).items()
            if n > 1]
    labels = tuple(r.label for r in s.log)
    if not s.policy.accepts(labels):
        out.append(f"lab(Δ) = {' '.join(labels)} is outside the policy")
    if [o.record for o in s.out] != [r.id for r in s.log]:
        out.append("the queue does not list the authorization records in creation order")
    sent = [o.sent for o in s.out]
    if sent != sorted(sent, reverse=True):
        out.append("a request was sent before an older queued one")
    for r in s.log:
        if r.phase == "settled" and not dict((o.record, o.sent) for o in s.out).get(r.id, False):
            out.append(f"record {r.id} settled before its request was sent")
    return out
