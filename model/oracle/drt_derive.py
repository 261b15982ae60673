"""Python's ``Derive`` against the Lean edit judgment (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge? Exact Checking for Execution Edits*, Section V-A, Table I, Appendices A-D1 and A-D2).

``derive`` (``model/edits/runtime/derive.py``) works on the execution record: the runtime tree with its
context, progress, families, signed authorities and rule registry. The Lean judgment ``judge``
(``lean/AgentWarrant/Spec/Edits/DeriveCover.lean``, oracle judgment ``edit_derive``) works on the edited
region of a binary contract term and a checkpoint store. ``translate`` maps a record and an edit to the
judgment's request when the case lies in the fragment the Lean model covers, and names the reason
otherwise; ``compare`` runs both and compares, in Python's call names:

- defined or not (both ``Invalid`` for a MergeSelect on a parallel group or a MergeJoin on a choice, and
  for a region that is not well formed);
- the target region's results, as a multiset of pomsets (Python's: the results of the node that
  replaces the edited one in the derived tree; Lean's: ``⟦T'⟧``, its copies' calls named back through
  ``clone_term``'s map for the branch Python allocated);
- the required source results (region and pomset), which of them are authorized removals, and for
  every still-required one the set of target-region pomsets covering it (Python's covering outcomes of
  the whole target, each restricted to the region's calls; Lean's ``coversOf``);
- each new leaf's contract ``Γ``, in Table I's order (a Fork's ``b_L``, ``b_R``, a Restore's ``b_k``, a
  Merge's ``b_J``), as a multiset of pomsets: Python's the leaf's contract in the derived tree, Lean's
  read from its judged record (``judgedTEdit`` of ``Spec/Edits/DeriveTreeJudged.lean``), in the target's
  names. A Merge's ``E_J`` is Python's own input to the request, so only the Fork and Restore leaves
  check something Python computed;
- that the regions sent are the record's own (Fork, Restore): with the request go the edited leaf's
  ``Γ`` (a term) and ``χ``, and a Restore's stored copy's, and Lean's ``srcAgreesB``
  (``Spec/Edits/DeriveTreeSrc.lean``) must find each region to be its ``Γ/raw(χ)``, outcome pomsets
  compared as lists; a false verdict is a mismatch.

Choices where the Lean model is smaller, each a reason a case is *outside* the fragment (counted, not
compared): a family (explicit outcome family), a choice group with more than two arms, a parallel group
with more than two parts, a MergeSelect on a group whose arm is already selected (progress), a name not
in ``addr(T)``, a branch named where a group is required or the reverse, an unregistered rule or
template, a checkpoint Python finds forged, an ``Extend`` Python refuses, a removal Python refuses because
it is not signed (signed authorities are not modelled; Lean counts the removed region as authorized), and
a derived record Python finds ill-formed for a clause the term model does not state. Translations that keep the
results' pomsets: an n-ary ``Par``/``Seq`` is the right-nested binary one, a one-arm choice (the residual
of a choice with progress) is its arm, and a processed call is ``nil`` (the residual ``remaining``
computes). The continuation ``E_J`` of a merge is an input of the Lean request: the one Python
instantiated with fresh call names (the template from the registry when Python derives nothing). A fork
rule's continuation steps ``E_σ^L``, ``E_σ^R`` are sent as the registered templates and instantiated by
Lean (``instK`` of ``Spec/Edits/DeriveFork.lean``, then ``judgeK``; a rule without steps goes to
``judge``): template call ``t`` becomes ``2(n + t)`` on the left and ``2(n + t) + 1`` on the right, with
``n`` the sum of ``c + 1`` over the region's calls, and is read back as Python's instantiated name
``x+b`` (template call ``x``, new branch ``b``), so a wrong instantiation by Python is a target mismatch.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from model.base.jsonio import load_file
from model.edits.check.contract import Call, Choice, Family, Nil, Par, Pomset, Seq, Term, outcomes
from model.edits.ideal import machine as M
from model.edits.ideal.bisim import bisim_registration, ideal_step, key_of
from model.edits.runtime.derive import Derived, derive
from model.edits.runtime.derive_failure import DeriveFailure, DeriveInvalid
from model.edits.runtime.forms import (
    Edit,
    Extend,
    ForkChoice,
    ForkParallel,
    MergeJoin,
    MergeSelect,
    RestoreLive,
    RestoreReplace,
    kind_of,
)
from model.edits.runtime.record import State
from model.edits.runtime.requirements import sign_record
from model.edits.runtime.scenarios import SESSIONS, authority, laptop, playground
from model.edits.runtime.tree import (
    OPEN,
    ChoiceNode,
    Leaf,
    Node,
    ParNode,
    SeqNode,
    addressable,
    clone_term,
    contract_of,
    leaves,
    remaining,
    residual,
)


class Oracle(Protocol):
    def call(self, judgment: str, payload: Any) -> Any: ...


class Outside(Exception):
    """The case lies outside the fragment the Lean judgment models; ``reason`` says which part."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Canon = tuple[tuple[str, tuple[str, ...]], ...]  # a pomset: each call with its sorted predecessors


def canon_preds(preds: dict[str, set[str]]) -> Canon:
    return tuple(sorted((c, tuple(sorted(p))) for c, p in preds.items()))


def canon(p: Pomset, keep: frozenset[str] | None = None) -> Canon:
    """``p`` (restricted to the calls ``keep``) in a canonical form."""
    return canon_preds({c: set(pr) & keep if keep is not None else set(pr) for c, pr in p.preds
                        if keep is None or c in keep})


def canon_lean(events: list[int], order: list[list[int]], name: Callable[[int], str]) -> Canon:
    """A Lean pomset (events, order pairs) in Python's names, its order transitively closed."""
    preds: dict[str, set[str]] = {name(e): set() for e in events}
    for a, b in order:
        preds.setdefault(name(b), set()).add(name(a))
    changed = True
    while changed:  # transitive closure (the pairs of nested sequences already are; closing is cheap)
        changed = False
        for pr in preds.values():
            more = set().union(*(preds.get(d, set()) for d in pr)) - pr if pr else set()
            if more:
                pr |= more
                changed = True
    return canon_preds(preds)


@dataclass
class Numbering:
    """Python call names and group IDs as the Lean judgment's numbers."""

    calls: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)

    def call(self, c: str) -> int:
        if c not in self.calls:
            self.calls.append(c)
        return self.calls.index(c)

    def group(self, g: str) -> int:
        if g not in self.groups:
            self.groups.append(g)
        return self.groups.index(g)

    def term(self, t: Term) -> Any:
        """The binary term of ``t`` (``Outside`` for what the Lean terms cannot express)."""
        if isinstance(t, Call):
            return ["call", self.call(t.call)]
        if isinstance(t, Nil):
            return ["nil"]
        if isinstance(t, Family):
            raise Outside("family")
        if isinstance(t, Choice):
            if len(t.arms) == 1:
                return self.term(t.arms[0][1])
            if len(t.arms) != 2:
                raise Outside("choice with more than two arms")
            g = self.group(t.group)
            return ["choice", g, self.term(t.arms[0][1]), self.term(t.arms[1][1])]
        parts = [self.term(p) for p in t.parts]
        if not parts:
            return ["nil"]
        tag = "par" if isinstance(t, Par) else "seq"
        out = parts[-1]
        for p in reversed(parts[:-1]):
            out = [tag, p, out]
        return out


@dataclass
class Translated:
    payload: dict[str, Any]
    side_of: dict[str, bool]  # Python's region tag -> Lean's region side
    regions: dict[str, Term]  # Python's region tag -> its source contract
    name: Callable[[int], str]  # a Lean target call -> Python's name
    src_name: Callable[[int], str]  # a Lean source call -> Python's name
    region_calls: frozenset[str]  # the target region's calls (Python's names)
    target_region: Term | None  # the target region Python derived
    in_context: bool  # the edited node is not the whole tree (the comparison is on the region)
    new_leaves: list[Term]  # the contracts of the row's new leaves Python derived, in Table I's order


def _path(node: Node, ident: str) -> list[int] | None:
    """The child indices from ``node`` to the node named ``ident``."""
    if isinstance(node, Leaf):
        return [] if node.branch == ident else None
    if isinstance(node, ChoiceNode | ParNode) and node.group == ident:
        return []
    kids = [t for _, t in node.arms] if isinstance(node, ChoiceNode) else list(node.parts)
    for i, t in enumerate(kids):
        p = _path(t, ident)
        if p is not None:
            return [i, *p]
    return None


def _at(node: Node, path: list[int]) -> Node:
    for i in path:
        node = node.arms[i][1] if isinstance(node, ChoiceNode) else node.parts[i]  # type: ignore[union-attr]
    return node


def _rule_nil(t: Term | None) -> bool:
    return t is None or isinstance(t, Nil) or (isinstance(t, Seq | Par) and all(_rule_nil(p) for p in t.parts))


def _bound(t: Any) -> int:
    """Lean's ``bound`` of a binary term's calls: the sum of ``c + 1`` over them (repeats counted)."""
    if t[0] == "call":
        return int(t[1]) + 1
    return sum(_bound(x) for x in t[1:] if isinstance(x, list))


def translate(s: State, edit: Edit, py: Derived | DeriveInvalid) -> Translated:
    """The Lean request for ``edit`` at ``s`` (``Outside`` when the case is not in the fragment)."""
    if s.tree is None or s.eta is None:
        raise Outside("no rules in force")
    if isinstance(py, DeriveInvalid) and py.reason in _OUTSIDE_REASONS:
        raise Outside(_OUTSIDE_REASONS[py.reason])
    nb = Numbering()
    new_node: Node | None = None
    name_of = edit.branch if isinstance(edit, ForkChoice | ForkParallel | RestoreLive | RestoreReplace) else \
        edit.group if isinstance(edit, MergeSelect | MergeJoin) else None
    path = _path(s.tree, name_of) if name_of is not None else []
    if path is None:
        raise Outside("name not in addr(T)")
    if isinstance(py, Derived) and py.record.tree is not None:
        new_node = _at(py.record.tree, path)
    node = _at(s.tree, path)
    rule = dict(s.rules).get(getattr(edit, "rule", ""))
    if not isinstance(edit, Extend) and (rule is None or rule.kind != kind_of(edit)):
        raise Outside("edit rule not registered for the form")
    store: list[Any] = []
    tree_side: dict[str, Any] = {}
    if isinstance(edit, ForkChoice | ForkParallel):
        assert rule is not None
        if not isinstance(node, Leaf):
            raise Outside("group named where a branch is required")
        c = remaining(node)
        region = nb.term(c)
        n = len(nb.calls)
        nb.calls += [f"?copy{i}" for i in range(n, 2 * n)]  # the copies' numbers 2c, 2c + 1 (c < n)
        tree_side = _tree_side(nb, node, [])
        new_leaves = list(leaves(new_node)) if new_node is not None else []
        maps = [clone_term(c, lf.branch)[1] for lf in new_leaves]
        bare = _rule_nil(rule.left) and _rule_nil(rule.right)
        tb = Numbering(groups=nb.groups)  # the templates' calls in their own numbering
        if bare:
            req: Any = ["fork_choice", nb.group("@fork")] if isinstance(edit, ForkChoice) else ["fork_parallel"]
        else:  # the registered templates: Lean instantiates them
            steps_t = [tb.term(rule.left or Nil()), tb.term(rule.right or Nil())]
            req = ["fork_choice_templates", nb.group("@fork"), *steps_t] if isinstance(edit, ForkChoice) \
                else ["fork_parallel_templates", *steps_t]
        base_n = 2 * _bound(region)
        regions = {"L": c, "R": c}
        side_of = {"L": False, "R": True}

        def name(m: int) -> str:
            if len(maps) != 2:
                return f"?{m}"
            if m >= base_n:  # an instantiated step: template call (m - 2n) // 2 on side (m - 2n) % 2
                t, side = divmod(m - base_n, 2)
                return f"{tb.calls[t]}+{new_leaves[side].branch}" if t < len(tb.calls) else f"?{m}"
            return maps[m % 2].get(nb.calls[m // 2], f"?{m}")
    elif isinstance(edit, RestoreReplace | RestoreLive):
        if not isinstance(node, Leaf):
            raise Outside("group named where a branch is required")
        ck = dict(s.checkpoints).get(edit.checkpoint)
        if ck is None:
            raise Outside("checkpoint not stored")
        c = remaining(node)
        ck_c = residual(ck.gamma, ck.done)
        region = nb.term(c)
        store = [[0, nb.term(ck_c)]]
        n = len(nb.calls)
        tree_side = _tree_side(nb, node, [(0, ck.gamma, ck.done)])
        req = ["restore_replace" if isinstance(edit, RestoreReplace) else "restore_live", 0, n]
        regions = {"cur": c, "k": ck_c}
        side_of = {"cur": False, "k": True}
        kmap: dict[str, str] = {}
        if new_node is not None:
            bk = [lf.branch for lf in leaves(new_node)][-1]
            kmap = clone_term(ck_c, bk)[1]

        def name(m: int) -> str:
            return nb.calls[m] if m < n else kmap.get(nb.calls[m - n], f"?{m}")
    elif isinstance(edit, MergeSelect | MergeJoin):
        assert rule is not None
        if isinstance(node, Leaf):
            raise Outside("branch named where a group is required")
        if isinstance(node, ChoiceNode) and node.status != OPEN:
            raise Outside("choice group already selected (progress)")
        kids = [t for _, t in node.arms] if isinstance(node, ChoiceNode) else list(node.parts)
        if len(kids) != 2:
            raise Outside("group with more than two parts")
        region = nb.term(contract_of(node))
        ej: Term = rule.join if rule.join is not None else Nil()
        if isinstance(new_node, SeqNode) and isinstance(new_node.parts[-1], Leaf):
            ej = remaining(new_node.parts[-1])
        ej_t = nb.term(ej)
        tags = [a for a, _ in node.arms] if isinstance(node, ChoiceNode) else ["L", "R"]
        regions = {tags[0]: contract_of(kids[0]), tags[1]: contract_of(kids[1])}
        side_of = {tags[0]: False, tags[1]: True}
        if isinstance(edit, MergeSelect):
            if edit.arm not in tags:
                raise Outside("arm not in the group")
            g = nb.group(node.group) if isinstance(node, ChoiceNode) else 0
            req = ["merge_select", g, edit.arm == tags[1], ej_t]
        else:
            req = ["merge_join", ej_t]

        def name(m: int) -> str:
            return nb.calls[m]
    else:
        c = contract_of(s.tree)
        region = nb.term(c)
        req = ["extend"]
        regions = {"ctx": c}
        side_of = {"ctx": False}

        def name(m: int) -> str:
            return nb.calls[m]
    target = contract_of(new_node) if new_node is not None else None
    region_calls = frozenset(x for p in outcomes(target).values() for x in p.calls) if target is not None \
        else frozenset()
    return Translated({"region": region, "store": store, "request": req, **tree_side}, side_of, regions, name,
                      lambda m: nb.calls[m], region_calls, target, bool(path), _new_leaves(edit, new_node))


def _tree_side(nb: Numbering, leaf: Leaf, saved: list[tuple[int, Term, tuple[str, ...]]]) -> dict[str, Any]:
    """The edited leaf and the stored copies as the record holds them (``Γ`` as a term, ``χ`` in order), for
    Lean's ``srcAgreesB`` check that the regions sent are their ``Γ/raw(χ)``. Processed calls are numbered
    after ``nb``'s without changing them; nothing is sent when a ``Γ`` lies outside the term model (the
    regions, residuals, are still judged)."""
    own = Numbering(list(nb.calls), list(nb.groups))
    try:
        return {"leaf": [own.term(leaf.gamma), [own.call(x) for x in leaf.done]],
                "saved": [[k, own.term(g), [own.call(x) for x in d]] for k, g, d in saved]}
    except Outside:
        return {}


def _new_leaves(edit: Edit, new_node: Node | None) -> list[Term]:
    """The row's new leaves in the node Python put in the edited one's place: a Fork's two arms, a
    Restore's ``b_k`` (RestoreLive's second part), a Merge's ``b_J`` (the sequence's last part)."""
    if new_node is None:
        return []
    if isinstance(edit, ForkChoice | ForkParallel):
        return [lf.gamma for lf in leaves(new_node)]
    if isinstance(edit, RestoreReplace | RestoreLive):
        return [list(leaves(new_node))[-1].gamma]
    if isinstance(edit, MergeSelect | MergeJoin) and isinstance(new_node, SeqNode) \
            and isinstance(new_node.parts[-1], Leaf):
        return [new_node.parts[-1].gamma]
    return []


# Python's Invalid reasons that name a part of the record the Lean judgment does not model.
_OUTSIDE_REASONS = {
    DeriveFailure.UNKNOWN_RULE: "edit rule not registered for the form",
    DeriveFailure.RULE_KIND: "edit rule not registered for the form",
    DeriveFailure.UNKNOWN_BRANCH: "name not in addr(T)",
    DeriveFailure.UNKNOWN_GROUP: "name not in addr(T)",
    DeriveFailure.ALREADY_JOINED: "name not in addr(T)",
    DeriveFailure.UNKNOWN_ARM: "arm not in the group",
    DeriveFailure.UNKNOWN_CHECKPOINT: "checkpoint not stored",
    DeriveFailure.CHECKPOINT_FORGED: "checkpoint signature (not modelled)",
    DeriveFailure.UNSELECTED_ARM_PROGRESSED: "choice group already selected (progress)",
    DeriveFailure.UNKNOWN_TEMPLATE: "call template not registered",
}


@dataclass(frozen=True)
class Outcome:
    """One case: ``agree`` (with what both answered), ``outside`` (with the reason), or ``mismatch``."""

    kind: str  # "agree" | "outside" | "mismatch"
    detail: str
    report: str = ""
    leaf_checked: bool = False  # Lean checked the regions against the record's leaf and copies (srcAgreesB)


def _py_side(t: Translated, d: Derived) -> dict[str, Any]:
    pres = d.preservation
    assert t.target_region is not None
    outs = Counter(canon(p) for p in outcomes(t.target_region).values())
    whole = d.instance.outcomes()
    covering = dict(pres.covering)
    removed, satisfied = set(pres.removed), set(pres.satisfied)
    req: Counter[Any] = Counter()
    for tag, o in pres.required_before:
        p = outcomes(t.regions[tag])[o]
        status = "satisfied" if (tag, o) in satisfied else "removed" if (tag, o) in removed else "required"
        if status == "required" and (tag, o) not in covering:
            status = "required, no covering list"
        cov: frozenset[Canon] = frozenset()
        if status == "required":
            cov = frozenset(canon(whole[w], t.region_calls) for w in covering.get((tag, o), ()))
        req[(t.side_of[tag], canon(p), status, cov)] += 1
    new = [Counter(canon(p) for p in outcomes(g).values()) for g in t.new_leaves]
    return {"outcomes": outs, "required": req, "leaves": new}


def _lean_side(t: Translated, out: Any) -> dict[str, Any]:
    """Lean's record in Python's terms; a result with an empty pomset is ``Satisfied`` (the record shows
    it finished), as Python's ``preservation`` counts it, before any removal."""
    outs_l = out["outcomes"]
    pom = [canon_lean(o["events"], o["order"], t.name) for o in outs_l]
    req: Counter[Any] = Counter()
    for src in out["sources"]:
        p = canon_lean(src["events"], src["order"], t.src_name)
        status = "satisfied" if not src["events"] else "removed" if src["removed"] else "required"
        cov = frozenset(pom[i] for i in src["covers"]) if status == "required" else frozenset()
        req[(src["side"], p, status, cov)] += 1
    new = [Counter(canon_lean(p["events"], p["order"], t.name) for p in g) for g in out["leaves"]]
    return {"outcomes": Counter(pom), "required": req, "leaves": new}


def compare(oracle: Oracle, s: State, edit: Edit, py: Derived | DeriveInvalid | None = None) -> Outcome:
    """Python's ``Derive`` (``py``, computed when not given) against Lean's ``judge`` for ``edit`` at ``s``."""
    if py is None:
        py = derive(s, edit)
    try:
        t = translate(s, edit, py)
    except Outside as o:
        return Outcome("outside", o.reason)
    out = oracle.call("edit_derive", t.payload)

    def report(why: str, py_view: Any = None, lean_view: Any = None) -> Outcome:
        return Outcome("mismatch", why, "\n".join([
            f"edit: {edit}", f"record tree: {s.tree}", f"checkpoints: {s.checkpoints}",
            f"lean input: {t.payload}", f"python: {py if isinstance(py, DeriveInvalid) else py.preservation}",
            f"python target region: {t.target_region}", f"lean output: {out}",
            f"python view: {py_view}", f"lean view: {lean_view}"]))

    if out.get("srcAgrees") is False:
        return report("the regions sent are not the leaf's or the copy's Γ/raw(χ) (Lean's srcAgreesB)")
    checked = out.get("srcAgrees") is True
    if isinstance(py, DeriveInvalid):
        if not out["derived"]:
            return Outcome("agree", f"invalid ({py.reason.value})", leaf_checked=checked)
        if py.reason == DeriveFailure.REQUIRED_RESULT_DROPPED and any(src["removed"] for src in out["sources"]):
            return Outcome("outside", "removal not signed (authorities not modelled)")
        if py.reason == DeriveFailure.NOT_WELL_FORMED:
            return Outcome("outside", "record well-formedness beyond the term model")
        return report(f"python invalid ({py.reason.value}), lean derived")
    if not out["derived"]:
        return report("python derived, lean invalid")
    pv, lv = _py_side(t, py), _lean_side(t, out)
    if pv["outcomes"] != lv["outcomes"]:
        return report("target results differ", pv["outcomes"], lv["outcomes"])
    if pv["required"] != lv["required"]:
        return report("source results, removals or coverage differ", pv["required"], lv["required"])
    if pv["leaves"] != lv["leaves"]:
        return report("new leaves' contracts differ", pv["leaves"], lv["leaves"])
    return Outcome("agree", f"derived ({kind_of(edit)}{', in context' if t.in_context else ''})",
                   leaf_checked=checked)


# The cases ---------------------------------------------------------------------------------------------


def edits_at(s: State) -> list[Edit]:
    """Every edit of the six forms and ``Extend()`` the record can name, each with a rule registered for
    its form (the first by name), on every branch, group and stored checkpoint."""
    if s.tree is None:
        return []
    rules: dict[str, str] = {}
    for name, r in sorted(s.rules):
        rules.setdefault(r.kind, name)
    addr = addressable(s.tree)
    branches = sorted(n for n, v in addr.items() if isinstance(v, Leaf))
    grps = sorted(n for n, v in addr.items() if not isinstance(v, Leaf))
    ks = [k for k, _ in s.checkpoints]
    out: list[Edit] = [Extend()]
    for b in branches:
        if "fork-choice" in rules:
            out.append(ForkChoice(b, rules["fork-choice"]))
        if "fork-parallel" in rules:
            out.append(ForkParallel(b, rules["fork-parallel"]))
        for k in ks:
            if "restore-live" in rules:
                out.append(RestoreLive(b, k, rules["restore-live"]))
            if "restore-replace" in rules:
                out.append(RestoreReplace(b, k, rules["restore-replace"]))
    for g in grps:
        if "merge-select" in rules:
            out += [MergeSelect(g, "L", rules["merge-select"]), MergeSelect(g, "R", rules["merge-select"])]
        if "merge-join" in rules:
            out.append(MergeJoin(g, rules["merge-join"]))
    return out


def with_removal(s: State, edit: Edit) -> State | None:
    """``s`` with the signed removal a RestoreReplace (of the current branch) or a MergeSelect (of the
    unselected arm) needs from every authority owning it, as a registered extension would add it; the
    signing keys are the corpus scenarios' (``scenarios.authority``). ``None`` for other edits."""
    if s.tree is None:
        return None
    addr = addressable(s.tree)
    if isinstance(edit, RestoreReplace) and edit.branch in addr:
        targets = [(edit.branch, addr[edit.branch])]
    elif isinstance(edit, MergeSelect) and isinstance(addr.get(edit.group), ChoiceNode):
        node = addr[edit.group]
        assert isinstance(node, ChoiceNode)
        targets = [(f"{edit.group}.{a}", t) for a, t in node.arms if a != edit.arm]
    else:
        return None
    reqs = dict(s.requirements)
    recs = []
    for target, sub in targets:
        for who in sorted({reqs[lf.region].authority for lf in leaves(sub) if lf.region in reqs}):
            recs.append(sign_record(authority(who), "removal", target, s.domain))
    return replace(s, removals=(*s.removals, *recs))


def small_case(s: State, edit: Edit, max_events: int = 6, max_outcomes: int = 12) -> bool:
    """Both the record's current workflow and the derived one have few, small outcomes (the Lean judgment
    enumerates linearizations to decide well-formedness)."""
    if s.tree is None:
        return False
    terms = [contract_of(s.tree)]
    d = derive(s, edit)
    if isinstance(d, Derived):
        terms.append(d.instance.contract)
    for t in terms:
        outs = outcomes(t)
        if len(outs) > max_outcomes or any(len(p) > max_events for p in outs.values()):
            return False
    return True


def registrations() -> list[tuple[str, Any]]:
    """The registrations the cases start from: the DRT's two (laptop, playground), the playground with
    fork rules that add no steps (so Fork cases fall inside the fragment), and every corpus session
    script's (``corpus/edits/sessions``), each with a ``restore-replace`` rule added."""
    bare = playground(name="bare")
    rules = dict(bare["registration"]["rules"])
    rules["fc"], rules["fp"] = {"kind": "fork-choice"}, {"kind": "fork-parallel"}
    bare["registration"] = {**bare["registration"], "rules": rules}
    docs: list[tuple[str, Any]] = [("laptop", laptop()), ("playground", playground()), ("bare", bare)]
    docs += [(f"corpus:{p.stem}", load_file(p)) for p in sorted(SESSIONS.glob("*.json"))]
    return [(n, bisim_registration(d)) for n, d in docs]


@dataclass(frozen=True)
class Case:
    origin: str  # the registration, session seed and step
    state: State
    edit: Edit


def cases(sessions: int = 2, steps: int = 6, seed: int = 0) -> list[Case]:
    """Every edit ``edits_at`` offers (and its signed-removal variant) at every state of ``sessions``
    random sessions of ``steps`` actions per registration (tool calls, Checkpoints, Dispatch and edits
    taking effect on the ideal machine), kept when ``small_case``."""
    out: list[Case] = []
    for name, (reg, kseed) in registrations():
        for n in range(sessions):
            out += session_cases(f"{name}#{n}", reg, kseed, steps, random.Random(f"{seed}:{name}:{n}"))
    return out


def session_cases(origin: str, reg: Any, kseed: Any, steps: int, rng: random.Random) -> list[Case]:
    """The cases of one session of ``cases``: from the registration's root, ``steps`` actions drawn by
    ``rng``, and at every state each edit ``edits_at`` offers (and its signed-removal variant)."""
    key = key_of(kseed)
    out: list[Case] = []
    _, ideal = M.start(reg, key)
    if ideal is None:
        return out
    for step in range(steps + 1):
        s = ideal.record
        edits = edits_at(s)
        for u in edits:
            for st in (s, with_removal(s, u)):
                if st is not None and small_case(st, u):
                    out.append(Case(f"{origin}@{step}", st, u))
        if step == steps or s.tree is None:
            break
        acts: list[Any] = [("use", x) for x, _ in s.entries] + [("dispatch",)]
        acts += [("checkpoint", f"k{len(s.checkpoints)}", b) for b in sorted(
            lf.branch for lf in leaves(s.tree))]
        acts += [("edit", u) for u in edits if small_case(s, u)]
        _, ideal = ideal_step(ideal, rng.choice(acts), key)
    return out


def tally(oracle: Oracle, cs: list[Case], checked: Counter[str] | None = None,
          ) -> tuple[Counter[str], Counter[str], list[str]]:
    """Agreeing cases by form and answer, outside cases by reason, and every mismatch's report; ``checked``
    counts, by form, the agreeing cases whose regions Lean checked against the record's leaf and copies."""
    agree: Counter[str] = Counter()
    outside: Counter[str] = Counter()
    bad: list[str] = []
    for c in cs:
        r = compare(oracle, c.state, c.edit)
        if r.kind == "agree":
            agree[f"{type(c.edit).__name__}: {r.detail}"] += 1
            if r.leaf_checked and checked is not None:
                checked[type(c.edit).__name__] += 1
        elif r.kind == "outside":
            outside[r.detail] += 1
        else:
            bad.append(f"{c.origin}: {r.detail}\n{r.report}")
    return agree, outside, bad


def main(argv: list[str] | None = None) -> int:
    """``python -m model.oracle.drt_derive [--sessions N] [--steps M] [--seed S]``: the comparison on the
    cases of ``cases``, with the counts; exit 1 on a mismatch."""
    import argparse

    from model.oracle.lean import LeanOracle
    from model.oracle.toolchain import build_oracle, find_toolchain, oracle_path

    ap = argparse.ArgumentParser(prog="python -m model.oracle.drt_derive")
    ap.add_argument("--sessions", type=int, default=2)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    tc = find_toolchain()
    if tc is None:
        print("no Lean toolchain (docs/lean.md)")
        return 3
    build_oracle(tc)
    cs = cases(a.sessions, a.steps, a.seed)
    with LeanOracle(oracle_path()) as o:
        checked: Counter[str] = Counter()
        agree, outside, bad = tally(o, cs, checked)
    print(f"{len(cs)} cases: {sum(agree.values())} agree, {sum(outside.values())} outside the fragment, "
          f"{len(bad)} mismatches")
    print(f"  regions checked against the record's leaf and copies (srcAgreesB): {sum(checked.values())} "
          f"({', '.join(f'{k} {n}' for k, n in sorted(checked.items()))})")
    for k, n in sorted(agree.items()):
        print(f"  agree   {n:5d}  {k}")
    for k, n in sorted(outside.items()):
        print(f"  outside {n:5d}  {k}")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
