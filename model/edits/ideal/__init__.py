"""The ideal atomic execution machine and the bounded weak-bisimulation check against the durable
runtime (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendix A-H and Appendix A-L):
``machine`` (the ideal machine and its observations), ``driven`` (the runtime as an Agent drives it,
with deliberately broken variants) and ``bisim`` (sessions, their enumeration and comparison).
Depends on ``check`` and ``runtime``; nothing depends on it.
"""
