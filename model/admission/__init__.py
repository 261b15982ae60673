"""Admission protocols: tenant-policy admission with held attempts and replay
(resumable-action-attempts.md), and signed single-use approvals, execution authorizations and
offline-verifiable records (parmana-signed-approvals.md, Sections 3–7).

The monitor's exact-call permits use ``model.admission.evidence.verify_approval_evidence``.
"""
