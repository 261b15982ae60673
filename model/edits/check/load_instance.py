"""Loading check instances from JSON (schema ``corpus/schemas/edit_instance.schema.json``).

Text in, typed values out, once: the document is schema-checked, then references are resolved —
every contract call must have an action (``calls``), every action used or logged must have a
label (``labels``), automaton states must exist and the policy must be prefix-closed. Each failure
is ``InvalidInput`` with the JSON path. Semantic well-formedness of the contract and record
(unique IDs, the prefix condition, ``lab(Δ) ∈ 𝒜``) is the checker's ``Invalid`` verdict, not a
loading error, because it is a property of the instance rather than of its spelling.
Choice arms are kept in sorted order so equal documents give equal values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model.base.canonical import load_file, loads
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.schemas import validate
from model.edits.check.contract import Call, Choice, Nil, Par, Seq, Term, call_ids
from model.edits.check.edit_policy import NotPrefixClosed, PolicyAutomaton, from_automaton, from_maximal_words
from model.edits.check.family import family_from_doc
from model.edits.check.instance import Instance, make_instance
from model.edits.check.regex import from_regex

SCHEMA = "edit_instance.schema.json"


def term_from_doc(doc: dict[str, Any], source: str = "<input>", path: tuple[str | int, ...] = ()) -> Term:
    """A contract term from its JSON form; the caller has schema-checked ``doc`` (shared by the runtime's
    record, tree and session loaders, which store terms in the same form). ``path`` is the JSON path
    of ``doc``, for the errors an explicit family can still raise (unknown calls, cycles)."""
    if "call" in doc:
        return Call(doc["call"])
    if "nil" in doc:
        return Nil()
    if "family" in doc:
        return family_from_doc(doc, source, path)
    if "choice" in doc:
        return Choice(doc["choice"], tuple((a, term_from_doc(t, source, (*path, "arms", a)))
                                           for a, t in sorted(doc["arms"].items())))
    key = "par" if "par" in doc else "seq"
    parts = tuple(term_from_doc(t, source, (*path, key, i)) for i, t in enumerate(doc[key]))
    return Par(parts) if key == "par" else Seq(parts)


def _policy(doc: dict[str, Any], source: str) -> PolicyAutomaton:
    where = Location(source=source, json_path=json_path(("policy",)))
    if "maximal" in doc:
        return from_maximal_words(doc["maximal"])
    if "regex" in doc:
        got = from_regex(doc["regex"], bool(doc.get("prefix_closure", False)), f"{source} at $.policy.regex")
    else:
        a = doc["automaton"]
        n = a["states"]
        delta: dict[tuple[int, str], int] = {}
        for i, (q, label, r) in enumerate(a["transitions"]):
            at = Location(source=source, json_path=json_path(("policy", "automaton", "transitions", i)))
            if q >= n or r >= n:
                raise InvalidInput(at,
                                   f"states below {n}", f"{q} -> {r}", InputKind.REFERENCE)
            if (q, label) in delta and delta[(q, label)] != r:
                raise InvalidInput(at,
                                   "a deterministic automaton", f"two moves from {q} on {label}", InputKind.VALUE)
            delta[(q, label)] = r
        for q in [a["initial"], *a["accepting"]]:
            if q >= n:
                raise InvalidInput(Location(source=source, json_path=json_path(("policy", "automaton"))),
                                   f"states below {n}", str(q), InputKind.REFERENCE)
        got = from_automaton(n, a["initial"], a["accepting"], delta)
    if isinstance(got, NotPrefixClosed):
        w = " ".join(got.word) if got.word else "ε"
        raise InvalidInput(where, "a policy closed under truncation (every prefix of an allowed word allowed)",
                           f"'{w}' is a prefix of an allowed word but not allowed", InputKind.VALUE)
    return got


def instance_from_json(doc: Any, source: str = "<input>") -> Instance:
    validate(doc, SCHEMA, source)
    term = term_from_doc(doc["contract"], source, ("contract",))
    calls: dict[str, str] = doc["calls"]
    labels: dict[str, str] = doc["labels"]
    log: list[str] = doc.get("log", [])
    for c in call_ids(term):
        if c not in calls:
            raise InvalidInput(Location(source=source, json_path=json_path(("calls",))),
                               f"an action for contract call {c}", "none", InputKind.REFERENCE)
    for c, d in sorted(calls.items()):
        if d not in labels:
            raise InvalidInput(Location(source=source, json_path=json_path(("calls", c))),
                               f"an action with a label in $.labels ({d})", "none", InputKind.REFERENCE)
    for i, d in enumerate(log):
        if d not in labels:
            raise InvalidInput(Location(source=source, json_path=json_path(("log", i))),
                               f"an action with a label in $.labels ({d})", "none", InputKind.REFERENCE)
    return make_instance(term, calls, labels, tuple(log), _policy(doc["policy"], source))


def raw_instance_from_json(doc: Any, source: str = "<input>") -> Instance:
    """An instance as ``instance_to_json`` spelt it, *without* the schema and reference checks: the
    DRT's saved vectors include ill-formed instances (a call without an action, a choice without
    arms) whose Invalid verdict is the point of the vector. The policy is still read and checked.
    A repeated arm or outcome name cannot be spelt in this form (object keys, a loading error)."""
    term = term_from_doc(doc["contract"], source, ("contract",))
    return make_instance(term, dict(doc["calls"]), dict(doc["labels"]), tuple(doc.get("log", [])),
                         _policy(doc["policy"], source))


def load_instance_text(text: str, source: str = "<input>") -> Instance:
    return instance_from_json(loads(text, source), source)


def load_instance(path: Path) -> Instance:
    return instance_from_json(load_file(str(path)), str(path))
