"""Admission protocols for the tool calls of LLM agents, from two papers, in five subpackages:

- ``signatures/``: Ed25519 keys and instants, the signature suites (Ed25519; Ed25519 + ML-DSA-65)
  and forms (raw; KMS commitment), signed hash-chained records and the per-caller
  authentication-event chain, all verifiable offline (the Parmana paper, Section 4.5);
- ``resumable/``: tenant-policy admission with held, replayable attempts (*Policy-Mediated Autonomy
  with Resumable Action Attempts*, all four of its protocol sections): the tenant policy's
  restrictive join, the invocation envelope, the attempt state machine and its durable store, the
  admission, approval and replay services, the effect handler under the requester's current
  authority, and the permit holder;
- ``decision/``: what a Parmana decision rests on (the Parmana paper, Sections 4.1–4.3 and 4.6):
  API keys scoped to capabilities, principals and tenant; the first-match signed policy; signed
  single-use approvals, the nonces (with reservations and leases) that make them single use, and
  maker-checker governance of policies and approvers;
- ``release/``: execution authorizations, the decision runtime and the release gate, the only path
  to a connector, and execution control (the Parmana paper, Section 4.4);
- ``deployments/``: small wired deployments of both protocols and what runs them: the walk-through
  behind ``agentwarrant admit demo``, the bounded exploration of the hold/replay protocol, and a
  fleet of release gateways on one nonce store.

``refusal.py`` (the closed type of every refusal) and ``tools.py`` (the connector registry) are
shared by both protocols; ``cli.py`` is the shell. Dependencies point one way: ``signatures`` needs
no other subpackage; ``resumable`` and ``decision`` need only ``signatures``; ``release`` needs
``decision`` and ``signatures``; ``deployments`` and ``cli.py`` need the rest. The monitor's
exact-call permits use ``model.admission.decision.evidence.verify_approval_evidence``; the edit
runtime signs with ``model.base.signing.KeyPair``.
"""
