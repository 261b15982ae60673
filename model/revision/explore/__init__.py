"""Bounded searches for revisions (Agenra Sections 1 and 7.1): the client workload, breadth-first
exploration of the product of two monitors, mid-task prefixes and replay through the real monitor, the
counterexample search, and the memo one revision check shares between its questions."""
