"""Argument checks for the library façade: every public function refuses a wrong-typed argument with
``InvalidInput`` naming the function and the parameter, as the CLI refuses bad input, never with a raw
``TypeError``/``AttributeError`` from deep inside an engine.

No source document speaks of a Python API; the rules are ours:
- The check reads the function's own annotations, so the signature a reader sees is the rule applied
  (no second list to keep in step). Names the façade imports only for type checking (behind
  ``if TYPE_CHECKING:``, to keep ``import model`` cheap) are imported on the first checked call, by
  running that block's import statements.
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
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from model.base.errors import InputKind, InvalidInput, found

F = TypeVar("F", bound=Callable[..., Any])


def checking_names(module: types.ModuleType) -> dict[str, Any]:
    """The names ``module`` imports under ``if TYPE_CHECKING:``, imported now."""
    names: dict[str, Any] = {}
    tree = ast.parse(inspect.getsource(module))
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            block = ast.Module(body=[s for s in node.body if isinstance(s, ast.Import | ast.ImportFrom)],
                               type_ignores=[])
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


def checked(fn: F) -> F:
    """``fn`` with every argument checked against its annotation first (``InvalidInput`` naming
    ``fn: parameter``); what the checked function itself refuses keeps its own message."""
    sig = inspect.signature(fn)
    hints: dict[str, Any] = {}

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not hints:
            module = sys.modules[fn.__module__]
            hints.update(typing.get_type_hints(fn, {**vars(module), **checking_names(module)}))
            hints.pop("return", None)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as exc:
            raise InvalidInput(fn.__name__, f"arguments matching {fn.__name__}{sig}", str(exc),
                               InputKind.SCHEMA) from None
        for name, value in bound.arguments.items():
            tp = hints.get(name, Any)
            if not accepts(tp, value):
                raise InvalidInput(f"{fn.__name__}: {name}", describe(tp), found(value), InputKind.SCHEMA)
        return fn(*args, **kwargs)

    wrapper.__checked__ = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
