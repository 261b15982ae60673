"""Execution-edit checking (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking
for Execution Edits*, Sections II–VII and the appendices), in two layers and a check between them:

- ``check/``: the checker of Sections IV and V — workflow contracts and outcome families, the
  authorization policy, Resolve, the fixed point and its three engines, verdicts, the verifier of
  rejection proofs and the canonical automaton of Section VI-A;
- ``runtime/``: the execution record, the edit forms of Table I, ``derive``, the security projection
  and the runtime invariant, the atomic steps and the durable runtime of Sections V-C5 and VI, and
  registration (``CheckReg`` of a typed workflow, Section IV-C and Appendix A-G);
- ``ideal/``: the ideal atomic machine of Appendix A-H and the bounded weak-bisimulation check of
  Appendix A-L between it and the durable runtime.

``runtime`` depends on ``check``, never the reverse; ``ideal`` depends on both and nothing depends on
it; ``cli.py`` is the shell over ``check`` and ``runtime``.
"""
