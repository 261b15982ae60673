"""The atomic steps of the runtime as pure functions ``State -> (Answer, State)`` (*Exact Checking for Execution Edits*,
Sections IV-B1, VI-B and Appendices A-H, A-I, A-K; one function per row of Table III).

- ``check``: derive, then the existing checker decides the derived instance; no state change.
- ``try_update``: the final check ``Ready(S, u, Y)`` — same γ (so nothing committed since ``Y``),
  old version current, ``phase(η⁺) ∈ {⊥, inactive}`` (Appendix A-I), re-derived and re-checked to
  the same automaton — then one update closes η⁻, activates η⁺, installs ``Can`` at ``q_ε`` and
  issues a fresh rule entry and signed authorization token for every current call.
- ``preload``: Table III "Preload" — for an answer passing the same final check, record the
  re-computed automaton in η⁺ with phase *inactive*: no rule entry, no token, no change to ``ver``,
  the workflow, the log or the automaton in force; γ omits inactive content
  (``model.edits.runtime.record_json.core_json``), so a preload does not make the answer stale.
- ``use``: verifies call, rule entry, active version, token signature, canonical request digest and
  the enabled automaton transition for the resolved letter, then applies HStep, appends to χ, and
  either creates the authorization record and queues the request (``new``) or links to the existing
  record (``reuse``); ``retry`` returns the stored value with no state change; ``dispatch`` marks the
  oldest queued request sent; ``settle`` stores a sent request's returned value; ``checkpoint``
  stores a runtime-signed copy of a branch.

Choices where the paper is silent: rule entry IDs are ``η/x``; authorization records are numbered
``p1, p2, …`` in creation order; a use that selects an open choice arm also drops the rule entries of
the disabled arm (so ``dom β = X_⟦T⟧`` stays true); a token signs (domain, call, entry, action, scope,
request digest, version) with the runtime's Ed25519 key; a checkpoint ID must be fresh among all
IDs of the record; ``settle`` needs the request to have been sent; as in Table III, ``dispatch`` and
``settle`` change only the queue status and the record's phase and value, not ``ver``.

Choices for Preload (the paper gives only its Table III row and the final-check premise):
- preload re-derives and re-checks like the final check, so prepared content is always the runtime's
  own checker output, never the caller's answer object;
- one inactive version holds one prepared answer; preloading another answer for the same version name
  replaces it (it is not in α_S, so nothing observable changes); an identical preload changes nothing;
- ``try_update`` never trusts prepared content: it re-derives and re-checks as without a preload.
  Content prepared for this very answer (same edit, γ and η⁻) is installed only when it equals the
  recomputation; if it differs the store was altered and the answer is ``NoCommit(preload-differs)``
  (a new preload repairs it). Content prepared for another answer is ignored;
- a successful update drops every other inactive version with its content (back to ⊥): they were
  prepared against a record that no longer exists, hold no entry or token, and are not in α_S.
"""

from __future__ import annotations

from dataclasses import replace

from model.base.canonical import JSON, canonical_str, loads
from model.base.canonical import digest as json_digest
from model.base.signing import KeyPair, public_key_from_text, verify_payload
from model.edits.check.answer import Accepted, Invalid, Rejected
from model.edits.check.checker import decide as check_instance
from model.edits.check.contract import call_ids
from model.edits.check.resolve import Letter, Mode
from model.edits.runtime.answers import (
    CheckAnswer,
    CheckpointRefused,
    Deny,
    DenyReason,
    EditAccepted,
    EditInvalid,
    EditRejected,
    New,
    NoCommit,
    PreloadAnswer,
    Preloaded,
    QueueEmpty,
    Returned,
    Reuse,
    Saved,
    Sent,
    Settled,
    SettleRefused,
    Stale,
    UpdateAnswer,
    Updated,
    UseAnswer,
)
from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.derive_failure import DeriveFailure, DeriveInvalid
from model.edits.runtime.forms import Edit, edit_to_json
from model.edits.runtime.record import AuthRecord, Checkpoint, Installed, Prepared, Processed, Queued, RuleEntry, State
from model.edits.runtime.record_json import record_digest
from model.edits.runtime.tree import Leaf, addressable, contract_of, groups, hstep, leaves, remaining
from model.edits.runtime.wellformed_record import RUNTIME, checkpoint_payload


def token_payload(s: State, call: str, entry: str, version: str) -> JSON:
    e = dict(s.calls)[call]
    return {"kind": "token", "domain": s.domain, "call": call, "entry": entry, "action": e.action,
            "scope": e.scope, "digest": e.digest, "version": version}


def token_verifies(s: State, call: str, entry: str, version: str, token: str) -> bool:
    key = dict(s.authorities).get(RUNTIME)
    return key is not None and verify_payload(public_key_from_text(key), token_payload(s, call, entry, version), token)


def decide(s: State, edit: Edit, derived: Derived | DeriveInvalid) -> CheckAnswer:
    gamma = record_digest(s, edit_to_json(edit))
    if isinstance(derived, DeriveInvalid):
        return EditInvalid(edit, derived.reason, derived.detail, gamma)
    v = check_instance(derived.instance)
    if isinstance(v, Invalid):
        return EditInvalid(edit, DeriveFailure.NOT_WELL_FORMED, f"{v.reason.value}: {v.detail}", gamma)
    if isinstance(v, Rejected):
        return EditRejected(edit, v, gamma)
    return EditAccepted(edit, v, gamma, derived.eta_old, derived.eta_new)


def check(s: State, edit: Edit) -> CheckAnswer:
    return decide(s, edit, derive(s, edit))


def install(s: State, d: Derived, verdict: Accepted, edit_text: str, gamma: str, key: KeyPair,
            eta_new: str) -> State:
    """The atomic rule update's state change (Table III, "successful edit transition")."""
    r = d.record
    # η⁻ and older versions are closed; inactive ones (η⁺'s own included) return to ⊥ with their content
    versions = (*((v, "closed") for v, ph in r.versions if ph != "inactive"), (eta_new, "active"))
    entries = []
    for x in r.current_calls():
        j = f"{eta_new}/{x}"
        entries.append((x, RuleEntry(j, eta_new, key.sign(token_payload(r, x, j, eta_new)))))
    assert r.tree is not None
    return replace(r, entries=tuple(entries), versions=versions, eta=eta_new, ver=s.ver + 1,
                   automaton=verdict.automaton, q=0, prepared=(),
                   installed=Installed(edit_text, gamma, r.tree, len(r.processed), d.instance))


def ready(s: State, edit: Edit, answer: CheckAnswer) -> NoCommit | tuple[Derived, EditAccepted]:
    """``Ready(S, u, Y)`` of Section VI-B / Appendix A-I, shared by the update and by preload."""
    if not isinstance(answer, EditAccepted) or answer.edit != edit:
        return NoCommit(Stale.NOT_ACCEPTED)
    if record_digest(s, edit_to_json(edit)) != answer.digest:
        return NoCommit(Stale.RECORD_CHANGED)
    if s.eta != answer.eta_old:
        return NoCommit(Stale.VERSION_NOT_CURRENT)
    if dict(s.versions).get(answer.eta_new, "inactive") != "inactive":  # phase(η⁺) ∈ {⊥, inactive}
        return NoCommit(Stale.VERSION_ALLOCATED)
    d = derive(s, edit)
    again = decide(s, edit, d)
    if not isinstance(d, Derived) or not isinstance(again, EditAccepted) or again != answer:
        return NoCommit(Stale.RECHECK_DIFFERS)
    return d, again


def try_update(s: State, edit: Edit, answer: CheckAnswer, key: KeyPair) -> tuple[UpdateAnswer, State]:
    got = ready(s, edit, answer)
    if isinstance(got, NoCommit):
        return got, s
    d, again = got
    text = canonical_str(edit_to_json(edit))
    verdict = again.verdict
    prep = dict(s.prepared).get(again.eta_new)
    if prep is not None and (prep.edit, prep.digest, prep.eta_old) == (text, again.digest, again.eta_old):
        if prep.automaton != verdict.automaton:
            return NoCommit(Stale.PRELOAD_DIFFERS), s
        verdict = replace(verdict, automaton=prep.automaton)  # the prepared content, re-verified equal
    return Updated(again.eta_new), install(s, d, verdict, text, again.digest, key, again.eta_new)


def preload(s: State, edit: Edit, answer: CheckAnswer) -> tuple[PreloadAnswer, State]:
    """Table III "Preload": prepare the checked automaton in the inactive version η⁺ (assigned to no call)."""
    got = ready(s, edit, answer)
    if isinstance(got, NoCommit):
        return got, s
    _, again = got
    eta = again.eta_new
    content = Prepared(canonical_str(edit_to_json(edit)), again.digest, again.eta_old, again.verdict.automaton)
    if dict(s.prepared).get(eta) == content:
        return Preloaded(eta), s
    versions = (*((v, ph) for v, ph in s.versions if v != eta), (eta, "inactive"))
    prepared = tuple(sorted({**dict(s.prepared), eta: content}.items(), key=lambda p: p[0]))
    return Preloaded(eta), replace(s, versions=versions, prepared=prepared)


def use(s: State, call: str, token: str, request: JSON) -> tuple[UseAnswer, State]:
    if s.eta is None or s.automaton is None or s.tree is None:
        return Deny(call, DenyReason.NO_RULES), s
    rho = dict(s.calls)
    if call not in rho:
        return Deny(call, DenyReason.UNKNOWN_CALL), s
    if any(p.call == call for p in s.processed):
        return Deny(call, DenyReason.ALREADY_PROCESSED), s
    entry = dict(s.entries).get(call)
    if entry is None:
        return Deny(call, DenyReason.NOT_CURRENT), s
    if entry.version != s.eta or (s.eta, "active") not in s.versions:
        return Deny(call, DenyReason.VERSION), s
    if token != entry.token or not token_verifies(s, call, entry.entry, entry.version, token):
        return Deny(call, DenyReason.TOKEN), s
    if json_digest(request) != rho[call].digest:
        return Deny(call, DenyReason.REQUEST), s
    d = rho[call].action
    mode = Mode.REUSE if d in s.authorized_actions() else Mode.NEW
    q2 = dict(s.automaton.delta).get((s.q, Letter(call, d, mode)))
    if q2 is None:
        return Deny(call, DenyReason.NOT_ENABLED), s
    branch = next(lf.branch for lf in leaves(s.tree) if call in set(call_ids(remaining(lf))))
    tree = hstep(s.tree, call)
    current = set(call_ids(contract_of(tree)))
    log, out = s.log, s.out
    if mode is Mode.NEW:
        spec = dict(s.actions)[d]
        rid = f"p{len(s.log) + 1}"
        log = (*log, AuthRecord(rid, d, spec.request, call, spec.label))
        out = (*out, Queued(rid))
    else:
        rid = next(r.id for r in s.log if r.action == d)
    answer: UseAnswer = New(call, d, rid) if mode is Mode.NEW else Reuse(call, d, rid)
    return answer, replace(
        s, tree=tree, log=log, out=out, q=q2, ver=s.ver + 1,
        entries=tuple((x, e) for x, e in s.entries if x in current),
        processed=(*s.processed, Processed(call, d, mode, rid, entry.entry, token)),
        history=(*s.history, f"step {branch} {mode.value}({call},{d})"))


def retry(s: State, call: str, token: str, request: JSON) -> Returned | Deny:
    """Verified retry: same token, same canonical request, the stored link; never a state change."""
    p = next((p for p in s.processed if p.call == call), None)
    if p is None:
        return Deny(call, DenyReason.NOT_PROCESSED)
    e = dict(s.calls)[call]
    if token != p.token or not token_verifies(s, call, p.entry, p.entry.split("/", 1)[0], token):
        return Deny(call, DenyReason.TOKEN)
    if json_digest(request) != e.digest:
        return Deny(call, DenyReason.REQUEST)
    rec = next(r for r in s.log if r.id == p.record)
    return Returned(call, rec.id, None if rec.value is None else loads(rec.value, "<record>"))


def dispatch(s: State) -> tuple[Sent | QueueEmpty, State]:
    for i, o in enumerate(s.out):
        if not o.sent:
            rec = next(r for r in s.log if r.id == o.record)
            out = (*s.out[:i], Queued(o.record, True), *s.out[i + 1:])
            return Sent(rec.id, rec.action, rec.request), replace(s, out=out)
    return QueueEmpty(), s


def settle(s: State, action: str, value: JSON) -> tuple[Settled | SettleRefused, State]:
    rec = next((r for r in s.log if r.action == action), None)
    if rec is None:
        return SettleRefused(action, "no-authorization-record"), s
    if not dict((o.record, o.sent) for o in s.out)[rec.id]:
        return SettleRefused(action, "request-not-sent"), s
    if rec.phase == "settled":
        return SettleRefused(action, "already-settled"), s
    log = tuple(replace(r, phase="settled", value=canonical_str(value)) if r.id == rec.id else r for r in s.log)
    return Settled(rec.id), replace(s, log=log)


def checkpoint(s: State, k: str, branch: str, key: KeyPair) -> tuple[Saved | CheckpointRefused, State]:
    if s.tree is None or s.eta is None:
        return CheckpointRefused(k, "no-rules-in-force"), s
    used = {lf.branch for lf in leaves(s.tree)} | set(groups(s.tree)) | {c for c, _ in s.checkpoints} | s.joined
    if k in used or not k:
        return CheckpointRefused(k, "checkpoint-id-not-fresh"), s
    node = addressable(s.tree).get(branch)
    if not isinstance(node, Leaf):
        return CheckpointRefused(k, "not-a-current-branch"), s
    unsigned = Checkpoint(node.branch, node.region, node.gamma, node.done, "")
    signed = replace(unsigned, signature=key.sign(checkpoint_payload(s.domain, k, unsigned)))
    return Saved(k), replace(s, checkpoints=(*s.checkpoints, (k, signed)), ver=s.ver + 1,
                             history=(*s.history, f"checkpoint {k} {branch}"))
