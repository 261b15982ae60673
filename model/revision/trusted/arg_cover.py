"""A simulation certificate's effect coverage (Agenra Section 7.1) asked of the Lean judgment ``arg_cover``
(lean/AgentWarrant/Oracle/ArgCover.lean), which decides it over every valuation of the effect's resource and
arguments (theorems ``AgentWarrant.Revision.ArgCover.argCoveredSound``/``argUncoveredSound``); the same
question ``side_conditions.covers`` asks Z3. Each literal written here means, on the value the monitor reads,
what the monitor's matching means (``resGlobLit``, ``resConstLit``, ``predEqLit``, ``predOneOfLit``,
``predRangeLit`` in lean/AgentWarrant/Thm/Revision/ArgCoverMatch.lean), and ``posOfMatches``
(lean/AgentWarrant/Thm/Revision/ArgCoverBuild.lean) states that Lean's positions, written in the shape
written here (a null resource constant included: its literal is ``isNull``; a slot pattern as its variable,
``slotConjMeans``; a key allowlist as "every other key absent", ``keyConjMeans``), are the monitor's
``grantMatches``; that the code below writes exactly those clauses is not proved, only compared
(tests/drt/test_arg_cover.py). An entry whose resource pattern is an array or object constant it writes as
never matching, as Lean's ``wayQR`` does (lean/AgentWarrant/Spec/Revision/ArgCoverResA.lean), which
``oracleAnswerCoverR`` proves is the monitor's matching on every call it prepares when no tool declares an
array or object resource constant: an argument resource and a list argument's element are scalars by
preparation's checks, and registration refuses an array or object resource constant (Lean's model keeps
any constant, so there it is the theorem's hypothesis).

Lean now writes the question itself for entries in its fragment (scalar or null constants; globs, slot
patterns, key allowlists and predicates included; an equality or one-of predicate against an array or object
constant too, written ``["json", c]`` by ``wayQA`` in lean/AgentWarrant/Spec/Revision/ArgCoverBuildA.lean and
proved to mean the monitor's matching for every call the monitor prepares whose values at those predicates'
paths pass the oracle's checks, ``leanWrittenCoverageIsMonitorMatchingA``: a hypothesis about the call, not
proved here and needed, ``needsAdm``): ``lean_covers`` first sends the
entries, tools and ``E`` as they are to the judgment ``arg_cover_policy`` (``wayQ`` in
lean/AgentWarrant/Spec/Revision/ArgCoverBuild.lean for scalar or null constants,
whose question is proved to mean the monitor's ``grantMatches`` for every call the monitor prepares on a
reachable state: ``preparedCoverMatches``; that a key's value is present exactly when the call has that
argument is proved from ``Json.mkObj``'s search tree, and that the call's keys are the action's and a slot's
bound value is a scalar other than the empty string from preparation and result processing; ``wayQR`` for
other constants, an entry whose resource pattern is an array or object constant never matching), and writes
the question here, for ``arg_cover``, only for an action Lean answers ``outside`` on (naming each entry whose
predicate constant fails its checks, which its input check refuses first). A binding class's question
(``facts``, below) Lean writes itself too, from the class's facts as they are (``class_question``, judgment
``arg_cover_class``: ``classQ`` in lean/AgentWarrant/Spec/Revision/ArgCoverClass.lean, whose ``covered``
answer is proved to cover every call the monitor prepares in every binding state of the class,
``preparedClassCoverMatches``; for an action whose entries compare with array or object constants
``classQA`` in lean/AgentWarrant/Spec/Revision/ArgCoverClassA.lean, ``preparedClassCoverMatchesA``, which
also assumes the call's values at those paths admitted; for a class denying an equality between slots and
entries with scalar or null constants ``classQN`` in lean/AgentWarrant/Spec/Revision/ArgCoverNeqQ.lean, which
adds ``_apart_clauses``' clauses and whose ``covered`` answer is proved to cover the class's binding states,
``preparedClassNeqCoverMatches``, its ``uncovered`` answer flagged not exact; for an action with an entry whose
resource pattern is an array or object constant ``classQR`` in lean/AgentWarrant/Spec/Revision/ArgCoverClassR.lean,
such an entry never matching as ``wayQR`` writes it, ``preparedClassCoverMatchesR``, which also assumes no tool
declares an array or object resource constant, as registration here ensures; ``classQNR`` there for a class
denying a slot equality on such an action or one with array or object predicate constants,
``preparedClassNeqCoverMatchesR``), except for an action with an entry whose predicate constant fails the
oracle's checks (which its input check refuses first), whose question is written here (``_fact_clauses``,
``_apart_clauses``). A tool whose resource is the null constant needs no
fallback: the monitor emits that effect (``call_effects``) and an ``any`` or null constant entry matches it, and Lean
writes that way's question as this translation does (the resource ``isNull``; ``resCond``), with the coverage theorem
assuming nothing of the resource (``wayCondSomeAll``, lean/AgentWarrant/Thm/Revision/ArgCoverNull.lean). ``questions``
stays the translation for the actions outside the fragment and the reference the differential test compares Lean's
translation with, clause for clause (tests/drt/test_arg_cover.py).

The question, per action of ``E`` the old lists allow and per way a tool produces that action's effect (a tool
and one of its effect declarations): the variables are the call's top-level argument keys (the action's
tools' arguments, the keys allowlists and predicates name), every nested argument path a predicate names
and each of its prefixes, the resource when it is a constant or a list element, and one per slot an entry
names (present: the slot is bound to the resource's value). The conditions are those of the checker's
``Call.well_formed``: the tool's required keys present, keys it does not declare absent, a nested path
present only under an object, the resource where the tool reads it (a scalar argument, its constant, a
scalar element of an array argument; a null constant is ``isNull``) and among ``E``'s resources. A
position matches when its action is this one and every conjunct holds: the resource pattern (a constant,
a glob or a slot), the keys allowlist (every other key absent), equality, one-of and range predicates on
an argument path (a range: a number within each given bound, inclusive, by exact decimal order as the
monitor's ``numLe``). The action is covered when every way is.

Choices where the source is silent: a slot's bound value is any scalar (a string non-empty), as in the
checker's encoding and as the monitor's result processing binds (``runFullAddrBindings``), so "the resource
equals slot ``s``'s value" is a free bit on a resource that can be a slot's value. Under a binding class
(``facts``: a slot's value matches a constant or a glob, two slots' values are equal, each held or not) the
slots asserted equal form a group whose value is a variable of its own, ``<value:s>`` (a scalar, a string
non-empty, with the group's constant and glob facts as literals), and a slot's free bit, set with the
resource a possible slot value, makes the resource satisfy the group's facts too (``_fact_clauses``;
``factsElim`` in lean/AgentWarrant/Thm/Revision/ArgCoverFacts.lean proves this elimination of the bound
values exact). A class asserting two slots' values differ relates two variables, which no literal on one
variable states; of eliminating the inequality and giving the decision a two-variable literal (whose
representatives' exactness would have to be proved anew), the first is taken as far as it is proved: the
class's question also says no slot of one group and slot of the other both match, and an inequality inside
one group empties the class (``_apart_clauses``). Every binding state of the class then has a valuation
with its match bits (``neqSound`` in lean/AgentWarrant/Thm/Revision/ArgCoverNeq.lean), so Lean's ``covered``
is the class's coverage; the converse is not proved (the inequalities also constrain the groups' values
among themselves and against the resource), except for one pair of groups asserted different neither of
which has a fact that holds (``apart_exact``; ``neqExact2``, its hypothesis that each group admits a value
other than any two given supplied by this reading of the facts), so elsewhere an ``uncovered`` answer on
such a class is left to Z3 (``facts_outside`` names the inequalities).
An equality or one-of predicate against an array or object
constant is the literal ``["json", c]`` (``ALit.eqJson``: the monitor's ``jeq`` on values the oracle
admits; its representatives, the constants and one fresh value of each kind, are exact with no hypothesis
on the valuation, ``eqJsonExact``), which Z3's encoding does not take. A nested path's variable holds
the value at that path apart from its parent's value (an object the parent's variable holds says nothing
of the nested variable), so a valuation is an argument object exactly when every present nested path has
an object parent (the condition above); with an array or object constant on a path that has predicates
on nested paths below it, an ``uncovered`` witness may therefore stand for no call (the parent equal to
the constant, the nested value not inside it): ``covered`` stays sound, ``uncovered`` may then refuse a
certificate no call breaks. A range bound is sent as the JSON number Python writes for it (``repr``, which
reads back as the same float), so Lean compares the bound's shortest decimal, as the monitor does with
the policy's text. No fuel is sent: the judgment's glob searches run on a proved-sufficient bound, and
it never answers ``unknown`` (``argCoverNeverUnknown``: its number stand-ins provably lie where they should,
``numOkTrue``), so an ``unknown`` is an answer outside its documented form (``BadAnswer``, which the caller
treats as a fault), not a reason to fall back on Z3. ``lean_covers`` answers as ``covers`` does, except that
it is never ``Undecided``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from model.base.canonical import JSON, canonical_str
from model.monitor.language.policy import (
    AnyRes,
    ArgRes,
    ConstPat,
    ConstRes,
    Entry,
    EqPred,
    GlobPat,
    OneOfPred,
    RangePred,
    SlotPat,
    Tool,
)
from model.monitor.language.policy_json import entry_to_json, tool_to_json
from model.revision.certify.check_verdict import Invalid, Valid
from model.revision.effects import EffectSet
from model.revision.trusted.encoding import SlotAtom

Clause = list[tuple[int, bool]]


class Unsupported(Exception):
    """An entry or effect the ``arg_cover`` question does not express (the caller asks Z3 instead)."""


class ApartUncovered(Unsupported):
    """Lean's ``uncovered`` on a class asserting two slots' values differ, which may stand for no binding state
    (``facts_outside``; the caller asks Z3 instead)."""


class BadAnswer(Exception):
    """The judgment's answer is not of its documented form."""


class ToolRefused(BadAnswer):
    """Lean's ``arg_cover_policy`` or ``arg_cover_class`` answered ``invalid``: a tool it was given fails
    registration's effect check (``effArgOk``: a resource constant that is an array or object, or a resource
    argument the tool does not declare), which registration refuses, so no question is written for it. A
    ``BadAnswer``: the tools sent are a registered policy's, so the caller reports a fault naming the tool."""


def _eq_lit(value: JSON, what: str) -> list[JSON]:
    if value is None:
        return ["null"]
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, int | float):
        return ["num", value]
    if isinstance(value, str):
        return ["str", value]
    raise Unsupported(f"{what}: the constant {canonical_str(value)[:40]} is an array or object")


def _pred_lit(value: JSON) -> list[JSON]:
    """A predicate constant's literal: an array or object one is ``["json", c]`` (``ALit.eqJson``: the
    monitor's ``jeq`` on values the oracle admits, which every value sent as JSON text is)."""
    return ["json", value] if isinstance(value, list | dict) else _eq_lit(value, "predicate")


@dataclass
class _Question:
    """One way's question under construction: atoms deduplicated, variables by name."""

    names: list[str]
    atoms: list[list[JSON]] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    nested: dict[int, int] = field(default_factory=dict)  # a nested path's variable -> its parent's

    def var(self, name: str) -> int:
        if name not in self.names:
            self.names.append(name)
        return self.names.index(name)

    def path(self, path: Sequence[str]) -> int:
        """The variable of an argument path (a top-level key is its own name), its prefixes' too."""
        if len(path) == 1:
            return self.var(path[0])
        parent = self.path(path[:-1])
        v = self.var(path_name(path))
        self.nested[v] = parent
        return v

    def atom(self, var: int, lit: list[JSON]) -> int:
        key = canonical_str([var, lit])
        if key not in self.index:
            self.index[key] = len(self.atoms)
            self.atoms.append([var, lit])
        return self.index[key]


def path_name(path: Sequence[str]) -> str:
    """A nested argument path's variable name (``<`` marks names that are not top-level keys)."""
    return "<path:" + canonical_str(list(path)) + ">"


def _bound(x: int | float | None) -> JSON:
    if x is not None and (isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x)):
        raise Unsupported(f"a range bound that is not a finite number: {x!r:.40}")
    return x


def _keys(action: str, positions: Sequence[Entry], tools: Sequence[Tool]) -> list[str]:
    keys = {k for t in tools for k in t.args}
    for e in positions:
        if e.action != action:
            continue
        keys.update(e.keys or ())
        for p in e.where:
            keys.add(p.path[0])
    return sorted(keys)


def _position(q: _Question, e: Entry, action: str, res: int, keys: Sequence[str]) -> list[Clause] | None:
    """The clauses of ``e``'s match on this way (``None``: it never matches here)."""
    if e.action != action:
        return None
    out: list[Clause] = []
    pat = e.resource
    if isinstance(pat, ConstPat):
        if isinstance(pat.value, list | dict):
            # Never matching: the resource is never an array or object (``structGrantNoMatch``). Its
            # predicates' nested paths still get their condition, as Lean's ``wayCond`` writes it for every
            # entry of the action (true of every call, so it changes no answer).
            for p in e.where:
                q.path(p.path)
            return None
        # A null constant is the ``isNull`` literal, as ``resConstLit`` states for any scalar or null
        # constant; it holds on the way of a tool whose resource constant is null.
        out.append([(q.atom(res, _eq_lit(pat.value, "resource")), True)])
    elif isinstance(pat, GlobPat):
        out.append([(q.atom(res, ["glob", pat.glob]), True)])
    elif isinstance(pat, SlotPat):
        # The resource equals the slot's bound value: the value is the effect's to choose (any scalar, a string
        # non-empty, ``encoding.Call``), so the literal is a free bit (the slot's variable present) on a
        # resource that can be a slot's value.
        out.append([(q.atom(q.var(f"<slot:{pat.slot}>"), ["present"]), True)])
        out.append([(q.atom(res, ["scalar"]), True)])
        out.append([(q.atom(res, ["str", ""]), False)])
    elif not isinstance(pat, AnyRes):
        raise Unsupported(f"{action}: a resource pattern of kind {type(pat).__name__}")
    if e.keys is not None:
        out += [[(q.atom(q.var(k), ["present"]), False)] for k in keys if k not in e.keys]
    for p in e.where:
        v = q.path(p.path)
        if isinstance(p, EqPred):
            out.append([(q.atom(v, _pred_lit(p.value)), True)])
        elif isinstance(p, OneOfPred):
            out.append([(q.atom(v, _pred_lit(x)), True) for x in p.values])
        elif isinstance(p, RangePred):
            out.append([(q.atom(v, ["range", _bound(p.low), _bound(p.high)]), True)])
        else:
            raise Unsupported(f"{action}: a predicate of kind {type(p).__name__}")
    return out


Fact = tuple[SlotAtom, bool]  # a fact about bound values and whether the binding class asserts it


def facts_outside(facts: Sequence[Fact]) -> str | None:
    """Why Lean's ``uncovered`` on a binding class's question is not taken (``None``: it is): the class
    asserts that two slots' values differ, a relation between two values that no literal on one variable
    states in full. Such a class's question is still written (``_fact_clauses``) and Lean's ``covered`` on it
    is the class's coverage (``neqSound``); its ``uncovered`` may stand for no binding state."""
    apart = [f"@{a[0]} = @{a[1]}" for a, h in facts if isinstance(a[1], str) and not h]
    return None if not apart else f"the class asserts not {', not '.join(apart)}"


def apart_exact(facts: Sequence[Fact]) -> bool:
    """Whether Lean's ``uncovered`` on a class asserting slots differ is exact too (``neqExact2``): the
    inequalities relate one pair of groups of slots asserted equal, and neither group has a fact that holds
    (only "not this constant", "not this glob"). ``neqExact2``'s hypothesis that each such group's facts admit
    a value other than any two given ones is supplied here, not proved: all but finitely many whole numbers
    are valid slot values meeting such facts (a glob matches strings only, and each constant is one value)."""
    group = _groups(facts)
    pairs = {frozenset((group[a[0]], group[a[1]])) for a, h in facts if isinstance(a[1], str) and not h}
    if len(pairs) != 1 or len(pair := next(iter(pairs))) != 2:
        return False
    return not any(h and not isinstance(a[1], str) and group[a[0]] in pair for a, h in facts)


def _groups(facts: Sequence[Fact]) -> dict[str, str]:
    """Each slot the facts or entries may name, mapped to its group's first slot: slots the class asserts
    equal share one value."""
    parent: dict[str, str] = {}

    def find(s: str) -> str:
        while parent.setdefault(s, s) != s:
            s = parent[s]
        return s

    for (s, pat), holds in facts:
        find(s)
        if isinstance(pat, str):
            a, b = sorted((find(s), find(pat)))
            if holds:
                parent[b] = a
    return {s: find(s) for s in list(parent)}


def _fact_clauses(q: _Question, facts: Sequence[Fact], res: int) -> list[Clause]:
    """The binding class's facts as clauses (each fact a literal, or its negation, per the class): the value
    of every group of slots asserted equal is a variable of its own (``<value:s>``, ``s`` the group's first
    slot), a scalar other than the empty string satisfying its slots' facts; and a slot whose pattern
    matches (its variable present, the resource a scalar other than the empty string) is bound to the
    resource, so the resource satisfies its group's facts too."""
    group = _groups(facts)
    out: list[Clause] = []
    lits: dict[str, list[tuple[list[JSON], bool]]] = {}
    for (s, pat), holds in facts:
        if isinstance(pat, str):
            continue
        lit = ["glob", pat.glob] if isinstance(pat, GlobPat) else _eq_lit(pat.value, "a fact's constant")
        lits.setdefault(group[s], []).append((lit, holds))
    for g in sorted(set(group.values())):
        v = q.var(f"<value:{g}>")
        out += [[(q.atom(v, ["scalar"]), True)], [(q.atom(v, ["str", ""]), False)]]
        out += [[(q.atom(v, lit), holds)] for lit, holds in lits.get(g, [])]
    for s in sorted(group):
        name = f"<slot:{s}>"
        if name not in q.names:
            continue
        matched = [(q.atom(q.var(name), ["present"]), False), (q.atom(res, ["scalar"]), False),
                   (q.atom(res, ["str", ""]), True)]
        out += [[*matched, (q.atom(res, lit), holds)] for lit, holds in lits.get(group[s], [])]
    out += _apart_clauses(q, facts, group, res)
    return out


def _apart_clauses(q: _Question, facts: Sequence[Fact], group: Mapping[str, str], res: int) -> list[Clause]:
    """What the class's inequalities force on the effect (``neqWritten``, lean/AgentWarrant/Spec/Revision/
    ArgCoverNeq.lean): an inequality inside one group of slots asserted equal empties the class (the empty
    clause); between two groups, no slot of one and slot of the other both match, both being then bound to
    the resource. This is implied by the class, not equivalent to it (the inequalities also constrain the
    groups' values among themselves), so only Lean's ``covered`` is taken (``lean_covers``)."""
    out: list[Clause] = []
    for (s, t), holds in facts:
        if holds or not isinstance(t, str):
            continue
        if group[s] == group[t]:
            out.append([])
            continue
        for a in sorted(x for x in group if group[x] == group[s] and f"<slot:{x}>" in q.names):
            for b in sorted(x for x in group if group[x] == group[t] and f"<slot:{x}>" in q.names):
                out.append([(q.atom(q.var(f"<slot:{a}>"), ["present"]), False),
                            (q.atom(q.var(f"<slot:{b}>"), ["present"]), False),
                            (q.atom(res, ["scalar"]), False), (q.atom(res, ["str", ""]), True)])
    return out


def questions(effects: EffectSet, lists: Sequence[Sequence[Entry]], listed: Sequence[str], action: str,
              tools: Sequence[Tool], facts: Sequence[Fact] = ()) -> list[tuple[list[str], dict[str, JSON]]]:
    """The ``arg_cover`` inputs of ``action`` (one per way), each with its variables' names; ``listed`` are
    the flat bit strings over every position of ``lists``; ``facts``: a binding class's facts (each as the
    class asserts it), added to every way's condition (``_fact_clauses``)."""
    positions = [e for xs in lists for e in xs]
    own = [t for t in tools if any(d.action == action for d in t.effects)]
    keys = _keys(action, positions, own)
    resources = effects.resources(action)
    out: list[tuple[list[str], dict[str, JSON]]] = []
    for t in own:
        for d in t.effects:
            if d.action != action:
                continue
            q = _Question(list(keys))
            cond: list[Clause] = [[(q.atom(q.var(k), ["present"]), True)] for k in sorted(t.required)]
            cond += [[(q.atom(q.var(k), ["present"]), False)] for k in keys if k not in t.args]
            if isinstance(d.resource, ConstRes):
                if isinstance(d.resource.value, list | dict):
                    continue  # registration refuses an array or object resource constant (``validate``)
                # a null constant is an effect the monitor emits and ``any`` or a null pattern matches
                res = q.var("<resource>")
                cond.append([(q.atom(res, _eq_lit(d.resource.value, "tool resource")), True)])
            elif isinstance(d.resource, ArgRes):
                res = q.var(d.resource.arg)
                cond.append([(q.atom(res, ["scalar"]), True)])
            else:
                res = q.var("<resource>")
                cond.append([(q.atom(res, ["scalar"]), True)])
                cond.append([(q.atom(q.var(d.resource.arg), ["arr"]), True)])
            if resources is not None:
                cond.append([(q.atom(res, _eq_lit(c, "E's resource")), True) for c in resources])
            pos = [_position(q, e, action, res, keys) for e in positions]
            cond += _fact_clauses(q, facts, res)
            # a nested path is present only under an object (the monitor's ``lookupPath`` reads objects)
            cond += [[(q.atom(v, ["present"]), False), (q.atom(parent, ["obj"]), True)]
                     for v, parent in sorted(q.nested.items())]
            out.append((list(q.names), {
                "atoms": q.atoms,
                "cond": [[[i, s] for i, s in c] for c in cond],
                "positions": [None if p is None else [[[i, s] for i, s in c] for c in p] for p in pos],
                "listed": sorted(set(listed))}))
    return out


def _value(raw: JSON) -> JSON:
    if not (isinstance(raw, list) and raw and isinstance(raw[0], str)):
        raise BadAnswer(f"arg_cover: a witness value that is not [kind, ...]: {raw!r:.80}")
    if raw[0] == "null":
        return None
    # an array or object witness carries its value (``["arr", value]``)
    return raw[1] if len(raw) > 1 else {"arr": [], "obj": {}}.get(raw[0])


def witness_effect(action: str, names: Sequence[str], witness: Sequence[JSON]) -> dict[str, JSON]:
    """Lean's witness valuation as the effect and arguments it stands for (missing keys left out, a nested
    path's value placed inside its parent object)."""
    given = [(n, v) for n, v in zip(names, witness, strict=False) if not (isinstance(v, list) and v == ["missing"])]
    args: dict[str, JSON] = {n: _value(v) for n, v in given if not n.startswith("<")}
    nested = sorted(((json.loads(n[len("<path:"):-1]), v) for n, v in given if n.startswith("<path:")),
                    key=lambda p: len(p[0]))
    for path, v in nested:
        cur: JSON = args
        for step in path[:-1]:
            cur = cur.get(step) if isinstance(cur, dict) else None
        if isinstance(cur, dict):
            cur[path[-1]] = _value(v)
    out: dict[str, JSON] = {"action": action, "args": args}
    for n, v in given:
        if n == "<resource>":
            out["resource"] = _value(v)
    bound = [n[len("<slot:"):-1] for n, _ in given if n.startswith("<slot:")]
    if bound:
        out["bindings"] = {s: "the resource" for s in bound}
    values = {n[len("<value:"):-1]: _value(v) for n, v in given if n.startswith("<value:")}
    if values:
        out["slot values"] = values  # a binding class's value of each group of slots asserted equal
    return out


def flat_listed(listed: Sequence[Sequence[tuple[bool, ...]]], width: int) -> list[str]:
    flats = ["".join("1" if b else "0" for side in v for b in side) for v in listed]
    return [f for f in flats if len(f) == width]


def policy_question(effects: EffectSet, lists: Sequence[Sequence[Entry]], listed: Sequence[str], action: str,
                    tools: Sequence[Tool]) -> dict[str, JSON]:
    """The ``arg_cover_policy`` input of ``action``: the entries, tools and ``E`` as they are, from which
    Lean writes the question itself (``wayQ``)."""
    resources = effects.resources(action)
    if resources is not None and any(d.action == action for t in tools for d in t.effects):
        for c in resources:
            _eq_lit(c, "E's resource")
    return {"action": action, "entries": [entry_to_json(e) for xs in lists for e in xs],
            "tools": [tool_to_json(t) for t in tools],
            "resources": None if resources is None else list(resources), "listed": sorted(set(listed))}


def _fact_json(fact: Fact) -> list[JSON]:
    (slot, pat), holds = fact
    what: JSON
    if isinstance(pat, str):
        what = {"slot": pat}
    elif isinstance(pat, GlobPat):
        what = {"glob": pat.glob}
    else:
        _eq_lit(pat.value, "a fact's constant")
        what = {"const": pat.value}
    return [slot, what, holds]


def class_question(effects: EffectSet, lists: Sequence[Sequence[Entry]], listed: Sequence[str], action: str,
                   tools: Sequence[Tool], facts: Sequence[Fact]) -> dict[str, JSON]:
    """The ``arg_cover_class`` input of ``action`` under a binding class: ``policy_question``'s and the
    class's facts as they are, from which Lean writes the class's question itself (``classQ`` and its
    variants)."""
    return {**policy_question(effects, lists, listed, action, tools), "facts": [_fact_json(f) for f in facts]}


def source_name(src: JSON) -> str:
    """The variable name ``questions`` gives the source Lean names (``null``: the resource; ``{"slot": s}``:
    slot ``s``'s variable; ``{"value": g}``: group ``g``'s value; else a path)."""
    if src is None:
        return "<resource>"
    if isinstance(src, dict) and set(src) == {"slot"} and isinstance(src["slot"], str):
        return f"<slot:{src['slot']}>"
    if isinstance(src, dict) and set(src) == {"value"} and isinstance(src["value"], str):
        return f"<value:{src['value']}>"  # a binding class's group value (``arg_cover_class``)
    if not (isinstance(src, list) and src and all(isinstance(k, str) for k in src)):
        raise BadAnswer(f"arg_cover_policy: a source that is not null or an argument path: {src!r:.80}")
    return str(src[0]) if len(src) == 1 else path_name([str(k) for k in src])


def _uncovered(out: JSON, names: Sequence[str], action: str, where: str) -> Invalid:
    w = out.get("witness") if isinstance(out, dict) else None
    if not isinstance(w, list) or not all(isinstance(x, list) and x and isinstance(x[0], str) for x in w):
        raise BadAnswer(f"arg_cover: a witness that is not one value per variable: {out!r:.200}")
    return Invalid(f"{where}: an effect has a match vector the certificate omits: "
                   f"{witness_effect(action, names, w)}")


@dataclass(frozen=True, slots=True)
class Written:
    """Who wrote one action's coverage question: Lean from the entries (``arg_cover_policy``) or from them
    and a binding class's facts (``arg_cover_class``), or Python (``arg_cover``) because Lean answered
    ``outside``; then ``why`` is Lean's reason and ``outside`` names the entries Lean found outside its
    fragment, each by its list and 1-based position and the feature (``outsideWhyA``)."""

    where: str  # the certificate's list ("P", "A") or "joint"
    action: str
    by: str  # "lean" or "python"
    why: str = ""
    outside: tuple[str, ...] = ()
    by_class: bool = False  # Lean wrote a binding class's question (``arg_cover_class``)

    def judgment(self) -> str:
        if self.by == "lean":
            return "arg_cover_class" if self.by_class else "arg_cover_policy"
        return "arg_cover"

    def to_json(self) -> dict[str, JSON]:
        doc: dict[str, JSON] = {"list": self.where, "action": self.action, "written_by": self.by,
                                "judgment": self.judgment()}
        if self.by != "lean":
            doc["why"] = self.why
            doc["outside"] = list(self.outside)
        return doc

    def show(self) -> str:
        head = f"{self.where} {self.action}"
        return head if self.by == "lean" else f"{head} ({'; '.join(self.outside) or self.why})"


def _structured(value: JSON) -> bool:
    return isinstance(value, (list, dict))


def _entry_name(lists: Sequence[Sequence[Entry]], names: Sequence[str], position: int) -> str:
    """A position among the old and new lists' entries (0-based, in order) as its list and 1-based index."""
    for i, xs in enumerate(lists):
        if position < len(xs):
            return f"{names[i] if i < len(names) else f'list {i + 1}'} entry {position + 1}"
        position -= len(xs)
    raise BadAnswer(f"arg_cover_policy: an outside entry past the last position: {position!r:.40}")


def outside_why(e: Entry) -> str | None:
    """Where ``e`` lies outside the fragment of ``wayQA`` (``outsideWhyA``), or ``None``: an array or object
    constant as its resource pattern. One in an equality or one-of predicate is inside: Lean writes it as
    ``["json", c]`` (``wayQA``), as ``questions`` does. ``arg_cover_policy`` and ``arg_cover_class`` write such
    an entry too, as never matching (``wayQR``, ``classQR``)."""
    if isinstance(e.resource, ConstPat) and _structured(e.resource.value):
        return "an array or object constant as its resource"
    return None


def outside_entries(lists: Sequence[Sequence[Entry]], action: str, names: Sequence[str]) -> tuple[str, ...]:
    """The entries of ``action`` outside the fragment Lean translates, each named by its list (``names``,
    else its place), 1-based position and feature, read here (the differential test checks it against the
    entries Lean names)."""
    return tuple(f"{_entry_name(lists, names, k)} has {why}"
                 for k, e in enumerate(e for xs in lists for e in xs)
                 if e.action == action and (why := outside_why(e)) is not None)


def lean_outside(out: JSON, lists: Sequence[Sequence[Entry]], names: Sequence[str]) -> tuple[str, ...]:
    """The entries Lean's ``outside`` answer names (``[[position, feature]…]``), as ``outside_entries``
    words them."""
    raw = out.get("outside") if isinstance(out, dict) else None
    if not isinstance(raw, list) or not all(
            isinstance(x, list) and len(x) == 2 and isinstance(x[0], int) and not isinstance(x[0], bool)
            and x[0] >= 0 and isinstance(x[1], str) for x in raw):
        raise BadAnswer(f"arg_cover_policy: an outside answer without its entries: {out!r:.200}")
    return tuple(f"{_entry_name(lists, names, x[0])} has {x[1]}" for x in raw)


def lean_covers(call: object, effects: EffectSet, listed: Mapping[str, Sequence[Sequence[tuple[bool, ...]]]],
                lists: Sequence[Sequence[Entry]], old_actions: frozenset[str], tools: Sequence[Tool],
                where: str, written: list[Written] | None = None,
                names: Sequence[str] = (), facts: Sequence[Fact] = ()) -> Valid | Invalid:
    """``side_conditions.covers`` answered by Lean: ``call(judgment, input)`` is the oracle's call. Each
    action's question is written by Lean from the entries (``arg_cover_policy``) when its entries are in
    the fragment Lean translates (a tool whose resource is the null constant and an entry whose resource pattern
    is an array or object constant included); otherwise by
    ``questions`` here and decided by ``arg_cover``.
    ``written`` (when given) receives, per action, who wrote its question (``Written``; ``names`` names
    ``lists`` there). ``facts``: a binding class's facts about bound values: Lean writes each action's
    question itself from them (``arg_cover_class``; for a class denying an equality between slots ``classQN``
    or ``classQNR``, whose answer Lean flags ``"exact": false``) unless an entry's predicate constant fails the
    oracle's checks (Lean then answers ``outside``); then the question is written here with the facts as
    literals (``_fact_clauses``) and decided by ``arg_cover``; for a class asserting two slots' values differ
    (``facts_outside``), whoever wrote the question, only ``covered`` is taken (``neqSound``,
    ``classNeqCoverMatches``), and an ``uncovered`` answer is ``ApartUncovered``,
    its witness possibly standing for no binding state, unless ``apart_exact`` (one pair of unpinned groups, where
    ``neqExact2`` makes it exact). ``Unsupported`` propagates (the caller then asks Z3); any answer but covered or
    uncovered (or outside, from ``arg_cover_policy``), ``unknown`` included (which ``argCoverNeverUnknown`` rules
    out), is a ``BadAnswer``; ``invalid`` (a tool failing Lean's registration effect check) is ``ToolRefused``."""
    if not callable(call):
        raise TypeError("call: the oracle's call")
    apart = facts_outside(facts)
    width = sum(len(xs) for xs in lists)
    for action in effects.actions(old_actions):
        flats = flat_listed(listed.get(action, ()), width)
        outside: tuple[str, ...] = ()
        if facts:
            # Lean writes the class's question itself (``classQ``; ``classQA`` with array or object predicate
            # constants; ``classQR`` with array or object resource constants; ``classQN``, or ``classQNR`` on
            # ``classQR``'s question, for a class denying a slot equality) unless an entry's predicate constant
            # fails the oracle's checks (then it answers ``outside``).
            judgment, doc = "arg_cover_class", class_question(effects, lists, flats, action, tools, facts)
        else:
            judgment, doc = "arg_cover_policy", policy_question(effects, lists, flats, action, tools)
        out = call(judgment, doc)
        answer = out.get("answer") if isinstance(out, dict) else None
        if answer == "uncovered" and isinstance(out, dict):
            raw = out.get("names")
            if not isinstance(raw, list):
                raise BadAnswer(f"{judgment}: an uncovered answer without names: {out!r:.200}")
            exact = out.get("exact", True)
            if exact is not True and (exact is not False or apart is None):
                raise BadAnswer(f"{judgment}: an exact flag that is not a class's inequalities' false: {out!r:.200}")
            if exact is False and not apart_exact(facts):
                # ``classQN``'s uncovered is not proved to be the class's: the caller asks Z3
                raise ApartUncovered(f"{apart}, and Lean's uncovered answer on such a class may stand for no "
                                     "binding state")
            return _uncovered(out, [source_name(n) for n in raw], action, where)
        if answer == "covered":
            if written is not None:
                written.append(Written(where, action, "lean", by_class=bool(facts)))
            continue
        if answer == "invalid" and isinstance(out, dict):
            raise ToolRefused(f"{judgment}: Lean refuses the tools: {out.get('reason')!s:.300}")
        if answer != "outside":
            raise BadAnswer(f"{judgment}: an answer that is not covered or uncovered (or outside): {out!r:.200}")
        reason = out.get("reason") if isinstance(out, dict) else None
        why, outside = (reason if isinstance(reason, str) else ""), lean_outside(out, lists, names)
        if written is not None:
            written.append(Written(where, action, "python", why, outside))
        for variables, question in questions(effects, lists, flats, action, tools, facts):
            out = call("arg_cover", question)
            answer = out.get("answer") if isinstance(out, dict) else None
            if answer == "uncovered" and apart is not None and not apart_exact(facts):
                raise ApartUncovered(f"{apart}, and Lean's uncovered answer on such a class may stand for no "
                                  "binding state")
            if answer == "uncovered":
                return _uncovered(out, variables, action, where)
            if answer != "covered":
                raise BadAnswer(f"arg_cover: an answer that is not covered or uncovered: {out!r:.200}")
    return Valid()

