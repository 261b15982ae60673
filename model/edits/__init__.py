"""Execution-edit checking (execution-edit-checking.md): contracts, policy, Resolve, the fixed point."""
