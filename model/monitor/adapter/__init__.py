"""The imperative shell around the Agenra monitor (Sections 2, 3 and 6.2): the precise adapter with its
value store and opaque handles, its mutable session and call plans, the reference tools of the report
task, trace runs and Table 1. Built on ``monitor/decide`` and ``monitor/language``."""
