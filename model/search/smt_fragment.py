"""The fragment the Z3 engine encodes, and its finite value domain (our design for the missing Section 8;
the paper's symbolic subset is called F and leaves out origins and exact-call approval).

Our SMT fragment is larger than the paper's on one point and smaller on others:

- **included**: labels and their join, edge transforms, the agent's struct checks, effects with
  constant or named-argument resources, explicit denies, allow matching with constant, slot, any
  and glob resource patterns, key allowlists and argument predicates, first-fit allocation on both
  lists with finite and unlimited quotas, flow rules, *immediate-producer origin rules* (so the
  chained rule, which is two such rules, is in), designated lookups binding, keeping and
  invalidating slots, and every query and result-guard pattern;
- **outside** (answered ``Unsupported``, never a verdict): history rules, entries that require a
  structured requirement (Pause) or an exact-call permit, origin rules with ``preserving``, list
  resources (``targets[*]``), models with reviewer or approver actions, and the monitor-language
  extensions beyond Agenra (flow pause, request and audience sinks).

The value domain is every JSON value a concrete argument, a resource, a binding or a pattern can
take in the model: the agent's literals, every listed result, its declared fields and resolver
paths, and the constants of the policy and the queries. Values are identified by canonical JSON
(RFC 8785), so id equality is ``json_equal``. Every static property the encoding needs (type, being a
scalar resource, a field's value, a glob or predicate verdict) is tabulated here once per value.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass

from model.base.canonical import JSON, canonical_str
from model.monitor.decide.flow import uses_extensions
from model.monitor.decide.matching import Missing, lookup_path, predicate_holds
from model.monitor.language.policy import ArgPredicate, ConstPat, ConstRes, GlobPat, ListArgRes
from model.search.model import ArgPattern, Equals, Not, OneOf, Produced, SearchModel
from model.search.patterns import json_type
from model.search.search_verdict import Unsupported


def unsupported(model: SearchModel) -> Unsupported | None:
    """Why the model lies outside the encoded fragment, or ``None`` if it is inside."""
    p = model.policy
    if p.histories:
        return Unsupported(f"history rule {p.histories[0].name} (order-sensitive; not encoded)")
    if uses_extensions(p):
        return Unsupported("flow pause, request or audience sinks (extensions beyond Agenra; not encoded)")
    for side, entries in (("user", p.user), ("application", p.application)):
        for k, e in enumerate(entries):
            if e.requires is not None:
                return Unsupported(f"{side} entry {k} requires {e.requires} (Pause is not encoded)")
            if e.permit:
                return Unsupported(f"{side} entry {k} needs an exact-call permit (not encoded)")
    for o in p.origins:
        if o.preserving:
            return Unsupported(f"origin rule {o.name} has a preserving clause (not encoded)")
    for t in p.tools:
        if any(isinstance(e.resource, ListArgRes) for e in t.effects):
            return Unsupported(f"tool {t.name} has a list resource (not encoded)")
    if model.satisfy or model.approvals:
        return Unsupported("reviewer or approver actions (not encoded)")
    return None


def _pattern_values(p: ArgPattern) -> list[str]:
    if isinstance(p, Equals):
        return [p.value]
    if isinstance(p, OneOf):
        return list(p.values)
    if isinstance(p, Not):
        return _pattern_values(p.pattern)
    if isinstance(p, Produced):
        return [v for _, sub in p.args for v in _pattern_values(sub)]
    return []


@dataclass(frozen=True, slots=True)
class Domain:
    values: tuple[str, ...]  # canonical JSON texts; the index is the value id
    fields: tuple[str, ...]  # every declared field path, by index

    def id(self, text: str) -> int:
        return self.values.index(text)

    def has(self, text: str) -> bool:
        return text in self.values

    def json(self, i: int) -> JSON:
        return json.loads(self.values[i])

    def type_of(self, i: int) -> str:
        return json_type(self.json(i))

    def scalar(self, i: int) -> bool:
        return self.json(i) is not None and self.type_of(i) in ("string", "number", "boolean")

    def field(self, i: int, path: str) -> int | None:
        v = lookup_path(self.json(i), tuple(path.split(".")))
        if isinstance(v, Missing):
            return None
        text = canonical_str(v)
        # Only results are dereferenced, and their declared fields are in the domain; the field of a
        # literal is never read (a literal is no handle), so it may stay untabulated.
        return self.id(text) if text in self.values else None

    def glob(self, i: int, pattern: GlobPat) -> bool:
        v = self.json(i)
        return isinstance(v, str) and fnmatch.fnmatchcase(v, pattern.glob)

    def predicate(self, i: int, pred: ArgPredicate) -> bool:
        """The predicate on an argument whose value is ``i`` (its path starts with the argument's name)."""
        return predicate_holds(pred, {pred.path[0]: self.json(i)})


def domain(model: SearchModel) -> Domain:
    texts: list[str] = list(model.literals)
    fields: list[str] = sorted({f for _, fs in model.fields for f in fs} | {r.path for r in model.policy.resolvers})

    def add(v: JSON) -> None:
        t = canonical_str(v)
        if t not in texts:
            texts.append(t)

    for _, outs in model.results:
        for r in outs:
            if not r.ok:
                continue
            value = json.loads(r.value)
            add(value)
            for f in fields:
                sub = lookup_path(value, tuple(f.split(".")))
                if not isinstance(sub, Missing):
                    add(sub)
            for _, pat in r.when:
                for t in _pattern_values(pat):
                    add(json.loads(t))
    p = model.policy
    for tool in p.tools:
        for e in tool.effects:
            if isinstance(e.resource, ConstRes):
                add(e.resource.value)
    for entry in (*p.user, *p.application):
        if isinstance(entry.resource, ConstPat):
            add(entry.resource.value)
    for res in p.resolvers:
        for _, v in res.args:
            add(v)
    for q in model.queries:
        for _, pat in q.event.args:
            for t in _pattern_values(pat):
                add(json.loads(t))
    return Domain(tuple(texts), tuple(fields))
