"""Bindings of the monitor to third-party agent benchmarks (optional extras; see each subpackage)."""
