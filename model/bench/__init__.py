"""Bindings of the Agenra monitor (Sections 2–6) to third-party agent benchmarks (optional extras; see
each subpackage)."""
