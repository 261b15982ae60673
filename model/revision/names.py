"""Every name a user hands ``revise`` must exist in OLD or NEW.

A misspelt name does not fail loudly on its own: an ``--effects`` action no policy mentions restricts
``E`` to effects that cannot happen, so every revision is "Certified" on it; a workload call to a tool
neither policy declares, or made by an agent neither declares, is simply refused under both, so no
client can be lost; a forbidden budget on an action nothing performs is never exceeded, so the safety
delta reads "NoNewForbidden". Each would turn the README's headline regression into a pass. So each
is refused here, as ``InvalidInput`` naming the option or the workload's JSON path and the names that
do exist. Choice: a name must exist in OLD *or* NEW (a revision may add or remove a tool); a constant
resource is not checked, since a wildcard or glob grant may cover resources no policy spells out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.monitor.language.policy import Policy
from model.revision.effects import EffectSet
from model.revision.explore.workload import Workload


def _actions(policies: Iterable[Policy]) -> set[str]:
    known: set[str] = set()
    for p in policies:
        known.update(e.action for t in p.tools for e in t.effects)
        known.update(e.action for e in (*p.user, *p.application))
    return known


def _among(known: set[str]) -> str:
    names = sorted(known)
    shown = ", ".join(names[:12]) + (f", … ({len(names)} in all)" if len(names) > 12 else "")
    return f"(one of {shown})" if names else "(there are none)"


def check_effects_exist(effects: EffectSet, policies: Sequence[Policy], source: str = "--effects") -> None:
    """Refuse an effect class whose action no policy mentions (no tool declares it, no entry names it)."""
    if effects.classes is None:
        return
    known = _actions(policies)
    for c in effects.classes:
        if c.action not in known:
            raise InvalidInput(source, "an action declared by a tool or named by an entry of OLD or NEW "
                               f"{_among(known)}", repr(c.action), InputKind.REFERENCE)


def check_workload_names(workload: Workload, policies: Sequence[Policy], source: str) -> None:
    """Refuse a workload whose agent, call tools, ``$from`` tools or forbidden actions no policy has."""
    def where(*path: str | int) -> Location:
        return Location(source, json_path=json_path(path))

    agents = {a.name for p in policies for a in p.agents}
    if workload.agent not in agents:
        raise InvalidInput(where("agent"), f"an agent of OLD or NEW {_among(agents)}", repr(workload.agent),
                           InputKind.REFERENCE)
    tools = {t.name for p in policies for t in p.tools}
    requirements = {r for p in policies for r in p.requirements}
    for i, t in enumerate(workload.templates):
        if t.satisfy is not None:
            if t.satisfy not in requirements:
                raise InvalidInput(where("calls", i, "satisfy"),
                                   f"a requirement of OLD or NEW {_among(requirements)}", repr(t.satisfy),
                                   InputKind.REFERENCE)
            continue
        if t.tool not in tools:
            raise InvalidInput(where("calls", i, "tool"), f"a tool of OLD or NEW {_among(tools)}", repr(t.tool),
                               InputKind.REFERENCE)
        for arg, v in t.args:
            if v.startswith("$from:") and v[len("$from:"):] not in tools:
                raise InvalidInput(where("calls", i, "args", arg),
                                   f"$from naming a tool of OLD or NEW {_among(tools)}", repr(v[len("$from:"):]),
                                   InputKind.REFERENCE)
    actions = _actions(policies)
    for i, b in enumerate(workload.forbidden):
        if b.action not in actions:
            raise InvalidInput(where("forbidden", i, "action"), f"an action of OLD or NEW {_among(actions)}",
                               repr(b.action), InputKind.REFERENCE)
