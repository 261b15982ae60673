"""The monitor's decision of *Agenra* (Sections 4.3–6.3): state ``S`` and proposed calls, effects and the
matching predicate, first-fit ledgers and usage counters, origins, flow and history rules, the decision
``D(S, c)`` in its literal and compiled forms, the Allow commit, exact-call permits and verdicts. Pure
functions over the policy of ``monitor/language``."""
