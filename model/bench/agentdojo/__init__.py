"""AgentDojo (PyPI ``agentdojo``, extra ``agentdojo``) bound to the Agenra monitor (Sections 2–6)
and replayed offline.

``suites`` loads AgentDojo's suites and our policies for them (``corpus/agentdojo/``), ``binding``
runs AgentDojo's own tool functions on its own environments through the precise Adapter with value
provenance, ``replay`` runs ground-truth call sequences and AgentDojo's utility and security checks,
``finite`` derives a bounded-search model from a suite. Nothing here needs a language model or a
network: AgentDojo ships its environments as YAML inside the package.
"""
