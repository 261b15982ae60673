"""The package layout's rules, checked over the source of ``model/``: the import graph has no cycle between
modules or between packages (every import counts, including those inside functions and under
``TYPE_CHECKING``: a lazy import that only dodges a cycle is still a cycle); imports point down the layers
base → paper systems → shell; no module imports another module's ``_private`` name; nothing in ``model/``
imports ``tests/``; every module has a docstring, and every package's docstring names the paper section it
implements. Module length is a hint, not a rule: a concept stays in one module, and only a module past
``MAX_LINES`` (a size no concept here needs) fails."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "model"
MAX_LINES = 1000

# The layers, bottom up: a module may import its own layer and those below, never one above.
LAYERS: dict[str, int] = {"base": 0, "shell": 2}
SYSTEM_LAYER = 1  # monitor, revision, search, edits, admission, oracle, dist, bench


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


def layer_of(module: str) -> int:
    parts = module.split(".")
    return 2 if len(parts) == 1 else LAYERS.get(parts[1], SYSTEM_LAYER)  # ``model`` itself is the façade


def package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package (``model.X``) -> the other packages its modules import."""
    out: dict[str, set[str]] = {package_of(m): set() for m in graph}
    for m, deps in graph.items():
        out[package_of(m)].update(package_of(d) for d in deps if package_of(d) != package_of(m))
    return out


def layer_inversions(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((m, d) for m, deps in graph.items() for d in deps if layer_of(d) > layer_of(m))


def private_imports(package: Path = MODEL, root: Path = ROOT, importers: tuple[Path, ...] = ()) -> list[str]:
    """``file: module.name`` for every ``from M import _name`` of a module of ``package`` from another
    module (of the package, or of ``importers``)."""
    modules = {module_name(f, root) for f in package.rglob("*.py")}
    found = []
    for f in sorted({*package.rglob("*.py"), *(g for d in importers for g in d.rglob("*.py"))}):
        me = module_name(f, root)
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in modules and node.module != me:
                found += [f"{f.relative_to(root)}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    return found


def test_the_layer_and_package_checks_find_their_faults(tmp_path: Path) -> None:
    model = tmp_path / "model"
    for pkg in ("base", "monitor", "search", "shell"):
        (model / pkg).mkdir(parents=True)
        (model / pkg / "__init__.py").write_text('"""p"""\n')
    (model / "__init__.py").write_text('"""m"""\n')
    (model / "base" / "errors.py").write_text("X = 1\n")
    (model / "monitor" / "a.py").write_text("from model.base.errors import X\n_hidden = 2\n")
    (model / "search" / "b.py").write_text("from model.monitor.a import X\n")
    (model / "shell" / "cli.py").write_text("from model.search.b import X\n")
    graph = import_graph(model, tmp_path)
    assert layer_inversions(graph) == [] and find_cycle(package_graph(graph)) is None
    assert private_imports(model, tmp_path) == []
    # a package cycle made of two acyclic module edges
    (model / "monitor" / "c.py").write_text("def f():\n    from model.search.b import X\n    return X\n")
    cycle = find_cycle(package_graph(import_graph(model, tmp_path)))
    assert cycle == ["model.monitor", "model.search", "model.monitor"]
    (model / "monitor" / "c.py").unlink()
    # a layer inversion: a paper system reaching up into the shell
    (model / "search" / "d.py").write_text("import model.shell.cli\n")
    assert layer_inversions(import_graph(model, tmp_path)) == [("model.search.d", "model.shell.cli")]
    (model / "search" / "d.py").unlink()
    # a private name imported across modules
    (model / "search" / "e.py").write_text("from model.monitor.a import _hidden\n")
    assert private_imports(model, tmp_path) == ["model/search/e.py: model.monitor.a._hidden"]


def test_model_packages_have_no_cycle() -> None:
    packages = package_graph(import_graph())
    assert {"model.base", "model.monitor", "model.shell"} <= set(packages)
    cycle = find_cycle(packages)
    assert cycle is None, "package cycle: " + " -> ".join(cycle or [])


def test_imports_point_down_the_layers() -> None:
    graph = import_graph()
    assert any(layer_of(m) == 0 for m in graph) and any(layer_of(m) == 2 for m in graph)
    bad = layer_inversions(graph)
    assert not bad, "imports from a lower layer into a higher one: " + ", ".join(f"{a} -> {b}" for a, b in bad)


def test_no_module_imports_another_modules_private_names() -> None:
    found = private_imports(importers=(ROOT / "tests", ROOT / "experiments"))
    assert not found, "private names imported across modules:\n" + "\n".join(found)


def test_nothing_in_model_imports_tests() -> None:
    bad = []
    for f in MODEL.rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{f.relative_to(ROOT)}: {n}" for n in names if n == "tests" or n.startswith("tests.")]
        if re.search(r"import_module\(\s*[\"']tests[.\"']", f.read_text(encoding="utf-8")):
            bad.append(f"{f.relative_to(ROOT)}: import_module('tests...')")
    assert not bad, bad


def test_no_model_module_is_over_the_size_ceiling() -> None:
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


def test_no_two_modules_share_a_file_name() -> None:
    """One concept, one name: a module's file name is its concept's, so no two modules of ``model/`` share one
    (``__init__.py`` aside)."""
    seen: dict[str, list[str]] = {}
    for f in MODEL.rglob("*.py"):
        if f.name != "__init__.py":
            seen.setdefault(f.name, []).append(str(f.relative_to(ROOT)))
    shared = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not shared, shared
