"""The integer-encoded search: the monitor engine of ``layered.py`` without sleep sets, its states as
vectors of 32-bit ids and its successor loop compiled (``kernel.pyx``, built by ``make venv``). Our design
for the missing Section 8 of Agenra; answers equal ``fingerprint.explore_fingerprint``'s and
``explicit.explore``'s (states, transitions, depth, verdicts with their shortest traces, completions):
``tests/unit/test_search_intcode.py`` compares them on every corpus model it supports.

**Encoding.** A state is ``[rest, r_1, …, r_n]``: ``rest`` the id of everything but the records (bindings,
invalid set, counters, satisfied requirements, permits) and ``r_i`` the id of its ``i``-th canonical
record, both interned once per search (``fingerprint.Codec``). The visited set keeps whole vectors, so
it is exact.

**Fingerprint mode** (``fingerprint=True``), for searches whose vectors outgrow memory: the visited set
is one open-addressing table of 64-bit fingerprints of the vectors (linear probing, at most three
quarters full, doubled otherwise; ``capacity`` sizes it for the run up front, so it is never doubled),
and the kernel keeps the vector, parent and transition ordinal only of the states of layers it will
expand — nothing but the fingerprint for the last layer's, which is most of them (the layers grow about
fourfold on the report model). Traces and completions are rebuilt as in the exact mode: every state they
start from was expanded, so its vector and links are there. Choice: the fingerprint is the kernel's own
mix of the vector's words (a multiply-xorshift finalizer per word and over the whole, all 64 bits kept),
not Python's hash; the collision probability reported is ``fpset``'s birthday bound n(n-1)/2^65 under
uniform hashing, as TLC reports it. Per state: 8 bytes over 0.375–0.75 of the table's slots, plus
4·(bound+2)+9 bytes for each state of an expanded layer.

**Tables.** The successor function of ``expand.successors`` is a composition of functions of small
integers; each is a table the kernel fills by calling this module once per new key:

- ``deep(record, deep ids of the records it names)`` and ``content(deep id, field)``: the interned
  content of each held value (``held.held``), what the decision memo keys on;
- ``proj(rest)``, ``prefix(tool and argument names, proj)`` and ``decide(prefix, contents)``: the
  monitor's decision and its outcomes — exactly the key of ``held.Context``'s memo, on which the
  interpreted search already relies (a verdict is a function of the call's content and the state's
  slots, invalid set, counters, requirements and permits);
- ``absval(record, field)`` and ``abstract decision(prefix, values and labels)``: for a tool without an
  origin rule (``abstract``) the decision reads a handle's record only through its label, so a proposal
  whose values and handle labels were decided before is refused without a call, or its verdict reused
  (its outcomes are still computed: the new record names the handles' records);
- refusals shared by many keys, each tabled once a decision found one (``Compiler.decide``'s codes): by
  the argument values under the key's projection (``VALUE_REFUSAL``) or under its slots alone
  (``SLOT_REFUSAL``); by the tool, the agent and the output label, per argument names and the join of
  the handles' labels (``LABEL_REFUSAL``, ``Compiler.by_label``); by an origin rule, per argument names,
  the rule's argument position and its content (``ORIGIN_REFUSAL``, ``Compiler.origin_arg``); and, asked
  per argument value before any decision, by one
  argument's value alone under the slots (``argref``: a malformed resource, or one no allow pattern
  matches);
- ``newrec(decision, outcome, height, positions of the handle arguments)``: the new record's id;
- ``less(a, b)``: the canonical order of two records of equal height (the binary search of
  ``compact.insert``; height is the first item of a record, so the kernel orders different heights itself);
- ``shift(record, at)``: a record after one was inserted before what it names;
- ``rest(rest, decision, outcome, records, at)`` and ``satisfy(rest, requirement)``: the rest after a
  transition.

The enumeration order is ``expand.successors``' (requirements, then per tool, per argument names, every
choice of held values, each outcome), so the first parent to reach a state and the first transition to
make a query hold are the interpreted search's: a trace is rebuilt from the parent links and each
link's ordinal, the kernel describing which transition an ordinal names (``Compiler.step``).

**Per model, per search.** What the search computes from the model alone before it explores (the
parsed results and argument lists of ``held.Context``, the parsed values a state can hold — literals, result
texts and their declared fields —, the indices, the literals' ids, the kernel's per-tool arrays,
``abstract``, ``supported``, ``argref``'s per-argument effect checks, ``argref``'s answers for every
argument whose effects' allow patterns name no slot, per value a state can hold, and ``prequota``: the
monitor's steps before first-fit for every call of literals where they read no state, so that a search
decides such a call by first-fit on the state's counters alone, without decoding the state; and
``root_outcomes``: the outcomes of every such call admitted in the initial state's slots and invalid set,
which every admission of it in a state with those slots and invalid set has) is compiled once per
model object (``Static``, ``static_of``), as the monitor's compiled policy is kept per policy object;
choice: nothing a search reaches is kept across searches — every table above starts empty in each search,
as the interpreted search's decision memo does, so a search of a model already searched costs what the
first did but for that compile. A goal's completions are built from the tables (``Compiler.completions``:
the new record and the rest after them, appended as the interpreted search appends them), so the monitor
does not decide and commit the call a second time; a goal reached from the initial state is its cone's one
order, with no replay.

**Approvals.** Before the agent's calls, where an approver may still permit one, every proposal an
approval pattern matches yields a transition to the rest with the permit (``approve``, keyed by the
proposal's *positional* contents: a permit binds handle positions), after two filters that read no
position: per argument, the patterns its content may satisfy (``amask``), and per proposal, whether one
matches (``approve``'s answer tabled by the slots and the contents without positions); in a state holding a permit the
decision key is positional too, as in ``held.held``, and a call that uses a permit carries the permits
after it into ``rest`` (shifted, as ``compact.insert`` does, when the new record lands before others).

**Scope.** Models whose policy has no history rules (the
decision memo is off for them), with at most 7 arguments per call, 8 fields per tool, 64 queries and
62 steps; ``supported`` says why not otherwise, and ``explore_native`` then answers None (the caller
runs the interpreted search). Only the search without sleep sets is encoded.
"""

from __future__ import annotations

import copy
import importlib.machinery
import importlib.util
import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from model.base.budget import Budget, Meter
from model.monitor.decide.base import Decision, decide
from model.monitor.decide.commit import commit
from model.monitor.decide.compiled import compiled
from model.monitor.decide.compiled_decide import after_quota, first_fit
from model.monitor.decide.counters import charge_positions
from model.monitor.decide.flow import FLOW_APPROVAL
from model.monitor.decide.origins import produced_by
from model.monitor.decide.state import Call, Permit, State
from model.monitor.decide.verdict import DenyReason, Verdict
from model.monitor.language.labels import Label
from model.monitor.language.policy import ArgRes, EntryKind, ListArgRes, SlotPat
from model.search.compact import (
    CATS,
    OK,
    REFS,
    RESULT,
    SENS,
    TOOL,
    TRUSTED,
    Compact,
    Materializer,
    Rec,
    empty,
    permit_tuple,
    retarget,
)
from model.search.completions import completion_key, cone, orders
from model.search.engine import bfs
from model.search.expand import Context, outcome_of, transition
from model.search.explicit import explore
from model.search.fingerprint import Codec
from model.search.fpset import collision_probability
from model.search.heap import paused
from model.search.held import action_of, call_of, held
from model.search.layered import ExplicitRun, Link, Tick, answers, rebuild
from model.search.model import QueryKind, SearchModel
from model.search.native import ENV, LIB, read_stamp, source_digest
from model.search.native.intcode_model import (
    goal_call,
    label_refusals,
    reads_permits,
    reads_producers,
    refused_alone,
    root_outcomes,
)
from model.search.native.prequota import prequota
from model.search.patterns import arg_matches, args_match
from model.search.por import SPECIAL, Independence
from model.search.search_verdict import Step
from model.search.states import Approve, Satisfy, Transition

KERNEL_SOURCE = Path(__file__).resolve().parent / "kernel.pyx"
KERNEL_STAMP = LIB / "kernel.json"  # {"kernel": SHA-256 of kernel.pyx it was built from}
MAXA, MAXF, MAXH, MAXW, MAXQ = 7, 8, 256, 64, 64
MAXAPP = 62  # approval patterns told apart by ``Compiler.amask`` (bits of a non-negative 64-bit mask)
VALUE_REFUSAL, SLOT_REFUSAL = -3, -4  # ``Compiler.decide``'s refusals that the kernel tables by the values
LABEL_REFUSAL = -5  # and by the output label (``Compiler.by_label``)
ORIGIN_REFUSAL = -6  # ``ORIGIN_REFUSAL - j``: by the record chain of argument ``j`` (``Compiler.origin_arg``)
CHUNK = 64  # frontier states per call of the kernel (the budget is checked between calls)

_kernel: ModuleType | None = None
#: the refusals decided by the argument values and the state's slots and invalid set alone (the checks
#: before the requirements' Pause: preparation, explicit denies, allows)
SLOT_REASONS = frozenset({DenyReason.UNDECLARED_ARGUMENT, DenyReason.MISSING_ARGUMENT, DenyReason.MALFORMED_RESOURCE,
                          DenyReason.EXPLICIT_DENY, DenyReason.NO_MATCHING_ALLOW, DenyReason.SLOT_UNBOUND,
                          DenyReason.SLOT_INVALID})
#: refusals decided by checks that read only the call's tool, argument names and values and the state's
#: slots, invalid set, requirements and counters (``compiled_decide``: preparation, effects, explicit
#: denies, allows, quotas)
VALUE_REASONS = frozenset({DenyReason.UNDECLARED_ARGUMENT, DenyReason.MISSING_ARGUMENT, DenyReason.MALFORMED_RESOURCE,
                           DenyReason.EXPLICIT_DENY, DenyReason.NO_MATCHING_ALLOW, DenyReason.SLOT_UNBOUND,
                           DenyReason.SLOT_INVALID, DenyReason.QUOTA})


def kernel_module() -> ModuleType | None:
    """The compiled kernel when built from the current source and not disabled (``ENV=0``)."""
    global _kernel
    if os.environ.get(ENV, "1") == "0":
        return None
    if _kernel is not None:
        return _kernel
    stamp = read_stamp(KERNEL_STAMP)
    if stamp is None or stamp.get("kernel") != source_digest(KERNEL_SOURCE):
        return None
    so = next((LIB / f"kernel{sfx}" for sfx in importlib.machinery.EXTENSION_SUFFIXES
               if (LIB / f"kernel{sfx}").is_file()), None)
    if so is None:
        return None
    name = "model.search.native.kernel"
    spec = importlib.util.spec_from_file_location(name, str(so),
                                                  loader=importlib.machinery.ExtensionFileLoader(name, str(so)))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _kernel = mod
    return mod


def supported(model: SearchModel, bound: int, ctx: Context | None = None) -> str | None:
    """None when the encoding covers ``model`` to ``bound``; else why not (module docstring, scope).
    ``ctx``: the search's context, when the caller has built it (its argument lists are read)."""
    if model.policy.histories:
        return "history rules"
    if bound + 2 > MAXW:
        return f"bound above {MAXW - 2}"
    if len(model.queries) > MAXQ:
        return f"more than {MAXQ} queries"
    if len(model.policy.tools) > 256:
        return "more than 256 tools"
    if ctx is None:
        ctx = Context(model, renaming=True)
    if sum(len(v) for v in ctx.names.values()) > 4096:
        return "more than 4096 argument lists"
    if any(len(n) > MAXA for v in ctx.names.values() for n in v):
        return f"a call of more than {MAXA} arguments"
    if any(len(f) > MAXF for _, f in model.fields):
        return f"more than {MAXF} fields of a tool"
    if len(model.literals) > MAXH:
        return "too many literals"
    return None


def abstract(model: SearchModel, tool: str) -> int:
    """Whether the monitor's decision on a call of ``tool`` reads the records its handles name only through
    their labels (and success: held handles always succeeded), so that it is a function of the state's
    slots, invalid set, counters and requirements (the ``proj`` of the decision key), the argument names,
    and per argument its value and, for a handle, its record's label: ``compiled_decide`` reads a handle's
    record for the input label (the join of the parents' labels), and the extensions' request sinks for
    the label of each argument; only an origin rule (producers) and a permit (the call's identity, by
    handle position) read more — a permit only where a state can hold one (the model has approvals) and
    the verdict can read it (``reads_permits``). History rules are outside the encoding already. 0 when not.

    2 when, moreover, the outcomes of an admitted call (``expand.outcome_of``) are such a function too: the
    commit and observation read the verdict, the argument values and the state's slots and counters, and
    the tool's result guards and the events of the queries about it read a handle's record only through a
    ``produced_by`` pattern (the producer chain); without one, an admitted proposal with the key of an
    earlier one has its trans id (the new record differs only in the positions its handles name, which
    ``newrec`` takes from the state, and its handles' paths, which the key holds)."""
    if compiled(model.policy).tools[tool].origins or (model.approvals and reads_permits(model, tool)):
        return 0
    patterns = [p for r in model.results_of(tool) for _, p in r.when] + \
        [p for q in model.queries if q.event.tool == tool for _, p in q.event.args]
    return 1 if any(reads_producers(p) for p in patterns) else 2


#: fields of ``held.Context`` that its ``__post_init__`` computes from the model alone and no search changes:
#: shared by every search of one model (``fresh_context``); every other field is a memo table a search fills
CONTEXT_SHARED = frozenset({"model", "renaming", "results", "names", "goals", "semantics"})
#: per-model compiles kept (``static_of``); more distinct models in one process start the cache afresh
STATIC_LIMIT = 32


class Static:
    """What the encoded search computes from the model alone before it explores — the parsed tool results
    and argument lists (``held.Context``), the tool, argument-list and path indices, the literals' ids, the
    kernel's per-tool arrays, ``abstract`` per tool, ``supported`` per bound — compiled once per model
    object (``static_of``) instead of per search. Nothing in it depends on a state the search reaches: the
    tables a search fills (decisions, outcomes, records, rests) start empty in each search, as the
    interpreted search's decision memo does. ``argref``'s per-argument effect checks are compiled on first
    use (they too read the model alone); its answers, where they read no slot, for every value up front."""

    def __init__(self, model: SearchModel) -> None:
        self.model = model  # held: the cache is keyed by ``id(model)``, which stays this object's while held
        proto = Context(model, renaming=True)
        self.proto = proto
        self.tools = [t.name for t in model.policy.tools]
        self.tool_ix = {t: i for i, t in enumerate(self.tools)}
        self.names: list[tuple[str, tuple[str, ...]]] = [(t, n) for t in self.tools for n in proto.names[t]]
        self.paths: list[str] = [""]
        self.path_ix: dict[str, int] = {"": 0}
        for _, fs in model.fields:
            for f in fs:
                if f not in self.path_ix:
                    self.path_ix[f] = len(self.paths)
                    self.paths.append(f)
        self.label_refusals = label_refusals(model)
        self.lits = [proto.intern(("L", v)) for v in model.literals]
        self.vids = [proto.intern(("V", v)) for v in model.literals]
        self.interned = dict(proto.interned)  # what every search's intern table starts with
        self.texts = dict(zip(self.vids, model.literals, strict=True))
        self.tool_rows: list[tuple[int, int, int, int]] = []
        first = 0
        for t in self.tools:
            cap = model.max_calls_of(t)
            self.tool_rows.append((-1 if cap is None else cap, len(proto.results[t]), first, len(proto.names[t])))
            first += len(proto.names[t])
        self.arities = [len(n) for _, n in self.names]
        self.more_than = [q.more_than for q in model.queries]
        self.goals = sum(1 << i for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL)
        self.abstract = [abstract(model, t) for t in self.tools]
        self.why: dict[int, str | None] = {}  # ``supported`` per bound
        self.root = empty(model.policy)
        self.effects: dict[tuple[int, int], tuple[tuple[bool, tuple[tuple[Any, ...], ...]], ...]] = {}
        # every value a state can hold is a literal, a tool result's text or one of its declared fields (copies
        # are those texts again): parsed here once, not once per search (``Context.value``, ``Context.field``)
        for v in model.literals:
            proto.value(v)
        for t in self.tools:
            for res in proto.results[t]:
                if res.ok:
                    proto.value(res.text)
                    for f in model.fields_of(t):
                        proto.field(res.text, f)
        for got in list(proto.fields.values()):
            if got is not None:
                proto.value(got[1])  # a field's text, for ``copies`` and ``argref``
        self.values, self.fields = dict(proto.values), dict(proto.fields)
        self.lit_values = [proto.value(v) for v in model.literals]  # ``held``'s parsed values of them
        self.prequota = prequota(model, proto, self.names, self.lits)
        # ``Compiler.outs`` per argument names (their decision's outcomes reusable: ``abstract`` 2, no Lean
        # semantics), and the outcomes of every call of literals ``prequota`` passes, in the initial state's
        # slots and invalid set: a function of the model alone (see ``root_outcomes``)
        self.reuse_outs = [proto.semantics is None and self.abstract[self.tool_ix[t]] == 2 for t, _ in self.names]
        self.root_outs = root_outcomes(model, proto, self.names, self.lits, self.prequota, self.reuse_outs, self.root)
        # ``Compiler.argref`` per argument names, argument and value text, where no allow pattern of the
        # argument's effects names a slot: the answer then reads nothing of the state, so it is a function of
        # the model alone, computed here over every value a state can hold (the texts above)
        texts = list(self.values)
        none = State((), (), frozenset(), (), (), frozenset(), ())
        self.argrefs: dict[tuple[int, int, str], int] = {}
        for ni, (_tool, names) in enumerate(self.names):
            for j in range(len(names)):
                effects = self.arg_effects(ni, j)
                if effects and not any(isinstance(pat, SlotPat) for _l, sides in effects for allows in sides
                                       for pat in allows):
                    for text in texts:
                        self.argrefs[(ni, j, text)] = refused_alone(effects, self.values[text], none)

    def supported(self, bound: int) -> str | None:
        if bound not in self.why:
            self.why[bound] = supported(self.model, bound, self.proto)
        return self.why[bound]

    def context(self) -> Context:
        """A fresh search context: the model's parsed results and argument lists shared, every memo table
        empty but for the literals' interned ids (``interned``: the ids the kernel was given)."""
        ctx = copy.copy(self.proto)
        m = self.model
        ctx.mat = Materializer(m.agent, m.policy)
        ctx.independence = Independence()
        ctx.special = ctx.independence.id(SPECIAL)
        ctx.values, ctx.fields, ctx.interned = dict(self.values), dict(self.fields), dict(self.interned)
        ctx.memo = None if self.proto.memo is None else {}
        ctx.trans, ctx.refused = {}, set()
        return ctx

    def arg_effects(self, ni: int, j: int) -> tuple[tuple[bool, tuple[tuple[Any, ...], ...]], ...]:
        """Per effect declaration of the tool on argument ``j`` of argument names ``ni`` (``Compiler.argref``):
        whether it is a list argument, and per side (user, application) the resource patterns of its
        action's allow entries."""
        got = self.effects.get((ni, j))
        if got is None:
            m = self.model
            tool = m.policy.tool(self.names[ni][0])
            assert tool is not None
            name = self.names[ni][1][j]
            got = tuple((isinstance(d.resource, ListArgRes),
                         tuple(tuple(e.resource for e in side if e.kind is EntryKind.ALLOW and e.action == d.action)
                               for side in (m.policy.user, m.policy.application)))
                        for d in tool.effects if isinstance(d.resource, ArgRes | ListArgRes) and d.resource.arg == name)
            self.effects[(ni, j)] = got
        return got


_STATIC: dict[int, Static] = {}


def static_of(model: SearchModel) -> Static:
    """The per-model compile of ``model`` (``Static``), built on its first search in this process."""
    st = _STATIC.get(id(model))
    if st is None or st.model is not model:
        if len(_STATIC) >= STATIC_LIMIT:
            _STATIC.clear()
        st = _STATIC[id(model)] = Static(model)
    return st


class Compiler:
    """The tables' Python side: each method computes one entry on a miss of the kernel (module docstring)."""

    def __init__(self, model: SearchModel, ctx: Context, static: Static | None = None) -> None:
        self.model, self.ctx = model, ctx
        self.codec = Codec()
        st = static_of(model) if static is None else static
        self.static = st
        self.tools, self.tool_ix, self.names = st.tools, st.tool_ix, st.names
        self.paths, self.path_ix = st.paths, st.path_ix
        # per decision id: (tool, the (name, path) of each handle argument, outcomes, counters after)
        self.trans: list[tuple[str, tuple[tuple[str, str], ...], tuple[Any, ...], tuple[int, ...],
                               tuple[int, ...], Verdict]] = []
        self.trans_ix: dict[Any, int] = {}
        self.kernel: Any = None
        self.loaded = 0  # records whose facts the kernel has
        self.last: tuple[int, Any, Any, Any] = (-1, None, None, None)  # the state ``decide`` last decoded
        self.texts: dict[int, str] = {}  # value id -> the canonical text it stands for
        self.projs: dict[int, int] = {}  # rest id -> its ``proj``
        self.label_refusals = st.label_refusals
        self.labels: dict[int, Label] = {}  # label id -> the label (``label``, ``join``)
        # per (argument names, literal contents, slots, invalid set): the outcomes of an admitted call decided
        # by ``Static.prequota``. Why they read nothing else: without handles, and with result guards and
        # query events that read no producer chain (``abstract`` 2), the guards and events read the call
        # and the slots and invalid set (``patterns.arg_matches``); the commit charges the counters, which
        # no outcome holds, and makes the record from the call and the verdict's effects and label, which
        # ``before_quota`` fixed; the observation reads the outcome, the slots and the invalid set. The
        # verdicts of two such calls differ in their allocations only, which no outcome reads (no permit:
        # ``prequota_applies``). A Lean semantics steps the whole state, so it is left out.
        self.outs: dict[Any, tuple[Any, ...]] = {}
        self.reuse_outs = st.reuse_outs
        self.fast = [0, 0]  # decisions by ``Static.prequota`` and first-fit, and those it left to ``decide``

    # --- interning ------------------------------------------------------------------------------

    def rest_id(self, rest: tuple[Any, ...]) -> int:
        codec = self.codec
        key = (rest, repr(rest[0]), repr(rest[5]))  # as ``Codec.ids``: ``true`` and ``1`` stay apart
        r = codec.rest_id.get(key)
        if r is None:
            r = codec.rest_id[key] = len(codec.rests)
            codec.rests.append(rest)
        return r

    def rec_id(self, rec: Rec) -> int:
        codec = self.codec
        i = codec.rec_id.get(rec)
        if i is None:
            i = codec.rec_id[rec] = len(codec.recs)
            codec.recs.append(rec)
        return i

    def encode(self, s: Compact) -> list[int]:
        return [self.rest_id(s[1:]), *(self.rec_id(r) for r in s[0])]

    def decode(self, v: list[int]) -> Compact:
        recs = self.codec.recs
        return (tuple(recs[i] for i in v[1:]), *self.codec.rests[v[0]])

    # --- callbacks ------------------------------------------------------------------------------

    def record(self, rid: int) -> None:
        """Hand the kernel the facts of every record interned so far (``rid`` among them), in id order."""
        recs = self.codec.recs
        for j in range(self.loaded, len(recs)):
            r = recs[j]
            fields: list[int] = []
            if r[OK]:
                fields = [self.path_ix[p] for p in self.model.fields_of(r[TOOL])
                          if self.ctx.field(r[RESULT], p) is not None]
            self.kernel.set_record(j, bool(r[OK]), self.tool_ix[r[TOOL]], r[0], [d for _, d, _p in r[REFS]], fields,
                                   sum(1 << i for i in r[REFS + 1]), sum(1 << i for i in r[REFS + 2]))
        self.loaded = len(recs)

    def deep(self, rid: int, deeps: list[int]) -> int:
        r = self.codec.recs[rid]
        return self.ctx.intern((r[:REFS], tuple((a, dd, p) for (a, _d, p), dd in zip(r[REFS], deeps, strict=True)),
                                r[REFS + 1:]))

    def content(self, deep: int, pid: int) -> int:
        return self.ctx.intern(("R", deep, self.paths[pid], -1))

    def proj(self, p: int) -> int:
        out = self.projs.get(p)  # also asked per decision (the interpreted memo's key), not only per table miss
        if out is None:
            bindings, invalid, used_user, used_app, satisfied, permits = self.codec.rests[p]
            out = self.projs[p] = self.ctx.intern((tuple((b[0], b[1], b[1].__class__) for b in bindings), invalid,
                                                   used_user, used_app, satisfied, permits))
        return out

    def prefix(self, ni: int, proj: int) -> int:
        tool, names = self.names[ni]
        return self.ctx.intern((tool, names, proj))

    def value(self, rid: int, pid: int) -> int:
        r = self.codec.recs[rid]
        if pid == 0:
            text = r[RESULT]
        else:
            f = self.ctx.field(r[RESULT], self.paths[pid])
            assert f is not None, "a held field exists"
            text = f[1]
        vid = self.ctx.intern(("V", text))
        self.texts[vid] = text
        return vid

    def copy(self, vid: int) -> int:
        """The content id of a value read (by its value id), retyped as a literal (``copies``)."""
        return self.ctx.intern(("L", self.texts[vid]))

    def absval(self, rid: int, pid: int) -> int:
        """A held value as the decision reads it when the tool has no origin rule: its value and the label
        of the record it names (its sensitivity, categories and trust), and the field it is (the new record
        names it by that path) — see ``abstract``."""
        r = self.codec.recs[rid]
        return self.ctx.intern(("A", self.value(rid, pid), r[SENS], r[CATS], r[TRUSTED], pid))

    def pinfo(self, p: int) -> int:
        """Bit 1: the rest ``p`` holds a permit (contents are positional); bit 2: an approver may still
        permit a call in it (``expand.successors``)."""
        permits = self.codec.rests[p][5]
        return int(bool(permits)) | (2 if self.model.approvals and len(permits) < self.model.max_permits else 0)

    def pcontent(self, deep: int, pid: int, pos: int) -> int:
        """A handle's content with its position (``held.held``, positional)."""
        return self.ctx.intern(("R", deep, self.paths[pid], pos))

    def aprefix(self, ni: int, p: int) -> int:
        """The key prefix of the approvals of argument names ``ni`` in rest ``p``; -1 when no approval pattern
        names the tool (``approve`` would refuse each of its proposals)."""
        tool = self.names[ni][0]
        if not any(a.tool == tool for a in self.model.approvals):
            return -1
        return self.ctx.intern(("approve", ni, p))

    def approve(self, sidx: int, ni: int, ix: list[int]) -> int:
        """The rest after an approver permits the proposal, or -1 when no approval pattern matches it.
        Whether one matches (``patterns.args_match``) reads the argument values, the slots and invalid set
        (``bound_to``) and, through ``produced_by``, the records the handles name and theirs in turn — all
        fixed by the contents without positions (a content names its record's deep id) and ``sprefix``:
        the kernel tables that answer by those (``amatch``), so only a proposal some pattern matches asks
        again per rest and positions (the permit binds handle positions)."""
        ctx, m = self.ctx, self.model
        _, s, hs, mon = self.state_at(sidx)
        tool, names = self.names[ni]
        call, refs3 = call_of(ctx, tool, names, tuple(map(hs.__getitem__, ix)))
        ss = ctx.mat.search_state(s, mon)
        if not any(a.tool == tool and args_match(m, a.args, ss, call, refs3) for a in m.approvals):
            return -1
        bindings, invalid, uu, ua, satisfied, permits = s[1:]
        p = Permit(len(permits), call.tool, call.identity())
        return self.rest_id((bindings, invalid, uu, ua, satisfied, (*permits, permit_tuple(p))))

    def amask(self, sidx: int, ni: int, j: int, i: int) -> int:
        """Bit ``a`` set unless approval pattern ``a`` surely fails on a proposal of argument names ``ni``
        whose ``j``-th argument is held value ``i`` of state ``sidx``: its tool is another, or one of its
        patterns for that argument does not match the value (``patterns.arg_matches``). What that reads —
        the value, the slots and invalid set (``bound_to``), the chain of records a handle names
        (``produced_by``) — is fixed by the value's content without positions and ``sprefix``, the kernel's
        key of it. With more than ``MAXAPP`` patterns every bit is set (nothing is ruled out); the mask is
        never negative, so it never reads as the kernel's empty or missing entry."""
        ctx, m = self.ctx, self.model
        if len(m.approvals) > MAXAPP:
            return (1 << MAXAPP) - 1
        _, s, hs, mon = self.state_at(sidx)
        tool, names = self.names[ni]
        name = names[j]
        call, refs3 = call_of(ctx, tool, names, (hs[i],) * len(names))
        ss = ctx.mat.search_state(s, mon)
        ref = next((d for nm, d, _p in refs3 if nm == name), None)
        out = 0
        for a, ap in enumerate(m.approvals):
            if ap.tool == tool and all(arg_matches(m, p, ss, call.args[name], ref) for n, p in ap.args if n == name):
                out |= 1 << a
        return out

    def state_at(self, sidx: int) -> tuple[int, Any, Any, Any]:
        """(index, compact state, held values, monitor state) of the kernel's state ``sidx``."""
        if self.last[0] != sidx:  # misses come in runs from one state: decode it once
            ctx = self.ctx
            s0 = self.decode(self.kernel.state(sidx))
            self.last = (sidx, s0, held(ctx, s0[0], bool(s0[6])), ctx.mat.monitor(s0))
        return self.last

    def sprefix(self, ni: int, p: int) -> int:
        """The tool, argument names and the slots and invalid set of rest ``p``: the key prefix of a refusal
        by ``SLOT_REASONS``, which no counter, requirement or permit changes."""
        bindings, invalid = self.codec.rests[p][:2]
        tool, names = self.names[ni]
        return self.ctx.intern(("slots", tool, names, tuple((b[0], b[1], b[1].__class__) for b in bindings), invalid))

    def label_id(self, lab: Label) -> int:
        out = self.ctx.intern(("label", lab.sensitivity, lab.categories, lab.trusted))
        self.labels[out] = lab
        return out

    def label(self, rid: int) -> int:
        """The label id of record ``rid``."""
        r = self.codec.recs[rid]
        return self.label_id(self.ctx.mat.label(r[SENS], r[CATS], r[TRUSTED]))

    def join(self, a: int, b: int) -> int:
        """The label id of the join of labels ``a`` and ``b`` (the monitor's input label of a call whose
        handles name records of both)."""
        return self.label_id(compiled(self.model.policy).join([self.labels[a], self.labels[b]]))

    def argref(self, ni: int, j: int, vid: int, p: int) -> int:
        """1 when every proposal with the argument names ``ni`` whose ``j``-th argument has the value ``vid``
        is refused in every state with the slots and invalid set of rest ``p``, whatever the other arguments
        and the handles; else 0. So when, for some effect declaration of the tool on that argument, the
        value (a list argument: the value or one of its items) is (a) no well-formed resource
        (``matching.call_effects``: its first malformed declaration refuses the call, and preparation before
        it reads only the names), or (b) matched by no allow entry's resource pattern of the effect's action
        on the user or the application list, under these slots (the allows check of that effect finds no
        allow, since an entry matches only where its pattern does): every check before the refusing one
        either passes or refuses too."""
        text = self.texts[vid]
        got = self.static.argrefs.get((ni, j, text))
        if got is not None:
            return got
        effects = self.static.arg_effects(ni, j)
        if not effects:
            return 0
        bindings, invalid = self.codec.rests[p][:2]
        return refused_alone(effects, self.ctx.value(text), State((), bindings, invalid, (), (), frozenset(), ()))

    def decide(self, sidx: int, ni: int, ix: list[int], same: int, pref: int) -> int:
        """The decision on a proposal and, when admitted, its outcomes: a new trans id; when refused, -1, or
        ``VALUE_REFUSAL`` when the check that refused it reads only the argument values, the argument names
        and the state's slots, invalid set, counters and requirements (``VALUE_REASONS``; the ``proj`` of the
        key), ``SLOT_REFUSAL`` when it reads only the values, names, slots and invalid set (``SLOT_REASONS``),
        ``LABEL_REFUSAL`` when the tool, the agent and the output label alone refuse it (``by_label``),
        ``ORIGIN_REFUSAL - j`` when an origin rule on argument ``j`` refuses it (``origin_arg``).
        Why such a refusal holds for every proposal with those values in every state with that projection
        (or those slots), whatever its handles name: the monitor's checks run in a fixed order and each
        either refuses or passes; the checks before the refusing one that read the handles (the label's
        ceiling) can only refuse another such proposal earlier, and those that do not read them pass it as
        they passed this one, so it reaches the refusing check, whose inputs are the same, or is refused
        before. ``same``: the trans id of an admitted proposal with the same abstract key (``abstract``),
        whose verdict is this one's, or -1; ``pref``: the kernel's ``prefix`` id of the key (read by the
        tests that check each tabled refusal against the monitor)."""
        ctx, m = self.ctx, self.model
        tool, names = self.names[ni]
        pre: Any = None
        if same < 0:
            table = self.static.prequota[ni]
            # ``held`` lists the literals first, in the model's order, their contents the literals' ids
            # (``Static.lits``); any other held value's content is no literal's id, so no key of the table:
            # the key needs no decoded state
            lits = self.static.lits
            if table is not None and all(i < len(lits) for i in ix):
                key = tuple(lits[i] for i in ix)
                pre = table.get(key)
            if type(pre) is tuple:  # steps 1-6 passed whatever the state: first-fit on its counters decides
                self.fast[0] += 1
                return self.after_prequota(sidx, ni, ix, key, pre)
        _, s, hs, mon = self.state_at(sidx)
        call, refs3 = call_of(ctx, tool, names, tuple(map(hs.__getitem__, ix)))
        if same >= 0:
            verdict = self.trans[same][5]
        elif pre is None:
            self.fast[1] += 1
            verdict = decide(m.policy, mon, call)
        else:
            self.fast[0] += 1
            verdict = pre
        if verdict.decision is not Decision.ALLOW:
            return self.refusal(verdict, mon, call, names)
        return self.admit(s, mon, call, refs3, verdict, None)

    def after_prequota(self, sidx: int, ni: int, ix: list[int], key: tuple[int, ...],
                       pre: tuple[Any, ...]) -> int:
        """``decide`` for a call of literals whose steps before first-fit ``Static.prequota`` passed: first-fit
        and the steps after it on the state's counters and requirements, which are all they read
        (``prequota.prequota_applies``: no exact-call permit or extension), so the state is decoded only when
        the call is admitted with outcomes not yet computed (``outs``)."""
        m = self.model
        tool, names = self.names[ni]
        effects, _label, matched = pre
        rest = self.codec.rests[self.kernel.state(sidx)[0]]  # its counters are the monitor state's
        if isinstance(first_fit(matched, len(effects), (rest[2], rest[3]), rest[4]), int):
            return VALUE_REFUSAL  # a quota refusal, as ``decide`` would answer
        vals = self.static.lit_values
        call = Call(m.agent, tool, {n: vals[i] for n, i in zip(names, ix, strict=True)}, (), ())
        counters = State((), rest[0], rest[1], rest[2], rest[3], rest[4], ())
        verdict = after_quota(compiled(m.policy), counters, call, *pre)
        if verdict.decision is not Decision.ALLOW:
            return self.refusal(verdict, counters, call, names)
        # a call of literals decided here has the outcomes of another in a state with the same slots and
        # invalid set (``outs``), whatever the counters: see ``Compiler.outs``
        okey = (ni, key, rest[0], rest[1]) if self.reuse_outs[ni] else None
        outs = None
        if okey is not None:
            outs = self.outs.get(okey)
            if outs is None:
                outs = self.static.root_outs.get(okey)
        if outs is not None:
            return self.new_trans(tool, (), outs, rest[2], rest[3], verdict)
        _, s, _hs, mon = self.state_at(sidx)
        return self.admit(s, mon, call, (), verdict, okey)

    def refusal(self, verdict: Verdict, mon: State, call: Call, names: tuple[str, ...]) -> int:
        """``decide``'s code for a refusal (``verdict`` not Allow)."""
        if verdict.decision is Decision.DENY:
            reason = verdict.reason
            if reason in VALUE_REASONS:
                return SLOT_REFUSAL if reason in SLOT_REASONS else VALUE_REFUSAL
            if reason is DenyReason.ORIGIN:
                j = self.origin_arg(mon, call, names)
                if j is not None:
                    return ORIGIN_REFUSAL - j
            return LABEL_REFUSAL if self.by_label(mon, call) else -1
        if not verdict.waiting_for:
            return -1
        if FLOW_APPROVAL in verdict.waiting_for:  # a flow Pause: the output label's, or a sink's
            return LABEL_REFUSAL if self.by_label(mon, call) else -1
        return VALUE_REFUSAL  # a Pause for a requirement is decided by the values and the requirements

    def admit(self, s: Compact, mon: State, call: Call, refs3: tuple[tuple[str, int, str], ...], verdict: Verdict,
              okey: Any) -> int:
        """The trans id of an admitted call: its outcomes computed (and tabled under ``okey`` unless None)."""
        ctx, m = self.ctx, self.model
        tool = call.tool
        ss = ctx.mat.search_state(s, mon)
        results = ctx.results[tool]
        # the commit does not depend on the outcome: made once for them all (a Lean semantics steps per
        # outcome)
        committed = commit(m.policy, mon, call, verdict) if len(results) > 1 and ctx.semantics is None \
            else None
        outs = tuple(outcome_of(ctx, ss, call, refs3, verdict, k, res, committed, False)
                     for k, res in enumerate(results))
        if okey is not None:
            self.outs[okey] = outs
        return self.new_trans(tool, tuple((nm, p) for nm, _d, p in refs3), outs, s[3], s[4], verdict)

    def new_trans(self, tool: str, template: tuple[tuple[str, str], ...], outs: tuple[Any, ...], used_user: Any,
                  used_app: Any, verdict: Verdict) -> int:
        assert verdict.user is not None and verdict.app is not None
        uu, ua = charge_positions(used_user, verdict.user.positions), charge_positions(used_app, verdict.app.positions)
        tid = len(self.trans)
        self.trans.append((tool, template, outs, uu, ua, verdict))
        self.kernel.set_trans(tid, sum(1 << k for k, o in enumerate(outs) if o is not None))
        return tid

    def by_label(self, mon: State, call: Call) -> bool:
        """Whether the tool, the agent and the call's output label alone refuse it in a state without
        permits: the Struct checks of (tool, agent) fail, or the label exceeds the agent's ceiling, or no
        flow rule lets it reach the tool's destination, or a rule into that destination pauses it (the
        extensions then answer Pause or Deny whatever the audience and request sinks give, and without a
        permit a Pause refuses). Each reads the label and nothing else of the call or the state, so the
        refusal holds for every proposal of the tool whose handles' labels join to the same label (the
        output label is the tool's propagation of that join; of its source label without handles): every
        check before the refusing one either passes it as it passed this call, or refuses it too."""
        c = compiled(self.model.policy)
        ct = c.tools[call.tool]
        fail, ceiling = c.struct(ct, call.agent)
        if fail is not None:
            return True
        label = c.propagate(ct, c.join([mon.trace[d].label for d in call.parents()]) if call.refs
                            else ct.source_label)
        if ceiling is not None and c.rank[label.sensitivity] > ceiling:
            return True
        decl = ct.decl
        if not c.flow_allows(decl.operation, decl.destination, label):
            return True
        return self.label_refusals and c.extended and c.destination_pauses(decl.operation, decl.destination, label)

    def origin_arg(self, mon: State, call: Call, names: tuple[str, ...]) -> int | None:
        """The position among ``names`` of the argument whose origin rule refused the call (the tool's first
        rule that fails, as ``compiled_decide`` checks them), or None when that argument is absent. The
        rule reads only the chain of records that argument's handle names (``origins.produced_by``: each
        record's tool, success and parents), which its content without positions fixes (a content names
        its record's deep id); so every proposal of these argument names with that content there is
        refused in every state: the checks before it either pass it or refuse it too, and so do the rules
        before this one."""
        refs = dict(call.refs)
        for rule in compiled(self.model.policy).tools[call.tool].origins:
            d = refs.get(rule.argument)
            if d is None or not produced_by(mon, d, rule):
                return names.index(rule.argument) if rule.argument in names else None
        raise AssertionError("an origin refusal names a failing rule")  # pragma: no cover - decide said so

    def newrec(self, tid: int, k: int, height: int, hpos: list[int]) -> int:
        _tool, template, outs, _uu, _ua, _v = self.trans[tid]
        core, matched, premise, _after, _inv, _fp, _perm = outs[k]
        refs3: tuple[tuple[str, int, str], ...] = ()
        if template:  # a call of handles (one of literals names no record)
            positions = [p for p in hpos if p >= 0]
            refs3 = tuple((nm, pos, path) for (nm, path), pos in zip(template, positions, strict=True))
        return self.rec_id((height, *core, refs3, matched, premise))

    def less(self, a: int, b: int) -> int:
        recs = self.codec.recs
        return 1 if recs[a] < recs[b] else 0

    def shift(self, rid: int, at: int) -> int:
        r = self.codec.recs[rid]
        return self.rec_id((*r[:REFS], tuple((a, d + 1 if d >= at else d, p) for a, d, p in r[REFS]), *r[REFS + 1:]))

    def rest(self, p: int, tid: int, k: int, n: int, at: int) -> int:
        bindings, _invalid, _uu, _ua, satisfied, permits = self.codec.rests[p]
        _tool, _template, outs, uu, ua, _v = self.trans[tid]
        _core, _matched, _premise, after, inv, _fp, consumed = outs[k]
        if after is not None:
            old_pos = {b[0]: b[2] for b in bindings}
            bindings = tuple((sl, v, n if fresh else old_pos[sl]) for sl, v, fresh in after)
        if consumed is not None:  # the call used a permit (the key's permits are this state's)
            permits = consumed
        if at != n and bindings:  # ``compact.insert``: later positions move up by one
            bindings = tuple((sl, v, at if i == n else i + 1 if i >= at else i) for sl, v, i in bindings)
        if at != n and permits:
            permits = tuple((pid, tool, tuple((a, retarget(x, n, at)) for a, x in ident), used, ev)
                            for pid, tool, ident, used, ev in permits)
        return self.rest_id((bindings, inv, uu, ua, satisfied, permits))

    def satisfy(self, p: int, j: int) -> int:
        bindings, invalid, uu, ua, satisfied, permits = self.codec.rests[p]
        req = self.model.satisfy[j]
        if req in satisfied:
            return -1
        return self.rest_id((bindings, invalid, uu, ua, satisfied | {req}, permits))

    def completions(self, p: int, s: Compact, hpos: list[int], tid: int, k: int, query: int, seen: set[str],
                    out: set[Any]) -> None:
        """``layered.collect_completions`` for a goal event of the kernel: the goal's cone in the successor
        built as the interpreted search builds it (the parent state, rest ``p``, with the new record appended
        last), but from the tables — the new record (``newrec``) and the rest after (``rest``, no shift) —
        so the monitor does not decide and commit the call again. From the initial state (no record,
        requirement or permit) the cone is the goal call alone, and its one order replays, from that same
        state, the very transition the kernel took: the call admitted, an outcome whose guard held, the goal
        made to hold by it (the kernel's goal event) — so that order is the cone, with no replay."""
        n = len(s[0])
        rec = self.codec.recs[self.newrec(tid, k, 0, hpos)]  # the height orders states only: the cone reads none
        if n == 0 and not s[5] and not s[6]:
            steps: tuple[Step, ...] = (goal_call(rec),)
            goal = 0
        else:
            new = self.ctx.mat.search_state(((*s[0], rec), *self.codec.rests[self.rest(p, tid, k, n, n)]))
            steps, goal = cone(self.model, new, n, query)
        key = completion_key(steps)
        if key not in seen:
            seen.add(key)
            if n == 0 and not s[5] and not s[6]:
                out.add(steps)
            else:
                out |= orders(self.model, steps, goal, query)

    # --- traces ---------------------------------------------------------------------------------

    def links(self, sidx: int) -> tuple[list[Link], Compact]:
        """The links from the initial state to state ``sidx``: each state's parent and the ordinal of the
        transition from it (``step``)."""
        path: list[tuple[int, int]] = []
        s = sidx
        while (link := self.kernel.link(s)) is not None:
            s, o = link
            path.append((s, o))
        out: list[Link] = []
        for parent, o in reversed(path):
            cur = self.decode(self.kernel.state(parent))
            tr, at = self.step(parent, cur, o)
            out.append((cur, tr, at))
        return out, self.decode(self.kernel.state(sidx))

    def step(self, sidx: int, s: Compact, o: int) -> tuple[Transition, int | None]:
        """Transition ``o`` of the kernel's state ``sidx`` (``s`` decoded) and the canonical position of its
        new record (None without one), as ``expand.successors`` yields them: the kernel describes which
        (``Kernel.describe``, its successor loop run again over the filled tables), the held values and
        the verdict its tables hold give the rest, as for the goals' completions."""
        got = self.kernel.describe(sidx, o)
        assert got is not None, f"no transition {o} to describe"
        if got[0] == 0:
            return Transition(Satisfy(self.model.satisfy[got[1]]), None, None), None
        tool, names = self.names[got[1]]
        hs = held(self.ctx, s[0], bool(s[6]))
        choice = tuple(hs[i] for i in got[2])
        if got[0] == 1:
            return Transition(Approve(action_of(tool, names, choice)), None, None), None
        return transition((tool, names, choice, got[4], self.trans[got[3]][5])), got[5]


class NativeStore:
    """The kernel's visited set as an ``engine.Store``: the frontier in chunks of ``CHUNK`` state indices.
    In the fingerprint mode the kernel keeps 64-bit fingerprints of every state and the vectors of the
    states it will expand only (``begin(last)`` tells it which layer is the last)."""

    def __init__(self, kernel: Any, fingerprint: bool = False) -> None:
        self.kernel = kernel
        self.fingerprint = fingerprint
        self.mode = "fingerprint" if fingerprint else "exact"
        self.lo, self.hi = 0, kernel.nstates

    def __len__(self) -> int:
        return int(self.kernel.nstates)

    def begin(self, last: bool) -> None:
        self.kernel.last = last

    def width(self) -> int:
        return int((self.hi - self.lo + CHUNK - 1) // CHUNK)

    def frontier(self) -> Iterator[tuple[int, tuple[int, int], None]]:
        for n, a in enumerate(range(self.lo, self.hi, CHUNK)):
            yield n, (a, min(a + CHUNK, self.hi)), None

    def advance(self) -> bool:
        if self.kernel.nstates == self.hi:
            return False
        self.lo, self.hi = self.hi, self.kernel.nstates
        return True

    def collision(self) -> float:
        return collision_probability(len(self)) if self.fingerprint else 0.0


_UNLIMITED = Budget()


def explore_native(model: SearchModel, bound: int | None = None, tick: Tick | None = None,
                   budget: Budget = _UNLIMITED, meter: Meter | None = None, *, fingerprint: bool = False,
                   capacity: int = 0) -> ExplicitRun | None:
    """The search without sleep sets on the compiled kernel; None when the kernel is not built or the
    model is outside its scope (``supported``): the caller then runs the interpreted search.
    ``fingerprint``: the visited set keeps 64-bit fingerprints instead of whole vectors (the collision
    probability is reported as in ``fpset.py``); ``capacity``: the fingerprint table's initial number
    of slots, rounded up to a power of two (a table sized for the run is never doubled)."""
    # the cycle collector is paused for the whole call, set-up and trace replay included, and resumed only
    # after the search's tables (several Python objects per table fill; acyclic once ``_explore_native``
    # cuts the kernel's link back to its callbacks) have died by reference count: resumed while they lived,
    # the replay's allocations set off a collection that walked every one of them (``heap.py``)
    with paused():
        return _explore_native(model, bound, tick, budget, meter, fingerprint, capacity)


def _explore_native(model: SearchModel, bound: int | None, tick: Tick | None, budget: Budget, meter: Meter | None,
                    fingerprint: bool, capacity: int) -> ExplicitRun | None:
    k = model.bound if bound is None else bound
    mod = kernel_module()
    if mod is None:
        return None
    st = static_of(model)
    if st.supported(k) is not None:
        return None
    ctx = st.context()
    py = Compiler(model, ctx, st)
    py.texts.update(st.texts)
    kern = mod.Kernel(py, k + 2, len(st.lits), st.lits, st.vids, st.tool_rows, st.arities, len(model.satisfy),
                      st.more_than, st.goals, True, st.abstract, model.copies, fingerprint, capacity, True)
    py.kernel = kern
    try:
        return _search(model, k, tick, budget, meter, fingerprint, ctx, py, kern)
    finally:
        py.kernel = None  # the kernel holds ``py`` for its callbacks: without this cycle the tables die by count


def _search(model: SearchModel, k: int, tick: Tick | None, budget: Budget, meter: Meter | None, fingerprint: bool,
            ctx: Context, py: Compiler, kern: Any) -> ExplicitRun:
    kern.add_root(py.encode(py.static.root))
    store = NativeStore(kern, fingerprint)

    def expand(layer: int, last: bool, n: int, chunk: tuple[int, int], x: None) -> Iterator[int]:
        yield int(kern.expand(chunk[0], chunk[1]))

    run = meter if meter is not None else budget.start()
    cov = bfs(store, expand, k, run, tick)
    t0, c0 = time.perf_counter(), time.process_time()
    found = {}
    for q, sidx, o in kern.found_events:
        path, s = py.links(sidx)
        tr, at = py.step(sidx, s, o)
        found[q] = rebuild([*path, (s, tr, at)])
    goals_ix = {i for i, q in enumerate(model.queries) if q.kind is QueryKind.GOAL}
    cones: dict[int, set[str]] = {i: set() for i in goals_ix}
    complete: dict[int, set[Any]] = {i: set() for i in goals_ix}
    by_state: dict[int, list[tuple[int, int, int, tuple[int, ...], int]]] = {}
    for q, sidx, ni, tid, ix, o in kern.goal_events:
        by_state.setdefault(sidx, []).append((q, ni, tid, ix, o))
    for sidx, events in by_state.items():
        v = kern.state(sidx)
        s = py.decode(v)
        # a state without records holds literals alone: no held value names a record
        hpos = [-1 if h[3] is None else h[3][0] for h in held(ctx, s[0], bool(s[6]))] if s[0] else \
            [-1] * len(model.literals)
        for q, _ni, tid, ix, o in events:
            py.completions(v[0], s, [hpos[i] for i in ix], tid, o, q, cones[q], complete[q])
    verdicts, comps = answers(model, k, found, kern.premises(), complete, cov.states, cov.unknown)
    return ExplicitRun(k, verdicts, comps, cov.states, cov.transitions, cov.depth,
                       cov.seconds + time.perf_counter() - t0, cov.unknown, False,
                       cov.cpu_seconds + time.process_time() - c0, store.mode, store.collision(), "intcode")


def explore_auto(model: SearchModel, bound: int | None = None, tick: Tick | None = None,
                 budget: Budget = _UNLIMITED, reduction: bool = True, meter: Meter | None = None) -> ExplicitRun:
    """The default explicit search (``explicit.explore``'s signature): the encoded search where the kernel is
    built and covers the model (``supported``), else the interpreted one with ``reduction`` as asked. The
    encoded search explores without sleep sets (``reduced`` False, every transition counted); its states,
    depth, verdicts with their shortest traces and completions are those of the interpreted search with or
    without them (``docs/search.md``, sleep sets)."""
    run = explore_native(model, bound, tick, budget, meter)
    if run is not None:
        return run
    return explore(model, bound, tick, budget, reduction, meter)


__all__ = ["Compiler", "NativeStore", "explore_auto", "explore_native", "kernel_module", "supported"]
