"""AgentDojo's environments carrying injections, built once per suite and filled per run.

AgentDojo builds a task's environment by ``str.format``-ing its ``environment.yaml`` with the
injection texts and parsing the result (``load_and_inject_default_environment``): most of a replay's
time when every run carries a different text. Here each suite is parsed once with a unique marker
per injection vector; the leaves holding a marker are located once, and a run's environment is a
deep copy of the parsed one with each marker replaced by its text (the vector's default where the
run injects nothing there).

Choices:
- The markers are plain letters and digits, so YAML reads them as it reads the defaults. AgentDojo's
  ``format`` puts a text into the YAML source, so YAML reads it as the scalar around the marker is
  written: escapes in a double-quoted scalar, newlines folded in plain and quoted ones. Each text is
  read that way here too (a one-line YAML document of the same scalar style, cached per text), then
  placed into the parsed leaf, so no injected character can change how the rest of the file parses.
  In a block scalar (``|``, ``>``) the text is placed as written (a newline in it would end AgentDojo's
  block; none of its vectors is in one, ``tests/unit/test_agentdojo_replay.py`` compares the two
  environments).
- The environment with every vector at its default is the *twin* of an injected one: a result is
  the injected result exactly when the same call on the twin returns something else (``exact``).
- Parsing and validating a suite's YAML is most of a single-task command's time, so the parsed
  template is kept as a snapshot file (``snapshot_dir``: ``$AGENTWARRANT_CACHE/agentdojo`` or
  ``~/.cache/agentwarrant/agentdojo``), named by a digest of everything it is built from (AgentDojo's
  version, the benchmark version, the suite, every file of its data directory, this module's format) and holding a
  digest of its own bytes. A snapshot is used only when both digests check; otherwise (missing,
  stale, truncated, altered) the template is built from the YAML and the snapshot written anew
  (atomically). The digests detect staleness and damage, not an adversary. The snapshot is JSON, never
  a pickle, so a file someone else wrote can at worst hold a wrong environment, never run code: its
  environment is validated by the suite's own pydantic model when read, and any shape it does not
  have sends the command back to the YAML.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from model.base.jsonio import read_bytes
from model.bench.agentdojo.suites import VERSION, get_suite, read_snapshot, snapshot_dir, write_snapshot

Where = tuple[str | int, ...]  # a leaf's path in the environment


def _marker(i: int) -> str:
    return f"AWVECTOR{i:03d}X"


@dataclass(frozen=True, slots=True)
class Template:
    """A suite's parsed environment with markers, where each marker sits, and each vector's default."""

    base: Any
    places: tuple[tuple[Where, tuple[tuple[str, str], ...], bool], ...]  # leaf path, (marker, vector)s, derived
    defaults: tuple[tuple[str, str], ...]
    styles: tuple[tuple[str, str], ...]  # vector -> YAML scalar style of its marker ("" plain, '"', "'", "|", ">")


def _leaves(obj: Any, path: Where) -> list[tuple[Where, str]]:
    from pydantic import BaseModel

    if isinstance(obj, BaseModel):
        return [x for name in type(obj).model_fields for x in _leaves(getattr(obj, name), (*path, name))]
    if isinstance(obj, dict):
        return [x for k, v in obj.items() for x in _leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [x for i, v in enumerate(obj) for x in _leaves(v, (*path, i))]
    return [(path, obj)] if isinstance(obj, str) else []


_FORMAT = "template-json-1"


@cache
def template(suite_name: str) -> Template:
    """The suite's template, from its snapshot when one checks (see the module docstring)."""
    from importlib.metadata import version

    from agentdojo.task_suite.task_suite import read_suite_file

    suite = get_suite(suite_name)
    key = hashlib.sha256("\0".join([_FORMAT, version("agentdojo"), VERSION, suite_name,
                                     _data_digest(suite)]).encode()).hexdigest()
    path = snapshot_dir() / f"{suite_name}-{key[:32]}.json"
    doc = read_snapshot(path, "an AgentDojo template snapshot")
    if doc is not None:
        try:
            return _from_json(suite, doc)
        except (ValueError, KeyError, TypeError):
            pass  # damaged (pydantic's ValidationError is a ValueError): build it
    sources = [read_suite_file(suite.name, f, suite.data_path) for f in ("injection_vectors.yaml", "environment.yaml")]
    built = _build(suite, *sources)
    write_snapshot(path, _to_json(built))
    return built


def _data_digest(suite: Any) -> str:
    """A digest of every file of the suite's data directory, names and bytes: the two YAML files and
    every file they include. Reading the bytes is cheap; AgentDojo's ``read_suite_file`` parses and
    re-dumps the YAML, which is as slow as building the template."""
    import importlib.resources

    root = Path(suite.data_path) if suite.data_path is not None else Path(
        str(importlib.resources.files("agentdojo") / "data" / "suites" / suite.name))
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(root)).encode() + b"\0" + read_bytes(f) + b"\0")
    return h.hexdigest()


def _to_json(t: Template) -> dict[str, Any]:
    return {"base": t.base.model_dump(mode="json"),
            "places": [[list(where), [list(mv) for mv in found], derived] for where, found, derived in t.places],
            "defaults": [list(d) for d in t.defaults], "styles": [list(x) for x in t.styles]}


def _pairs(items: Any) -> tuple[tuple[str, str], ...]:
    out = tuple((a, b) for a, b in items)
    if not all(isinstance(a, str) and isinstance(b, str) for a, b in out):
        raise TypeError("a pair of strings was expected")
    return out


def _from_json(suite: Any, doc: Any) -> Template:
    """A snapshot's template, every part checked for its shape (``TypeError``/``ValueError`` otherwise)."""
    places = []
    for where, found, derived in doc["places"]:
        names = all(isinstance(w, (str, int)) and not isinstance(w, bool) for w in where)
        if not names or not isinstance(derived, bool):
            raise TypeError("a leaf path of names and indices was expected")
        places.append((tuple(where), _pairs(found), derived))
    return Template(suite.environment_type.model_validate(doc["base"]), tuple(places), _pairs(doc["defaults"]),
                    _pairs(doc["styles"]))


def _build(suite: Any, vectors_text: str, environment_text: str) -> Template:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    vectors = yaml.load(vectors_text, Loader=loader)
    defaults = {k: str(v["default"]) for k, v in vectors.items()}
    markers = {v: _marker(i) for i, v in enumerate(defaults)}
    text = environment_text.format(**markers)
    base = suite.environment_type.model_validate(yaml.load(text, Loader=loader))
    styles = {v: _style(yaml.compose(text, Loader=loader), m) for v, m in markers.items()}
    places = []
    for path, leaf in _leaves(base, ()):
        found = tuple((m, v) for v, m in markers.items() if m in leaf)
        if found:
            places.append((path, found, _derives(base, path)))
    return Template(base, tuple(places), tuple(defaults.items()), tuple(styles.items()))


def _style(node: Any, marker: str) -> str:
    import yaml

    if isinstance(node, yaml.ScalarNode):
        return (node.style or "") if marker in node.value else "?"
    items = node.value if isinstance(node, yaml.SequenceNode) else [x for kv in node.value for x in kv]
    for child in items:
        found = _style(child, marker)
        if found != "?":
            return found
    return "?"


@cache
def read_as_yaml(style: str, text: str) -> str:
    """``text`` as YAML reads it inside a scalar of ``style`` (see the module docstring)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if style in ('"', "'"):
            value = yaml.load(f"k: {style}x {text}{style}", Loader=loader)["k"]
        elif style == "":
            value = yaml.load(f"k: x {text}", Loader=loader)["k"]
        else:
            return text
    except yaml.YAMLError:
        return text  # AgentDojo's own load would fail on it; the text as written is the nearest reading
    return str(value)[2:] if isinstance(value, str) and value.startswith("x ") else text


def _derives(base: Any, path: Where) -> bool:
    """Whether the model holding the leaf derives other fields from it (a file's ``size`` from its
    content): validating it anew with another text then changes more than the leaf."""
    from pydantic import BaseModel

    probe = base.model_copy(deep=True)
    parent = _get_node(probe, path[:-1])
    if not isinstance(parent, BaseModel):
        return False
    before = {n: getattr(parent, n) for n in type(parent).model_fields if n != path[-1]}
    _set(probe, path, _get(probe, path) + " probe text", True)
    after = _get_node(probe, path[:-1])
    return any(getattr(after, n) != v for n, v in before.items())


def _child(node: Any, step: str | int) -> Any:
    container: Any = node
    return container[step] if isinstance(node, dict | list) else getattr(node, str(step))


def _get_node(root: Any, path: Where) -> Any:
    node = root
    for step in path:
        node = _child(node, step)
    return node


def _set(root: Any, path: Where, value: str, derived: bool) -> None:
    """Put ``value`` at ``path``; where the holding model derives fields from the leaf, the model is
    validated anew so they follow, as in AgentDojo."""
    from pydantic import BaseModel

    parent = _get_node(root, path[:-1])
    last = path[-1]
    if isinstance(parent, dict | list):
        container: Any = parent
        container[last] = value
        return
    if not derived:
        object.__setattr__(parent, str(last), value)
        return
    assert isinstance(parent, BaseModel)
    data = {name: getattr(parent, name) for name in type(parent).model_fields}
    data[str(last)] = value
    fresh = type(parent).model_validate(data)
    if len(path) == 1:
        for name in type(parent).model_fields:
            object.__setattr__(parent, name, getattr(fresh, name))
    else:
        _put(root, path[:-1], fresh)


def _put(root: Any, path: Where, value: Any) -> None:
    parent = _get_node(root, path[:-1])
    if isinstance(parent, dict | list):
        container: Any = parent
        container[path[-1]] = value
    else:
        object.__setattr__(parent, str(path[-1]), value)


def _get(root: Any, path: Where) -> str:
    return str(_get_node(root, path))


def environment(suite_name: str, injections: dict[str, str]) -> Any:
    """A fresh environment of the suite with ``injections`` (vector -> text) and defaults elsewhere.

    A pair is replayed under many configurations with the same texts; the filled environment is kept
    pickled per (suite, texts) for the most recent ones and each call returns a fresh unpickled copy
    (revalidating a model whose fields derive from an injected leaf dominates a run otherwise)."""
    return pickle.loads(_filled(suite_name, tuple(sorted(injections.items()))))


@lru_cache(maxsize=64)
def _filled(suite_name: str, injections: tuple[tuple[str, str], ...]) -> bytes:
    return pickle.dumps(_fill(suite_name, dict(injections)))


def _fill(suite_name: str, injections: dict[str, str]) -> Any:
    t = template(suite_name)
    defaults = dict(t.defaults)
    styles = dict(t.styles)
    unknown = sorted(set(injections) - set(defaults))
    if unknown:
        from model.base.errors import InputKind, InvalidInput

        raise InvalidInput("injections", f"vectors of {suite_name}", unknown[0], InputKind.REFERENCE)
    env = copy(t.base)
    for path, found, derived in t.places:
        leaf = _get(env, path)
        for marker, vector in found:
            leaf = leaf.replace(marker, read_as_yaml(styles[vector], injections.get(vector, defaults[vector])))
        _set(env, path, leaf, derived)
    return env


def copy(env: Any) -> Any:
    """A deep copy of an environment (pickle: the same objects as ``model_copy(deep=True)``, faster)."""
    return pickle.loads(pickle.dumps(env))


def defaults(suite_name: str) -> dict[str, str]:
    return dict(template(suite_name).defaults)


@cache
def candidates(suite_name: str, user_id: str) -> tuple[str, ...]:
    """The injection vectors the user task's ground truth reads, as AgentDojo's own
    ``get_injection_candidates`` finds them: its canary text in every vector, the task's ground truth
    through AgentDojo's ``GroundTruthPipeline``, a vector kept when its canary is in a tool output's
    text. The environment is this module's (equal to AgentDojo's ``load_and_inject_default_environment``),
    not a fresh parse of the suite's YAML, which would be most of a one-task command's time
    (``tests/unit/test_agentdojo_replay.py`` compares the two lists)."""
    from agentdojo.agent_pipeline.ground_truth_pipeline import GroundTruthPipeline
    from agentdojo.functions_runtime import FunctionsRuntime
    from agentdojo.types import get_text_content_as_str

    suite = get_suite(suite_name)
    task = suite.user_tasks[user_id]
    canaries = {v: f"<CANARY---{v}--->" for v in defaults(suite_name)}
    env = environment(suite_name, canaries)
    _, _, _, responses, _ = GroundTruthPipeline(task).query(task.PROMPT, FunctionsRuntime(suite.tools), env)
    texts = [get_text_content_as_str(r["content"]) for r in responses if r["content"] is not None]
    found = tuple(v for v, c in canaries.items() if any(c in t for t in texts))
    if not found:
        from model.base.errors import InputKind, InvalidInput

        raise InvalidInput("user task", "a task that reads an injection vector", user_id, InputKind.VALUE)
    return found
