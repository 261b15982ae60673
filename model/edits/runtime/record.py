"""The execution record ``H = (ω, G, T, K, Σ_ζ, ρ, β, χ, ver, η)`` with ``(κ, Δ, out, 𝒜)`` and the
runtime's rule state (*Exact Checking for Execution Edits*, Sections IV-B, IV-C, VI-B and Appendix A-I).

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

from model.edits.check.can import Can
from model.edits.check.contract import Term, call_ids
from model.edits.check.edit_policy import PolicyAutomaton
from model.edits.check.instance import Instance
from model.edits.check.resolve import Mode
from model.edits.runtime.requirements import SignedRecord
from model.edits.runtime.tree import Node, contract_of


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
