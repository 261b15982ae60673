"""AgentDojo's tool functions and environments behind the precise Adapter (Agenra Sections 2, 4.4).

Each AgentDojo tool becomes an Adapter tool of the same name (an argument whose name is a reserved
word of the policy language, slack's ``user``, is ``user_`` on the policy side) whose Python function
is AgentDojo's own, run by AgentDojo's ``FunctionsRuntime.run_function`` on the live task environment (so the
environment the utility and security checks read is the one the admitted calls changed). Results
are stored as JSON (``pydantic_core.to_jsonable_python``); a tool's exception is its failure outcome.

String-matching provenance (the *baseline*; the evaluation's headline uses the exact provenance of
``session``). AgentDojo's ground truths are calls with literal arguments, as an LLM agent emits
them; the monitor needs to know which stored results each argument came from (its parents: they
give the call's label, and origin rules read them). ``Provenance`` infers them by value:

- a value (each scalar of a list or object, as text) that occurs in the user's prompt is the user's
  own literal: no producer (a literal takes the label of the tool's source node);
- otherwise its producers are *every* earlier successful result that holds it: a scalar leaf equal
  to it, or, for texts of at least ``MIN_SHARED`` characters, a string leaf containing it or
  contained in it (the agent copied a value out of a text, or pasted a text into its own);
- a text the agent composed that embeds an identifier-like token (``identifiers``: an address, a
  URL, an account number) not in the prompt takes every result holding that token as a producer:
  an injected link pasted into a friendly message is still the attacker's;
- a value found nowhere is the agent's own composition (a computed amount, a summary): a literal.

Choices where nothing dictates one: every matching result counts, not the most recent one, so a
value that could have come from attacker-written text is treated as if it did (fail closed); short
values (ids, names under ``MIN_SHARED`` characters) match only whole leaves, so a file id ``"7"`` is
not taken from every text with a 7 in it; the prompt wins over results, so a payee the user typed
stays the user's even when an attacker repeats it. The inference over-approximates copying and
cannot see paraphrase: an agent that rewrites attacker text in its own words launders it, a limit
stated in the report rather than hidden.

Provenance follows values, not the decision to act: an injected instruction carried out with trusted
values only (book the most expensive hotel of the listings) passes. ``Provenance.context`` is the
other reading: every argument depends on everything read so far, the conservative view of an LLM
agent whose whole context window may steer each call.

An argument with producers is passed as ``Derived``: a handle on its first producer (so the Adapter
checks the handle is one it issued) carrying the literal value the agent proposed; the call's
parents are all its producers. Origin rules and slots work as in the report task (an origin rule
reads one producer per argument; a resolver reads its authoritative path from a stored result that
is a JSON object), but the four suite policies use neither: AgentDojo's values arrive inside lists
and free text that no authoritative path reaches, and a value copied from several results names
several producers, of which an origin rule would judge only one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from model.base.canonical import JSON
from model.monitor.adapter.shell import Adapter, Handle, ToolFn
from model.monitor.adapter.values import Member
from model.monitor.decide.state import Call
from model.monitor.language.policy import Policy
from model.monitor.language.validate import RESERVED

MIN_SHARED = 8  # shortest text matched inside another text (an IBAN, an address, a URL, a password)


def to_json(value: object) -> JSON:
    from pydantic_core import to_jsonable_python

    return to_jsonable_python(value)


def policy_argument(name: str) -> str:
    """The policy's name for an AgentDojo argument: a reserved word of the policy language (slack's
    ``user``) takes a trailing underscore."""
    return f"{name}_" if name in RESERVED else name


def dojo_argument(name: str) -> str:
    return name[:-1] if name.endswith("_") and name[:-1] in RESERVED else name


def tool_functions(suite: Any, env: Any) -> dict[str, ToolFn]:
    """AgentDojo's functions of ``suite`` bound to the live environment ``env``."""
    from agentdojo.functions_runtime import FunctionsRuntime

    runtime = FunctionsRuntime(suite.tools)

    def bind(name: str) -> ToolFn:
        def run(**args: JSON) -> JSON:
            native = {dojo_argument(k): v for k, v in args.items()}
            result, _ = runtime.run_function(env, name, native, raise_on_error=True)
            return to_json(result)

        return run

    return {f.name: bind(f.name) for f in suite.tools}


class Derived(Handle):
    """A literal the agent proposed, attributed to the stored results it was copied from."""

    __slots__ = ("producers", "value")

    def __init__(self, value: JSON, producers: tuple[Handle, ...]) -> None:
        first = producers[0]
        super().__init__(first.id, (), first._base)
        self.value = value
        self.producers = producers


@dataclass
class DojoAdapter(Adapter):
    """The Adapter, accepting ``Derived`` arguments: the proposed value, with every producer as a parent."""

    def _to_call(self, tool: str, args: Mapping[str, Handle | JSON]) -> tuple[Call, dict[str, JSON],
                                                                             dict[str, Member]]:
        call, concrete, members = super()._to_call(tool, args)
        derived = {n: a for n, a in args.items() if isinstance(a, Derived)}
        if not derived:
            return call, concrete, members
        for name, arg in derived.items():
            concrete[name] = arg.value
            members[name] = (arg.value, None)  # a literal: canonicalized when the call is admitted
        refs = {r for r in call.refs if r[0] not in derived}
        for name, arg in derived.items():
            refs.update((name, h.id if self._issued(h) else -1) for h in arg.producers)
        paths = tuple(p for p in call.ref_paths if p[0] not in derived)
        return replace(call, args=dict(concrete), refs=tuple(sorted(refs)), ref_paths=paths), concrete, members


def result_texts(value: JSON) -> Iterator[str]:
    """The scalar leaves of a JSON value as text (booleans and nulls say nothing about provenance)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from result_texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from result_texts(v)
    elif isinstance(value, str):
        if value.strip():
            yield value.strip()
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield json.dumps(value)
        if isinstance(value, float) and value.is_integer():
            yield str(int(value))


@dataclass
class Provenance:
    """What the agent has read: the user's prompt and every successful result, in order."""

    prompt: str
    results: list[tuple[Handle, tuple[str, ...]]]
    context: bool = False  # every argument depends on everything read so far (see ``argument``)

    @classmethod
    def start(cls, prompt: str, context: bool = False) -> Provenance:
        return cls(prompt, [], context)

    def read(self, handle: Handle, value: JSON) -> None:
        self.results.append((handle, tuple(dict.fromkeys(result_texts(value)))))

    def _in_prompt(self, text: str) -> bool:
        if len(text) >= 3:
            return text in self.prompt
        return re.search(rf"(?<![\w.]){re.escape(text)}(?![\w.])", self.prompt) is not None

    def producers(self, value: JSON) -> tuple[Handle, ...]:
        """Every earlier result the value (each of its scalars) could have been copied from."""
        found: dict[int, Handle] = {}
        for text in dict.fromkeys(result_texts(value)):
            if self._in_prompt(text):
                continue
            tokens = tuple(t for t in identifiers(text) if t != text and t not in self.prompt)
            for handle, leaves in self.results:
                if handle.id not in found and _shares(text, leaves, tokens):
                    found[handle.id] = handle
        return tuple(found[k] for k in sorted(found))

    def argument(self, value: JSON) -> Handle | JSON:
        """The value as the agent passes it: ``Derived`` from its producers, or a literal. In context
        mode every argument is derived from every result read so far, whatever its value: the reading
        of an LLM agent whose every proposal may depend on anything in its context window."""
        if self.context and self.results:
            return Derived(value, tuple(h for h, _ in self.results))
        producers = self.producers(value)
        return Derived(value, producers) if producers else value


_IDENTIFIER = re.compile(r"[^\s'\"<>()\[\],;]*[0-9@./:][^\s'\"<>()\[\],;]*")


def identifiers(text: str) -> tuple[str, ...]:
    """Tokens of a text that look like identifiers (an address, a URL, an account number, a code): at
    least ``MIN_SHARED`` characters with a digit or one of ``@ . / :`` and at least one letter (dates,
    times and amounts route nothing anywhere); trailing punctuation dropped."""
    out = (m.group(0).rstrip(".:") for m in _IDENTIFIER.finditer(text))
    return tuple(t for t in dict.fromkeys(out) if len(t) >= MIN_SHARED and any(c.isalpha() for c in t))


def _shares(text: str, leaves: tuple[str, ...], tokens: tuple[str, ...]) -> bool:
    for leaf in leaves:
        if leaf == text:
            return True
        if len(text) >= MIN_SHARED and text in leaf:
            return True
        if len(leaf) >= MIN_SHARED and leaf in text:
            return True
        if any(t in leaf for t in tokens):
            return True
    return False


def make_adapter(policy: Policy, suite: Any, env: Any, agent: str) -> DojoAdapter:
    return DojoAdapter(policy, tool_functions(suite, env), agent)

