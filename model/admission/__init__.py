"""Admission protocols: tenant-policy admission with held attempts and replay (*Policy-Mediated
Autonomy with Resumable Action Attempts*, its protocol sections), and signed single-use approvals,
execution authorizations and offline-verifiable records (the Parmana paper, Sections 3–7).

The monitor's exact-call permits use ``model.admission.evidence.verify_approval_evidence``.
"""
