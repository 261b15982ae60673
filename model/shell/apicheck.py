"""Argument checks for the library façade: every public function refuses a wrong-typed argument with
``InvalidInput`` naming the function and the parameter, as the CLI refuses bad input, never with a raw
``TypeError``/``AttributeError`` from deep inside an engine.

No source document speaks of a Python API; the rules are ours:
- The check reads the function's own annotations, so the signature a reader sees is the rule applied
  (no second list to keep in step). Names the façade imports only for type checking (behind
  ``if TYPE_CHECKING:``, to keep ``import model`` cheap) are imported on the first checked call, by
  running that block's import statements for the names the function's parameter annotations use.
- ``bool`` is not accepted where ``int`` or ``float`` is asked (``True`` is no bound), and an ``int`` is
  accepted where a ``float`` is (PEP 484's numeric tower).
- Containers are checked one level deep where the annotation says what they hold (``Mapping[str, ...]``:
  string keys; ``tuple[str, ...]``: strings); ``Any`` (the ``JSON`` alias) accepts every value, and the
  function's own loader then refuses what is not JSON, naming its place.
"""

from __future__ import annotations

import ast
import collections.abc as cabc
import functools
import inspect
import sys
import textwrap
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from model.base.errors import InputKind, InvalidInput, found

F = TypeVar("F", bound=Callable[..., Any])


def _type_checking_imports(module: types.ModuleType) -> list[ast.stmt]:
    """The import statements of ``module``'s top-level ``if TYPE_CHECKING:`` blocks. Only the blocks' own
    lines are parsed (the block ends at the next line that is not indented): parsing the whole façade
    took longer than a small check."""
    lines = inspect.getsource(module).splitlines()
    out: list[ast.stmt] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("if TYPE_CHECKING:"):
            i += 1
            continue
        body: list[str] = []
        i += 1
        while i < len(lines) and (not lines[i].strip() or lines[i][:1] in (" ", "\t")):
            body.append(lines[i])
            i += 1
        tree = ast.parse(textwrap.dedent("\n".join(body)))
        out += [s for s in tree.body if isinstance(s, ast.Import | ast.ImportFrom)]
    return out


def checking_names(module: types.ModuleType) -> dict[str, Any]:
    """The names ``module`` imports under ``if TYPE_CHECKING:``, imported now."""
    names: dict[str, Any] = {}
    block = ast.Module(body=_type_checking_imports(module), type_ignores=[])
    exec(compile(block, module.__name__, "exec"), names)  # only import statements of our own module
    names.pop("__builtins__", None)
    return names


def accepts(tp: Any, value: object) -> bool:
    """Whether ``value`` is of the annotated type ``tp`` (the forms the façade's signatures use)."""
    if tp is Any or tp is object:
        return True
    if tp is None or tp is type(None):
        return value is None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        return any(accepts(a, value) for a in args)
    if origin is typing.Literal:
        return value in args
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if origin is cabc.Callable or tp is cabc.Callable:
        return callable(value)
    if origin in (cabc.Mapping, dict):
        return isinstance(value, cabc.Mapping) and (not args or all(accepts(args[0], k) for k in value))
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(accepts(args[0], v) for v in value)
        return len(args) == len(value) and all(accepts(a, v) for a, v in zip(args, value, strict=True))
    if origin in (list, cabc.Sequence):
        return isinstance(value, origin) and not isinstance(value, str | bytes) and \
            (not args or all(accepts(args[0], v) for v in value))
    if origin is not None:
        return isinstance(value, origin)
    return isinstance(value, tp) if isinstance(tp, type) else True


def describe(tp: Any) -> str:
    """``tp`` as a reader names it: ``a Policy, str or Path``."""
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        parts = [describe(a) for a in typing.get_args(tp)]
        return ", ".join(parts[:-1]) + " or " + parts[-1]
    if tp is None or tp is type(None):
        return "None"
    if origin is cabc.Callable or tp is cabc.Callable:
        return "a function"
    if origin in (cabc.Mapping, dict):
        return "a mapping with string keys"
    if origin is tuple:
        return "a tuple of " + describe(typing.get_args(tp)[0]) if typing.get_args(tp) else "a tuple"
    name = getattr(tp, "__name__", None) or str(tp)
    return {"str": "a string", "int": "an integer", "float": "a number", "bool": "True or False",
            "bytes": "bytes"}.get(name, name)


#: per module, its ``if TYPE_CHECKING:`` imports as (names bound, compiled statement), read when the
#: module's first function is decorated: a first call then only runs the statements it needs
_IMPORTS: dict[str, list[tuple[frozenset[str], types.CodeType]]] = {}


def _imports_of(module: types.ModuleType) -> list[tuple[frozenset[str], types.CodeType]]:
    got = _IMPORTS.get(module.__name__)
    if got is None:
        got = _IMPORTS[module.__name__] = [
            (frozenset(a.asname or a.name.split(".")[0] for a in stmt.names),  # type: ignore[attr-defined]
             compile(ast.Module(body=[stmt], type_ignores=[]), module.__name__, "exec"))
            for stmt in _type_checking_imports(module)]
    return got


def _names_in(annotations: list[str]) -> frozenset[str]:
    used: set[str] = set()
    for text in annotations:
        used |= {n.id for n in ast.walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)}
    return frozenset(used)


def _needed_names(module: types.ModuleType, used: frozenset[str]) -> dict[str, Any]:
    """The names of ``used`` that ``module`` imports only under ``if TYPE_CHECKING:``, imported now — only
    those: importing the whole block would load every engine on a first call."""
    missing = used - set(vars(module))
    names: dict[str, Any] = {}
    if missing:
        for bound, code in _imports_of(module):
            if bound & missing:
                exec(code, names)  # an import statement of our own module
    names.pop("__builtins__", None)
    return names


def _type_decides(tp: Any) -> bool:
    """Whether ``accepts(tp, v)`` is a function of ``type(v)`` alone for every ``v`` that is no container:
    true unless a ``Literal`` (which reads the value) occurs in ``tp``. Strings and bytes count as no
    container: ``accepts`` tests them by type wherever it reads a container's elements."""
    if typing.get_origin(tp) is typing.Literal:
        return False
    return all(_type_decides(a) for a in typing.get_args(tp) if a is not Ellipsis)


_CONTAINERS = (cabc.Mapping, cabc.Sequence, cabc.Set, tuple, list)


class _Param:
    """One parameter's check: ``accepts`` against its annotation, with the answer kept per value type when
    the type alone decides it (``_type_decides`` and a value that is no container), so a call on the
    per-check path costs a dict look-up per argument."""

    __slots__ = ("by_type", "tp", "typed")

    def __init__(self, tp: Any) -> None:
        self.tp = tp
        self.typed = _type_decides(tp)
        self.by_type: dict[type, bool] = {}

    def __call__(self, value: object) -> bool:
        got = self.by_type.get(type(value))
        if got is not None:
            return got
        ok = accepts(self.tp, value)
        if self.typed and (type(value) in (str, bytes) or not isinstance(value, _CONTAINERS)):
            self.by_type[type(value)] = ok
        return ok


def checked(fn: F) -> F:
    """``fn`` with every argument checked against its annotation first (``InvalidInput`` naming
    ``fn: parameter``); what the checked function itself refuses keeps its own message.

    The check runs on every call of the façade, so it is kept cheap: parameters are bound by name without
    ``Signature.bind`` when the call is plain (positional and keyword arguments the function names, every
    required one given; anything else goes through ``bind``, which words the error), and the annotations
    are resolved on the first call, importing only the names they use (the ``if TYPE_CHECKING:`` block is
    read when the module is imported)."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    P = inspect.Parameter
    simple = not any(p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD) for p in params)
    positional = [p.name for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    keywords = frozenset(p.name for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY))
    required = frozenset(p.name for p in params if p.default is P.empty)
    checks: dict[str, _Param] = {}
    resolved: list[bool] = []

    raw = {n: a for n, a in fn.__annotations__.items() if n != "return"}
    used = _names_in([a for a in raw.values() if isinstance(a, str)])
    home = sys.modules.get(fn.__module__)
    if home is not None and getattr(home, "__file__", None):
        _imports_of(home)  # the source is read now, at import, not by the first call

    def resolve() -> None:
        module = sys.modules[fn.__module__]
        ns = {**vars(module), **_needed_names(module, used)}
        for name, ann in raw.items():
            checks[name] = _Param(typing.get_type_hints(_Holder(ann), ns)["x"])
        resolved.append(True)

    def arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        if simple and len(args) <= len(positional):
            given = dict(zip(positional, args, strict=False))  # fewer args than positional names
            n = len(given)
            given.update(kwargs)
            # no name given twice, every keyword one the function takes by keyword, every required one there
            if len(given) == n + len(kwargs) and keywords.issuperset(kwargs) and required.issubset(given):
                return given
        try:
            return sig.bind(*args, **kwargs).arguments
        except TypeError as exc:
            raise InvalidInput(fn.__name__, f"arguments matching {fn.__name__}{sig}", str(exc),
                               InputKind.SCHEMA) from None

    # The call shapes (number of positional arguments, keyword names in order) already bound once: a
    # call of a known shape binds each argument to its name by position without building a dict.
    shapes: set[tuple[int, tuple[str, ...]]] = set()

    def bad(name: str, check: _Param, value: object) -> InvalidInput:
        return InvalidInput(f"{fn.__name__}: {name}", describe(check.tp), found(value), InputKind.SCHEMA)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not resolved:
            resolve()
        if (len(args), tuple(kwargs)) in shapes:
            for name, value in zip(positional, args, strict=False):
                check = checks.get(name)
                if check is not None and not (check.by_type.get(type(value)) or check(value)):
                    raise bad(name, check, value)
            for name, value in kwargs.items():
                check = checks.get(name)
                if check is not None and not (check.by_type.get(type(value)) or check(value)):
                    raise bad(name, check, value)
            return fn(*args, **kwargs)
        given = arguments(args, kwargs)
        if simple and len(args) <= len(positional):
            shapes.add((len(args), tuple(kwargs)))  # bound without error: this shape is plain
        for name, value in given.items():
            check = checks.get(name)
            if check is None:
                continue
            ok = check.by_type.get(type(value))
            if ok is None:
                ok = check(value)
            if not ok:
                raise bad(name, check, value)
        return fn(*args, **kwargs)

    wrapper.__checked__ = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


class _Holder:
    """An object whose one annotation is ``ann``: ``typing.get_type_hints`` resolves one parameter's
    annotation at a time this way (the return annotation may name what only a full import would load)."""

    def __init__(self, ann: Any) -> None:
        self.__annotations__ = {"x": ann}
