"""The execution record and the durable runtime of *When Can Agents Safely Checkpoint, Fork, Restore, and
Merge? Exact Checking for Execution Edits* (Sections II, III, V-A, V-C5 and VI): the record ``H``, the
edit forms of Table I, the judgment ``derive``, the security projection ``Sec`` and the runtime
invariant, the atomic steps as pure functions, and the trusted shell that journals them in SQLite. Each
edit is checked by ``edits/check``."""
