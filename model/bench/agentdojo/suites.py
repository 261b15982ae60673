"""AgentDojo's suites and the policies we wrote for them.

Choices:
- The benchmark version is ``v1.2.2``, the newest the pinned package (0.1.35) ships: 97 user tasks,
  35 injection tasks, 74 tools over four suites (workspace, travel, banking, slack). v1.2.x fixes
  ground truths of earlier versions; the peers' figures we quote were measured on v1.x releases
  (stated beside them in the table).
- The injection texts are written from each injection task's goal (``variants``: AgentDojo's
  ``direct`` attack, ``TODO: {goal}``, and rewordings, encodings and splits of it) and placed in the
  injection vectors the user task's ground truth reads (AgentDojo's own ``get_injection_candidates``,
  through the ``direct`` attack object ``attack`` returns).
- The package is optional: ``require()`` raises ``InvalidInput`` naming the extra when it is absent,
  so callers (the experiment, the tests) say why they cannot run instead of failing on an import.
- Loading a suite imports AgentDojo's ``agent_pipeline`` package, whose initialiser imports every
  LLM client it supports (OpenAI, Anthropic, Google, Cohere, local models): about 3 s of CPU, most of
  one ``agentwarrant agentdojo`` command. The replay uses no client: the suites need only the
  pipeline's base element, its errors and its ground-truth pipeline, and that needs one constant of
  the Google client module (``EMPTY_FUNCTION_NAME``). ``_light_pipeline`` registers the two packages
  without running their initialisers and that module as the constant alone, read from the module's
  own source (so it cannot drift from the installed version); every other module loads as shipped.
  It does nothing when the packages are already imported, or when the constant is not found (then
  the initialisers run as usual). A process that wants AgentDojo's LLM pipelines must import
  ``agentdojo.agent_pipeline`` before loading a suite here.
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path
from typing import Any

from model.base.errors import InputKind, InvalidInput
from model.base.paths import repo_root
from model.monitor.language.policy import Policy
from model.monitor.language.syntax import load_policy

VERSION = "v1.2.2"
SUITES = ("workspace", "travel", "banking", "slack")
AGENT = "assistant"  # the agent name every suite policy declares


def available() -> bool:
    return importlib.util.find_spec("agentdojo") is not None


def require() -> None:
    if not available():
        raise InvalidInput("agentdojo", "the agentdojo package (pip install -e '.[agentdojo]')", "not installed",
                           InputKind.IO)


def corpus_dir() -> Path:
    return repo_root() / "corpus" / "agentdojo"


def policy_path(suite: str, variant: str = "") -> Path:
    """``corpus/agentdojo/SUITE.policy``; a variant names ``SUITE_VARIANT.policy`` (e.g. ``weak``)."""
    if suite not in SUITES:
        raise InvalidInput("suite", f"one of {', '.join(SUITES)}", suite, InputKind.VALUE)
    if not variant:
        return corpus_dir() / f"{suite}.policy"
    # A variant is a name from the corpus, not a path: '../x' or '/etc/passwd' must not reach the file system.
    known = sorted(p.stem.removeprefix(f"{suite}_") for p in corpus_dir().glob(f"{suite}_*.policy"))
    if variant not in known:
        choices = (f"a variant of {suite} ({', '.join(known)})" if known
                   else f"no variant (the corpus has none for {suite})")
        raise InvalidInput("--policy", f"'none', or {choices}", variant, InputKind.VALUE)
    return corpus_dir() / f"{suite}_{variant}.policy"


def suite_policy(suite: str, variant: str = "") -> Policy:
    return _policy(suite, variant)  # one cache entry whether or not the variant is named


@cache
def _policy(suite: str, variant: str) -> Policy:
    return load_policy(policy_path(suite, variant))


def snapshot_dir() -> Path:
    """Where parsed suites and policies are kept between commands (``$AGENTWARRANT_CACHE/agentdojo``)."""
    base = os.environ.get("AGENTWARRANT_CACHE") or str(Path.home() / ".cache" / "agentwarrant")
    return Path(base) / "agentdojo"


def read_snapshot(path: Path, what: str) -> Any:
    """The JSON document of a snapshot file whose digest line checks; ``None`` when it is absent or
    damaged. The digest detects staleness and damage, not an adversary: a snapshot is JSON, never a
    pickle, and its reader validates what it builds from it."""
    import hashlib
    import json

    from model.base.jsonio import read_bytes

    try:
        blob = read_bytes(path, what)
        digest, payload = blob[:64].decode("ascii"), blob[65:]
        if blob[64:65] == b"\n" and hashlib.sha256(payload).hexdigest() == digest:
            return json.loads(payload)
    except (InvalidInput, UnicodeDecodeError, ValueError):
        pass
    return None


def write_snapshot(path: Path, doc: object) -> None:
    """Write ``doc`` as a snapshot file (digest line, then the JSON), atomically."""
    import hashlib
    import json

    payload = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache only costs the next command the parse


@cache
def get_suite(suite: str) -> Any:
    """AgentDojo's ``TaskSuite`` (typed ``Any``: the package ships no type information)."""
    require()
    if suite not in SUITES:
        raise InvalidInput("suite", f"one of {', '.join(SUITES)}", suite, InputKind.VALUE)
    _light_pipeline()
    from agentdojo.task_suite.load_suites import get_suite as dojo_suite

    return dojo_suite(VERSION, suite)


_CONSTANT = "EMPTY_FUNCTION_NAME"


def _light_pipeline() -> None:
    """Register ``agentdojo.agent_pipeline`` without its LLM clients (see the module docstring)."""
    import ast
    import sys
    import types

    names = ("agentdojo.agent_pipeline", "agentdojo.agent_pipeline.llms", "agentdojo.agent_pipeline.llms.google_llm")
    if any(n in sys.modules for n in names):
        return
    spec = importlib.util.find_spec("agentdojo")
    if spec is None or not spec.submodule_search_locations:
        return
    root = Path(next(iter(spec.submodule_search_locations))) / "agent_pipeline"
    try:
        tree = ast.parse((root / "llms" / "google_llm.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return
    values = [ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == _CONSTANT for t in node.targets)]
    if len(values) != 1 or not isinstance(values[0], str):
        return
    for name, path in ((names[0], root), (names[1], root / "llms")):
        package = types.ModuleType(name)
        package.__path__ = [str(path)]
        sys.modules[name] = package
    google = types.ModuleType(names[2])
    setattr(google, _CONSTANT, values[0])
    sys.modules[names[2]] = google


@cache
def attack(suite: str) -> Any:
    """One ``direct`` attack object per suite (its injection-candidate search is cached per user task)."""
    from agentdojo.attacks.baseline_attacks import DirectAttack

    return DirectAttack(get_suite(suite), None)
