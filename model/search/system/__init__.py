"""A generic bounded search over any finite transition system (``protocol.System``), beside the monitor
engine of ``model/search`` (which stays specialised to Agenra monitor states), and the search model of
the hold/replay admission protocol of *Policy-Mediated Autonomy with Resumable Action Attempts* driven by
the real admission services (``admission.py``)."""
