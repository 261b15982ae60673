"""``derive(record, edit) -> Derived | DeriveInvalid``: the edit judgment ``Σ_ζ; H ⊢_edit u ⇒ (T', 𝒫_u)``
for the six forms of Table I and the registered extension (*Exact Checking for Execution Edits*, Sections
V-A1–V-A3 and Appendices A-D1, A-D2).

Deterministic and total: the only inputs from the Agent are the names in the request. Derivation
looks the names up in ``addr(T)``, K and Σ_ζ, builds the target tree by the row of Table I,
registers the calls the edit copies or introduces in ρ (a copy keeps its original's action, region,
scope and request digest — so Resolve sees the copy as the same action), computes
``StillRequired_u`` with a ``Covers_u`` witness per result, checks the derived record is well formed,
and returns the instance the existing checker decides (``model.edits.check.checker``).

Failures, each an ``Invalid`` reason: unknown names, a rule registered for another form, the wrong
mode (MergeSelect on ``∥``, MergeJoin on ``⊕``, an edit naming a group where a branch is required or
the reverse), MergeSelect after the unselected arm made progress, a second MergeJoin of the same
group, a forged checkpoint, a still-required result without cover (removed without being
satisfied or an authorized removal), an unverifiable extension, and a derived record that is not
well formed.

Choices where the paper is silent: fresh IDs come from the record's counter in a fixed order
(branches L, R / k / J, then groups, then the new rule version), so re-derivation at the final check
reproduces the same target; a fork's ``L_σ = clone_L(𝒞) ▷ E_σ^L`` is one leaf owned by the forked
branch's region (the copies preserve its results), while a merge's ``E_σ^J`` is its own leaf ``b_J``
owned by the rule's region; MergeSelect on an *open* group needs the unselected arm's results
satisfied or authorized for removal, on a group already selected ``w`` the other arm is disabled
and no longer required.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from model.base.canonical import canonical_str
from model.edits.check.contract import Seq, Term, call_ids
from model.edits.check.instance import Instance, make_instance
from model.edits.runtime.derive_calls import Calls
from model.edits.runtime.derive_failure import DeriveFailure, DeriveInvalid, Fail
from model.edits.runtime.extend import extend
from model.edits.runtime.forms import (
    Edit,
    ForkChoice,
    ForkParallel,
    MergeJoin,
    MergeSelect,
    RestoreLive,
    RestoreReplace,
    edit_to_json,
    kind_of,
)
from model.edits.runtime.record import EditRule, State
from model.edits.runtime.requirements import Preservation, SourceRegion, preservation
from model.edits.runtime.tree import (
    OPEN,
    ChoiceNode,
    JoinNode,
    Leaf,
    Node,
    ParNode,
    SeqNode,
    addressable,
    clone_term,
    contract_of,
    leaves,
    remaining,
    replace_at,
    residual,
)
from model.edits.runtime.wellformed_record import checkpoint_verifies, record_problems


@dataclass(frozen=True, slots=True)
class Derived:
    record: State  # H_u before the rule update (tree, ρ, counter, history; β and versions unchanged)
    instance: Instance  # the checker's input: ⟦T'⟧, q_act, ℓ, Δ, 𝒜_u
    preservation: Preservation
    eta_old: str
    eta_new: str


class _Alloc:
    """Fresh IDs from the record's counter (the private namespace)."""

    def __init__(self, s: State) -> None:
        self.n = s.next_id

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"


def _authorities(s: State, node: Node) -> frozenset[str]:
    reqs = dict(s.requirements)
    return frozenset(reqs[lf.region].authority for lf in leaves(node) if lf.region in reqs)


def _identity(term: Term) -> dict[str, str]:
    return {x: x for x in call_ids(term)}


def _rule(s: State, edit: Edit, name: str) -> EditRule:
    rule = dict(s.rules).get(name)
    if rule is None:
        raise Fail(DeriveFailure.UNKNOWN_RULE, f"edit rule {name} is not registered")
    if rule.kind != kind_of(edit):
        raise Fail(DeriveFailure.RULE_KIND, f"edit rule {name} is registered for {rule.kind}, not {kind_of(edit)}")
    return rule


def _leaf(s: State, name: str) -> Leaf:
    assert s.tree is not None
    node = addressable(s.tree).get(name)
    if node is None:
        raise Fail(DeriveFailure.UNKNOWN_BRANCH, f"{name} is not a current branch")
    if not isinstance(node, Leaf):
        raise Fail(DeriveFailure.WRONG_MODE, f"{name} is a group; this edit needs a branch")
    return node


def _fork(s: State, edit: ForkChoice | ForkParallel, al: _Alloc, calls: Calls) -> tuple[Node, list[SourceRegion]]:
    rule = _rule(s, edit, edit.rule)
    leaf = _leaf(s, edit.branch)
    c = remaining(leaf)
    auths = _authorities(s, leaf)
    new_leaves, regions = [], []
    for tag, extra in (("L", rule.left), ("R", rule.right)):
        b = al.fresh("b")
        copy, cmap, gmap = clone_term(c, b)
        calls.copy(cmap)
        added = calls.instantiate(extra, b, rule.region or leaf.region)
        new_leaves.append(Leaf(b, leaf.region, Seq((copy, added))))
        regions.append(SourceRegion(tag, c, auths, edit.branch, cmap, gmap))
    g = al.fresh("g")
    node: Node = ChoiceNode(g, OPEN, (("L", new_leaves[0]), ("R", new_leaves[1]))) \
        if isinstance(edit, ForkChoice) else ParNode(g, tuple(new_leaves))
    return replace_at(_tree(s), edit.branch, node), regions


def _restore(s: State, edit: RestoreReplace | RestoreLive, al: _Alloc,
             calls: Calls) -> tuple[Node, list[SourceRegion]]:
    _rule(s, edit, edit.rule)
    leaf = _leaf(s, edit.branch)
    ck = dict(s.checkpoints).get(edit.checkpoint)
    if ck is None:
        raise Fail(DeriveFailure.UNKNOWN_CHECKPOINT, f"checkpoint {edit.checkpoint} does not exist")
    if not checkpoint_verifies(s, edit.checkpoint, ck):
        raise Fail(DeriveFailure.CHECKPOINT_FORGED, f"checkpoint {edit.checkpoint} is not signed by the runtime")
    ck_contract = residual(ck.gamma, ck.done)
    bk = al.fresh("b")
    copy, cmap, gmap = clone_term(ck_contract, bk)
    calls.copy(cmap)
    restored = Leaf(bk, ck.region, copy)
    ck_auth = frozenset(r.authority for reg, r in s.requirements if reg == ck.region)
    c = remaining(leaf)
    regions = [SourceRegion("k", ck_contract, ck_auth, edit.checkpoint, cmap, gmap)]
    if isinstance(edit, RestoreReplace):
        regions.insert(0, SourceRegion("cur", c, _authorities(s, leaf), edit.branch, None, {}))
        return replace_at(_tree(s), edit.branch, restored), regions
    regions.insert(0, SourceRegion("cur", c, _authorities(s, leaf), edit.branch, _identity(c), {}))
    g = al.fresh("g")
    return replace_at(_tree(s), edit.branch, ParNode(g, (leaf, restored))), regions


def _group(s: State, name: str) -> Node:
    node = addressable(_tree(s)).get(name)
    if node is None:
        if name in s.joined:
            raise Fail(DeriveFailure.ALREADY_JOINED, f"group {name} was already joined")
        raise Fail(DeriveFailure.UNKNOWN_GROUP, f"{name} is not a current group")
    return node


def _merge(s: State, edit: MergeSelect | MergeJoin, al: _Alloc,
           calls: Calls) -> tuple[Node, list[SourceRegion], frozenset[str]]:
    rule = _rule(s, edit, edit.rule)
    node = _group(s, edit.group)
    regions: list[SourceRegion] = []
    if isinstance(edit, MergeSelect):
        if not isinstance(node, ChoiceNode):
            raise Fail(DeriveFailure.WRONG_MODE, f"{edit.group} is not a choice group")
        arms = dict(node.arms)
        if edit.arm not in arms:
            raise Fail(DeriveFailure.UNKNOWN_ARM, f"group {edit.group} has no arm {edit.arm}")
        if node.status not in (OPEN, edit.arm):
            raise Fail(DeriveFailure.UNSELECTED_ARM_PROGRESSED,
                        f"arm {node.status} of group {edit.group} already made progress")
        kept = arms[edit.arm]
        for a, t in node.arms:
            ct = contract_of(t)
            if a == edit.arm:
                regions.append(SourceRegion(a, ct, _authorities(s, t), f"{edit.group}.{a}", _identity(ct), {}))
            elif node.status == OPEN:
                regions.append(SourceRegion(a, ct, _authorities(s, t), f"{edit.group}.{a}", None, {}))
        head: Node = kept
        joined = s.joined
    else:
        if not isinstance(node, ParNode):
            raise Fail(DeriveFailure.WRONG_MODE, f"{edit.group} is not a parallel group")
        for i, t in enumerate(node.parts):
            ct = contract_of(t)
            tag = ("L", "R")[i] if len(node.parts) == 2 else f"part{i}"
            regions.append(SourceRegion(tag, ct, _authorities(s, t), f"{edit.group}.{tag}", _identity(ct), {}))
        head = JoinNode(node.group, node.parts)
        joined = s.joined | {edit.group}
    bj = al.fresh("b")
    region = rule.region or next(iter(leaves(node))).region
    tail = Leaf(bj, region, calls.instantiate(rule.join, bj, region))
    return replace_at(_tree(s), edit.group, SeqNode((head, tail))), regions, joined


def _tree(s: State) -> Node:
    assert s.tree is not None
    return s.tree


def derive(s: State, edit: Edit) -> Derived | DeriveInvalid:
    if s.tree is None or s.eta is None:
        return DeriveInvalid(DeriveFailure.NO_RULES_IN_FORCE, "no rule version is active")
    try:
        return _derive(s, edit)
    except Fail as f:
        return f.failure


def _derive(s: State, edit: Edit) -> Derived:
    assert s.eta is not None
    al = _Alloc(s)
    calls = Calls(s)
    joined = s.joined
    base = s
    if isinstance(edit, ForkChoice | ForkParallel):
        tree, regions = _fork(s, edit, al, calls)
    elif isinstance(edit, RestoreReplace | RestoreLive):
        tree, regions = _restore(s, edit, al, calls)
    elif isinstance(edit, MergeSelect | MergeJoin):
        tree, regions, joined = _merge(s, edit, al, calls)
    else:
        base = extend(s, edit)
        tree = _tree(s)
        ctx = contract_of(tree)
        regions = [SourceRegion("ctx", ctx, frozenset(), "", _identity(ctx), {})]
    eta_new = f"{s.namespace}{al.fresh('')}"
    target = contract_of(tree)
    pres = preservation(tuple(regions), target, base.removals, dict(base.authorities), s.domain)
    if pres.uncovered:
        tag, o = pres.uncovered[0]
        raise Fail(DeriveFailure.REQUIRED_RESULT_DROPPED,
                    f"result {o or '·'} of region {tag} is still required (not satisfied, no authorized removal) "
                    "but the edit drops it")
    record = replace(base, tree=tree, calls=tuple(sorted(calls.rho.items())), next_id=al.n, joined=joined,
                     history=(*s.history, canonical_str(edit_to_json(edit))))
    problems = record_problems(record, rules_in_force=False)
    if problems:
        raise Fail(DeriveFailure.NOT_WELL_FORMED, problems[0])
    q_act = record.q_act()
    inst = make_instance(target, {x: q_act[x] for x in call_ids(target)}, record.labels(),
                         tuple(r.action for r in record.log), record.policy)
    return Derived(record, inst, pres, s.eta, eta_new)
