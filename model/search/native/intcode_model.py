"""Per-model pieces of the integer-encoded search (``intcode.py``, whose module docstring says what each
table means), split from it: what reads the model alone — whether a tool's label refusals, permits and
producer chains are read (``intcode.abstract``'s parts), the argument refusals by one value
(``refused_alone``), the outcomes of every call of literals admitted in the initial state's slots
(``root_outcomes``, kept in ``intcode.Static``) — and the one-step cone of a goal reached from the initial
state (``goal_call``). Our design for the missing Section 8 of Agenra."""

from __future__ import annotations

import json
from typing import Any

from model.base.canonical import JSON, canonical_str
from model.monitor.decide.base import Decision
from model.monitor.decide.commit import commit
from model.monitor.decide.compiled import compiled
from model.monitor.decide.compiled_decide import after_quota
from model.monitor.decide.matching import resource_matches
from model.monitor.decide.state import Call, State
from model.search.compact import ARGS, OUTCOME, TOOL, Compact, Materializer, Rec
from model.search.expand import Context, outcome_of
from model.search.model import ArgPattern, Not, Produced, SearchModel
from model.search.search_verdict import Step
from model.search.states import AgentCall, Lit


def scalar_resource(v: JSON) -> bool:
    """Whether ``v`` can be an effect's resource (``matching.call_effects``: a JSON scalar, not null)."""
    return v is not None and isinstance(v, str | int | float | bool)


def label_refusals(model: SearchModel) -> bool:
    """Whether a flow Pause by the output label into the tool's destination is a refusal by the label
    (``Compiler.by_label``): when no state holds a permit — the model has no approvals —, since a permit
    could answer it. The other refusals by the label alone hold whatever the permits."""
    return not model.approvals


def reads_permits(model: SearchModel, tool: str) -> bool:
    """Whether the monitor's verdict on a call of ``tool`` can read the state's permits: only at the
    exact-call permit check, reached when the extensions pause the call (a pause rule exists) or a grant
    first-fit chose requires a permit (an entry marked ``permit`` of one of the tool's effect actions)."""
    c = compiled(model.policy)
    if c.extended:
        return True
    decl = c.tools[tool].decl
    actions = {d.action for d in decl.effects}
    return any(e.permit and e.action in actions for e in (*model.policy.user, *model.policy.application))


def reads_producers(p: ArgPattern) -> bool:
    """Whether ``p`` reads the record a handle names (``produced_by``, under any negation)."""
    return isinstance(p, Produced) or (isinstance(p, Not) and reads_producers(p.pattern))


def refused_alone(effects: tuple[tuple[bool, tuple[tuple[Any, ...], ...]], ...], value: JSON, slots: State) -> int:
    """``Compiler.argref``'s answer for an argument's effects (``Static.arg_effects``) and value under the
    slots and invalid set of ``slots``."""
    for is_list, sides in effects:
        if not is_list:
            if not scalar_resource(value):
                return 1
            items: list[JSON] = [value]
        else:
            if not isinstance(value, list) or not value or not all(scalar_resource(x) for x in value):
                return 1
            items = value
        for allows in sides:
            if any(not any(resource_matches(pat, x, slots) for pat in allows) for x in items):
                return 1
    return 0


def goal_call(rec: Rec) -> Step:
    """``completions.cone``'s one step for a goal reached from the initial state (no record, requirement or
    permit before the call): the call's record is the only one, so it names none, no other record counts
    towards the query or binds a slot, and its arguments are all literals — the step is its tool, its
    arguments as canonical literal texts in name order and its outcome, read off the compact record without
    materializing the state (``test_search_intcode`` checks it against ``cone``)."""
    args: dict[str, JSON] = json.loads(rec[ARGS])
    return Step(AgentCall(rec[TOOL], tuple(sorted((a, Lit(canonical_str(v))) for a, v in args.items()))),
                rec[OUTCOME])


#: calls of literals whose outcomes ``root_outcomes`` computes per model, at most
ROOT_OUTS_LIMIT = 4096


def root_outcomes(model: SearchModel, proto: Context, names: list[tuple[str, tuple[str, ...]]], lits: list[int],
                  tables: list[dict[tuple[int, ...], Any] | None], reuse: list[bool],
                  root: Compact) -> dict[Any, tuple[Any, ...]]:
    """``Compiler.outs``' entries for the initial state's slots and invalid set: per argument names whose
    outcomes are reusable (``reuse``) and call of literals (keyed by their content ids ``lits``) whose steps
    before first-fit ``Static.prequota`` passed (``tables``), the outcomes of the call admitted in the
    initial state, keyed as ``Compiler.outs`` keys them. A function of the model alone: those outcomes read
    the call, the slots and the invalid set and no counter (``Compiler.outs``), so every admission of that
    call in a state with these slots and invalid set has them; and they are made for every such call,
    reached or not, so nothing a search reaches is kept. A call first-fit
    refuses in the initial state is left out: with no entry requiring a requirement
    (``prequota.prequota_applies``) and counters that only grow, no state admits it. At most
    ``ROOT_OUTS_LIMIT`` calls; a call beyond them has its outcomes computed by the search that admits it."""
    out: dict[Any, tuple[Any, ...]] = {}
    c = compiled(model.policy)
    mat = Materializer(model.agent, model.policy)
    mon = mat.monitor(root)
    ss = mat.search_state(root, mon)
    values = {lit: proto.value(v) for lit, v in zip(lits, model.literals, strict=True)}
    left = ROOT_OUTS_LIMIT
    for ni, ((tool, ns), table) in enumerate(zip(names, tables, strict=True)):
        if table is None or not reuse[ni]:
            continue
        results = proto.results[tool]
        for key, pre in table.items():
            if type(pre) is not tuple:
                continue
            if left == 0:
                return out
            left -= 1
            call = Call(model.agent, tool, {n: values[lit] for n, lit in zip(ns, key, strict=True)}, (), ())
            verdict = after_quota(c, mon, call, *pre)
            if verdict.decision is not Decision.ALLOW:
                continue
            committed = commit(model.policy, mon, call, verdict) if len(results) > 1 else None
            out[(ni, key, root[1], root[2])] = tuple(outcome_of(proto, ss, call, (), verdict, k, res, committed, False)
                                                     for k, res in enumerate(results))
    return out



__all__ = ["ROOT_OUTS_LIMIT", "goal_call", "label_refusals", "reads_permits", "reads_producers", "refused_alone",
           "root_outcomes", "scalar_resource"]
