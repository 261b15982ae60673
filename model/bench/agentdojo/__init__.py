"""AgentDojo (PyPI ``agentdojo``, extra ``agentdojo``) bound to the Agenra monitor (Sections 2–6)
and replayed offline.

``suites`` loads AgentDojo's suites and our policies for them (``corpus/agentdojo/``), ``environment``
builds its environments carrying injections, ``variants`` writes the injection texts from AgentDojo's
goals, ``binding`` runs AgentDojo's own tool functions through the precise Adapter (and keeps the
string-matching provenance baseline), ``session`` replays calls with exact provenance, the injected
results, harm and approvals, ``replay`` runs ground truths in both placements and applies AgentDojo's
utility and security checks, ``evaluate`` counts, ``finite`` derives a bounded-search model. Nothing
here needs a language model or a network: AgentDojo ships its environments as YAML in the package.
"""
