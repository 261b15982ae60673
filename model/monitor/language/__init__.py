"""The policy language of *Agenra: A Language and Verified Core for Stateful LLM Agent Authorization*
(Sections 4–5): labels and their join, the frozen policy values, the text syntax (``policy.lark``) and
its printer, the JSON form, and the registration checks of Section 6.1. Depends on nothing else in the
monitor."""
