"""The current workflow ``T`` of the execution record as a nested tree (*Exact Checking for Execution Edits*,
Sections IV-B1, V-A2 and Table I).

Nodes: a leaf ``b:𝒞`` (branch ``b`` with its immutable registered contract ``Γ_b`` and its ordered
progress ``χ_b``), an open or selected choice group ``⊕_g^s``, a parallel group ``∥_g``, a join
barrier (a former parallel group that may no longer be named) and a sequence. ``contract_of(T)``
is ``⟦T⟧``, the remaining contract the checker sees; ``hstep`` is ``T/(x, a)``.

Choices where the paper is silent:
- A leaf's remaining contract ``Γ_b / raw(χ_b)`` is computed structurally (``residual``): processed
  calls become ``ε``, and a choice inside ``Γ_b`` with progress in one arm keeps only that arm under
  its own group ID, so outcome names survive; of a sequence's parts before its last part with progress
  only the outcomes whose calls were all processed remain (``_complete``: a choice at any depth there was
  taken by such an arm), as Lean's ``tcLeaf`` keeps only the outcomes ``χ_b`` is a prefix of a
  linearization of. A selected choice group likewise contributes only its
  selected arm to ``⟦T⟧``: the first processed call of an open choice selects its arm (V-A2).
- ``addr(T)`` (the IDs an edit may name): leaves and choice/parallel groups that lie in the current
  part of every enclosing sequence (the first part that is not complete) and not in a disabled arm.
  Join barriers are never addressable (MergeJoin removes ``g``).
- Cloning (``clone_k``) renames every call and choice ID ``n`` to ``base(n)@b`` for the new branch
  ``b`` (``base`` strips an earlier ``@…``), so clone names are readable and deterministic.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from model.base.canonical import JSON
from model.edits.check.contract import (
    Call,
    CallId,
    Choice,
    Family,
    Nil,
    Par,
    Seq,
    Term,
    call_ids,
    outcomes,
    show_term,
)
from model.edits.check.family import family_residual, rename_family
from model.edits.check.instance import term_to_json
from model.edits.check.load_instance import term_from_doc


@dataclass(frozen=True, slots=True)
class Leaf:
    branch: str
    region: str  # the source region whose policy authority owns this branch's results
    gamma: Term  # Γ_b, immutable
    done: tuple[CallId, ...] = ()  # χ_b in order


@dataclass(frozen=True, slots=True)
class ChoiceNode:
    group: str
    status: str  # "open" or the selected arm
    arms: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class ParNode:
    group: str
    parts: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class JoinNode:
    group: str  # the joined group's former ID; no longer addressable
    parts: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class SeqNode:
    parts: tuple[Node, ...]


Node = Leaf | ChoiceNode | ParNode | JoinNode | SeqNode
OPEN = "open"


def residual(term: Term, chi: Sequence[CallId]) -> Term:
    """``Γ / raw(χ)`` for a downward-closed, choice-consistent sequence of processed calls (an explicit
    family needs the order of ``χ``, not only its set: ``model.edits.check.family.family_residual``)."""
    return _residual(term, tuple(chi), frozenset(chi))


def _residual(term: Term, chi: tuple[CallId, ...], done: frozenset[CallId]) -> Term:
    if isinstance(term, Family):
        return family_residual(term, chi)
    if isinstance(term, Call):
        return Nil() if term.call in done else term
    if isinstance(term, Nil):
        return term
    if isinstance(term, Choice):
        moved = [(a, t) for a, t in term.arms if done & set(call_ids(t))]
        if moved:
            return Choice(term.group, tuple((a, _residual(t, chi, done)) for a, t in moved))
        return term
    if isinstance(term, Par):
        return Par(tuple(_residual(t, chi, done) for t in term.parts))
    # A part of a sequence starts only once every earlier part is complete: of an earlier part only the
    # outcomes every call of which was processed remain (a choice, at any depth, was taken by such an arm).
    started = [i for i, t in enumerate(term.parts) if done & set(call_ids(t))]
    parts = []
    for i, t in enumerate(term.parts):
        full = _complete(t, chi, done) if started and i < started[-1] else None
        parts.append(full if full is not None else _residual(t, chi, done))
    return Seq(tuple(parts))


def _complete(term: Term, chi: tuple[CallId, ...], done: frozenset[CallId]) -> Term | None:
    """``term`` kept to its outcomes whose calls were all processed, those calls made ``ε``, under the same
    group IDs (``None``: it has no such outcome)."""
    if isinstance(term, Call):
        return Nil() if term.call in done else None
    if isinstance(term, Nil):
        return term
    if isinstance(term, Family):  # (the outcomes that admit χ in its order and have nothing left)
        kept = tuple(m for m in family_residual(term, chi).members if len(m[1]) == 0)
        return Family(term.group, kept) if kept else None
    if isinstance(term, Choice):  # (an arm with progress was the one taken, as in ``_residual``)
        moved = [(a, t) for a, t in term.arms if done & set(call_ids(t))] or term.arms
        arms = tuple((a, c) for a, t in moved if (c := _complete(t, chi, done)) is not None)
        return Choice(term.group, arms) if arms else None
    parts = tuple(_complete(t, chi, done) for t in term.parts)
    if any(p is None for p in parts):
        return None
    kept_parts = tuple(p for p in parts if p is not None)
    return Par(kept_parts) if isinstance(term, Par) else Seq(kept_parts)


def remaining(leaf: Leaf) -> Term:
    return residual(leaf.gamma, leaf.done)


def contract_of(node: Node) -> Term:
    """``⟦T⟧``."""
    if isinstance(node, Leaf):
        return remaining(node)
    if isinstance(node, ChoiceNode):
        arms = node.arms if node.status == OPEN else tuple((a, t) for a, t in node.arms if a == node.status)
        return Choice(node.group, tuple((a, contract_of(t)) for a, t in arms))
    parts = tuple(contract_of(t) for t in node.parts)
    return Seq(parts) if isinstance(node, SeqNode) else Par(parts)


def complete(node: Node) -> bool:
    """Every outcome of ``⟦node⟧`` has an empty remaining pomset."""
    return all(len(p) == 0 for p in outcomes(contract_of(node)).values())


def leaves(node: Node) -> Iterator[Leaf]:
    if isinstance(node, Leaf):
        yield node
    elif isinstance(node, ChoiceNode):
        for _, t in node.arms:
            yield from leaves(t)
    else:
        for t in node.parts:
            yield from leaves(t)


def groups(node: Node) -> Iterator[str]:
    if isinstance(node, ChoiceNode | ParNode | JoinNode):
        yield node.group
    if isinstance(node, ChoiceNode):
        for _, t in node.arms:
            yield from groups(t)
    elif not isinstance(node, Leaf):
        for t in node.parts:
            yield from groups(t)


def addressable(node: Node) -> dict[str, Node]:
    """``addr(T)``: every ID an edit may name, with its node."""
    out: dict[str, Node] = {}

    def walk(n: Node) -> None:
        if isinstance(n, Leaf):
            out[n.branch] = n
        elif isinstance(n, ChoiceNode):
            out[n.group] = n
            for a, t in n.arms:
                if n.status in (OPEN, a):
                    walk(t)
        elif isinstance(n, ParNode):
            out[n.group] = n
            for t in n.parts:
                walk(t)
        elif isinstance(n, JoinNode):
            for t in n.parts:
                walk(t)
        else:
            for t in n.parts:
                walk(t)
                if not complete(t):
                    break

    walk(node)
    return out


def replace_at(node: Node, ident: str, new: Node) -> Node:
    """``𝓔[new]`` where ``node = 𝓔[n]`` and ``n`` is the node named ``ident``."""
    if isinstance(node, Leaf):
        return new if node.branch == ident else node
    if isinstance(node, ChoiceNode | ParNode) and node.group == ident:
        return new
    if isinstance(node, ChoiceNode):
        return replace(node, arms=tuple((a, replace_at(t, ident, new)) for a, t in node.arms))
    return replace(node, parts=tuple(replace_at(t, ident, new) for t in node.parts))


def hstep(node: Node, call: CallId) -> Node:
    """``T/(x, a)``: record ``x`` in its leaf and select the arm of every open choice above it."""
    if isinstance(node, Leaf):
        return replace(node, done=(*node.done, call)) if call in set(call_ids(remaining(node))) else node
    if isinstance(node, ChoiceNode):
        arms = []
        status = node.status
        for a, t in node.arms:
            t2 = hstep(t, call)
            if t2 is not t and status == OPEN:
                status = a
            arms.append((a, t2))
        if status == node.status and all(t2 is t for (_, t2), (_, t) in zip(arms, node.arms, strict=True)):
            return node
        return ChoiceNode(node.group, status, tuple(arms))
    parts = tuple(hstep(t, call) for t in node.parts)
    # the same object when the call is not below: a choice above selects the arm that changed, by identity
    if all(p is t for p, t in zip(parts, node.parts, strict=True)):
        return node
    return replace(node, parts=parts)


def base(name: str) -> str:
    return name.split("@", 1)[0]


def clone_term(term: Term, branch: str) -> tuple[Term, dict[CallId, CallId], dict[str, str]]:
    """``clone_b(𝒞)`` with its call bijection and choice-ID bijection."""
    calls: dict[CallId, CallId] = {}
    grps: dict[str, str] = {}

    def go(t: Term) -> Term:
        if isinstance(t, Call):
            calls[t.call] = f"{base(t.call)}@{branch}"
            return Call(calls[t.call])
        if isinstance(t, Nil):
            return t
        if isinstance(t, Family):
            grps[t.group] = f"{base(t.group)}@{branch}"
            for c in t.calls:
                calls[c] = f"{base(c)}@{branch}"
            return rename_family(t, calls, grps[t.group])
        if isinstance(t, Choice):
            grps[t.group] = f"{base(t.group)}@{branch}"
            return Choice(grps[t.group], tuple((a, go(s)) for a, s in t.arms))
        parts = tuple(go(s) for s in t.parts)
        return Par(parts) if isinstance(t, Par) else Seq(parts)

    return go(term), calls, grps


def node_to_json(node: Node) -> JSON:
    if isinstance(node, Leaf):
        return {"leaf": node.branch, "region": node.region, "gamma": term_to_json(node.gamma),
                "done": list(node.done)}
    if isinstance(node, ChoiceNode):
        return {"choice": node.group, "status": node.status,
                "arms": [[a, node_to_json(t)] for a, t in node.arms]}
    if isinstance(node, SeqNode):
        return {"seq": [node_to_json(t) for t in node.parts]}
    key = "par" if isinstance(node, ParNode) else "join"
    return {key: node.group, "parts": [node_to_json(t) for t in node.parts]}


def node_from_json(doc: Any) -> Node:
    if "leaf" in doc:
        return Leaf(doc["leaf"], doc["region"], term_from_doc(doc["gamma"]), tuple(doc["done"]))
    if "choice" in doc:
        return ChoiceNode(doc["choice"], doc["status"], tuple((a, node_from_json(t)) for a, t in doc["arms"]))
    if "seq" in doc:
        return SeqNode(tuple(node_from_json(t) for t in doc["seq"]))
    parts = tuple(node_from_json(t) for t in doc["parts"])
    return ParNode(doc["par"], parts) if "par" in doc else JoinNode(doc["join"], parts)


def show_node(node: Node) -> str:
    if isinstance(node, Leaf):
        return f"{node.branch}:{show_term(remaining(node))}"
    if isinstance(node, ChoiceNode):
        return f"⊕{node.group}[{node.status}](" + " | ".join(f"{a}={show_node(t)}" for a, t in node.arms) + ")"
    if isinstance(node, SeqNode):
        return "(" + " ; ".join(show_node(t) for t in node.parts) + ")"
    tag = "∥" if isinstance(node, ParNode) else "join"
    return f"{tag}{node.group}(" + " , ".join(show_node(t) for t in node.parts) + ")"
