"""Clients for independent implementations: the Lean oracle executable (issue 8)."""
