"""The policy: frozen values for every declaration of Agenra Sections 4–5.

This module only defines the data; ``model.monitor.language.syntax`` parses and prints the text form,
``model.monitor.language.policy_json`` is the JSON form, and ``model.monitor.language.validate`` checks
registration (unique names, valid references, Section 5's tool/resolver constraints). A
``Policy`` that exists past the loader boundary is well formed; nothing downstream re-validates.

Choices where the source is silent (our copy lacks the grammar figure, Figure 2):
- An edge lists its permitted ``(source, destination)`` endpoint pairs; a tool fixes one pair
  and names the edge (operation) it performs, by default the edge of the same name.
- A resource reference in a tool effect is a constant, a named argument, or every element of a
  list argument (``targets[*]``), one effect unit per element, in list order.
- A resource pattern in a permission is a constant JSON scalar, a slot ``@name``, any value
  ``*``, or a glob over strings ``like "reports/*"`` (``fnmatch`` semantics, case-sensitive).
- An argument predicate addresses an argument by name with an optional dotted path into JSON
  objects; a missing path makes the predicate false (fail closed).
- ``quota`` defaults to 1 (Section 5.2: "its default quota permits one attempt"); ``None``
  means unlimited. ``keys`` defaults to no restriction beyond the tool's declared arguments.
- Flow rules are default deny for every destination: a call whose output label has no matching
  ``flow allow`` is denied, and a matching ``flow deny`` wins (Section 4.3).
- Extensions beyond Agenra (``docs/monitor.md``, "Extensions beyond Agenra"): ``flow pause`` rules,
  request sinks (a flow rule into a tool's argument, ``FlowRule.argument``) and audiences
  (``Audience``). A policy without them decides exactly as the paper's monitor.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from model.base.canonical import JSON
from model.monitor.language.labels import Label, Levels, Propagation


class NodeKind(enum.Enum):
    SOURCE = "source"
    MEMORY = "memory"
    SINK = "sink"


@dataclass(frozen=True, slots=True)
class Node:
    name: str
    kind: NodeKind
    label: Label


@dataclass(frozen=True, slots=True)
class Edge:
    """An operation between locations, with permitted endpoints and its output propagation."""

    name: str
    endpoints: tuple[tuple[str, str], ...]
    propagation: Propagation


@dataclass(frozen=True, slots=True)
class Agent:
    name: str
    operations: frozenset[str]
    ceiling: str


# --- tools and effects --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConstRes:
    value: JSON  # a JSON scalar


@dataclass(frozen=True, slots=True)
class ArgRes:
    arg: str


@dataclass(frozen=True, slots=True)
class ListArgRes:
    arg: str  # one effect unit per list element


ResourceRef = ConstRes | ArgRes | ListArgRes


@dataclass(frozen=True, slots=True)
class EffectDecl:
    action: str
    resource: ResourceRef


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    operation: str  # the edge this tool performs
    source: str
    destination: str
    args: frozenset[str]
    required: frozenset[str]
    effects: tuple[EffectDecl, ...]  # ordered, non-empty
    authoritative: frozenset[str] = frozenset()  # dotted result paths a resolver may read


@dataclass(frozen=True, slots=True)
class Resolver:
    """``resolve slot: Tool(args) -> path``: only this exact successful call fills the slot."""

    slot: str
    tool: str
    args: tuple[tuple[str, JSON], ...]  # exact arguments, sorted by name
    path: str  # dotted result path, declared authoritative by the tool


@dataclass(frozen=True, slots=True)
class OriginRule:
    """``origin NAME {via: Tool argument: arg producer: Tool [preserving: {Copy}]}``."""

    name: str
    via: str
    argument: str
    producer: str
    preserving: frozenset[str] = frozenset()


class FlowEffect(enum.Enum):
    ALLOW = "allow"
    DENY = "deny"
    PAUSE = "pause"  # an extension beyond Agenra: admitted only with a reviewer's exact-call approval


@dataclass(frozen=True, slots=True)
class LabelGuard:
    """A conjunction of conditions on an output label; empty means always true."""

    max_sensitivity: str | None = None  # s ≤ max
    min_sensitivity: str | None = None  # s ≥ min
    any_category: frozenset[str] = frozenset()  # C ∩ any ≠ ∅ (ignored when empty)
    no_category: frozenset[str] = frozenset()  # C ∩ none = ∅
    trusted: bool | None = None

    def holds(self, levels: Levels, label: Label) -> bool:
        if self.max_sensitivity is not None and not levels.le(label.sensitivity, self.max_sensitivity):
            return False
        if self.min_sensitivity is not None and not levels.le(self.min_sensitivity, label.sensitivity):
            return False
        if self.any_category and not (label.categories & self.any_category):
            return False
        if label.categories & self.no_category:
            return False
        return self.trusted is None or label.trusted == self.trusted


@dataclass(frozen=True, slots=True)
class FlowRule:
    """``flow EFFECT OP -> DEST [when ...]``; with ``argument`` set, a *request sink* (an extension
    beyond Agenra): ``flow EFFECT OP -> TOOL(ARG)`` guards the input label of the call's argument ``ARG``
    (``"*"``: every argument) of tool ``TOOL`` (then ``destination`` is the tool's name)."""

    effect: FlowEffect
    operation: str  # edge name or "*"
    destination: str  # node name or "*"; a tool name when ``argument`` is set
    guard: LabelGuard = field(default_factory=LabelGuard)
    argument: str | None = None  # a request sink's argument name or "*"; None: an ordinary flow rule


class HistoryScope(enum.Enum):
    LINEAGE = "lineage"  # the calls that produced the current inputs, transitively, and this call
    SESSION = "session"  # every admitted call so far, and this call


@dataclass(frozen=True, slots=True)
class HistoryRule:
    """Before a ``before`` call, every ``after`` in scope must be followed by a ``require``."""

    name: str
    scope: HistoryScope
    after: str
    require: str
    before: str


# --- permissions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AnyRes:
    pass


@dataclass(frozen=True, slots=True)
class ConstPat:
    value: JSON


@dataclass(frozen=True, slots=True)
class SlotPat:
    slot: str


@dataclass(frozen=True, slots=True)
class GlobPat:
    glob: str


ResourcePattern = AnyRes | ConstPat | SlotPat | GlobPat


@dataclass(frozen=True, slots=True)
class AudienceEffect:
    """One effect pattern of an audience declaration: an action and a resource pattern."""

    action: str
    resource: ResourcePattern


@dataclass(frozen=True, slots=True)
class Audience:
    """``audience NODE: ACTION(pattern), ...`` (an extension beyond Agenra): a call with an effect
    matching one of the patterns writes where the readers of sink ``NODE`` read it, so its output label
    is also checked by the flow rules into ``NODE``, as an outbound flow."""

    node: str
    effects: tuple[AudienceEffect, ...]


@dataclass(frozen=True, slots=True)
class EqPred:
    path: tuple[str, ...]
    value: JSON


@dataclass(frozen=True, slots=True)
class OneOfPred:
    path: tuple[str, ...]
    values: tuple[JSON, ...]


@dataclass(frozen=True, slots=True)
class RangePred:
    """Inclusive numeric range; ``None`` bounds are open. Booleans are not numbers here."""

    path: tuple[str, ...]
    low: int | float | None
    high: int | float | None


ArgPredicate = EqPred | OneOfPred | RangePred


class EntryKind(enum.Enum):
    ALLOW = "allow"
    DENY = "deny"


@dataclass(frozen=True, slots=True)
class Entry:
    """One position of an ordered permission list (a grant or an explicit deny)."""

    kind: EntryKind
    action: str
    resource: ResourcePattern
    keys: frozenset[str] | None = None  # argument-key allowlist; None = unrestricted
    where: tuple[ArgPredicate, ...] = ()  # conjunction
    quota: int | None = 1  # None = unlimited; meaningless for DENY
    requires: str | None = None  # structured requirement: Pause until satisfied
    permit: bool = False  # an exact-call permit must be presented and is consumed


@dataclass(frozen=True, slots=True, weakref_slot=True)  # weakref: the compiled form is cached per policy
class Policy:
    name: str
    levels: Levels
    categories: frozenset[str]
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    agents: tuple[Agent, ...]
    tools: tuple[Tool, ...]
    resolvers: tuple[Resolver, ...]
    origins: tuple[OriginRule, ...]
    flows: tuple[FlowRule, ...]
    histories: tuple[HistoryRule, ...]
    requirements: frozenset[str]
    user: tuple[Entry, ...]  # P
    application: tuple[Entry, ...]  # A
    audiences: tuple[Audience, ...] = ()  # an extension beyond Agenra (see ``Audience``)

    def node(self, name: str) -> Node | None:
        return next((n for n in self.nodes if n.name == name), None)

    def edge(self, name: str) -> Edge | None:
        return next((e for e in self.edges if e.name == name), None)

    def agent(self, name: str) -> Agent | None:
        return next((a for a in self.agents if a.name == name), None)

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)
