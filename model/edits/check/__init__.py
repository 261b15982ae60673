"""The edit checker of *When Can Agents Safely Checkpoint, Fork, Restore, and Merge? Exact Checking for
Execution Edits* (Sections IV and V, Appendices A-A to A-D): workflow contracts and outcome families,
the authorization policy and its regular expressions, Resolve, the fixed point ``B̂_{i+1} = Φ̂(B̂_i)``
computed by the declarative, explicit and symbolic engines, the canonical automaton Can(W, B) of Section
VI-A, verdicts and the independent verifier of rejection proofs. Nothing here knows the execution record
or the runtime (``edits/runtime``), which depends on this package and never the reverse."""
