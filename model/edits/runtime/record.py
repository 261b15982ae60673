"""The execution record ``H = (ω, G, T, K, Σ_ζ, ρ, β, χ, ver, η)`` with ``(κ, Δ, out, 𝒜)`` and the
runtime's rule state (execution-edit-checking.md, Sections IV-B, IV-C, VI-B and Appendix A-I).

``State`` is one frozen value holding every committed fact of one policy domain; the durable store
writes it as canonical JSON in one transaction per atomic step. Field by field:

- ``domain`` ω; ``history`` G as an append-only list of recorded steps and edits (acyclic by
  construction: each entry follows the ones it depends on); ``joined`` the groups MergeJoin removed;
- ``tree`` T (``model.edits.runtime.tree``); ``checkpoints`` K, each signed by the runtime;
- ``rules`` Σ_ζ with ``rules_version`` ζ; ``templates`` (call-template → action) and ``actions``
  (action → label ℓ(d), canonical request, scope): the registered call model;
- ``authorities`` (ID → Ed25519 public key), ``requirements`` (one signed record per region) and
  ``removals`` (signed authorized removals);
- ``calls`` ρ (call → action, source region, scope, request digest); ``entries`` β (call → rule
  entry ``j``, version η, authorization token); ``processed`` χ; ``ver``; ``eta`` η;
- ``policy_version`` κ, ``policy`` 𝒜, ``log`` Δ (append-only authorization records), ``out``;
- ``versions`` (rule version → active | closed | inactive), ``automaton`` and ``q`` (the canonical
  automaton in force and its state), ``installed`` (the checked origin ``c`` of the rules in force);
- ``prepared``: the content a Preload (Table III) prepared in an *inactive* rule version — the
  checked edit, its γ, the version it would replace and the checker's automaton — assigned to no
  call, with no rule entry and no token.

The record digest γ (``record_digest``) is taken over ``core_json``: the whole state *except* the
inactive versions and their prepared content. Why this is sound and needed: Appendix A-L abstracts a
runtime state by ``α_S(S; c, r) = (Core(S), icut(c), r, H.η, entry|Current(H))``, which holds no
inactive version; a runtime Preload is a τ-step matched by zero ideal steps *because* α_S omits
inactive prepared data, and the ideal and runtime machines must form the same ``γ(Θ_I(u))`` from the
same ``Θ = (κ, H, Δ, out, 𝒜, u)`` — which has no phase of any inactive version either. So a preload
leaves γ (and every answer checked against it) unchanged, and nothing the checker reads (derive,
the instance) depends on inactive content. The journal's state digest (``state_digest``) covers
everything, prepared content included.

Choices where the paper is silent: identifiers are allocated from one counter ``next_id`` (the
private namespace ``n``) and rule versions from ``namespace`` + counter, so allocation is
deterministic; requests are stored as canonical JSON text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from model.canonical import JSON, canonical_str, loads
from model.canonical import digest as json_digest
from model.edits.check.can import Can
from model.edits.check.contract import Outcome, Term, call_ids
from model.edits.check.instance import Instance, make_instance, term_to_json
from model.edits.check.load import term_from_doc
from model.edits.check.policy import PolicyAutomaton
from model.edits.check.resolve import Letter, Mode
from model.edits.runtime.requirements import SignedRecord, record_from_json
from model.edits.runtime.tree import Node, contract_of, node_from_json, node_to_json


@dataclass(frozen=True, slots=True)
class ActionSpec:
    label: str
    request: str  # canonical JSON text of the one certified request
    scope: str


@dataclass(frozen=True, slots=True)
class EditRule:
    """A registered edit rule σ: its form and the workflow steps it adds (over call templates)."""

    kind: str
    left: Term | None = None  # E_σ^L
    right: Term | None = None  # E_σ^R
    join: Term | None = None  # E_σ^J
    region: str = ""  # source region (and authority) of the results the rule introduces


@dataclass(frozen=True, slots=True)
class CallEntry:
    """ρ(x): action, source region, scope and the digest of the canonical request."""

    action: str
    region: str
    scope: str
    digest: str


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """β(x) = (j, η) with the authorization token issued for it."""

    entry: str
    version: str
    token: str


@dataclass(frozen=True, slots=True)
class Processed:
    """One entry of χ: the call, its letter, the authorization record created or reused, the entry used."""

    call: str
    action: str
    mode: Mode
    record: str
    entry: str
    token: str


@dataclass(frozen=True, slots=True)
class AuthRecord:
    """One authorization record of Δ: append-only; only ``phase``/``value`` advance (completion)."""

    id: str
    action: str
    request: str
    creator: str
    label: str
    phase: str = "authorized"  # | "settled"
    value: str | None = None


@dataclass(frozen=True, slots=True)
class Queued:
    record: str
    sent: bool = False


@dataclass(frozen=True, slots=True)
class Checkpoint:
    branch: str
    region: str
    gamma: Term
    done: tuple[str, ...]
    signature: str  # by the runtime: Restore accepts only records the Checkpoint rule created


@dataclass(frozen=True, slots=True)
class Prepared:
    """The content of an inactive rule version prepared by Preload: the answer it was checked for."""

    edit: str  # canonical JSON of the edit u
    digest: str  # γ of the record the answer was checked against
    eta_old: str | None  # the version the update would close
    automaton: Can  # the checker's automaton, recomputed by the runtime at preload time


@dataclass(frozen=True, slots=True)
class Installed:
    """The checked origin c of the rules in force: the edit, γ, and the record at that moment."""

    edit: str  # canonical JSON of the edit
    digest: str  # γ of the checked record
    tree: Node
    chi_len: int
    instance: Instance


Pairs = tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class State:
    domain: str
    namespace: str
    next_id: int
    tree: Node | None
    policy: PolicyAutomaton
    history: tuple[str, ...] = ()
    joined: frozenset[str] = frozenset()
    checkpoints: tuple[tuple[str, Checkpoint], ...] = ()
    rules: tuple[tuple[str, EditRule], ...] = ()
    rules_version: int = 0
    templates: tuple[tuple[str, str], ...] = ()
    actions: tuple[tuple[str, ActionSpec], ...] = ()
    authorities: tuple[tuple[str, str], ...] = ()
    requirements: tuple[tuple[str, SignedRecord], ...] = ()
    removals: tuple[SignedRecord, ...] = ()
    calls: tuple[tuple[str, CallEntry], ...] = ()
    entries: tuple[tuple[str, RuleEntry], ...] = ()
    processed: tuple[Processed, ...] = ()
    ver: int = 0
    eta: str | None = None
    policy_version: int = 0
    log: tuple[AuthRecord, ...] = ()
    out: tuple[Queued, ...] = ()
    versions: tuple[tuple[str, str], ...] = ()
    automaton: Can | None = None
    q: int = 0
    installed: Installed | None = field(default=None)
    prepared: tuple[tuple[str, Prepared], ...] = ()  # inactive version → its prepared content

    def current_calls(self) -> tuple[str, ...]:
        return tuple(sorted(call_ids(contract_of(self.tree)))) if self.tree is not None else ()

    def q_act(self) -> dict[str, str]:
        return {x: e.action for x, e in self.calls}

    def labels(self) -> dict[str, str]:
        return {d: a.label for d, a in self.actions}

    def authorized_actions(self) -> frozenset[str]:
        return frozenset(r.action for r in self.log)


def _term_json(t: Term | None) -> JSON:
    return None if t is None else term_to_json(t)


def _term_doc(doc: Any) -> Term | None:
    return None if doc is None else term_from_doc(doc)


def policy_to_json(p: PolicyAutomaton) -> JSON:
    return {"states": p.n_states, "delta": [[q, a, r] for (q, a), r in p.delta]}


def policy_from_json(doc: Any) -> PolicyAutomaton:
    return PolicyAutomaton(doc["states"], tuple(((q, a), r) for q, a, r in doc["delta"]))


def instance_json(i: Instance) -> JSON:
    return {"contract": term_to_json(i.contract), "calls": [list(p) for p in i.actions],
            "labels": [list(p) for p in i.labels], "log": list(i.log), "policy": policy_to_json(i.policy)}


def instance_of_json(doc: Any) -> Instance:
    return make_instance(term_from_doc(doc["contract"]), {x: d for x, d in doc["calls"]},
                         {d: a for d, a in doc["labels"]}, tuple(doc["log"]), policy_from_json(doc["policy"]))


def _outcome(text: str) -> Outcome:
    return () if text == "·" else tuple((g, a) for g, a in (p.split("=", 1) for p in text.split(",")))


def can_from_json(doc: Any) -> Can:
    delta = tuple(((q, Letter(x, d, Mode(m))), r) for q, x, d, m, r in doc["transitions"])
    return Can(doc["states"], delta, tuple(tuple(_outcome(o) for o in m) for m in doc["marks"]))


def state_to_json(s: State) -> JSON:
    inst = s.installed
    return {
        "domain": s.domain, "namespace": s.namespace, "next_id": s.next_id,
        "tree": None if s.tree is None else node_to_json(s.tree),
        "policy": policy_to_json(s.policy), "history": list(s.history), "joined": sorted(s.joined),
        "checkpoints": [[k, {"branch": c.branch, "region": c.region, "gamma": term_to_json(c.gamma),
                             "done": list(c.done), "signature": c.signature}] for k, c in s.checkpoints],
        "rules": [[r, {"kind": e.kind, "left": _term_json(e.left), "right": _term_json(e.right),
                       "join": _term_json(e.join), "region": e.region}] for r, e in s.rules],
        "rules_version": s.rules_version,
        "templates": [list(p) for p in s.templates],
        "actions": [[d, {"label": a.label, "request": a.request, "scope": a.scope}] for d, a in s.actions],
        "authorities": [list(p) for p in s.authorities],
        "requirements": [[r, rec.to_json()] for r, rec in s.requirements],
        "removals": [rec.to_json() for rec in s.removals],
        "calls": [[x, {"action": e.action, "region": e.region, "scope": e.scope, "digest": e.digest}]
                  for x, e in s.calls],
        "entries": [[x, {"entry": e.entry, "version": e.version, "token": e.token}] for x, e in s.entries],
        "processed": [{"call": p.call, "action": p.action, "mode": p.mode.value, "record": p.record,
                       "entry": p.entry, "token": p.token} for p in s.processed],
        "ver": s.ver, "eta": s.eta, "policy_version": s.policy_version,
        "log": [{"id": r.id, "action": r.action, "request": r.request, "creator": r.creator, "label": r.label,
                 "phase": r.phase, "value": r.value} for r in s.log],
        "out": [{"record": o.record, "sent": o.sent} for o in s.out],
        "versions": [list(p) for p in s.versions],
        "automaton": None if s.automaton is None else s.automaton.to_json(), "q": s.q,
        "installed": None if inst is None else {
            "edit": inst.edit, "digest": inst.digest, "tree": node_to_json(inst.tree), "chi_len": inst.chi_len,
            "instance": instance_json(inst.instance)},
        "prepared": [[v, {"edit": p.edit, "digest": p.digest, "from": p.eta_old, "automaton": p.automaton.to_json()}]
                     for v, p in s.prepared],
    }


def state_from_json(d: Any) -> State:
    inst = d["installed"]
    return State(
        domain=d["domain"], namespace=d["namespace"], next_id=d["next_id"],
        tree=None if d["tree"] is None else node_from_json(d["tree"]),
        policy=policy_from_json(d["policy"]), history=tuple(d["history"]), joined=frozenset(d["joined"]),
        checkpoints=tuple((k, Checkpoint(c["branch"], c["region"], term_from_doc(c["gamma"]), tuple(c["done"]),
                                         c["signature"])) for k, c in d["checkpoints"]),
        rules=tuple((r, EditRule(e["kind"], _term_doc(e["left"]), _term_doc(e["right"]), _term_doc(e["join"]),
                                 e["region"])) for r, e in d["rules"]),
        rules_version=d["rules_version"],
        templates=tuple((a, b) for a, b in d["templates"]),
        actions=tuple((k, ActionSpec(a["label"], a["request"], a["scope"])) for k, a in d["actions"]),
        authorities=tuple((a, b) for a, b in d["authorities"]),
        requirements=tuple((r, record_from_json(rec)) for r, rec in d["requirements"]),
        removals=tuple(record_from_json(rec) for rec in d["removals"]),
        calls=tuple((x, CallEntry(e["action"], e["region"], e["scope"], e["digest"])) for x, e in d["calls"]),
        entries=tuple((x, RuleEntry(e["entry"], e["version"], e["token"])) for x, e in d["entries"]),
        processed=tuple(Processed(p["call"], p["action"], Mode(p["mode"]), p["record"], p["entry"], p["token"])
                        for p in d["processed"]),
        ver=d["ver"], eta=d["eta"], policy_version=d["policy_version"],
        log=tuple(AuthRecord(r["id"], r["action"], r["request"], r["creator"], r["label"], r["phase"], r["value"])
                  for r in d["log"]),
        out=tuple(Queued(o["record"], o["sent"]) for o in d["out"]),
        versions=tuple((a, b) for a, b in d["versions"]),
        automaton=None if d["automaton"] is None else can_from_json(d["automaton"]), q=d["q"],
        installed=None if inst is None else Installed(inst["edit"], inst["digest"], node_from_json(inst["tree"]),
                                                      inst["chi_len"], instance_of_json(inst["instance"])),
        # stores written before Preload existed carry no "prepared" field
        prepared=tuple((v, Prepared(p["edit"], p["digest"], p["from"], can_from_json(p["automaton"])))
                       for v, p in d.get("prepared", [])),
    )


def request_digest(text: str) -> str:
    """digest(m°) of a stored canonical request (the digest of the JSON value, not of its text)."""
    return json_digest(loads(text, "<request>"))


def state_text(s: State) -> str:
    return canonical_str(state_to_json(s))


def state_from_text(text: str) -> State:
    return state_from_json(loads(text, "<store>"))


def state_digest(s: State) -> str:
    return json_digest(state_to_json(s))


def core_json(s: State) -> dict[str, Any]:
    """The state without inactive rule versions and their prepared content (what α_S and Θ see)."""
    d = state_to_json(s)
    assert isinstance(d, dict)
    inactive = {v for v, ph in s.versions if ph == "inactive"}
    del d["prepared"]
    d["versions"] = [[v, ph] for v, ph in s.versions if v not in inactive]
    return d


def record_digest(s: State, edit: JSON) -> str:
    """γ(Θ): the digest of the checked record together with the request (Appendix A-C), over
    ``core_json`` — inactive prepared data is not part of Θ (see the module docstring)."""
    return json_digest({"record": core_json(s), "edit": edit})
