"""The encoded search's compiled decision (``intcode.Static.prequota``): for a model whose monitor steps
before first-fit read no part of the state for a call without handles, those steps per argument names and
choice of literals, computed once per model; a search then decides such a call by first-fit on the state's
counters (``compiled_decide.after_quota``). Our design for the missing Section 8 of Agenra (the search's
encoding); the steps are the monitor's own (``compiled_decide.before_quota``), split at first-fit, so the
compiled and the monitor's decision run the same code. Choice: literals only (a handle's record is read
for its label), and no table past ``PREQUOTA_LIMIT`` combinations per argument names (the monitor decides
those calls).
"""

from __future__ import annotations

import itertools
from typing import Any

from model.monitor.decide.compiled import SLOT, compiled
from model.monitor.decide.compiled_decide import before_quota
from model.monitor.decide.state import Call, State
from model.search.expand import Context
from model.search.model import SearchModel

PREQUOTA_LIMIT = 4096  # literal combinations per argument names above which ``prequota`` tables none


def prequota_applies(model: SearchModel) -> bool:
    """Whether ``before_quota`` (the decision's steps before first-fit) reads no part of the state for a
    call without handles: no history rule, exact-call permit or extension (pause, request or audience
    sinks), and no allow or deny entry whose resource is a slot or that requires a requirement. The
    steps then read the state only through the handles (their records' success and labels): without
    handles the label is the tool's source label, an origin rule refuses, and entry matching, the slot
    reason and the Pause read the call alone. Steps 7' and 8 then add nothing, so the decision is
    ``after_quota`` on the state's counters."""
    c = compiled(model.policy)
    if c.permits or c.extended or model.policy.histories:
        return False
    return not any(e.res == SLOT or e.requires is not None for side in c.sides for act in side.actions.values()
                   for e in (*act.allow_all, *act.deny_all))


def prequota(model: SearchModel, proto: Context, names: list[tuple[str, tuple[str, ...]]],
             lits: list[int]) -> list[dict[tuple[int, ...], Any] | None]:
    """Per argument names, ``before_quota`` of every call whose arguments are all literals, keyed by the
    literals' content ids (``held``'s ``("L", value)``); None where ``prequota_applies`` fails or the
    combinations exceed ``PREQUOTA_LIMIT``. A function of the model alone (see ``prequota_applies``)."""
    if not prequota_applies(model):
        return [None] * len(names)
    c = compiled(model.policy)
    none = State((), (), frozenset(), (), (), frozenset(), ())
    values = [proto.value(v) for v in model.literals]
    out: list[dict[tuple[int, ...], Any] | None] = []
    for tool, ns in names:
        if len(lits) ** len(ns) > PREQUOTA_LIMIT:
            out.append(None)
            continue
        table: dict[tuple[int, ...], Any] = {}
        for combo in itertools.product(range(len(lits)), repeat=len(ns)):
            call = Call(model.agent, tool, {n: values[i] for n, i in zip(ns, combo, strict=True)}, (), ())
            table[tuple(lits[i] for i in combo)] = before_quota(c, none, call)
        out.append(table)
    return out


__all__ = ["PREQUOTA_LIMIT", "prequota", "prequota_applies"]
