"""The Agenra run-time monitor (*Agenra: A Language and Verified Core for Stateful LLM Agent
Authorization*, Sections 2–6 and the exact-call permits of Section 3 and Table 1), in three layers:

- ``language/``: the policy language of Sections 4–5 (labels, declarations, text and JSON forms,
  registration checks);
- ``decide/``: the pure decision ``D(S, c)`` and the Allow commit of Section 6 over state ``S``;
- ``adapter/``: the imperative shell of Sections 2–3 (the precise adapter, its value store, handles,
  session, call plans) and the report task of Table 1.

Each layer imports only the ones above it in this list; ``cli.py`` is the shell over all three.
"""
