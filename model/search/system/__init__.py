"""A generic bounded search over any finite transition system (``protocol.System``), beside the monitor
engine of ``model/search`` (our design for the missing Section 8 of Agenra, which stays specialised to
monitor states), and the search model of the hold/replay admission protocol of *Policy-Mediated Autonomy
with Resumable Action Attempts* (its Sections "Policy evaluation and precedence", "State transitions,
TOCTOU, and limits" and "Requester, approver, and executor separation") driven by the real admission
services (``admission.py``)."""
