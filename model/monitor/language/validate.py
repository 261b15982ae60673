"""Registration checks for a parsed policy (Agenra Section 6.1: "Registration has unique names,
valid references and labels, and satisfies Section 5's tool/resolver constraints").

Every loader (text and JSON) runs ``validate`` before a ``Policy`` leaves it, so nothing past
the boundary re-validates. ``locate`` maps a JSON-form path such as ``("tools", 2, "effects")``
to a place in the input: the declaration's ``file:line:col`` for text, the JSON path for JSON.
The first failing check, in declaration order, is raised as ``InvalidInput``.

Choices where the source is silent:
- Names are identifiers ``[A-Za-z_][A-Za-z0-9_]*`` and never a reserved word (see
  ``model.monitor.language.syntax``), so every valid policy prints to text that parses back.
- Edges and tools have separate namespaces (a tool is usually named after its edge). Agent
  operations, a tool's operation and a flow's operation name edges; origin ``via``,
  ``producer`` and ``preserving`` and history operations name edges or tools.
- An origin's ``argument`` must be an argument of the ``via`` tool or, when ``via`` is only an
  edge, of some tool performing that edge.
- A resolver's exact call must name only declared arguments of its tool and supply all the
  tool's required ones (otherwise the designated lookup could never run).
- A ``deny`` entry carries no quota (it stays at the default), requirement or permit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable

from model.base.canonical import JSON
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.json_exact import SAFE_INTEGER, lone_surrogate
from model.base.jsonio import printable
from model.monitor.language import policy as P
from model.monitor.language.labels import Inherit, Label

PathKey = tuple[str | int, ...]
Locate = Callable[[PathKey], Location]

RESERVED = frozenset({
    "policy", "levels", "categories", "requirement", "node", "edge", "agent", "tool", "resolve", "origin",
    "flow", "history", "user", "application", "audience", "true", "false", "null"})


def json_locator(source: str = "<policy>") -> Locate:
    """Locations as JSON paths into the JSON form: the locator for JSON input and built values."""
    return lambda path: Location(source=source, json_path=json_path(path))


def is_name(word: object) -> bool:
    return (isinstance(word, str) and word.isascii() and word.isidentifier() and word not in RESERVED)


def is_dotted(word: object) -> bool:
    return isinstance(word, str) and all(is_name(w) for w in word.split("."))


class _Checker:
    def __init__(self, policy: P.Policy, locate: Locate) -> None:
        self.p = policy
        self.locate = locate
        self.levels = set(policy.levels.order)
        self.nodes = {n.name for n in policy.nodes}
        self.edges = {e.name for e in policy.edges}
        self.tools = {t.name: t for t in policy.tools}
        self.slots = {r.slot for r in policy.resolvers}
        self.operations = self.edges | set(self.tools)
        self.performers: dict[str, list[P.Tool]] = {}
        for t in policy.tools:
            self.performers.setdefault(t.operation, []).append(t)

    def fail(self, path: PathKey, expected: str, found: object, kind: InputKind = InputKind.VALUE) -> None:
        raise InvalidInput(self.locate(path), expected, repr(found) if not isinstance(found, str) else found, kind)

    def need(self, ok: bool, path: PathKey, expected: str, found: object, kind: InputKind = InputKind.VALUE) -> None:
        if not ok:
            self.fail(path, expected, found, kind)

    def name(self, word: object, path: PathKey) -> None:
        self.need(is_name(word), path, "a name [A-Za-z_][A-Za-z0-9_]* that is not a reserved word", word)

    def names(self, words: Iterable[object], path: PathKey) -> None:
        for w in sorted(words, key=str):
            self.name(w, path)

    def ref(self, word: str, universe: Collection[str], path: PathKey, what: str) -> None:
        # ``universe`` is a set (never copied here): one check per reference keeps validation linear.
        self.need(word in universe, path, f"a declared {what}", f"undeclared {word!r}", InputKind.REFERENCE)

    def unique(self, names: list[str], key: str, what: str) -> None:
        seen: set[str] = set()
        for i, n in enumerate(names):
            self.name(n, (key, i))
            self.need(n not in seen, (key, i), f"a {what} name declared once", f"second {what} {n!r}",
                      InputKind.REFERENCE)
            seen.add(n)

    def label(self, lab: Label, path: PathKey) -> None:
        self.ref(lab.sensitivity, self.levels, path, "sensitivity level")
        for c in sorted(lab.categories):
            self.ref(c, self.p.categories, path, "category")

    def scalar(self, value: JSON, path: PathKey) -> None:
        # The domain of the JSON boundary (model/base/jsonio.py), so a policy built in Python means what its
        # printed text or JSON form means when read back: safe numbers, strings without lone surrogates.
        if isinstance(value, str):
            self.need(lone_surrogate(value) is None, path, "a string of Unicode characters (no lone surrogate)",
                      printable(value)[:40])
            return
        ok = value is None or isinstance(value, bool) or _safe_number(value)
        self.need(ok, path, "a JSON scalar (string, number within ±(2**53 - 1), true, false or null)", value)

    def number(self, value: object, path: PathKey) -> None:
        self.need(_safe_number(value), path, "a finite number within ±(2**53 - 1)", value)

    # --- declarations ------------------------------------------------------------------------

    def run(self) -> None:
        p = self.p
        self.name(p.name, ())
        self.need(len(p.levels.order) > 0, ("levels",), "at least one sensitivity level", "none")
        self.unique(list(p.levels.order), "levels", "level")
        self.names(p.categories, ("categories",))
        for i, req in enumerate(sorted(p.requirements)):
            self.name(req, ("requirements", i))
        for key, decls in (("nodes", p.nodes), ("edges", p.edges), ("agents", p.agents), ("tools", p.tools),
                           ("origins", p.origins), ("histories", p.histories)):
            self.unique([d.name for d in decls], key, key[:-1] if key != "histories" else "history")
        self.unique([r.slot for r in p.resolvers], "resolvers", "resolver slot")
        for i, n in enumerate(p.nodes):
            self.label(n.label, ("nodes", i, "label"))
        for i, e in enumerate(p.edges):
            self.edge(e, ("edges", i))
        for i, a in enumerate(p.agents):
            for op in sorted(a.operations):
                self.ref(op, self.edges, ("agents", i, "operations"), "edge (operation)")
            self.ref(a.ceiling, self.levels, ("agents", i, "ceiling"), "sensitivity level")
        for i, t in enumerate(p.tools):
            self.tool(t, ("tools", i))
        for i, r in enumerate(p.resolvers):
            self.resolver(r, ("resolvers", i))
        for i, o in enumerate(p.origins):
            self.origin(o, ("origins", i))
        for i, f in enumerate(p.flows):
            self.flow(f, ("flows", i))
        for i, aud in enumerate(p.audiences):
            self.audience(aud, ("audiences", i))
        ops = self.edges | set(self.tools)
        for i, h in enumerate(p.histories):
            for field in ("after", "require", "before"):
                self.ref(getattr(h, field), ops, ("histories", i, field), "edge or tool")
        for side, entries in (("user", p.user), ("application", p.application)):
            for i, entry in enumerate(entries):
                self.entry(entry, (side, i))

    def edge(self, e: P.Edge, path: PathKey) -> None:
        self.need(len(e.endpoints) > 0, (*path, "endpoints"), "at least one endpoint pair", "none")
        for j, (a, b) in enumerate(e.endpoints):
            self.ref(a, self.nodes, (*path, "endpoints", j), "node")
            self.ref(b, self.nodes, (*path, "endpoints", j), "node")
            self.need((a, b) not in e.endpoints[:j], (*path, "endpoints", j), "distinct endpoint pairs", f"{a} -> {b}")
        prop = e.propagation
        if isinstance(prop, Inherit):
            return
        where = (*path, "propagation")
        for c in sorted(prop.remove):
            self.ref(c, self.p.categories, where, "category")
        d = prop.decrement
        ok = isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= SAFE_INTEGER
        self.need(ok, where, "a non-negative integer decrement", prop.decrement)
        if prop.set_sensitivity is not None:
            self.ref(prop.set_sensitivity, self.levels, where, "sensitivity level")

    def tool(self, t: P.Tool, path: PathKey) -> None:
        self.ref(t.operation, self.edges, (*path, "operation"), "edge (operation)")
        self.ref(t.source, self.nodes, (*path, "source"), "node")
        self.ref(t.destination, self.nodes, (*path, "destination"), "node")
        edge = self.p.edge(t.operation)
        if edge is not None:
            self.need((t.source, t.destination) in edge.endpoints, (*path, "destination"),
                      f"endpoints permitted by edge {t.operation}", f"{t.source} -> {t.destination}",
                      InputKind.REFERENCE)
        self.names(t.args, (*path, "args"))
        extra = sorted(t.required - t.args)
        self.need(not extra, (*path, "required"), "required arguments among the declared args",
                  ", ".join(extra), InputKind.REFERENCE)
        self.need(len(t.effects) > 0, (*path, "effects"), "a non-empty list of effects", "[]")
        for j, eff in enumerate(t.effects):
            where = (*path, "effects", j)
            self.need(is_dotted(eff.action), where, "an action name such as message.send", eff.action)
            if isinstance(eff.resource, P.ConstRes):
                self.scalar(eff.resource.value, where)
            else:
                self.ref(eff.resource.arg, t.args, where, f"argument of tool {t.name}")
        for a in sorted(t.authoritative):
            self.need(is_dotted(a), (*path, "authoritative"), "a dotted result path such as meta.addr", a)

    def resolver(self, r: P.Resolver, path: PathKey) -> None:
        self.ref(r.tool, self.tools, (*path, "tool"), "tool")
        tool = self.tools[r.tool]
        self.need(r.path in tool.authoritative, (*path, "path"),
                  f"a result path that tool {r.tool} declares authoritative", r.path, InputKind.REFERENCE)
        names = [k for k, _ in r.args]
        self.need(names == sorted(set(names)), (*path, "args"), "distinct argument names in sorted order",
                  ", ".join(names))
        for k, v in r.args:
            self.ref(k, tool.args, (*path, "args", k), f"argument of tool {r.tool}")
            self.scalar(v, (*path, "args", k))
        missing = sorted(tool.required - set(names))
        self.need(not missing, (*path, "args"), f"every required argument of tool {r.tool}",
                  "missing " + ", ".join(missing), InputKind.REFERENCE)

    def origin(self, o: P.OriginRule, path: PathKey) -> None:
        ops = self.operations
        self.ref(o.via, ops, (*path, "via"), "tool or edge")
        self.ref(o.producer, ops, (*path, "producer"), "tool or edge")
        for x in sorted(o.preserving):
            self.ref(x, ops, (*path, "preserving"), "tool or edge")
        via = self.tools.get(o.via)
        performers = [via] if via is not None else self.performers.get(o.via, [])
        args = set().union(*(t.args for t in performers)) if performers else set()
        self.ref(o.argument, args, (*path, "argument"), f"argument of {o.via}")

    def flow(self, f: P.FlowRule, path: PathKey) -> None:
        if f.operation != "*":
            self.ref(f.operation, self.edges, (*path, "operation"), "edge (operation) or *")
        if f.argument is not None:  # a request sink: TOOL(ARG) or TOOL(*)
            self.ref(f.destination, self.tools, (*path, "destination"), "tool (a request sink names a tool)")
            tool = self.tools[f.destination]
            if f.argument != "*":
                self.ref(f.argument, tool.args, (*path, "argument"), f"argument of tool {tool.name} or *")
            self.need(f.operation in ("*", tool.operation), (*path, "operation"),
                      f"* or the operation of tool {tool.name} ({tool.operation})", f.operation, InputKind.REFERENCE)
        elif f.destination != "*":
            self.ref(f.destination, self.nodes, (*path, "destination"), "node or *")
        g, where = f.guard, (*path, "when")
        for level in (g.max_sensitivity, g.min_sensitivity):
            if level is not None:
                self.ref(level, self.levels, where, "sensitivity level")
        for c in sorted(g.any_category | g.no_category):
            self.ref(c, self.p.categories, where, "category")

    def audience(self, a: P.Audience, path: PathKey) -> None:
        self.ref(a.node, self.nodes, (*path, "node"), "node")
        node = self.p.node(a.node)
        self.need(node is not None and node.kind is P.NodeKind.SINK, (*path, "node"),
                  "a sink node (an audience is where the readers of a written resource read it)", a.node,
                  InputKind.REFERENCE)
        self.need(len(a.effects) > 0, (*path, "effects"), "at least one effect pattern", "none")
        for j, eff in enumerate(a.effects):
            where = (*path, "effects", j)
            self.need(is_dotted(eff.action), (*where, "action"), "an action name such as file.write", eff.action)
            self.resource_pattern(eff.resource, (*where, "resource"))

    def resource_pattern(self, res: P.ResourcePattern, path: PathKey) -> None:
        if isinstance(res, P.SlotPat):
            self.ref(res.slot, self.slots, path, "slot (one with a resolve declaration)")
        elif isinstance(res, P.ConstPat):
            self.scalar(res.value, path)
        elif isinstance(res, P.GlobPat):
            self.need(isinstance(res.glob, str), path, "a string glob", res.glob)

    def entry(self, e: P.Entry, path: PathKey) -> None:
        self.need(is_dotted(e.action), (*path, "action"), "an action name such as message.send", e.action)
        self.resource_pattern(e.resource, (*path, "resource"))
        if e.keys is not None:
            self.names(e.keys, (*path, "keys"))
        for j, pred in enumerate(e.where):
            self.predicate(pred, (*path, "where", j))
        if e.kind is P.EntryKind.DENY:
            ok = e.quota == 1 and e.requires is None and not e.permit
            self.need(ok, path, "a deny entry without quota, requires or permit", "a deny entry carrying one")
            return
        if e.quota is not None:
            ok = isinstance(e.quota, int) and not isinstance(e.quota, bool) and 0 <= e.quota <= SAFE_INTEGER
            self.need(ok, (*path, "quota"), "a non-negative integer quota within 2**53 - 1, or unlimited", e.quota)
        if e.requires is not None:
            self.ref(e.requires, self.p.requirements, (*path, "requires"), "requirement")

    def predicate(self, pred: P.ArgPredicate, path: PathKey) -> None:
        self.need(len(pred.path) > 0, (*path, "path"), "a non-empty argument path", "[]")
        self.names(pred.path, (*path, "path"))
        if isinstance(pred, P.EqPred):
            self.scalar(pred.value, (*path, "value"))
        elif isinstance(pred, P.OneOfPred):
            self.need(len(pred.values) > 0, (*path, "values"), "at least one value", "[]")
            for v in pred.values:
                self.scalar(v, (*path, "values"))
        else:
            self.need(pred.low is not None or pred.high is not None, path, "a range with at least one bound", "..")
            for bound in (pred.low, pred.high):
                if bound is not None:
                    self.number(bound, path)
            if pred.low is not None and pred.high is not None:
                self.need(pred.low <= pred.high, path, "a range with low <= high", f"{pred.low}..{pred.high}")


def _safe_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) \
        and abs(value) <= SAFE_INTEGER


def validate(policy: P.Policy, locate: Locate | None = None) -> None:
    """Raise ``InvalidInput`` at the first registration error of ``policy``; return if it is well formed."""
    _Checker(policy, locate if locate is not None else json_locator()).run()
