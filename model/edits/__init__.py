"""Execution-edit checking (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking
for Execution Edits*, Sections II–VII and the appendices), in two layers:

- ``check/``: the checker of Sections IV and V — workflow contracts and outcome families, the
  authorization policy, Resolve, the fixed point and its three engines, verdicts, the verifier of
  rejection proofs and the canonical automaton of Section VI-A;
- ``runtime/``: the execution record, the edit forms of Table I, ``derive``, the security projection
  and the runtime invariant, the atomic steps and the durable runtime of Sections V-C5 and VI.

``runtime`` depends on ``check``, never the reverse; ``cli.py`` is the shell over both.
"""
