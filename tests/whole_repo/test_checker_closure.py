"""The certificate checker is independent of the proposers in fact: the modules its entry points import,
transitively (with the packages whose ``__init__`` an import runs), include none of the proposers' engines
— the Z3 encoding and cheaper answers of ``smt/``, the searches and memo of ``explore/``, the structural,
simulation, joint and symbolic proposers and the side-condition modules they share — and every revision
module among them is named as the checker's trusted base in docs/revisions.md."""

from __future__ import annotations

import re

from tests.whole_repo.test_architecture import ROOT, import_graph

CHECKERS = ("model.revision.certify.certificate_checker", "model.revision.certify.linear_check",
            "model.revision.certify.simulation_certificate", "model.revision.certify.binding_certificate",
            "model.revision.trusted.guards")
PROPOSERS = ("model.revision.smt", "model.revision.explore", "model.revision.certify.structural",
             "model.revision.certify.simulation", "model.revision.certify.joint", "model.revision.certify.linear",
             "model.revision.certify.binding_classes",
             "model.revision.certify.leaves", "model.revision.certify.witness_questions",
             "model.revision.certify.agreement",
             "model.revision.certify.independence", "model.revision.certify.conditions",
             "model.revision.certify.coverage_split", "model.revision.revise", "model.revision.report")


def closure() -> set[str]:
    graph = import_graph()
    seen: set[str] = set()
    todo = list(CHECKERS)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        # the package inits an import runs; ``model``'s own loads the shell's façade only on first use of a name
        todo += [p for p in (".".join(parts[:i]) for i in range(2, len(parts))) if p in graph]
        todo += sorted(graph.get(name, ()))
    return seen


def test_the_checkers_import_closure_excludes_every_proposer_module() -> None:
    mods = closure()
    assert set(CHECKERS) <= mods
    leaked = sorted(m for m in mods for p in PROPOSERS if m == p or m.startswith(p + "."))
    assert not leaked, f"the checker imports proposer modules: {leaked}"


def test_the_trusted_base_is_named_in_the_docs() -> None:
    docs = (ROOT / "docs" / "revisions.md").read_text(encoding="utf-8")
    section = docs[docs.index("### The checker's trusted base"):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    named = set(re.findall(r"`(model/[\w/]+\.py)`", section))
    ours = sorted(m for m in closure() if m.startswith("model.revision"))
    for m in ours:
        path = m.replace(".", "/")
        assert f"{path}.py" in named or f"{path}/__init__.py" in named, f"{m} is not named in the trusted base"
