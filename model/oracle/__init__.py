"""Clients for independent implementations: the Lean oracle executable built from ``lean/`` (the finite
edit checker of *When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking for
Execution Edits*, Section V, and the Agenra monitor's labels, first-fit ledger and closed-core step,
Sections 4–6) and differential testing of this model against it."""
