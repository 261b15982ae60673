"""Running a proposed call sequence through the Adapter (``agentwarrant monitor run``).

A trace file (schema ``corpus/schemas/trace.schema.json``) names the agent, a toolkit and its
world, and a list of steps: a call (arguments are JSON literals, or ``{"$handle": NAME}`` for
the result an earlier step bound with ``"as": NAME``, and ``{"$handle": NAME, "path": "a.b"}`` for
one field of it), an application permit issuance, or an
application "requirement satisfied" event. With the ``scripted`` toolkit every call states its
own outcome, so any policy can be exercised without Python tools.

Choices: a ``$handle`` naming a step that was refused or failed is bad input (the agent cannot
hold such a handle), reported with its JSON path; an optional ``expect`` per call turns the
run into a check, reported per step, never by exception.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from model.base.canonical import JSON, load_file
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.schemas import validate
from model.monitor.adapter.shell import Adapter, CoreFactory, Failure, Handle, Refusal
from model.monitor.adapter.toolkit import DeleteWorld, ReportWorld, ToolFailure
from model.monitor.decide.base import Decision, Verdict
from model.monitor.decide.state import Permit
from model.monitor.language.policy import Policy


@dataclass(frozen=True, slots=True)
class StepReport:
    index: int
    kind: str  # "call" | "permit" | "satisfy"
    tool: str
    decision: Decision | None
    reason: str | None
    detail: str
    result: str
    expected: str | None = None
    failing: tuple[str, ...] = ()  # every failing check, when the run was asked to explain
    checks: tuple[Verdict, ...] = ()  # the same checks with their details (not part of to_json)

    @property
    def as_expected(self) -> bool:
        return self.expected is None or (self.decision is not None and self.decision.value == self.expected)

    def to_json(self) -> dict[str, JSON]:
        return {"index": self.index, "kind": self.kind, "tool": self.tool,
                "decision": None if self.decision is None else self.decision.value,
                "reason": self.reason, "detail": self.detail, "result": self.result,
                "expected": self.expected, "as_expected": self.as_expected, "failing": list(self.failing)}


def _scripted(outcomes: list[dict[str, JSON]]) -> Callable[..., JSON]:
    def tool(**_: JSON) -> JSON:
        out = outcomes.pop(0)
        if not out.get("ok"):
            raise ToolFailure("scripted failure")
        return out.get("value")
    return tool


def load_trace(path: str) -> dict[str, JSON]:
    doc = load_file(path)
    validate(doc, "trace.schema.json", source=path)
    assert isinstance(doc, dict)
    return doc


def run_trace(policy: Policy, doc: dict[str, JSON], source: str = "<trace>",
              explain: bool = False, backend: str | CoreFactory = "python",
              keep: list[Adapter] | None = None) -> tuple[StepReport, ...]:
    """Run the trace on a fresh Adapter (``backend`` as for ``Adapter``: a decision core's factory binds
    its own bounds, e.g. the Lean core's seconds per exchange and deadline); ``keep`` receives it, for its
    final state and log."""
    toolkit = doc.get("toolkit", "report")
    world_cfg = doc.get("world") or {}
    assert isinstance(world_cfg, dict)
    steps = doc["steps"]
    assert isinstance(steps, list)
    outcomes: list[dict[str, JSON]] = []
    if toolkit == "report":
        world = ReportWorld()
        if "directory" in world_cfg:
            world.directory = {k: list(v) for k, v in world_cfg["directory"].items()}
        world.send_failures = int(world_cfg.get("send_failures", 0))
        tools = world.tools()
    elif toolkit == "delete":
        dworld = DeleteWorld()
        if "files" in world_cfg:
            dworld.files = set(world_cfg["files"])
        tools = dworld.tools()
    else:
        tools = {t.name: _scripted(outcomes) for t in policy.tools}
    agent = doc["agent"]
    assert isinstance(agent, str)
    adapter = Adapter(policy, tools, agent, backend=backend)
    if keep is not None:
        keep.append(adapter)
    try:
        return _run(adapter, policy, steps, toolkit, outcomes, source, explain)
    finally:
        adapter.close()


def _run(adapter: Adapter, policy: Policy, steps: list[JSON], toolkit: JSON, outcomes: list[dict[str, JSON]],
         source: str, explain: bool) -> tuple[StepReport, ...]:
    bound: dict[str, Handle] = {}
    reports: list[StepReport] = []
    for i, step in enumerate(steps):
        assert isinstance(step, dict)
        args = _resolve_args(step.get("args") or {}, bound, source, ("steps", i, "args"))
        _check_step(policy, toolkit, step, source, i)
        if "satisfy" in step:
            adapter.satisfy(str(step["satisfy"]))
            reports.append(StepReport(i, "satisfy", str(step["satisfy"]), None, None, "", "recorded"))
            continue
        if "permit" in step:
            permit = adapter.issue_permit(str(step["permit"]), None, **args)
            assert isinstance(permit, Permit)  # trace runs configure no evidence check
            reports.append(StepReport(i, "permit", permit.tool, None, None, f"permit #{permit.id}", "issued"))
            continue
        tool = str(step["call"])
        if toolkit == "scripted":
            if "outcome" not in step:
                raise InvalidInput(Location(source, json_path=json_path(("steps", i))),
                                   "an \"outcome\" for every call of a scripted trace", "none", InputKind.SCHEMA)
            outcomes.clear()
            outcomes.append(step["outcome"])
        checks = adapter.explain(tool, **args) if explain else ()
        failing = tuple(v.reason.value for v in checks if v.reason is not None)
        result = adapter.call(tool, **args)
        expected = step.get("expect")
        report = _report(i, tool, result, adapter.log[-1].verdict, None if expected is None else str(expected))
        reports.append(replace(report, failing=failing, checks=checks))
        if isinstance(result, Handle) and "as" in step:
            bound[str(step["as"])] = result
    return tuple(reports)


def _check_step(policy: Policy, toolkit: object, step: dict[str, JSON], source: str, i: int) -> None:
    """A step naming what the policy does not declare, or carrying a field its toolkit ignores, is bad
    input: run silently, it would report something other than what the trace says."""
    def bad(field: str, expected: str, found: str) -> InvalidInput:
        return InvalidInput(Location(source, json_path=json_path(("steps", i, field))), expected, found,
                            InputKind.REFERENCE)

    if "satisfy" in step and step["satisfy"] not in policy.requirements:
        raise bad("satisfy", f"a requirement the policy declares ({', '.join(sorted(policy.requirements)) or 'none'})",
                  repr(step["satisfy"]))
    if "permit" in step and policy.tool(str(step["permit"])) is None:
        raise bad("permit", "a tool the policy declares", repr(step["permit"]))
    if "outcome" in step and toolkit != "scripted":
        raise bad("outcome", f"no outcome: the {toolkit} toolkit computes its own results (only a scripted "
                  "trace takes one)", "an outcome")


def _report(i: int, tool: str, result: Handle | Refusal | Failure, verdict: Verdict,
            expected: str | None) -> StepReport:
    reason = None if verdict.reason is None else verdict.reason.value
    if isinstance(result, Handle):
        text = f"ok, handle #{result.id}"
    elif isinstance(result, Failure):
        text = f"admitted, tool failed: {result.error}"
    else:
        text = "refused"
    return StepReport(i, "call", tool, verdict.decision, reason, verdict.detail, text, expected)


def _resolve_args(args: object, bound: dict[str, Handle], source: str,
                  path: tuple[str | int, ...]) -> dict[str, Handle | JSON]:
    if not isinstance(args, dict):
        raise InvalidInput(Location(source, json_path=json_path(path)), "an object of arguments", type(args).__name__,
                           InputKind.SCHEMA)
    out: dict[str, Handle | JSON] = {}
    for name, value in args.items():
        if isinstance(value, dict) and "$handle" in value:
            where = Location(source, json_path=json_path((*path, name)))
            ref, field = value["$handle"], value.get("path", "")
            if set(value) - {"$handle", "path"} or not isinstance(field, str):
                raise InvalidInput(where, '{"$handle": NAME} with an optional dotted "path"', repr(value),
                                   InputKind.SCHEMA)
            if not isinstance(ref, str) or ref not in bound:
                raise InvalidInput(where, "a handle bound by an earlier successful step's \"as\"", repr(ref),
                                   InputKind.REFERENCE)
            out[name] = bound[ref].at(*field.split(".")) if field else bound[ref]
        else:
            out[name] = value
    return out
