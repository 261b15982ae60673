"""The package layout's rules, checked over the source of ``model/``: the import graph has no cycle
(every import counts, including those inside functions and under ``TYPE_CHECKING``: a lazy import that
only dodges a cycle is still a cycle), no module is over 300 lines, every module has a docstring, and
every package's docstring names the paper section it implements."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "model"
MAX_LINES = 300


def module_name(path: Path, root: Path = ROOT) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def _imported(name: str, node: ast.ImportFrom | ast.Import, modules: set[str], is_package: bool) -> Iterator[str]:
    """The modules of ``modules`` that ``node`` (in module ``name``) imports: ``from A import b`` is
    module ``A.b`` when that is a module, else ``A`` itself (a name defined or re-exported there)."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name in modules)
        return
    base = node.module or ""
    if node.level:
        parts = name.split(".") if is_package else name.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    for alias in node.names:
        if f"{base}.{alias.name}" in modules:
            yield f"{base}.{alias.name}"
        elif base in modules:
            yield base


def import_graph(package: Path = MODEL, root: Path = ROOT) -> dict[str, set[str]]:
    """Module name -> the modules of the same tree it imports, anywhere in its body."""
    files = {module_name(f, root): f for f in package.rglob("*.py")}
    names = set(files)
    graph: dict[str, set[str]] = {}
    for name, f in files.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                deps.update(_imported(name, node, names, f.name == "__init__.py"))
        graph[name] = deps - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path ``[a, b, …, a]``, or ``None``: depth-first search with colours."""
    colour: dict[str, int] = dict.fromkeys(graph, 0)  # 0 unseen, 1 on the path, 2 done
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        colour[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if colour[w] == 1:
                return [*path[path.index(w):], w]
            if colour[w] == 0 and (found := visit(w)) is not None:
                return found
        path.pop()
        colour[v] = 2
        return None

    for v in sorted(graph):
        if colour[v] == 0 and (found := visit(v)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""p"""\n')
    (pkg / "a.py").write_text("from pkg.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import a\n    return a\n")
    (pkg / "c.py").write_text("from . import a\n")
    graph = import_graph(pkg, tmp_path)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.a"}}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]
    (pkg / "b.py").write_text("def f():\n    return 1\n")
    assert find_cycle(import_graph(pkg, tmp_path)) is None


def test_model_has_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300  # the graph is really read
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_model_module_is_over_300_lines() -> None:
    long = {module_name(f): n for f in MODEL.rglob("*.py")
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_every_model_module_has_a_docstring() -> None:
    missing = [module_name(f) for f in MODEL.rglob("*.py")
               if len(ast.get_docstring(ast.parse(f.read_text(encoding="utf-8"))) or "") <= 20]
    assert not missing, f"modules without a docstring: {missing}"


@pytest.mark.parametrize("init", sorted(MODEL.rglob("__init__.py")), ids=lambda p: str(p.parent.relative_to(ROOT)))
def test_every_package_docstring_names_its_paper_section(init: Path) -> None:
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    assert re.search(r"Sections?|§|Table|Appendix|Definition", doc), f"{init}: name the paper section"
