"""AgentDojo's tool functions and environments behind the precise Adapter (Agenra Sections 2, 4.4).

Each AgentDojo tool becomes an Adapter tool of the same name (an argument whose name is a reserved
word of the policy language, slack's ``user``, is ``user_`` on the policy side) whose Python function
is AgentDojo's own, run by AgentDojo's ``FunctionsRuntime.run_function`` on the live task environment (so the
environment the utility and security checks read is the one the admitted calls changed). Results
are stored as JSON (``pydantic_core.to_jsonable_python``); a tool's exception is its failure outcome.

Which stored results an argument was computed from (its parents: they give the call's label, and origin
rules read them) is the agent model's to say (``session``). An argument with parents is passed as
``Derived``: a handle on its first producer (so the Adapter checks the handle is one it issued) carrying
the literal value the agent proposed; the call's parents are all its producers. Origin rules and slots
work as in the report task (an origin rule reads one producer per argument; a resolver reads its
authoritative path from a stored result that is a JSON object), but the four suite policies use neither:
AgentDojo's values arrive inside lists and free text that no authoritative path reaches, and a value
copied from several results names several producers, of which an origin rule would judge only one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from model.base.canonical import JSON
from model.monitor.adapter.shell import Adapter, Handle, ToolFn
from model.monitor.adapter.values import Member
from model.monitor.decide.state import Call
from model.monitor.language.validate import RESERVED


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
