"""The Agenra run-time monitor (agenra-stateful-agent-authorization.md, Sections 2–6 and the
exact-call permits of Section 3/Table 1)."""
