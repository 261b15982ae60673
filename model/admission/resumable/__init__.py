"""Resumable action attempts (*Policy-Mediated Autonomy with Resumable Action Attempts*, all four of
its Sections): ``tenant_policy`` ("Policy evaluation and precedence": deny ≻ require-review ≻
allow), ``envelope`` ("Admission control is not execution authority": the invocation envelope bound
to the requester's identity), ``attempts`` and ``attempt_store`` ("State transitions, TOCTOU, and
limits": the state machine and its durable form on SQLite or PostgreSQL), ``admission_service``,
``review`` and ``replay`` (the three services), ``handler`` and ``authority`` ("Requester, approver,
and executor separation": the effect owner checks the requester's current authority) and
``permits`` (the permit holder, a fourth authority). Imports only ``signatures``, ``refusal`` and
``tools`` from the rest of the admission package.
"""
