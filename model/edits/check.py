"""``check(instance, engine) -> Accepted | Rejected | Invalid`` (Section V-C5).

Well-formedness first (``Invalid`` with its reason: the paper's undefined derivation), then one
of the three engines. Every answer carries the digest of the checked instance — the SHA-256 of
its canonical JSON (``instance_to_json``), our stand-in for the record digest γ(Θ) of Appendix
A-C until the execution record of the next issue exists. Engine size caps fail closed by raising
``InvalidInput`` (no verdict is produced for an instance an engine will not decide).
"""

from __future__ import annotations

from model.canonical import digest as json_digest
from model.edits import declarative, explicit, symbolic
from model.edits.instance import Instance, instance_to_json
from model.edits.verdict import Engine, Invalid, Verdict
from model.edits.wellformed import check_wellformed


def instance_digest(inst: Instance) -> str:
    return json_digest(instance_to_json(inst))


def check(inst: Instance, engine: Engine = Engine.SYMBOLIC) -> Verdict:
    dg = instance_digest(inst)
    bad = check_wellformed(inst)
    if bad is not None:
        return Invalid(bad[0], bad[1], dg)
    if engine is Engine.DECLARATIVE:
        return declarative.run(inst, dg)
    if engine is Engine.EXPLICIT:
        return explicit.run(inst, dg)
    return symbolic.run(inst, dg)
