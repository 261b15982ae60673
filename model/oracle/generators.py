"""Shared hypothesis strategies. Each system appends its own section; do not rewrite others' parts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

# --- edits: small execution-edit check instances (model.edits) ------------------------------
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.edits.check.contract import Call, Choice, Family, Nil, Par, Seq, Term
from model.edits.check.edit_policy import PolicyAutomaton, from_automaton, from_maximal_words
from model.edits.check.family import pomset_of
from model.edits.check.instance import Instance, make_instance
from model.monitor.language import policy as P
from model.monitor.language.labels import Inherit, Label, Levels, Propagation, Transform
from model.oracle import tree_gen
from model.oracle.draws import BOOL as _BOOL
from model.oracle.draws import below as _below
from model.oracle.draws import coin as _coin
from model.oracle.draws import count as _count
from model.oracle.draws import maybe as _maybe
from model.oracle.draws import pick as _pick
from model.oracle.draws import policy_names
from model.oracle.draws import policy_values as _policy_values
from model.oracle.draws import subset as _subset
from model.oracle.draws import unique_names as _unique_names
from model.oracle.extension_gen import extended_policies
from model.oracle.run_openings import argument_sources, rule_chains

EDIT_ACTIONS = ("d0", "d1", "d2", "d3")
EDIT_LABELS = ("a", "b", "c")


@st.composite
def edit_terms(draw: st.DrawFn, max_calls: int = 4) -> Term:
    """A contract term with at most ``max_calls`` distinct calls c0, c1, … and fresh choice IDs."""
    counter = {"call": 0, "group": 0}

    def build(depth: int) -> Term:
        room = max_calls - counter["call"]
        kinds = ["call"] * 8 + ["nil"] if depth >= 3 else ["call"] * 6 + ["nil", "choice", "choice", "par", "seq"]
        if room <= 0:
            kinds = ["nil"]
        kind = draw(st.sampled_from(kinds))
        if kind == "call":
            counter["call"] += 1
            return Call(f"c{counter['call'] - 1}")
        if kind == "nil":
            return Nil()
        n = draw(st.integers(2, 3 if kind == "choice" else 2))
        parts = tuple(build(depth + 1) for _ in range(n))
        if kind == "choice":
            counter["group"] += 1
            return Choice(f"g{counter['group'] - 1}", tuple((f"a{i}", t) for i, t in enumerate(parts)))
        return Par(parts) if kind == "par" else Seq(parts)

    return build(0)


@st.composite
def edit_instances(draw: st.DrawFn, max_calls: int = 4, term: Term | None = None) -> Instance:
    """Small instances: calls may share actions, labels may coincide, the log may pre-authorize actions.

    The policy is the prefix closure of a few words, usually starting with ``lab(Δ)`` so that most
    instances are well formed; ill-formed ones (Invalid) are kept on purpose.
    """
    term = term if term is not None else draw(edit_terms(max_calls))
    calls = sorted({c for c in _calls(term)})
    actions = {c: draw(st.sampled_from(EDIT_ACTIONS[:3])) for c in calls}
    labels = {d: draw(st.sampled_from(EDIT_LABELS)) for d in EDIT_ACTIONS}
    log = tuple(draw(st.lists(st.sampled_from(EDIT_ACTIONS), max_size=2, unique=True)))
    lab_log = [labels[d] for d in log]
    prefixed = draw(st.booleans()) or draw(st.booleans()) or draw(st.booleans())
    if draw(st.integers(0, 3)) == 0:
        policy = draw(cyclic_policies(lab_log if prefixed else []))
    else:
        words = draw(st.lists(st.lists(st.sampled_from(EDIT_LABELS), max_size=4), min_size=1, max_size=4))
        policy = from_maximal_words([lab_log + w for w in words] if prefixed else words)
    return make_instance(term, actions, labels, log, policy)


@st.composite
def cyclic_policies(draw: st.DrawFn, lead: list[str]) -> PolicyAutomaton:
    """A policy with cycles (an infinite truncation-closed language): a chain reading ``lead``, then
    1–3 states with random transitions among them, every state accepting; the alphabet may hold a
    label no action carries (``"e"``), so the oracle's label numbering covers the policy's alphabet."""
    k = len(lead)
    delta = {(i, a): i + 1 for i, a in enumerate(lead)}
    m = draw(st.integers(1, 3))
    for q in range(k, k + m):
        for a in (*EDIT_LABELS, "e"):
            if draw(st.integers(0, 2)) == 0:
                delta[(q, a)] = draw(st.integers(k, k + m - 1))
    policy = from_automaton(k + m, 0, range(k + m), delta)
    assert isinstance(policy, PolicyAutomaton)  # every state accepts, so the language is truncation-closed
    return policy


@st.composite
def family_terms(draw: st.DrawFn, pool: int = 4) -> Term:
    """An explicit outcome family over calls f0…f{pool-1}: 1–3 outcomes, each a subset of the
    pool with an acyclic order (pairs drawn along a random permutation), often an N-shaped order
    (a<b, c<b, c<d) and the same call in several outcomes ordered differently; sometimes composed with
    an extra call z by ▷ or ⊗ (a family is a term like any other)."""
    names = [f"f{i}" for i in range(pool)]
    members = []
    for k in range(draw(st.integers(1, 3))):
        if draw(st.integers(0, 3)) == 0 and pool >= 4:
            perm = draw(st.permutations(names))
            a, b, c, d = perm[:4]
            calls, pairs = [a, b, c, d], [(a, b), (c, b), (c, d)]  # N: not series-parallel
        else:
            calls = draw(st.lists(st.sampled_from(names), unique=True, max_size=pool))
            order = draw(st.permutations(calls))
            pairs = [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))
                     if draw(st.booleans())]
        members.append((f"o{k}", pomset_of(calls, pairs)))
    fam: Term = Family("F", tuple(members))
    how = draw(st.sampled_from(("alone", "alone", "seq", "par")))
    if how == "seq":
        return Seq((fam, Call("z")))
    if how == "par":
        return Par((Call("z"), fam))
    return fam


@st.composite
def family_instances(draw: st.DrawFn) -> Instance:
    """Instances whose contract is an explicit family (``family_terms``), with ``edit_instances``' actions,
    labels, log and policy."""
    return draw(edit_instances(term=draw(family_terms())))


def _calls(t: Term) -> list[str]:
    from model.edits.check.contract import call_ids

    return list(call_ids(t))


#: The checker's reason classes, in its order of precedence (model.edits.check.answer.InvalidReason).
INVALID_KINDS = ("duplicate-call", "duplicate-group", "empty-choice", "unmapped-call", "unlabelled-action",
                 "log-repeats-action", "log-outside-policy", "complete-prefixes-another")


def _groups(t: Term) -> list[str]:
    if isinstance(t, Family):
        return [t.group]
    if isinstance(t, Choice):
        return [t.group] + [g for _, sub in t.arms for g in _groups(sub)]
    if isinstance(t, Par | Seq):
        return [g for sub in t.parts for g in _groups(sub)]
    return []


def _break(draw: st.DrawFn, inst: Instance, kind: str) -> Instance:
    """``inst`` changed so that the condition of reason class ``kind`` holds (an earlier class may hold
    too, by accident or by an earlier break: the checker then answers that one)."""
    term, acts, labs, log, policy = inst.contract, inst.action_map(), inst.label_map(), inst.log, inst.policy
    calls = _calls(term)
    if kind == "duplicate-call":
        c = draw(st.sampled_from(calls)) if calls else "c0"
        term = Seq((term, Call(c))) if calls else Par((Call(c), Call(c)))
        acts.setdefault(c, "d0")
    elif kind == "duplicate-group":
        groups = _groups(term)
        extra = Choice(draw(st.sampled_from(groups)) if groups else "gd", (("a0", Nil()),))
        parts: tuple[Term, ...] = (term, extra) if groups else (term, extra, extra)
        term = Par(parts)
    elif kind == "empty-choice":
        empties: list[Term] = [
            Choice("ge", ()), Choice("ge", (("a0", Nil()), ("a0", Call("ce")))), Family("fe", ()),
            Family("fe", (("o0", pomset_of(["ce"], [])), ("o0", pomset_of([], []))))]
        term = Par((term, draw(st.sampled_from(empties))))
        acts.setdefault("ce", "d0")
    elif kind == "unmapped-call":
        if calls and _coin(draw):
            acts.pop(draw(st.sampled_from(calls)), None)
        else:
            term = Seq((term, Call("cu")))
    elif kind == "unlabelled-action":
        used = sorted({acts[c] for c in calls if c in acts} | set(log))
        if used and _coin(draw):
            labs.pop(draw(st.sampled_from(used)), None)
        elif calls and _coin(draw):
            acts[draw(st.sampled_from(calls))] = "dz"
        else:
            log = (*log, "dz")
    elif kind == "log-repeats-action":
        log = (*log, log[0]) if log else ("d0", "d0")
    elif kind == "log-outside-policy":
        log = log or (draw(st.sampled_from(EDIT_ACTIONS)),)
        first = labs.get(log[0], "a")
        others = [x for x in EDIT_LABELS if x != first]
        policy = from_maximal_words(draw(st.lists(st.lists(st.sampled_from(others), max_size=3), max_size=3)))
    else:  # complete-prefixes-another: a choice between nothing and a contract with calls
        if not calls:
            term, acts = Seq((term, Call("cp"))), {**acts, "cp": "d0"}
        term = Choice("gp", (("a0", Nil()), ("a1", term)))
    return make_instance(term, acts, labs, log, policy)


@st.composite
def invalid_edit_instances(draw: st.DrawFn) -> Instance:
    """Ill-formed instances: an ``edit_instances`` or ``family_instances`` instance broken for one or two
    reason classes (two: the checker's order of precedence decides which one it answers)."""
    inst = draw(st.one_of(edit_instances(), family_instances()))
    kinds = [draw(st.sampled_from(INVALID_KINDS))]
    if draw(st.integers(0, 3)) == 0:  # sparingly: the earlier class of the two usually wins
        kinds.append(draw(st.sampled_from(INVALID_KINDS)))
    for kind in kinds:
        inst = _break(draw, inst, kind)
    return inst


@st.composite
def drt_edit_instances(draw: st.DrawFn) -> Instance:
    """The edit_check DRT's cases: half ``edit_instances``, one in six ``family_instances``, one in three
    ``invalid_edit_instances`` (so every Invalid reason class is compared against the oracle)."""
    pick = draw(st.integers(0, 5))
    if pick <= 2:
        return draw(edit_instances())
    return draw(family_instances() if pick == 3 else invalid_edit_instances())


# --- monitor: random well-formed policies (model.monitor.language.policy) ----------------------------
# ``policies()`` draws a Policy that passes model.monitor.language.validate, small enough for exhaustive
# monitor checks: at most 3 levels, 4 nodes, 4 edges, 4 tools and 5 entries per permission list,
# with slots and their resolvers, argument predicates, globs, permits, requirements, histories and
# origin rules. Names come from a pool that deliberately includes words that are keywords
# elsewhere in the grammar (memory, quota, in, allow...) so round trips exercise contextual lexing.

POLICY_ACTIONS: tuple[str, ...] = ("file.delete", "message.send", "record.read", "pay", "a.b.c", "quota.in")



# Strategies are built once: constructing them inside draws costs more than drawing from them.
# Numbers within ±(2**53 - 1) and text without lone surrogates: the domain of the JSON boundary
# (model/base/jsonio.py), which validate() also holds a policy built in Python to.
# Values Python's ``==``/``hash`` confuse and RFC 8785 equality does not (``True == 1 == 1.0``,
# ``False == 0``), drawn often so every differential test meets them side by side.
CONFUSABLE: tuple[JSON, ...] = (True, 1, 1.0, False, 0, -0.0, "1", "true", None)
_SCALARS: st.SearchStrategy[JSON] = st.one_of(
    st.sampled_from(CONFUSABLE), st.none(), st.booleans(), st.integers(-(10**12), 10**12),
    st.floats(-(2.0**53 - 1), 2.0**53 - 1, allow_nan=False), st.text(st.characters(exclude_categories=["Cs"]),
                                                                     max_size=8),
)
_NUMBERS: st.SearchStrategy[int | float] = st.one_of(st.integers(-1000, 1000),
                                                      st.floats(-1e6, 1e6, allow_nan=False))
_OPT_NUMBER = st.none() | _NUMBERS
_OPT_BOOL = st.none() | st.booleans()


_NODE_KINDS = tuple(P.NodeKind)
# the paper's two effects: ``pause`` (an extension beyond Agenra) is drawn only for the whole monitor
# (``extension_gen``), so the closed core's inputs stay what they were
_FLOW_EFFECTS = (P.FlowEffect.ALLOW, P.FlowEffect.DENY)
_SCOPES = tuple(P.HistoryScope)
_QUOTAS = st.none() | st.integers(0, 3)
_ACTION = st.sampled_from(POLICY_ACTIONS)
_PATH = st.lists(policy_names, min_size=1, max_size=2)
_KEYS = st.none() | st.frozensets(policy_names, max_size=3)
_ENTRY_KIND = st.sampled_from((P.EntryKind.ALLOW, P.EntryKind.ALLOW, P.EntryKind.DENY))
_PRED_KIND = st.sampled_from(("eq", "one_of", "range"))
_BASE_PATTERNS: list[st.SearchStrategy[P.ResourcePattern]] = [
    st.just(P.AnyRes()), _SCALARS.map(P.ConstPat), st.text(max_size=6).map(P.GlobPat)]
_CONST_REF: st.SearchStrategy[P.ResourceRef] = _SCALARS.map(P.ConstRes)
_AUTHORITATIVE = st.frozensets(_PATH.map(".".join), max_size=2)


def exactly(a: object, b: object) -> bool:
    """Equal with the same types throughout: Python's ``==`` takes ``True`` for ``1`` and ``1`` for ``1.0``
    inside logs, verdicts and states, which the monitor's JSON equality tells apart."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list | tuple):
        assert isinstance(b, list | tuple)
        return len(a) == len(b) and all(exactly(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(exactly(v, b[k]) for k, v in a.items())
    if is_dataclass(a) and not isinstance(a, type):
        return all(exactly(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    return a is b or a == b  # scalars of one type (the same NaN object), strings, frozensets of names, counters


def scalars() -> st.SearchStrategy[JSON]:
    """JSON scalars as the policy language writes them (finite numbers, any text)."""
    return _SCALARS


def _value(draw: st.DrawFn, vals: Sequence[JSON]) -> JSON:
    """``draw(st.sampled_from(vals) | _SCALARS)`` without building a strategy per draw: a value the
    policy mentions or any scalar, each half the time."""
    return _pick(draw, vals) if draw(_BOOL) else draw(_SCALARS)


def _values(draw: st.DrawFn, vals: Sequence[JSON], lo: int, hi: int) -> list[JSON]:
    return [_value(draw, vals) for _ in range(_count(draw, lo, hi))]


def _result(draw: st.DrawFn, vals: Sequence[JSON]) -> JSON:
    """A call's result: a value (``_value``) or an object of up to two fields with such values."""
    if draw(_BOOL):
        return _value(draw, vals)
    return {k: _value(draw, vals) for k in _unique_names(draw, 0, 2)}


# The composite bodies below draw through plain functions (``_label``, ``_tool``, ...) and strategies built
# once: building a strategy inside a draw (``st.lists(...)``, ``st.sampled_from(pool)``) cost more than
# drawing from it, and was most of the DRT's case generation. Choice: list lengths drawn this way are
# uniform over their bounds (``_count``), the bounds as before.


def _label(draw: st.DrawFn, levels: list[str], categories: list[str]) -> Label:
    return Label(_pick(draw, levels), _subset(draw, categories), draw(_BOOL))


@st.composite
def labels(draw: st.DrawFn, levels: list[str], categories: list[str]) -> Label:
    return _label(draw, levels, categories)


def _propagation(draw: st.DrawFn, levels: list[str], categories: list[str]) -> Propagation:
    if draw(_BOOL):
        return Inherit()
    return Transform(
        remove=_subset(draw, categories),
        decrement=draw(_below(4)),
        set_sensitivity=_maybe(draw, levels),
        set_trusted=draw(_OPT_BOOL),
    )


@st.composite
def propagations(draw: st.DrawFn, levels: list[str], categories: list[str]) -> Propagation:
    return _propagation(draw, levels, categories)


def _tool(draw: st.DrawFn, name: str, edges: list[P.Edge]) -> P.Tool:
    edge = _pick(draw, edges)
    src, dst = _pick(draw, edge.endpoints)
    args = frozenset(_unique_names(draw, 0, 3))
    names = sorted(args)
    required = _subset(draw, names)

    def ref() -> P.ResourceRef:
        kind = draw(_below(3)) if names else 0  # a constant, an argument, a list argument
        if kind == 0:
            return draw(_CONST_REF)
        return (P.ArgRes if kind == 1 else P.ListArgRes)(_pick(draw, names))

    effects = [P.EffectDecl(draw(_ACTION), ref()) for _ in range(_count(draw, 1, 3))]
    authoritative = draw(_AUTHORITATIVE)
    return P.Tool(name, edge.name, src, dst, args, required, tuple(effects), authoritative)


@st.composite
def policy_tools(draw: st.DrawFn, name: str, edges: list[P.Edge]) -> P.Tool:
    return _tool(draw, name, edges)


@st.composite
def predicates(draw: st.DrawFn) -> P.ArgPredicate:
    path = tuple(draw(_PATH))
    kind = draw(_PRED_KIND)
    if kind == "eq":
        return P.EqPred(path, draw(_SCALARS))
    if kind == "one_of":
        return P.OneOfPred(path, tuple(draw(_ONE_OF)))
    low, high = draw(_OPT_NUMBER), draw(_OPT_NUMBER)
    if low is None and high is None:
        high = 0
    if low is not None and high is not None and low > high:
        low, high = high, low
    return P.RangePred(path, low, high)


_ONE_OF = st.lists(_SCALARS, min_size=1, max_size=3)
_WHERE = st.lists(predicates(), max_size=2)


def _where(draw: st.DrawFn, arg_names: Sequence[str]) -> tuple[P.ArgPredicate, ...]:
    """An entry's predicates; with ``arg_names`` (the policy's tools' arguments), half of them test one of
    those arguments (a one-step path): a path drawn from the whole name pool almost never names an
    argument a call has, and a predicate on an absent path never holds, whatever its kind and value."""
    from dataclasses import replace

    preds = draw(_WHERE)
    if not arg_names:
        return tuple(preds)
    return tuple(replace(q, path=(_pick(draw, arg_names),)) if _coin(draw) else q for q in preds)


def _entry(draw: st.DrawFn, slots: list[str], requirements: list[str], arg_names: Sequence[str] = ()) -> P.Entry:
    # slots are what the monitor's binding logic is about: when there are some, prefer them (three
    # chances in six against any, constant and glob)
    kind = draw(_ENTRY_KIND)
    action = draw(_ACTION)
    which = draw(_below(len(_BASE_PATTERNS) + (3 if slots else 0)))
    resource = draw(_BASE_PATTERNS[which]) if which < len(_BASE_PATTERNS) else P.SlotPat(_pick(draw, slots))
    keys = draw(_KEYS)
    where = _where(draw, arg_names)
    if kind is P.EntryKind.DENY:
        return P.Entry(kind, action, resource, keys=keys, where=where)
    return P.Entry(kind, action, resource, keys=keys, where=where, quota=draw(_QUOTAS),
                   requires=_maybe(draw, requirements) if requirements else None,
                   permit=draw(_BOOL))


@st.composite
def entries(draw: st.DrawFn, slots: list[str], requirements: list[str]) -> P.Entry:
    return _entry(draw, slots, requirements)


def _guard(draw: st.DrawFn, levels: list[str], categories: list[str]) -> P.LabelGuard:
    return P.LabelGuard(
        max_sensitivity=_maybe(draw, levels),
        min_sensitivity=_maybe(draw, levels),
        any_category=_subset(draw, categories),
        no_category=_subset(draw, categories),
        trusted=draw(_OPT_BOOL),
    )


@st.composite
def guards(draw: st.DrawFn, levels: list[str], categories: list[str]) -> P.LabelGuard:
    return _guard(draw, levels, categories)


def _pairs(draw: st.DrawFn, names: list[str], lo: int, hi: int) -> tuple[tuple[str, str], ...]:
    """``lo`` to ``hi`` distinct ordered pairs of ``names`` (``st.lists(st.tuples(...), unique=True)``: a
    repeated pair is drawn again, at most ten times in a row)."""
    n, misses = _count(draw, lo, hi), 0
    out: list[tuple[str, str]] = []
    while len(out) < n and misses < 10:
        pair = (_pick(draw, names), _pick(draw, names))
        if pair in out:
            misses += 1
            continue
        misses = 0
        out.append(pair)
    return tuple(out)


@st.composite
def policies(draw: st.DrawFn, max_levels: int = 3, max_nodes: int = 4, max_tools: int = 4,
             max_entries: int = 5) -> P.Policy:
    """A random well-formed policy (see the section comment for its bounds)."""
    levels = _unique_names(draw, 1, max_levels)
    categories = _unique_names(draw, 0, 3)
    requirements = _unique_names(draw, 0, 2)
    node_names = _unique_names(draw, 1, max_nodes)
    nodes = [P.Node(n, _pick(draw, _NODE_KINDS), _label(draw, levels, categories)) for n in node_names]
    edges = [P.Edge(e, _pairs(draw, node_names, 1, 3), _propagation(draw, levels, categories))
             for e in _unique_names(draw, 1, 4)]
    edge_names = [e.name for e in edges]
    agents = [P.Agent(a, _subset(draw, edge_names), _pick(draw, levels))
              for a in _unique_names(draw, 0, 2)]
    tool_list = [_tool(draw, t, edges) for t in _unique_names(draw, 1, max_tools)]
    ops = sorted(set(edge_names) | {t.name for t in tool_list})

    resolvers: list[P.Resolver] = []
    lookups = [t for t in tool_list if t.authoritative]
    for slot in _unique_names(draw, 0, 2) if lookups else []:
        tool = _pick(draw, lookups)
        given = tool.required | _subset(draw, sorted(tool.args))
        args = tuple((k, draw(_SCALARS)) for k in sorted(given))
        resolvers.append(P.Resolver(slot, tool.name, args, _pick(draw, sorted(tool.authoritative))))

    origins: list[P.OriginRule] = []
    with_args = [t for t in tool_list if t.args]
    for name in _unique_names(draw, 0, 2) if with_args else []:
        via = _pick(draw, with_args)
        origins.append(P.OriginRule(name, via.name, _pick(draw, sorted(via.args)),
                                    _pick(draw, ops), _subset(draw, ops, 2)))

    flows = [P.FlowRule(_pick(draw, _FLOW_EFFECTS), _pick(draw, ["*", *edge_names]),
                        _pick(draw, ["*", *node_names]), _guard(draw, levels, categories))
             for _ in range(draw(_below(5)))]
    histories = [P.HistoryRule(h, _pick(draw, _SCOPES), _pick(draw, ops),
                               _pick(draw, ops), _pick(draw, ops))
                 for h in _unique_names(draw, 0, 2)]
    slots = [r.slot for r in resolvers]
    arg_names = sorted({a for t in tool_list for a in t.args})

    def side() -> tuple[P.Entry, ...]:
        return tuple(_entry(draw, slots, requirements, arg_names) for _ in range(_count(draw, 0, max_entries)))

    return P.Policy(
        name=draw(policy_names), levels=Levels(tuple(levels)), categories=frozenset(categories),
        nodes=tuple(nodes), edges=tuple(edges), agents=tuple(agents), tools=tuple(tool_list),
        resolvers=tuple(resolvers), origins=tuple(origins), flows=tuple(flows), histories=tuple(histories),
        requirements=frozenset(requirements), user=side(), application=side(),
    )


def policy_texts() -> st.SearchStrategy[str]:
    """The canonical text of a random well-formed policy."""
    from model.monitor.language.printer import print_policy

    return policies().map(print_policy)


# --- shared: every JSON path in a document (for mutation-based fuzzing) ------------------------


def json_paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``doc``, the root included, in document order."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += json_paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += json_paths(v, (*prefix, i))
    return out


# --- oracle DRT: inputs for the Lean oracle's judgments (model.oracle, tests/drt) -------------
# Closed core only (the fragment the Lean formalization covers): policies lose their exact-call
# permits. Values are drawn mostly from the constants the policy mentions, so matches, quotas and
# Allow decisions actually occur.


def _closed_core(policy: P.Policy) -> P.Policy:
    from dataclasses import replace

    return replace(policy, user=tuple(replace(e, permit=False) for e in policy.user),
                   application=tuple(replace(e, permit=False) for e in policy.application))


@st.composite
def resolve_cases(draw: st.DrawFn) -> tuple[tuple[str, ...], dict[str, str], tuple[str, ...]]:
    """``(word, q_act, D_Δ)``: any word over a few calls (repeats allowed), calls sharing actions."""
    calls = [f"c{i}" for i in range(draw(st.integers(1, 5)))]
    q_act = {c: draw(st.sampled_from(EDIT_ACTIONS)) for c in calls}
    word = tuple(draw(st.lists(st.sampled_from(calls), max_size=8)))
    authorized = tuple(draw(st.lists(st.sampled_from(EDIT_ACTIONS), max_size=3, unique=True)))
    return word, q_act, authorized


@st.composite
def ledger_cases(draw: st.DrawFn) -> tuple[Any, ...]:
    """``(user, used_user, app, used_app, effects, args, state)`` for ``model.monitor.decide.ledger.allocate``."""
    from dataclasses import replace

    from model.monitor.decide.matching import Effect
    from model.monitor.decide.state import initial_state

    policy = _closed_core(draw(policies()))
    vals = _policy_values(policy)
    # actions the lists mention, so that several grants compete for an effect and order matters
    listed = sorted({e.action for e in (*policy.user, *policy.application)})

    def action() -> str:
        return _pick(draw, listed) if listed and _coin(draw) else draw(_ACTION)

    effects = tuple(Effect(action(), _value(draw, vals)) for _ in range(draw(_below(5))))
    args = {k: _value(draw, vals) for k in _unique_names(draw, 0, 3)}
    # unconditional grants inserted at drawn positions: random grants rarely match, and first-fit
    # order only shows when several grants can serve the same effect

    def with_grants(entries: tuple[P.Entry, ...]) -> tuple[P.Entry, ...]:
        out = list(entries)
        for _ in range(_count(draw, 0, 3)):
            g = P.Entry(P.EntryKind.ALLOW, action(), P.AnyRes(), quota=draw(_QUOTAS))
            out.insert(draw(_below(len(out) + 1)), g)
        return tuple(out)

    policy = replace(policy, user=with_grants(policy.user), application=with_grants(policy.application))

    def used(entries: tuple[P.Entry, ...]) -> tuple[int, ...]:
        return tuple(draw(_below((e.quota if e.quota is not None else 2) + 2)) for e in entries)

    state = initial_state(len(policy.user), len(policy.application),
                          _subset(draw, sorted(policy.requirements)))
    return policy.user, used(policy.user), policy.application, used(policy.application), effects, args, state


@st.composite
def monitor_runs(draw: st.DrawFn, max_calls: int = 6, closed: bool = True) -> tuple[Any, ...]:
    """``(policy, satisfied, [(call, outcome), ...])``: a closed-core policy and a call sequence.

    Half of the policies are made permissive enough for Allow, Pause and quota exhaustion to
    occur: an agent ``drt`` with every operation and the top ceiling, a catch-all flow allow
    (explicit flow denies still win) and unconditional grants with small quotas appended to
    both lists. Handles refer to earlier trace positions (they may name a failed record on
    purpose); arguments are mostly the policy's own constants; outcomes succeed or fail.
    """
    from dataclasses import replace

    from model.monitor.decide.commit import Outcome
    from model.monitor.decide.state import Call

    policy = _closed_core(draw(policies())) if closed else draw(policies())
    # A policy that declares no agent would only ever meet unknown agents: make it permissive too.
    friendly = draw(_BOOL) or not policy.agents
    if friendly:
        ops = frozenset(e.name for e in policy.edges)
        used_actions = sorted({d.action for t in policy.tools for d in t.effects})
        needs = sorted(policy.requirements)

        def grants() -> tuple[P.Entry, ...]:
            return tuple(P.Entry(P.EntryKind.ALLOW, a, P.AnyRes(), quota=_maybe(draw, (0, 1, 2)),
                                 requires=_maybe(draw, needs) if needs else None) for a in used_actions)

        policy = replace(
            policy,
            agents=(*policy.agents, P.Agent("drt", ops, policy.levels.order[-1])),
            flows=(*policy.flows, P.FlowRule(P.FlowEffect.ALLOW, "*", "*", P.LabelGuard())),
            user=(*policy.user, *grants()), application=(*policy.application, *grants()))
    vals = _policy_values(policy)
    agents = ["drt"] * 6 if friendly else []
    agents += [a.name for a in policy.agents]
    tools = [t.name for t in policy.tools]
    calls = []
    for i in range(_count(draw, 1, max_calls)):
        tname = "no_such_tool" if draw(_below(20)) == 19 else _pick(draw, tools)
        tool = policy.tool(tname)
        args: dict[str, JSON] = {}
        refs: list[tuple[str, int]] = []
        for name in sorted(tool.args) if tool is not None else []:
            assert tool is not None
            if draw(_below(5)) == 4 and name not in tool.required:
                continue
            lists = any(isinstance(d.resource, P.ListArgRes) and d.resource.arg == name for d in tool.effects)
            args[name] = _values(draw, vals, 1, 2) if lists else _value(draw, vals)
            if i and not lists and draw(_below(6)) == 5:
                refs.append((name, draw(_below(i))))
        outcome = Outcome(draw(_BOOL), _result(draw, vals))
        # An unknown agent is drawn one time in ten: it ends the decision at its first check, so
        # drawing it as often as a real agent left the later checks (and Allow) thinly covered.
        agent = "ghost" if not agents or draw(_below(10)) == 9 else _pick(draw, agents)
        calls.append((Call(agent, tname, args, tuple(refs)), outcome))
    return policy, _subset(draw, sorted(policy.requirements)), calls


# --- search: variants of the report task's finite model and policy (model.search) ---------------

_SEARCH_DIR = __import__("pathlib").Path(__file__).resolve().parents[2] / "corpus"


@st.composite
def search_report_variants(draw: st.DrawFn) -> tuple[Any, int]:
    """A variant of ``corpus/search/report.json`` under a mutated report policy, with a small bound.

    Policy mutations: no/immediate/chained origin rule, send and release quotas 0–2 on either list,
    lookup quotas, the mail flow guard, first grant order; model mutations: a non-empty subset of each
    tool's outcomes, of the literals and of the queries, and whether the agent retypes values it read."""
    from model.base.jsonio import load_file, read_text
    from model.monitor.language.syntax import parse_policy
    from model.search.load import model_from_json

    text = read_text(_SEARCH_DIR / "policies" / "report.policy")
    origin = draw(st.sampled_from(["none", "immediate", "chained"]))
    if origin == "none":
        text = text.replace("origin report_body {via: Send argument: body producer: Sanitize}\n", "")
    elif origin == "chained":
        text = text.replace("producer: Sanitize}\n", "producer: Sanitize}\norigin report_input "
                            "{via: Sanitize argument: record producer: Read}\n")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "quota" in line and "unlimited" not in line and draw(st.integers(0, 2)) == 0:
            lines[i] = line.rsplit("quota", 1)[0] + f"quota {draw(st.integers(0, 2))}"
    text = "\n".join(lines) + "\n"
    text = text.replace("when sensitivity <= Public", "when sensitivity <= " + draw(
        st.sampled_from(["Public", "Public", "Internal", "Confidential"])))
    policy = parse_policy(text, "<variant>")
    doc = load_file(_SEARCH_DIR / "search" / "report.json")
    assert isinstance(doc, dict)
    for tool, outs in doc["results"].items():
        keep = draw(st.lists(st.sampled_from(range(len(outs))), min_size=1, max_size=len(outs), unique=True))
        doc["results"][tool] = [outs[k] for k in sorted(keep)]
    doc["agent"]["literals"] = draw(st.lists(st.sampled_from(doc["agent"]["literals"]), unique=True, max_size=2))
    doc["agent"]["copies"] = draw(st.booleans())
    doc["queries"] = draw(st.lists(st.sampled_from(doc["queries"]), min_size=1, max_size=4, unique_by=lambda q:
                                   q["name"]))
    return model_from_json(doc, "<variant>", policy=policy), draw(st.integers(1, 3))


_CONFUSABLE_POLICY = """policy conf
levels Public < Internal
node directory: source (Public, {{}}, trusted)
node memory: memory (Public, {{}}, trusted)
node mail: sink (Public, {{}}, trusted)
edge Lookup: directory -> memory inherit
edge Send: memory -> mail inherit
agent assistant {{operations: {{Lookup, Send}}, ceiling: Internal}}
tool Lookup {{endpoints: directory -> memory, args: {{name}}, required: {{name}},
             effects: [directory.lookup(name)], authoritative: {{destination}}}}
tool Send {{endpoints: memory -> mail, args: {{recipient, amount}}, required: {{recipient}},
           effects: [message.send(recipient)]}}
resolve target: Lookup(name: {name}) -> destination
flow allow * -> memory
flow allow * -> mail
user {{
  allow directory.lookup(*) quota {quota}
{grants}
}}
application {{
  allow directory.lookup(*) quota unlimited
  allow message.send(*) quota unlimited
}}
"""


# Two lookup answers Python's ``==`` equates (or whose text looks alike), in both orders: the states they bind
# must not share a memo entry.
_PYTHON_EQUAL_PAIRS = st.sampled_from(((True, 1), (True, 1.0), (False, 0), (False, -0.0), (1, "1"), (True, "true"))) \
    .flatmap(lambda p: st.sampled_from((p, p[::-1])))


@st.composite
def search_confusable_variants(draw: st.DrawFn) -> Any:
    """A search model whose lookups bind a slot to, and whose agent holds, values Python's ``==`` confuses
    (``true``/``1``/``1.0``/``false``/``0``/``"1"``), under grants on slots, constants, predicates and
    denies over the same values; queries ask for sends of each value and for sends not to the slot."""
    import json as _json

    from model.base.canonical import canonical_str
    from model.monitor.language.syntax import parse_policy
    from model.search.load import model_from_json

    value = st.sampled_from(CONFUSABLE[:7])
    text = value.map(_json.dumps)
    quota = st.sampled_from(("1", "unlimited"))
    grant = st.one_of(
        quota.map(lambda q: f"  allow message.send(@target) quota {q}"),
        st.tuples(text, quota).map(lambda a: f"  allow message.send({a[0]}) quota {a[1]}"),
        text.map(lambda v: f"  allow message.send(*) where amount == {v} quota 1"),
        st.tuples(text, text).map(lambda a: f"  allow message.send(*) where recipient in {{{a[0]}, {a[1]}}} quota 1"),
        text.map(lambda v: f"  deny message.send({v})"))
    name = draw(value)
    policy = parse_policy(_CONFUSABLE_POLICY.format(
        name=_json.dumps(name), quota=draw(st.sampled_from(("1", "2", "unlimited"))),
        grants="\n".join(draw(st.lists(grant, min_size=1, max_size=3)))), "<confusable>")
    literals: list[JSON] = []
    for v in [*draw(st.lists(value, min_size=1, max_size=3)), name]:
        if all(canonical_str(v) != canonical_str(w) for w in literals):
            literals.append(v)
    queries = [{"name": f"send_{i}", "kind": "forbidden", "description": f"a send to {_json.dumps(v)}",
                "event": {"tool": "Send", "when": "admitted", "args": {"recipient": {"equals": v}}}}
               for i, v in enumerate(CONFUSABLE[:6])]
    queries += [{"name": "not_bound", "kind": "forbidden", "description": "a send not to the bound slot",
                 "event": {"tool": "Send", "when": "admitted", "args": {"recipient": {"not": {"bound_to": "target"}}}}},
                {"name": "amount", "kind": "forbidden", "description": "a send with amount true or 0",
                 "event": {"tool": "Send", "when": "admitted", "args": {"amount": {"one_of": [True, 0]}}}}]
    doc = {"name": "confusable", "description": "values Python equates", "policy": "unused.policy", "toolkit": "none",
           "bound": 3, "agent": {"name": "assistant", "literals": literals, "fields": {"Lookup": ["destination"]}},
           "results": {"Lookup": [{"ok": True, "value": {"destination": d}} for d in draw(_PYTHON_EQUAL_PAIRS)],
                       "Send": [{"ok": True, "value": {}}]},
           "queries": queries}
    return model_from_json(doc, "<confusable>", policy=policy)


# --- revision: grants for the matching engines and small revisions (model.revision) -------------
# ``revision_grants()`` draws entries of one action over a fixed tool (``target`` resource, optional
# ``amount`` and ``meta`` arguments) with constant, any, glob and slot patterns, key allowlists and
# predicates on shallow and nested paths, so Z3 and explicit enumeration can be compared.
# ``revision_cases()`` draws a small delete policy and a revision of it by one or two edits (swap,
# quota change, widened/narrowed pattern or predicate, appended/inserted/removed grant, added deny)
# with a five-call workload, small enough for brute force over every sequence up to length 3.

REVISION_TOOL = P.Tool("Pay", "Pay", "m", "f", frozenset({"target", "amount", "meta"}), frozenset({"target"}),
                       (P.EffectDecl("pay", P.ArgRes("target")),))
_REV_CONSTS: tuple[JSON, ...] = ("A", "B", "ab", "", "\\u{41}", 0, 1, 1.0, 2.5, True, False, "1")
_REV_GLOBS = ("*", "a*", "?", "[ab]", "[!a]*", "a?b*", "A", "[a-c]x")
_REV_PATHS = (("amount",), ("meta",), ("meta", "x"), ("target",))
_REV_NUMS = st.sampled_from((0, 1, 2, 2.5, 10, -1))


@st.composite
def revision_predicates(draw: st.DrawFn) -> P.ArgPredicate:
    path = draw(st.sampled_from(_REV_PATHS))
    kind = draw(st.sampled_from(("eq", "one_of", "range")))
    if kind == "eq":
        return P.EqPred(path, draw(st.sampled_from(_REV_CONSTS)))
    if kind == "one_of":
        return P.OneOfPred(path, tuple(draw(st.lists(st.sampled_from(_REV_CONSTS), min_size=1, max_size=3))))
    low, high = draw(st.none() | _REV_NUMS), draw(_REV_NUMS)
    return P.RangePred(path, min(low, high) if low is not None else None, max(low, high) if low is not None else high)


@st.composite
def revision_grants(draw: st.DrawFn) -> P.Entry:
    pattern = draw(st.one_of(st.just(P.AnyRes()), st.sampled_from(_REV_CONSTS).map(P.ConstPat),
                             st.sampled_from(_REV_GLOBS).map(P.GlobPat), st.sampled_from(("s", "t")).map(P.SlotPat)))
    keys = draw(st.none() | st.frozensets(st.sampled_from(("target", "amount", "meta")), max_size=3))
    where = tuple(draw(st.lists(revision_predicates(), max_size=2)))
    return P.Entry(P.EntryKind.ALLOW, "pay", pattern, keys=keys, where=where, quota=1)


_E = TypeVar("_E")  # a permission list's entry, as a generator writes it

_DEL_PATTERNS = ('"A"', '"B"', '"C"', "*", 'like "[AB]"', 'like "*"')
_DEL_WHERE = ("", "", " where force == true", " where force == false")
_DEL_QUOTAS = ("0", "1", "1", "2", "unlimited")


@st.composite
def del_entry(draw: st.DrawFn, deny: bool = False) -> str:
    pat, where = draw(st.sampled_from(_DEL_PATTERNS)), draw(st.sampled_from(_DEL_WHERE))
    if deny:
        return f"deny file.delete({pat}){where}"
    return f"allow file.delete({pat}){where} quota {draw(st.sampled_from(_DEL_QUOTAS))}"


def del_text(name: str, user: list[str], app: list[str]) -> str:
    def block(xs: list[str]) -> str:
        return "".join(f"  {x}\n" for x in xs)

    return (f"policy {name}\nlevels Public\ncategories\nnode m: memory (Public, {{}}, trusted)\n"
            "node f: sink (Public, {}, trusted)\nedge Delete: m -> f inherit\n"
            "agent a {operations: {Delete}, ceiling: Public}\n"
            "tool Delete {endpoints: m -> f, args: {target, force}, required: {target}, "
            "effects: [file.delete(target)]}\n"
            f"flow allow * -> f\nuser {{\n{block(user)}}}\napplication {{\n{block(app)}}}\n")


@st.composite
def policy_edit(draw: st.DrawFn, xs: list[str]) -> list[str]:
    xs = list(xs)
    kind = draw(st.sampled_from(("swap", "quota", "pattern", "where", "append", "insert", "remove", "deny")))
    i = draw(st.integers(0, max(len(xs) - 1, 0)))
    if kind == "swap" and len(xs) >= 2:
        i = min(i, len(xs) - 2)
        xs[i], xs[i + 1] = xs[i + 1], xs[i]
    elif kind in ("quota", "pattern", "where") and xs and xs[i].startswith("allow"):
        fresh = draw(del_entry())
        head, _, tail = xs[i].partition(" quota ")
        f_head, _, f_tail = fresh.partition(" quota ")
        if kind == "quota":
            xs[i] = f"{head} quota {f_tail}"
        elif kind == "pattern":
            xs[i] = f_head.split(")")[0] + ")" + head.split(")", 1)[1] + f" quota {tail}"
        else:
            xs[i] = head.split(")")[0] + ")" + f_head.split(")", 1)[1] + f" quota {tail}"
    elif kind == "append":
        xs.append(draw(del_entry()))
    elif kind == "insert":
        xs.insert(i, draw(del_entry()))
    elif kind == "remove" and xs:
        del xs[i]
    elif kind == "deny":
        xs.insert(i, draw(del_entry(deny=True)))
    return xs


REVISION_WORKLOAD_JSON: dict[str, Any] = {"agent": "a", "calls": [
    {"name": "A", "tool": "Delete", "args": {"target": "A"}},
    {"name": "B", "tool": "Delete", "args": {"target": "B"}},
    {"name": "C", "tool": "Delete", "args": {"target": "C"}},
    {"name": "A!", "tool": "Delete", "args": {"target": "A", "force": True}},
    {"name": "B-", "tool": "Delete", "args": {"target": "B", "force": False}}],
    "forbidden": [{"action": "file.delete", "max": 1, "per_resource": True}]}


@st.composite
def revision_cases(draw: st.DrawFn) -> tuple[P.Policy, P.Policy]:
    """A small delete policy and a revision of it by one or two edits of its permission lists."""
    from model.monitor.language.syntax import parse_policy

    user = draw(st.lists(del_entry(), min_size=1, max_size=3))
    app = ["allow file.delete(*) quota unlimited"] if draw(st.booleans()) else \
        draw(st.lists(del_entry(), min_size=1, max_size=2))
    new_user, new_app = draw(revised_lists(user, app, policy_edit))
    return parse_policy(del_text("old", user, app)), parse_policy(del_text("new", new_user, new_app))


@st.composite
def revised_lists(draw: st.DrawFn, user: list[_E], app: list[_E],
                  edit: Callable[[list[_E]], st.SearchStrategy[list[_E]]]) -> tuple[list[_E], list[_E]]:
    """The two permission lists after one or two edits (``edit``), each of the application list with
    probability one in four and of the user list otherwise."""
    new_user, new_app = list(user), list(app)
    for _ in range(draw(st.integers(1, 2))):
        if draw(st.integers(0, 3)) == 0:
            new_app = draw(edit(new_app))
        else:
            new_user = draw(edit(new_user))
    return new_user, new_app


# a lookup's answer: a small pool, so that a second lookup of a slot often agrees and sometimes conflicts
_FOUND_VALUES: st.SearchStrategy[Any] = st.sampled_from(["a", "b", 1, "", None]) | st.just({}) | _SCALARS


@st.composite
def whole_monitor_runs(draw: st.DrawFn, max_calls: int = 6) -> tuple[Any, ...]:
    """``(policy, satisfied, [(call, outcome, permits), ...])`` for the whole-monitor judgment.

    A ``monitor_runs`` run with exact-call permits kept, where a call is sometimes replaced by a
    resolver's exact lookup whose outcome nests a value (or a malformed one) at the resolver's path,
    so slots get bound, kept and invalidated; ``permits`` are the (tool, call) pairs the application
    issues an exact-call permit for just before the call: the call itself, or a call differing in
    one argument (a mismatch). Half of the permissive runs open with a chain built for an origin or
    a history rule (``_rule_chains``)."""
    from dataclasses import replace

    from model.monitor.decide.commit import Outcome
    from model.monitor.decide.state import Call

    policy, satisfied, calls = draw(monitor_runs(max_calls, closed=False))
    if draw(_BOOL):
        policy = draw(extended_policies(policy))
    if draw(_BOOL):  # grants that need a permit, so that permits are consumed, missing or mismatched
        flags = [_coin(draw) for _ in range(len(policy.user) + len(policy.application))]
        marked = [replace(e, permit=f) if e.kind is P.EntryKind.ALLOW else e
                  for e, f in zip((*policy.user, *policy.application), flags, strict=True)]
        policy = replace(policy, user=tuple(marked[:len(policy.user)]), application=tuple(marked[len(policy.user):]))
    # a small pool, so that a second lookup of a slot often agrees and sometimes conflicts
    out: list[tuple[Any, ...]] = []
    if any(a.name == "drt" for a in policy.agents) and draw(_BOOL):
        policy, out = draw(rule_chains(policy))
    elif any(a.name == "drt" for a in policy.agents) and draw(_BOOL):
        policy, out = argument_sources(draw, policy)
    for call, outcome in calls:
        if out and draw(_below(4)) == 0:  # the previous call again: permits consumed, slots re-read
            call = out[-1][0]
        if policy.resolvers and draw(_BOOL):
            r = _pick(draw, policy.resolvers)
            found = draw(_FOUND_VALUES)
            value: JSON = found
            for step in reversed(r.path.split(".")):
                value = {step: value}
            call = Call(call.agent, r.tool, dict(r.args), ())
            outcome = Outcome(draw(_below(5)) > 0, value)
        permits: list[tuple[Any, ...]] = []
        if draw(_BOOL):
            target = call
            if call.args and draw(_below(4)) == 0:
                # another value: under a handle when there is one (an approval binds the value, not only the handle)
                name = _pick(draw, sorted(dict(call.refs))) if call.refs and _coin(draw) else sorted(call.args)[0]
                target = Call(call.agent, call.tool, {**call.args, name: "other"}, call.refs)
            # the application's exact-call permit, or (with extensions) a reviewer's approval of the values
            # shown, keyed on the review identity
            review = ("review",) if (policy.audiences or any(f.argument or f.effect is P.FlowEffect.PAUSE
                                                             for f in policy.flows)) and _coin(draw) else ()
            permits.append((target.tool, target, *review))
        out.append((call, outcome, tuple(permits)))
    return policy, satisfied, out


@st.composite
def runtime_sessions(draw: st.DrawFn) -> Any:
    """An edit-runtime DRT session: a registered call model, the seed its events are drawn from (each
    event drawn for the Python runtime's state at that point, ``model.oracle.drt_runtime``) and a length."""
    from model.oracle.drt_runtime import REGISTRATIONS, Session

    return Session(draw(st.sampled_from(REGISTRATIONS)), draw(st.integers(0, 2**32 - 1)), draw(st.integers(4, 14)))


def contract_trees() -> st.SearchStrategy[Any]:
    """The ``tree_contract`` campaign's record branch trees (``model/oracle/tree_gen.py``), each leaf's
    ``Γ_b`` an ``edit_terms`` term of at most three calls."""
    return tree_gen.contract_trees(edit_terms(max_calls=3))
