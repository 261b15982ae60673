"""Replayable session scripts for the edit runtime (schema ``corpus/schemas/edit_session.schema.json``;
*Exact Checking for Execution Edits*, Table III).

A script is a registration (turned into ``model.edits.runtime.registration.Registration``) and a list of
steps — ``use``, ``retry``, ``checkpoint``, ``check`` (optionally naming its answer with ``as``),
``update`` (``try_update`` with a named earlier answer, or check-then-update), ``preload`` (Table
III "Preload" of a named earlier answer, or check-then-preload), ``dispatch``, ``settle``,
``restart`` — each with an optional expected answer. Loading is schema-checked and then every
reference is resolved (templates name registered actions, requirement and removal records name
registered authorities, ``update`` and ``preload`` name an earlier ``check``); each failure is
``InvalidInput`` with the JSON path. ``run_session`` drives a ``Runtime`` through the steps and
returns each step's answer as canonical JSON, so a replay is compared byte for byte.

Choices where the source is silent: ``use`` without ``request`` submits the certified request of
the call's action and without ``token`` the token the runtime published for the call (a script
plays the Agent); ``retry`` presents the token of the processed call's entry.

Resume. The store records the digest of the script that created it and, for every
script step, its answer — in the same transaction as the state change when the step changed the
state (``Runtime.mark``), so a step is never run twice. ``resume_session`` reopens the store,
verifies it (every table, ``Runtime.verify``) and its outbox (``attach``) before anything else,
prints the recorded answers, recomputes the named ``check`` answers that later steps use (against
the state each was computed on, re-derived from the journal), hands every sent and unsettled
request to the tool again with its idempotency key (the tool deduplicates: a crash may have come
between the dispatch commit and the hand-over), and runs the remaining steps. A ``restart`` step
reopens the store with the key already held.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.base.canonical import JSON, canonical_str, digest, load_file, loads
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.schemas import validate
from model.edits.check.contract import Term, call_ids
from model.edits.check.edit_policy import NotPrefixClosed, PolicyAutomaton, from_maximal_words
from model.edits.check.load_instance import term_from_doc
from model.edits.check.regex import from_regex
from model.edits.runtime import steps as pure
from model.edits.runtime.answers import Answer, CheckAnswer, Sent, answer_json
from model.edits.runtime.forms import Edit, Extend
from model.edits.runtime.integrity import check_outbox
from model.edits.runtime.journal import edit_from_canonical
from model.edits.runtime.outbox import Outbox, Tool
from model.edits.runtime.record import ActionSpec, EditRule, State
from model.edits.runtime.registration import Registration
from model.edits.runtime.requirements import SignedRecord
from model.edits.runtime.runtime import Runtime

SCHEMA = "edit_session.schema.json"


@dataclass(frozen=True, slots=True)
class Session:
    registration: Registration
    seed: bytes | None
    steps: tuple[dict[str, Any], ...]  # schema-checked and reference-checked step documents
    script: str = ""  # digest of the script document: a store is resumed only by its own script


def _at(source: str, *path: str | int) -> Location:
    return Location(source=source, json_path=json_path(tuple(path)))


def _policy(doc: dict[str, Any], source: str, *path: str | int) -> PolicyAutomaton:
    if "maximal" in doc:
        return from_maximal_words(doc["maximal"])
    got = from_regex(doc["regex"], bool(doc.get("prefix_closure", False)), f"{source} at {json_path(path)}")
    if isinstance(got, NotPrefixClosed):
        raise InvalidInput(_at(source, *path), "a policy closed under truncation", " ".join(got.word) or "ε")
    return got


def _term(doc: Any) -> Term | None:
    return None if doc is None else term_from_doc(doc)


def _rules(doc: dict[str, Any]) -> tuple[tuple[str, EditRule], ...]:
    return tuple(sorted((name, EditRule(r["kind"], _term(r.get("left")), _term(r.get("right")), _term(r.get("join")),
                                        r.get("region", ""))) for name, r in doc.items()))


def _actions(doc: dict[str, Any]) -> tuple[tuple[str, ActionSpec], ...]:
    return tuple(sorted((d, ActionSpec(a["label"], canonical_str(a["request"]), a["scope"])) for d, a in doc.items()))


def _requirements(doc: dict[str, Any]) -> tuple[tuple[str, SignedRecord], ...]:
    return tuple(sorted((r, SignedRecord("requirement", r, s["authority"], s["signature"])) for r, s in doc.items()))


def _removals(docs: list[dict[str, Any]]) -> tuple[SignedRecord, ...]:
    return tuple(SignedRecord("removal", d["target"], d["authority"], d["signature"]) for d in docs)


def edit_from_json(doc: dict[str, Any], source: str = "<edit>", *path: str | int) -> Edit:
    if doc["edit"] != "extend":
        return edit_from_canonical(doc)  # the script form of the other edits is their canonical form
    return Extend(
        rules=_rules(doc.get("rules", {})), templates=tuple(sorted(doc.get("templates", {}).items())),
        actions=_actions(doc.get("actions", {})), authorities=tuple(sorted(doc.get("authorities", {}).items())),
        requirements=_requirements(doc.get("requirements", {})), removals=_removals(doc.get("removals", [])),
        policy=None if "policy" not in doc else _policy(doc["policy"], source, *path, "policy"))


def session_from_json(doc: Any, source: str = "<input>") -> Session:
    validate(doc, SCHEMA, source)
    reg = doc["registration"]
    for t, d in sorted(reg["templates"].items()):
        if d not in reg["actions"]:
            raise InvalidInput(_at(source, "registration", "templates", t), "a registered action", d,
                               InputKind.REFERENCE)
    root = term_from_doc(reg["root"]["contract"], source, ("registration", "root", "contract"))
    for x in call_ids(root):
        if x not in reg["templates"]:
            raise InvalidInput(_at(source, "registration", "root", "contract"), "calls that are registered templates",
                               x, InputKind.REFERENCE)
    for r, s in sorted(reg["requirements"].items()):
        if s["authority"] not in reg["authorities"]:
            raise InvalidInput(_at(source, "registration", "requirements", r, "authority"),
                               "a registered authority", s["authority"], InputKind.REFERENCE)
    names: set[str] = set()
    for i, step in enumerate(doc["steps"]):
        if ("update" in step or "preload" in step) and "answer" in step and step["answer"] not in names:
            raise InvalidInput(_at(source, "steps", i, "answer"), "the name of an earlier check ('as')",
                               step["answer"], InputKind.REFERENCE)
        if "check" in step and "as" in step:
            names.add(step["as"])
    registration = Registration(
        domain=reg["domain"], policy=_policy(reg["policy"], source, "registration", "policy"),
        templates=tuple(sorted(reg["templates"].items())), actions=_actions(reg["actions"]),
        authorities=tuple(sorted(reg["authorities"].items())), requirements=_requirements(reg["requirements"]),
        rules=_rules(reg["rules"]), root_region=reg["root"]["region"], root=root,
        removals=_removals(reg.get("removals", [])), namespace=reg.get("namespace", "v"))
    seed = bytes.fromhex(reg["seed"]) if "seed" in reg else None
    return Session(registration, seed, tuple(doc["steps"]), digest(doc))


def load_session(path: Path) -> Session:
    return session_from_json(load_file(str(path)), str(path))


def load_session_text(text: str, source: str = "<input>") -> Session:
    return session_from_json(loads(text, source), source)


def run_step(rt: Runtime, step: dict[str, Any], answers: dict[str, CheckAnswer],
             path: str) -> tuple[Runtime, Answer | None]:
    """One step; returns the (possibly reopened) runtime and the answer (``None`` for a restart)."""
    if "restart" in step:
        key = rt.key.private
        rt.close()
        return Runtime(path, key), None
    if "use" in step:
        x = step["use"]
        req = step["request"] if "request" in step else rt.request_of(x)
        return rt, rt.use(x, step.get("token", rt.token(x) or ""), req)
    if "retry" in step:
        x = step["retry"]
        p = next((p for p in rt.state().processed if p.call == x), None)
        req = step["request"] if "request" in step else rt.request_of(x)
        return rt, rt.retry(x, p.token if p is not None else "", req)
    if "checkpoint" in step:
        return rt, rt.checkpoint(step["checkpoint"], step["branch"])
    if "dispatch" in step:
        return rt, rt.dispatch()
    if "settle" in step:
        return rt, rt.settle(step["settle"], step["value"])
    if "check" in step:
        a = rt.check(edit_from_json(step["check"]))
        if "as" in step:
            answers[step["as"]] = a
        return rt, a
    edit = edit_from_json(step["preload"] if "preload" in step else step["update"])
    prior = answers[step["answer"]] if "answer" in step else rt.check(edit)
    return rt, rt.preload(edit, prior) if "preload" in step else rt.try_update(edit, prior)


Echo = Callable[[int, JSON, str | None], None]


def _mismatch(step: dict[str, Any], j: JSON) -> str | None:
    got = j["answer"] if isinstance(j, dict) else None
    return None if "expect" not in step or step["expect"] == got else f"expected {step['expect']}"


def _drive(rt: Runtime, session: Session, path: str, start: int, answers: dict[str, CheckAnswer],
           out: list[JSON], echo: Echo | None, tool: Tool | None) -> Runtime:
    for i, step in enumerate(session.steps[start - 1:], start):
        rt.mark(i)
        rt, a = run_step(rt, step, answers, path)
        rt.mark(None)
        j: JSON = {"answer": "restarted"} if a is None else answer_json(a)
        rt.done(i, j)
        if isinstance(a, Sent) and tool is not None:
            tool.deliver(rt.dispatch_key(a.record), a)
            rt.acknowledge(a.record)
        out.append(j)
        if echo is not None:
            echo(i, j, _mismatch(step, j))
    return rt


def run_session(session: Session, path: str, echo: Echo | None = None, *, key_file: str | None = None,
                tool: Tool | None = None) -> list[JSON]:
    """Create the store at ``path`` (exclusively) from the registration, then run every step; one JSON
    answer per step (the first is the root update's answer). ``echo(i, answer, mismatch)`` sees each
    as it happens; ``tool`` receives each dispatched request with its idempotency key."""
    rt, root = Runtime.create(path, session.registration, session.seed, key_file, session.script)
    try:
        attach(rt, tool, rt.state())
    except BaseException:
        rt.close()
        raise
    out: list[JSON] = [answer_json(root)]
    if echo is not None:
        echo(0, out[0], None)
    try:
        rt = _drive(rt, session, path, 1, {}, out, echo, tool)
    finally:
        rt.close()
    return out


def resume_session(session: Session, path: str, echo: Echo | None = None, *, key_file: str | None = None,
                   tool: Tool | None = None) -> tuple[int, list[JSON]]:
    """Continue the script that created the store at ``path`` from its last recorded step; the index
    of the first step run now (``len(steps) + 1`` if none was left) and every step's answer."""
    rt = Runtime(path, key_file=key_file)
    try:
        state = rt.verify()  # before anything is printed, run or handed over
        attach(rt, tool, state)
        if rt.script != session.script:
            raise InvalidInput(path, "a store created by this session script",
                               "a store created without a script" if rt.script is None else
                               "a store created by another script", InputKind.VALUE)
        done = rt.steps_done()
        if [i for i, _, _ in done] != list(range(len(done))) or len(done) > len(session.steps) + 1:
            raise InvalidInput(path, "script steps recorded in order", f"steps {[i for i, _, _ in done]}")
        out: list[JSON] = []
        for i, _, j in done:
            out.append(j)
            if echo is not None:
                echo(i, j, None if i == 0 else _mismatch(session.steps[i - 1], j))
        start = len(done)
        answers = _named_answers(rt, session, done, start)
        records = {r.id: r for r in state.log}  # verified: every queued record is in the log
        for o in state.out:  # hand over again what may not have reached the tool
            rec = records[o.record]
            if o.sent and rec.phase != "settled" and tool is not None:
                tool.deliver(rt.dispatch_key(rec.id), Sent(rec.id, rec.action, rec.request))
                rt.acknowledge(rec.id)
        rt = _drive(rt, session, path, start, answers, out, echo, tool)
    finally:
        rt.close()
    return start, out


def attach(rt: Runtime, tool: Tool | None, state: State, *, bind: bool = True) -> bool:
    """Bind a new, empty ``Outbox`` to the store, or check a bound one against it (``integrity``);
    other tools deduplicate on their own. False when the outbox is new and empty and ``bind`` is false:
    a run stopped between creating the store and binding its outbox (nothing was sent), which a reader
    reports and ``resume`` binds."""
    if not isinstance(tool, Outbox):
        return True
    bound, rows = tool.state()
    acks = rt.acks()
    if bound is None and not rows and not acks:
        if bind:
            tool.bind(rt.store_id)
        return bind
    check_outbox(tool.db.path, rt.store_id, bound, rows, acks, state)
    return True


def _named_answers(rt: Runtime, session: Session, done: list[tuple[int, int, JSON]],
                   start: int) -> dict[str, CheckAnswer]:
    """The named check answers that steps from ``start`` on use, recomputed on their own states."""
    wanted = {s["answer"] for s in session.steps[start - 1:] if "answer" in s}
    answers: dict[str, CheckAnswer] = {}
    for i, seq, _ in done[1:]:
        step = session.steps[i - 1]
        if "check" in step and step.get("as") in wanted:
            answers[step["as"]] = pure.check(rt.state_at(seq), edit_from_json(step["check"]))
    return answers
