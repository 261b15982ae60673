"""Call plans: the Adapter's fast proof that a call is allowed (Agenra Section 6.2's Allow case; it
is what brings a mediated call to a third of cedarpy's cost).

``admit(plan, session, args, refs)`` returns the verdict ``decide`` would return *when it is Allow*, and
``None`` otherwise (then the Adapter asks ``decide``, on its public state, for the exact Deny or Pause), and
for every case this file does not evaluate: history rules, a chosen grant that needs an exact-call permit,
a resource without an equality key, an exception while matching. Allow is the conjunction of every check
of ``compiled_decide.decide_compiled`` (preparation, Struct and ceiling, no explicit deny, a matching and
ready allow per (effect, list), origins, flow, first-fit capacity on both lists), so their order does not
matter here; they use its compiled index and matchers on the live ``Session`` (same fields).

What a plan keeps, per (compiled policy, tool, agent), and why it is exact:
- Struct's verdict (label independent) and the agent's ceiling rank, as ``Compiled.struct`` memoizes.
- Per input label, or tuple of the parents' labels (by identity, the label objects kept alongside):
  the output label (``join``, ``propagate``) and whether the ceiling and the flow rules pass. Labels
  are values, so equal inputs give equal outputs; identity only decides whether the memo can be used.
- Effects of a tool whose resources are constants or string arguments, by the argument strings
  (``call_effects`` is a function of those).
- Per effects object, whether first-fit's choice is fixed (``Plan.fix``: no deny candidate, each first
  candidate ready and needing no permit); then a call checks only those candidates' state-dependent
  matches (slots, ``keys``, predicates) and their capacity, and takes the general matching and
  ``compiled_decide.first_fit`` when any check fails.
- Allow verdicts by (effects, label, user positions, application positions): a verdict is a value of
  exactly these (the permit is always ``None`` here). Memo keys holding an object's ``id`` keep the
  object in the entry, so an equal id is the same object.
Memo tables are bounded (``_MEMO``), so calls with ever-new strings cost a recomputation, not memory.
"""

from __future__ import annotations

from collections.abc import Mapping

from model.base.canonical import JSON
from model.monitor.adapter.live_state import Session
from model.monitor.adapter.plan_match import matched_first_fit
from model.monitor.decide.compiled import NOKEY, SLOT, Compiled, CompiledEntry, CompiledTool, scalar_key
from model.monitor.decide.ledger import Allocation
from model.monitor.decide.matching import Effect, call_effects
from model.monitor.decide.origins import produced_by
from model.monitor.decide.verdict import Decision, Verdict
from model.monitor.language.labels import Label
from model.monitor.language.policy import ArgRes, ConstRes

_MEMO = 256

# effects, the positions first-fit chooses on both lists (None: not fixed), the matches to check per call
# and the capacity checks per call: (list, position, quota, times first-fit reserves it for these effects)
_Fixed = tuple[tuple[Effect, ...], tuple[tuple[int, ...], tuple[int, ...]] | None,
               tuple[tuple["CompiledEntry", JSON], ...],
               tuple[tuple[int, int, int, int], ...]]


class Plan:
    __slots__ = ("arg_names", "c", "ceiling", "ct", "effects", "fixed", "joins", "labels", "source", "verdicts")

    def __init__(self, c: Compiled, ct: CompiledTool, ceiling: int) -> None:
        self.c = c
        self.ct = ct
        self.ceiling = ceiling
        self.effects: dict[tuple[str, ...], tuple[Effect, ...]] = {}
        # the arguments naming resources, when every resource is a constant or one argument
        decls = ct.decl.effects
        simple = all(isinstance(d.resource, ConstRes | ArgRes) for d in decls)
        self.arg_names = tuple(d.resource.arg for d in decls if isinstance(d.resource, ArgRes)) if simple else None
        self.labels: dict[int, tuple[Label, Label, bool]] = {}
        # joins of several parents' labels, by the parents' label objects (kept in the entry)
        self.joins: dict[tuple[int, ...], tuple[tuple[Label, ...], tuple[Label, Label, bool]]] = {}
        self.source = self.label_of(ct.source_label)  # a call without handles starts from its source
        self.fixed: dict[int, _Fixed] = {}
        self.verdicts: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], tuple[object, Verdict]] = {}

    def effects_of(self, args: Mapping[str, JSON]) -> tuple[tuple[Effect, ...] | None, bool]:
        """The call's effects (``None``: malformed, ``decide`` says how) and whether the object is kept
        by this plan (then it can key the verdict memo)."""
        fixed = self.ct.const_effects
        if fixed is not None:
            return fixed, True
        names = self.arg_names
        key: tuple[str, ...] | None = None
        if names is not None:
            if len(names) == 1:
                v = args.get(names[0])
                vals: tuple[str, ...] = (v,) if type(v) is str else ()
            else:
                vals = tuple(v for v in (args.get(n) for n in names) if type(v) is str)
            if len(vals) == len(names):
                key = vals
                hit = self.effects.get(vals)
                if hit is not None:
                    return hit, True
        found = call_effects(self.ct.decl, args)
        if isinstance(found, str):
            return None, False
        if key is not None and len(self.effects) < _MEMO:
            self.effects[key] = found
            return found, True
        return found, False

    def fix(self, effects: tuple[Effect, ...], s: Session) -> _Fixed:
        """Whether first-fit's choice for these effects is fixed: no deny entry is a candidate for any of
        them, and on each list the first candidate of each effect needs no requirement and no permit.
        Then, whenever each of those first candidates matches (the checks kept: a slot, ``keys`` or
        predicates; the others match whatever the state) and has capacity for every reservation these
        effects make of it (``used + times <= quota``: the i-th reservation needs ``used + i < quota``),
        they are the allows first-fit chooses, so their positions are the allocation. Kept by the effects'
        identity."""
        c = self.c
        fixed: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        checks: list[tuple[CompiledEntry, JSON]] = []
        capacity: list[tuple[int, int, int, int]] = []
        for side in c.deny_sides:
            for eff in effects:
                act = side.actions.get(eff.action)
                k = scalar_key(eff.resource)
                if act is not None and act.deny_all and (k is NOKEY or act.deny_by.get(k, act.deny_other)):
                    break
            else:
                continue
            break
        else:
            chosen: list[tuple[int, ...]] = []
            for side in c.sides:
                positions: list[int] = []
                for eff in effects:
                    act = side.actions.get(eff.action)
                    k = scalar_key(eff.resource)
                    cands = () if act is None or k is NOKEY else act.allow_by.get(k, act.allow_other)
                    e = cands[0] if cands else None
                    if e is None or e.requires is not None or side.permit[e.pos]:
                        break
                    if e.res == SLOT or e.keys is not None or e.preds:
                        checks.append((e, eff.resource))
                    elif not e.matches(eff.resource, True, {}, s):  # (a glob: decided by the resource alone)
                        break
                    positions.append(e.pos)
                else:
                    chosen.append(tuple(positions))
                    continue
                break
            else:
                fixed = (chosen[0], chosen[1])
                for i, side in enumerate(c.sides):
                    for k in dict.fromkeys(chosen[i]):
                        quota = side.quotas[k]
                        if quota is not None:
                            capacity.append((i, k, quota, chosen[i].count(k)))
        entry = (effects, fixed, tuple(checks), tuple(capacity))
        if len(self.fixed) < _MEMO:
            self.fixed[id(effects)] = entry
        return entry

    def label_of(self, label_in: Label) -> tuple[Label, Label, bool]:
        """(input, output label, ceiling and flow both pass)."""
        c, ct = self.c, self.ct
        out = c.propagate(ct, label_in)
        tool = ct.decl
        ok = c.rank[out.sensitivity] <= self.ceiling and c.flow_allows(tool.operation, tool.destination, out)
        entry = (label_in, out, ok)
        if len(self.labels) < _MEMO:
            self.labels[id(label_in)] = entry
        return entry


def plan_for(c: Compiled, tool: str, agent: str) -> Plan | None:
    """The plan of ``tool`` called by ``agent``, or ``None`` when no call of it can be admitted here
    (unknown tool or agent, a Struct failure) or the policy has history rules or uses an extension beyond
    Agenra (pause, request or audience sinks: ``flow.extension_flow``) (``decide`` decides)."""
    key = (tool, agent)
    hit = c.plans.get(key)
    if hit is not None or key in c.plans:
        return hit
    ct = c.tools.get(tool)
    plan: Plan | None = None
    if ct is not None and not c.policy.histories and not c.extended:
        fail, ceiling = c.struct(ct, agent)
        if fail is None and ceiling is not None:
            plan = Plan(c, ct, ceiling)
    if len(c.plans) < _MEMO:
        c.plans[key] = plan
    return plan


def admit(plan: Plan, s: Session, args: Mapping[str, JSON], refs: tuple[tuple[str, int], ...]) -> Verdict | None:
    """The Allow verdict of ``decide`` for this call on the session's state, or ``None`` (ask ``decide``)."""
    c, ct = plan.c, plan.ct
    # preparation
    if not ct.args.issuperset(args) or not ct.required.issubset(args):
        return None
    rows = s.rows
    n = len(rows)
    for name, d in refs:
        if name not in args or not 0 <= d < n or not rows[d].succeeded:
            return None
    effects, kept = plan.effects_of(args)
    if effects is None:
        return None
    # the output label, the ceiling and the flow rules
    if not refs:
        hit = plan.source
    elif len(refs) == 1:
        label_in = rows[refs[0][1]].label
        known = plan.labels.get(id(label_in))
        hit = known if known is not None else plan.label_of(label_in)
    else:
        seen: list[int] = []
        for _, d in refs:  # the parents: distinct, in argument-name order
            if d not in seen:
                seen.append(d)
        if len(seen) == 2:
            l0, l1 = rows[seen[0]].label, rows[seen[1]].label
            inputs: tuple[Label, ...] = (l0, l1)
            ids: tuple[int, ...] = (id(l0), id(l1))
        else:
            inputs = tuple([rows[d].label for d in seen])
            ids = tuple([id(x) for x in inputs])
        found = plan.joins.get(ids)
        if found is not None:  # (the entry keeps its labels alive: equal ids are the same objects)
            hit = found[1]
        else:
            hit = plan.label_of(c.join(list(inputs)))
            if len(plan.joins) < _MEMO:
                plan.joins[ids] = (inputs, hit)
    label = hit[1]
    if not hit[2]:
        return None
    fixed = plan.fixed.get(id(effects)) if kept else None
    if fixed is None and kept:
        fixed = plan.fix(effects, s)
    found_chosen = fixed[1] if fixed is not None else None
    if found_chosen is not None:
        assert fixed is not None
        for e, r in fixed[2]:
            if not e.matches(r, True, args, s):
                found_chosen = None
                break
        else:
            for i, k, quota, times in fixed[3]:
                if (s.user.counts if i == 0 else s.app.counts).get(k, 0) + times > quota:
                    found_chosen = None
                    break
    if found_chosen is None:
        found_chosen = matched_first_fit(c, s, effects, args)
        if found_chosen is None:
            return None
    chosen = found_chosen
    # origins
    if ct.origins:
        by_name = dict(refs)
        for rule in ct.origins:
            ref = by_name.get(rule.argument)
            if ref is None or not produced_by(s, ref, rule):
                return None
    user, app = chosen
    if c.permits and (any(c.sides[0].permit[k] for k in user) or any(c.sides[1].permit[k] for k in app)):
        return None  # the permit check needs the exact call: ``decide`` makes it
    key = (id(effects), id(label), user, app)
    memo = plan.verdicts.get(key)
    if memo is not None:  # (the entry keeps its effects and label alive: equal ids are the same objects)
        return memo[1]
    verdict = Verdict(Decision.ALLOW, None, "", effects, label, Allocation(user, c.sides[0].size),
                      Allocation(app, c.sides[1].size))
    if kept and len(plan.verdicts) < _MEMO:
        plan.verdicts[key] = (effects, verdict)
    return verdict
