"""The text form of Agenra policies (Sections 4–5; our copy lacks the grammar figure, Figure 2).

``parse_policy(text, source)`` returns a validated ``Policy``; ``print_policy`` (in
``model.monitor.language.printer``) is its inverse on canonical text, and ``load_policy(path)`` reads a
``.json`` file as the JSON form (``model.monitor.language.policy_json``) and any other file as text.
Every failure is ``InvalidInput`` with ``file:line:col`` and what was expected, in plain words.

Grammar (``policy.lark`` next to this file; ``#`` starts a comment; whitespace is free)::

    policy   := "policy" NAME decl*                      -- decls in any order; levels once, categories at most once
    decl     := "levels" NAME ("<" NAME)*                 -- lowest first, non-empty
              | "categories" [NAME ("," NAME)*]
              | "requirement" NAME
              | "node" NAME ":" ("source"|"memory"|"sink") label
              | "edge" NAME ":" NAME "->" NAME ("," NAME "->" NAME)* prop
              | "agent" NAME "{" operations: {NAME,..} ceiling: NAME "}"
              | "tool" NAME "{" [operation: NAME] endpoints: NAME -> NAME [args: {..}] [required: {..}]
                                effects: [effect, ..] [authoritative: {PATH, ..}] "}"
              | "resolve" NAME ":" NAME "(" [NAME ":" scalar ("," ..)*] ")" "->" PATH
              | "origin" NAME "{" via: NAME argument: NAME producer: NAME [preserving: {NAME,..}] "}"
              | "flow" ("allow"|"deny"|"pause") (NAME|"*") "->" dest ["when" cond ("and" cond)*]
              | "audience" NAME ":" ACTION "(" pattern ")" ("," ACTION "(" pattern ")")*
              | "history" NAME "{" scope: (lineage|session) after: NAME require: NAME before: NAME "}"
              | ("user"|"application") "{" entry* "}"  -- each list at most once; missing = empty
    dest     := NAME | "*" | NAME "(" (NAME|"*") ")"      -- a node, or a tool's argument (a request sink)
    label    := "(" NAME "," "{" NAME,.. "}" "," ("trusted"|"untrusted") ")"
    prop     := "inherit" | "transform" "{" [remove: {..}] [decrement: INT]
                                         [set: {[sensitivity: NAME] [, trust: (trusted|untrusted)]}] "}"
    effect   := ACTION "(" (scalar | NAME | NAME "[" "*" "]") ")"
    cond     := "sensitivity" ("<="|">=") NAME | "category" {..} | "no" "category" {..} | "trusted" | "untrusted"
    entry    := ("allow"|"deny") ACTION "(" pattern ")" ["keys" {..}] ["where" pred ("and" pred)*]
                ["quota" (INT|"unlimited")] ["requires" NAME] ["permit"]      -- clauses in this order
    pattern  := "*" | "@"NAME | "like" STRING | scalar
    pred     := PATH "==" scalar | PATH "in" "{" scalar ("," scalar)* "}" | PATH "in" [NUM] ".." [NUM]
    scalar   := STRING (JSON escapes) | NUMBER (JSON syntax) | "true" | "false" | "null"
    NAME     := [A-Za-z_][A-Za-z0-9_]*     ACTION, PATH := NAME ("." NAME)*

``flow pause``, request sinks (``TOOL(ARG)`` destinations) and ``audience`` declarations are extensions
beyond Agenra (``docs/monitor.md``, "Extensions beyond Agenra"; semantics in
``model.monitor.decide.flow``).

Choices made where the source is silent or the draft syntax was ambiguous:
- The fields inside ``{...}`` blocks (agent, tool, origin, history, transform) may come in any
  order, each at most once, separated by optional commas (the paper writes origins without
  commas, tools with them). Missing required fields and repeated fields are errors.
- A keyword is recognized only where the grammar accepts it (LALR contextual lexing), so a node
  may be called ``memory`` and an argument ``quota``. Two groups of words are *reserved* and are
  never names (``validate.RESERVED``): the declaration keywords ``policy levels categories
  requirement node edge agent tool resolve origin flow history user application audience`` (they may
  follow an empty ``categories`` list) and ``true false null`` (an effect's resource may be a
  name or a constant).
- A keyword must not run into a name (``categoriesx`` is an error, not ``categories x``);
  ``@target`` is one token (no space after ``@``).
- ``transform {}`` is a transform that changes nothing; it is a different value from ``inherit``.
- ``deny`` entries take ``keys`` and ``where`` but not ``quota``, ``requires`` or ``permit``.
- Sets (``{a, b}``) reject repeated members; a one-of list needs a value and a range a bound;
  a quota and a decrement are non-negative integers; numbers must be finite.
- Registration checks (references, Section 5's tool/resolver constraints) are in
  ``model.monitor.language.validate`` and report the ``line:col`` of the offending declaration.
- A tool's ``operation`` defaults to the tool's own name; ``args``, ``required`` and
  ``authoritative`` default to empty; an allow entry's quota defaults to 1 (Section 5.2).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr

from model.base.errors import InputKind, InvalidInput, Location
from model.base.jsonio import read_bytes, text_of
from model.monitor.language.policy import Policy
from model.monitor.language.printer import print_policy
from model.monitor.language.syntax_tree import Positions, build_policy
from model.monitor.language.validate import validate

__all__ = ["load_policy", "parse_policy", "parse_unchecked", "print_policy"]

_TEXT: ContextVar[str] = ContextVar("_TEXT", default="")
_SOURCE: ContextVar[str] = ContextVar("_SOURCE", default="<input>")

_WORDS = {"NAME": "a name", "SLOT": "a slot such as @target", "STRING": 'a string in double quotes',
          "NUMBER": "a number", "$END": "the end of the input"}


class _KeywordBoundary:
    """Post-lexer: a keyword token directly followed by a name character is a typo, not two words."""

    always_accept: tuple[str, ...] = ()

    def __init__(self, keyword_types: frozenset[str]) -> None:
        self.keyword_types = keyword_types

    def process(self, stream: object) -> object:
        text = _TEXT.get()
        for tok in stream:  # type: ignore[attr-defined]
            end = tok.end_pos
            if tok.type in self.keyword_types and end is not None and end < len(text):
                nxt = text[end]
                if nxt.isascii() and (nxt.isalnum() or nxt == "_"):
                    raise InvalidInput(Location(_SOURCE.get(), tok.line, tok.column),
                                       f"a space or symbol after the keyword {tok.value!r}",
                                       repr(text[tok.start_pos:end + 1]), InputKind.SYNTAX)
            yield tok


@cache
def _parser() -> Lark:
    grammar = Path(__file__).with_name("policy.lark").read_text(encoding="utf-8")
    boundary = _KeywordBoundary(frozenset())
    parser = Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True,
                  maybe_placeholders=True, postlex=boundary)
    boundary.keyword_types = frozenset(t.name for t in parser.terminals
                                       if isinstance(t.pattern, PatternStr) and t.pattern.value.isidentifier())
    return parser


def _describe(names: set[str] | frozenset[str]) -> str:
    terms = {t.name: t for t in _parser().terminals}
    words: set[str] = set()
    for n in names:
        if n in _WORDS:
            words.add(_WORDS[n])
        elif n in terms and isinstance(terms[n].pattern, PatternStr):
            words.add(repr(terms[n].pattern.value))
        elif n not in ("WS", "COMMENT"):
            words.add(n.lower())
    items = sorted(words)
    if not items:
        return "nothing more"
    return items[0] if len(items) == 1 else "one of " + ", ".join(items)


def _end_location(text: str, source: str) -> Location:
    line = text.count("\n") + 1
    return Location(source, line, len(text) - (text.rfind("\n") + 1) + 1)


def _syntax_error(exc: UnexpectedInput, text: str, source: str) -> InvalidInput:
    if isinstance(exc, UnexpectedCharacters):
        return InvalidInput(Location(source, exc.line, exc.column), _describe(exc.allowed or set()),
                            repr(exc.char), InputKind.SYNTAX)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = _describe(exc.accepts or exc.expected)
        if tok.type == "$END" or tok.line is None:
            return InvalidInput(_end_location(text, source), expected, "the end of the input", InputKind.SYNTAX)
        return InvalidInput(Location(source, tok.line, tok.column), expected, repr(str(tok.value)), InputKind.SYNTAX)
    if isinstance(exc, UnexpectedEOF):
        return InvalidInput(_end_location(text, source), _describe(set(exc.expected)), "the end of the input",
                            InputKind.SYNTAX)
    return InvalidInput(Location(source, getattr(exc, "line", None), getattr(exc, "column", None)),
                        "valid policy text", str(exc), InputKind.SYNTAX)


def _decode(text: str | bytes, source: str) -> str:
    return text_of(text, source)  # UTF-8, a leading byte-order mark dropped (model.base.jsonio)


def parse_unchecked(text: str | bytes, source: str = "<input>") -> tuple[Policy, Positions]:
    """Parse without registration checks; also returns the source position of each declaration."""
    decoded = _decode(text, source)
    if not decoded.strip():
        raise InvalidInput(Location(source, 1, 1), "a policy starting with 'policy NAME'", "empty input",
                           InputKind.SYNTAX)
    t1, s1 = _TEXT.set(decoded), _SOURCE.set(source)
    try:
        tree = _parser().parse(decoded)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, decoded, source) from None
    except VisitError as exc:  # a postlex/transformer callback raised
        if isinstance(exc.orig_exc, InvalidInput):
            raise exc.orig_exc from None
        raise
    finally:
        _TEXT.reset(t1)
        _SOURCE.reset(s1)
    return build_policy(tree, source)


def parse_policy(text: str | bytes, source: str = "<input>") -> Policy:
    """Parse and validate policy text; raises ``InvalidInput`` with ``source:line:col``."""
    with _no_cycle_collection():
        policy, positions = parse_unchecked(text, source)
        validate(policy, positions.locate)
    return policy


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Parsing allocates a large tree of acyclic objects; the cycle collector would rescan the growing
    heap again and again (a third of the time of a 10^4-entry policy), so it waits until the end."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def load_policy(path: str | Path) -> Policy:
    """Read a policy file: ``.json`` is the JSON form, anything else the text form."""
    name = str(path)
    data = read_bytes(path, "a readable policy file")
    if name.endswith(".json"):
        # loaded only for a JSON policy: it brings jsonschema, which a text policy never needs (start-up)
        from model.monitor.language.policy_json import policy_from_json_text

        return policy_from_json_text(data, name)
    return parse_policy(data, name)

