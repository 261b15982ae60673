"""Wired deployments of both admission protocols and what runs them: ``deployment`` (the
report-publishing trace of *Policy-Mediated Autonomy with Resumable Action Attempts* as runnable
code), ``release_deployment`` (the signed-approval pipeline of the Parmana paper, Sections 4.2–4.6),
``demo`` (the walk-through behind ``agentwarrant admit demo``), ``explore`` (bounded exploration of
the hold/replay protocol over every interleaving) and ``fleet`` (release gateways racing on one
nonce store under faults, Section 4.4). Nothing in the admission package imports this one but
``cli.py``.
"""
