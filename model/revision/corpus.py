"""Loading the revision corpus (corpus/revisions/manifest.json) and workload files.

Both documents are checked against their JSON Schemas (corpus/schemas/revision_manifest.schema.json,
corpus/schemas/revision_workload.schema.json) before anything is built; paths inside the manifest
are relative to it. References that the schema cannot see — an entry naming an unknown base, a
repeated id, a missing file — raise ``InvalidInput`` with the JSON path of the entry. An entry with
``after`` is judged mid-task, after that prefix file (prefix.py) ran under the base policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from model.base.canonical import load_file
from model.base.errors import InputKind, InvalidInput, Location, json_path
from model.base.schemas import validate
from model.monitor.language.policy import Policy
from model.monitor.language.syntax import load_policy
from model.revision.effects import EffectSet, parse_effects
from model.revision.explore.prefix import Prefix, load_prefix
from model.revision.explore.workload import Workload, workload_from_json

CORPUS = Path(__file__).resolve().parent.parent.parent / "corpus" / "revisions"


def load_workload(path: str | Path) -> Workload:
    doc = load_file(str(path))
    validate(doc, "revision_workload.schema.json", source=str(path))
    assert isinstance(doc, dict)
    return workload_from_json(doc)


@dataclass(frozen=True, slots=True)
class Base:
    name: str
    policy_path: Path
    policy: Policy
    workload: Workload
    bound: int


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    base: Base
    new_path: Path
    new: Policy
    kind: str
    effects: EffectSet
    expected_preservation: str  # "certified" | "not_preserved"
    expected_safety: str  # "newly_forbidden" | "no_new_forbidden"
    lost_client: tuple[str, ...] | None
    forbidden_trace: tuple[str, ...] | None
    note: str
    prefix: Prefix | None = None  # None: judged at task start

    def start(self) -> str:
        return "task start" if self.prefix is None else f"after {self.prefix.calls()} calls"


def load_manifest(path: str | Path = CORPUS / "manifest.json") -> tuple[Entry, ...]:
    path = Path(path)
    doc = load_file(str(path))
    validate(doc, "revision_manifest.schema.json", source=str(path))
    assert isinstance(doc, dict)
    root = path.parent

    def existing(rel: str, where: tuple[str | int, ...]) -> Path:
        p = root / rel
        if not p.is_file():
            raise InvalidInput(Location(str(path), json_path=json_path(where)), "an existing file", rel,
                               InputKind.REFERENCE)
        return p

    bases: dict[str, Base] = {}
    for name, b in doc["bases"].items():
        pol = existing(b["policy"], ("bases", name, "policy"))
        wl = existing(b["workload"], ("bases", name, "workload"))
        bases[name] = Base(name, pol, load_policy(pol), load_workload(wl), int(b["bound"]))
    out: list[Entry] = []
    seen: set[str] = set()
    for i, r in enumerate(doc["revisions"]):
        where = Location(str(path), json_path=json_path(("revisions", i)))
        if r["id"] in seen:
            raise InvalidInput(where, "a revision id used once", r["id"], InputKind.REFERENCE)
        seen.add(r["id"])
        if r["base"] not in bases:
            raise InvalidInput(where, f"a base among {', '.join(sorted(bases))}", r["base"], InputKind.REFERENCE)
        new_path = existing(r["new"], ("revisions", i, "new"))
        exp = r["expected"]
        out.append(Entry(r["id"], bases[r["base"]], new_path, load_policy(new_path), r["kind"],
                         parse_effects(r.get("effects")), exp["preservation"], exp["safety"],
                         tuple(exp["lost_client"]) if "lost_client" in exp else None,
                         tuple(exp["forbidden_trace"]) if "forbidden_trace" in exp else None, r["note"],
                         load_prefix(existing(r["after"], ("revisions", i, "after"))) if "after" in r else None))
    return tuple(out)
