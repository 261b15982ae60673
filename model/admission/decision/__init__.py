"""What a decision of the signed-approval pipeline rests on (the Parmana paper, Sections 4.1–4.3
and 4.6): ``api_keys`` (keys scoped to capabilities, principals and tenant), ``signed_policy`` (the
versioned, first-match policy over typed, intent-bound and approval signals), ``approvals`` (signed
human approvals bound to action, resource and amount), ``nonces`` (spent atomically, so that
approvals and authorizations are single use; the reservations and leases a release gate recovers
from), ``evidence`` (the one entry point through which another system, the monitor's exact-call
permits, accepts an approval) and ``governance`` (maker-checker changes to policies and approver
keys). Imports only ``signatures`` and ``refusal`` from the rest of the admission package.
"""
