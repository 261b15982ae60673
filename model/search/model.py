"""The finite model bounded analysis searches (Agenra Sections 2, 3 and 6; the paper's Section 8 is
missing from our copy, so this design is ours).

A ``SearchModel`` closes the open world around the monitor so that every execution of bounded
length can be enumerated:

- **tool results**: for each tool, the finite set of outcomes its Python implementation may
  produce — a JSON value on success or a failure, optionally only for calls whose arguments match a
  pattern (``when``: Sanitize succeeds only on a record object). Each admitted call chooses one of
  the possible outcomes nondeterministically, independently of earlier choices (a compromised directory may answer
  Alice's address once and the attacker's the next time). Section 2: "bounded analysis assumes
  that its models of tool results and reviewer actions include every execution we draw
  conclusions about" — conclusions hold only for the results listed here.
- **the agent**: untrusted; at every step it may propose any call of any declared tool, with any
  subset of the tool's declared arguments that includes the required ones, each argument a
  literal it holds from the start (``literals``), a handle on a successful earlier result, or a
  handle on one declared field of such a result (``fields``: e.g. ``Lookup.destination``).
  Arguments the tool does not declare are never proposed: the monitor denies them in preparation,
  so they could only add self-loops. Optionally ``max_calls`` caps how many admitted calls of a tool
  the agent makes (a bounding parameter of the model like the bound itself, stated in the model
  file: conclusions hold for executions within it; unlimited tools such as Edit otherwise make
  the number of states grow with every held value at every step). Likewise ``omits`` names, per
  tool, optional arguments the agent never passes: each optional argument multiplies a tool's
  proposals per state by the number of held values plus one (a mail sender with five optional
  arguments makes millions of proposals per state), so a model states which ones it leaves out and
  its conclusions hold for calls without them. With ``copies`` the agent may
  also retype any value it has read (a result or a declared field of one) as a literal: the Adapter
  accepts literal arguments, which carry no producer and take the label of the tool's source node.
- **the reviewer**: may at any step record one of the listed structured requirements as
  satisfied (``satisfy``); **the approver**: may at any step issue an exact-call permit for a call
  the agent could propose now whose arguments match one of the listed patterns, at most
  ``max_permits`` times. Both are trusted (Section 2.1): the model says *which* approvals they
  might give; the search explores every order.

Only admitted calls and reviewer/approver actions are transitions; a denied or paused proposal
leaves the monitor state unchanged (Section 6.1), so it can never lead anywhere new.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from model.monitor.language.policy import Policy


@dataclass(frozen=True, slots=True)
class ToolResult:
    """One outcome a tool may produce: ``ok`` with a JSON ``value`` (kept as canonical text), or failure."""

    ok: bool
    value: str = "null"  # canonical JSON text; "null" for failures
    when: tuple[tuple[str, ArgPattern], ...] = ()  # possible only for calls whose arguments match


# --- argument and event patterns (the vocabulary of queries and approvals) ------------------


@dataclass(frozen=True, slots=True)
class Equals:
    value: str  # canonical JSON text


@dataclass(frozen=True, slots=True)
class OneOf:
    values: tuple[str, ...]  # canonical JSON texts


@dataclass(frozen=True, slots=True)
class BoundTo:
    """The argument's value equals the slot's live binding at the time of the call."""

    slot: str


@dataclass(frozen=True, slots=True)
class Produced:
    """The argument is a handle on a successful result of ``producer`` (a tool or operation name) whose
    own arguments match ``args``: ``Produced("Sanitize", (("record", Produced("Read")),))`` is Sanitize(Read)."""

    producer: str
    args: tuple[tuple[str, ArgPattern], ...] = ()


@dataclass(frozen=True, slots=True)
class TypeIs:
    """The argument is a JSON value of this type: object, array, string, number, boolean or null."""

    type: str


@dataclass(frozen=True, slots=True)
class Not:
    pattern: ArgPattern


ArgPattern = Equals | OneOf | BoundTo | Produced | TypeIs | Not


class When(enum.Enum):
    ADMITTED = "admitted"  # the monitor admitted (and charged) the call, whatever the tool did
    DELIVERED = "delivered"  # admitted and the tool succeeded: the effect happened


@dataclass(frozen=True, slots=True)
class EventPattern:
    """An effect at a sink: a call of ``tool`` that was admitted (or delivered) whose named arguments
    match and, with ``label_above``, whose output label is strictly above that sensitivity."""

    tool: str
    when: When = When.DELIVERED
    args: tuple[tuple[str, ArgPattern], ...] = ()
    label_above: str | None = None


class QueryKind(enum.Enum):
    FORBIDDEN = "forbidden"  # a forbidden execution: Found is an attack
    GOAL = "goal"  # a useful completion: Found is a successful task


@dataclass(frozen=True, slots=True)
class Query:
    """Holds on a trace when more than ``more_than`` of its events match ``event``.

    The premise (what Vacuous is about) counts events that only match the tool and ``when`` part: if no
    reachable trace has at least ``max(1, more_than)`` of them, the query is vacuous (for "more than one
    send" the premise is one send: with sends reachable but never two, the verdict is Exhausted).
    """

    name: str
    kind: QueryKind
    event: EventPattern
    more_than: int = 0
    description: str = ""


@dataclass(frozen=True, slots=True)
class Approval:
    """The approver may issue a permit for a call of ``tool`` whose arguments match ``args``."""

    tool: str
    args: tuple[tuple[str, ArgPattern], ...] = ()


@dataclass(frozen=True, slots=True)
class SearchModel:
    name: str
    policy: Policy
    policy_path: str
    toolkit: str  # reference tools for replay: "report" | "delete" | "none"
    agent: str
    literals: tuple[str, ...]  # canonical JSON texts the agent holds from the start
    fields: tuple[tuple[str, tuple[str, ...]], ...]  # tool -> dotted result fields the agent may pass
    max_calls: tuple[tuple[str, int], ...]  # tool -> most admitted calls the agent makes (absent: no cap)
    copies: bool  # the agent may pass the values it has read as literals
    results: tuple[tuple[str, tuple[ToolResult, ...]], ...]  # tool -> outcomes, in declaration order
    satisfy: tuple[str, ...]  # requirements the reviewer may record
    approvals: tuple[Approval, ...]
    max_permits: int
    queries: tuple[Query, ...]
    bound: int  # the default bound K (steps)
    omits: tuple[tuple[str, tuple[str, ...]], ...] = ()  # tool -> optional arguments the agent never passes

    def results_of(self, tool: str) -> tuple[ToolResult, ...]:
        return next((r for t, r in self.results if t == tool), ())

    def fields_of(self, tool: str) -> tuple[str, ...]:
        return next((f for t, f in self.fields if t == tool), ())

    def omitted(self, tool: str) -> frozenset[str]:
        return frozenset(next((a for t, a in self.omits if t == tool), ()))

    def max_calls_of(self, tool: str) -> int | None:
        return next((n for t, n in self.max_calls if t == tool), None)

    def query(self, name: str) -> Query | None:
        return next((q for q in self.queries if q.name == name), None)
