"""The compiled Lean core inside the Python process: ``libagentwarrant.so`` (model/oracle/library.py
builds it from lean/native/shim.c and lean/AgentWarrant/Oracle/InProc.lean), loaded with ctypes.

:func:`load` checks the library against the SHA-256 that ``make lean`` wrote beside it before it is
opened, then initializes the Lean runtime and modules once per process. Two users:

- :class:`InProcOracle` answers the oracle's JSON-lines requests with the executable's own request
  handler (``aw_lean_handle``), with :class:`~model.oracle.lean.LeanOracle`'s interface, so the DRT
  runs every judgment in-process with the same code the subprocess oracle runs.
- :class:`Library`'s ``policy``/``state``/``decide_at``/``observe_at``/``state_json`` are the stateful
  enforcement calls model/oracle/backend.py builds on: a policy or a state is a :class:`LeanValue`
  (an opaque pointer to a Lean object, released when collected), and the current state of a session
  sits in a :class:`StateSlot`, which a decision or an outcome replaces in place; only the call goes in
  and the verdict comes out, both in InProc.lean's positional text forms. (``decide``/``observe``, the
  same on JSON texts with a new :class:`LeanValue` per state, stay for callers that keep every state.)

Faults: a failed load, a checksum mismatch, a panic inside Lean (the shim's status 2, with Lean's
panic message) and an error answer all raise :class:`LibraryError`; nothing here returns a default
that a caller could read as an answer. The library is opened with ``ctypes.PyDLL``, so the GIL is
held during every call: Lean objects are never touched by two threads at once.
"""

from __future__ import annotations

import ctypes
import json
import os
from pathlib import Path
from typing import Any

from model.base.errors import InputKind, InvalidInput
from model.oracle.lean import MAX_ANSWER, LeanOracle, OracleError
from model.oracle.library import checksum_path, library_path
from model.oracle.toolchain import expected_sha256, file_sha256

_P = ctypes.c_void_p
_S = ctypes.c_size_t
_STR = ctypes.c_char_p
_SIGNATURES: dict[str, list[Any]] = {
    "aw_init": [],
    "aw_handle": [_STR, ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_json": [_STR, ctypes.POINTER(_P), ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_handle_with": [_P, _STR, ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_policy": [_STR, ctypes.POINTER(_P), ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_state": [_STR, ctypes.POINTER(_P), ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_decide": [_P, _P, _STR, ctypes.POINTER(_P), ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_observe": [_P, _P, _S, ctypes.c_int, _STR, ctypes.POINTER(_P), ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_decide_at": [_P, ctypes.POINTER(_P), _STR, ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_observe_at": [_P, ctypes.POINTER(_P), _S, ctypes.c_int, _STR, ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_state_json": [_P, ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_trace_length": [_P, ctypes.POINTER(_S)],
    "aw_panic_probe": [_STR, ctypes.POINTER(_P), ctypes.POINTER(_S)],
    "aw_parse_agrees": [_STR, ctypes.POINTER(ctypes.c_int)],
}


class LibraryError(Exception):
    """The in-process library could not answer: missing, altered, failed to load, panicked, or refused."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"in-process Lean library {kind}: {message}")
        self.kind = kind
        self.message = message


class LeanValue:
    """A Lean object (a policy or a state) owned by Python; the reference is dropped when collected."""

    __slots__ = ("_lib", "ptr")

    def __init__(self, lib: Library, ptr: int) -> None:
        self._lib, self.ptr = lib, ptr

    def __del__(self) -> None:
        self._lib.release(self.ptr)


class StateSlot:
    """One reference to a Lean state that :meth:`Library.decide_at` and :meth:`Library.observe_at` replace
    by the next state in place (no Python object per call); released when collected."""

    __slots__ = ("_lib", "cell", "ref")

    def __init__(self, lib: Library) -> None:
        self._lib, self.cell = lib, _P()
        self.ref = ctypes.byref(self.cell)

    def set(self, value: LeanValue) -> None:
        """Hold ``value`` (a state) from now on."""
        self._lib._dll.aw_slot_set(self.ref, value.ptr)

    def __del__(self) -> None:
        self._lib._dll.aw_slot_set(self.ref, None)


class Library:
    """The loaded library (one per process and path: the Lean runtime is initialized once)."""

    def __init__(self, path: Path, digest: str) -> None:
        self.path, self.digest = path, digest
        try:
            dll = ctypes.PyDLL(str(path))
        except OSError as exc:
            raise LibraryError("load", f"{path} did not load: {exc}") from exc
        try:
            for name, args in _SIGNATURES.items():
                fn = getattr(dll, name)
                fn.argtypes, fn.restype = args, ctypes.c_int
            dll.aw_release.argtypes, dll.aw_release.restype = [_P], None
            dll.aw_slot_set.argtypes, dll.aw_slot_set.restype = [ctypes.POINTER(_P), _P], None
            dll.aw_panic_text.argtypes, dll.aw_panic_text.restype = [], ctypes.c_char_p
        except AttributeError as exc:
            raise LibraryError("load", f"{path} lacks an entry point: {exc}") from exc
        if dll.aw_init() != 0:
            raise LibraryError("load", f"{path}: the Lean modules failed to initialize")
        self._dll = dll
        self._ans, self._len, self._obj = _P(), _S(), _P()
        # (references made once: building them per call is a measurable part of a call's cost)
        self._ans_r, self._len_r = ctypes.byref(self._ans), ctypes.byref(self._len)
        self._obj_r = ctypes.byref(self._obj)

    def _text(self) -> str:
        return ctypes.string_at(self._ans.value or 0, self._len.value).decode("utf-8") if self._len.value else ""

    def _check(self, status: int, what: str) -> None:
        if status == 0:
            return
        if status == 2:
            raw = self._dll.aw_panic_text() or b""
            raise LibraryError("panic", f"Lean panicked in {what}: {raw.decode('utf-8', 'replace')}")
        if status == 1:
            raise LibraryError("input", f"{what}: {self._text()[:500]}")
        raise LibraryError("status", f"{what} returned status {status}")

    def release(self, ptr: int) -> None:
        self._dll.aw_release(ptr)

    def handle(self, line: str) -> str:
        """The oracle executable's answer to one request line."""
        self._check(self._dll.aw_handle(line.encode("utf-8"), self._ans_r, self._len_r),
                    "the request handler")
        return self._text()

    def json(self, text: str) -> LeanValue:
        """A JSON text as a Lean value (read by FastParse, as the request handler reads a request)."""
        return self._value("aw_json", text)

    def handle_with(self, policy: LeanValue, line: str) -> str:
        """:meth:`handle` on a request line whose input lacks ``policy``, with ``policy`` (:meth:`json`)
        as its input's policy: the answer the handler gives the request with that policy in its input."""
        self._check(self._dll.aw_handle_with(policy.ptr, line.encode("utf-8"), self._ans_r, self._len_r),
                    "the request handler")
        return self._text()

    def _value(self, fn: str, text: str) -> LeanValue:
        obj = self._obj
        self._check(getattr(self._dll, fn)(text.encode("utf-8"), self._obj_r, self._ans_r,
                                           self._len_r), fn)
        return LeanValue(self, obj.value or 0)

    def policy(self, text: str) -> LeanValue:
        """A policy (its JSON text, corpus/schemas/policy.schema.json) as a Lean value."""
        return self._value("aw_policy", text)

    def state(self, text: str) -> LeanValue:
        """A monitor state (model/oracle/monitor_full_json.py's form) as a Lean value."""
        return self._value("aw_state", text)

    def decide(self, policy: LeanValue, state: LeanValue, call: str) -> tuple[LeanValue, str]:
        """``D(S, c)`` and the committed state: the next state and the verdict's JSON text."""
        obj = self._obj
        self._check(self._dll.aw_decide(policy.ptr, state.ptr, call.encode("utf-8"), self._obj_r,
                                        self._ans_r, self._len_r), "decide")
        return LeanValue(self, obj.value or 0), self._text()

    def observe(self, policy: LeanValue, state: LeanValue, d: int, ok: bool, value: str) -> LeanValue:
        obj = self._obj
        self._check(self._dll.aw_observe(policy.ptr, state.ptr, d, int(ok), value.encode("utf-8"), self._obj_r,
                                         self._ans_r, self._len_r), "observe")
        return LeanValue(self, obj.value or 0)

    def decide_at(self, policy: LeanValue, slot: StateSlot, call: bytes) -> str:
        """``D(S, c)`` and the commit on the slot's state (the call in InProc.lean's positional form): the
        slot holds the next state, and the verdict's positional text is returned. On a fault the slot
        keeps its state."""
        self._check(self._dll.aw_decide_at(policy.ptr, slot.ref, call, self._ans_r, self._len_r), "decide")
        return self._text()

    def observe_at(self, policy: LeanValue, slot: StateSlot, d: int, ok: bool, value: bytes | None) -> None:
        """The outcome of admitted attempt ``d`` processed on the slot's state; ``value`` is the result's
        JSON text, ``None`` for ``null``."""
        self._check(self._dll.aw_observe_at(policy.ptr, slot.ref, d, ok, value, self._ans_r, self._len_r),
                    "observe")

    def state_json(self, state: LeanValue | StateSlot) -> str:
        ptr = state.ptr if isinstance(state, LeanValue) else state.cell.value
        self._check(self._dll.aw_state_json(ptr, self._ans_r, self._len_r), "state_json")
        return self._text()

    def trace_length(self, state: LeanValue) -> int:
        n = _S()
        self._check(self._dll.aw_trace_length(state.ptr, ctypes.byref(n)), "trace_length")
        return n.value

    def parse_agrees(self, text: str) -> str:
        """Whether the in-process parser (FastParse.lean) reads ``text`` as the oracle's (Parse.lean) does:
        ``same`` value, both ``rejected``, or ``differ``."""
        out = ctypes.c_int()
        self._check(self._dll.aw_parse_agrees(text.encode("utf-8"), ctypes.byref(out)), "parse_agrees")
        return {1: "same", 2: "rejected"}.get(out.value, "differ")

    def panic_probe(self, text: str) -> str:
        """A Lean function that panics (tests check the panic surfaces as a fault)."""
        self._check(self._dll.aw_panic_probe(text.encode("utf-8"), self._ans_r, self._len_r),
                    "panic_probe")
        return self._text()


_LOADED: dict[Path, Library] = {}


def available(path: Path | None = None) -> bool:
    """Whether a library was built (its checksum file is there); not whether it is intact. Choice: with no
    ``path`` and ``$AGENTWARRANT_ORACLE`` naming an oracle executable, the library counts as absent, so
    the automatic route takes the executable the user named rather than the checkout's library."""
    if path is None and os.environ.get("AGENTWARRANT_ORACLE"):
        return False
    lib = path if path is not None else library_path()
    return lib.is_file() and checksum_path(lib).is_file()


def load(path: Path | None = None) -> Library:
    """The library at ``path`` (default: the one ``make lean`` built), checked against its SHA-256 first.

    A library already loaded from this path is returned after the file is checked again against the
    digest it was loaded with; a file changed since then is refused (a process cannot load a second
    copy of the Lean runtime)."""
    lib = (path if path is not None else library_path()).resolve()
    checksum = checksum_path(lib)
    if not lib.is_file() or not checksum.is_file():
        raise LibraryError("missing", f"no library at {lib} with its .sha256 beside it (run `make lean`)")
    try:
        want, got = expected_sha256(checksum), file_sha256(lib)
    except Exception as exc:  # (an unreadable or malformed checksum file)
        raise LibraryError("checksum", str(exc)) from exc
    if want != got:
        raise LibraryError("checksum", f"{lib} has SHA-256 {got}, its {checksum.name} says {want}")
    loaded = _LOADED.get(lib)
    if loaded is not None:
        if loaded.digest != got:
            raise LibraryError("checksum", f"{lib} changed since this process loaded it")
        return loaded
    loaded = _LOADED[lib] = Library(lib, got)
    return loaded


class InProcOracle(LeanOracle):
    """:class:`~model.oracle.lean.LeanOracle` with each request line answered by the in-process request
    handler instead of the oracle process (the request ids, error tagging and checks are LeanOracle's)."""

    def __init__(self, path: Path | None = None) -> None:  # (no process to start: LeanOracle's is not called)
        try:
            self.lib = load(path)
        except LibraryError as exc:
            raise OracleError("process", str(exc)) from exc
        self.exe = self.lib.path
        self._next = 0
        # what LeanOracle's checks read; a call into the library runs in this thread, so no timeout applies
        self.timeout = float("inf")  # (never read: ``_roundtrip`` is this class's own)
        self.deadline = None
        self.max_answer = MAX_ANSWER
        self._stderr = bytearray()
        self._broken: str | None = None

    def _roundtrip(self, line: str) -> bytes:
        if self._broken is not None:
            raise OracleError("process", f"the library was given up earlier: {self._broken}")
        try:
            return self.lib.handle(line).encode("utf-8")
        except LibraryError as exc:
            raise OracleError("process", str(exc)) from exc

    def bind_policy(self, policy_text: str) -> Any:
        """The policy's JSON text read once into a Lean value, which :meth:`call_with_policy` passes to the
        request handler with each request (the same answers as sending the text in every request)."""
        if self._broken is not None:
            raise OracleError("process", f"the library was given up earlier: {self._broken}")
        try:
            return self.lib.json(policy_text)
        except LibraryError as exc:
            raise OracleError("input" if exc.kind == "input" else "process", str(exc)) from exc

    def call_with_policy(self, judgment: str, policy: Any, rest_text: str) -> Any:
        if self._broken is not None:
            raise OracleError("process", f"the library was given up earlier: {self._broken}")
        self._next += 1
        rid = self._next
        line = f'{{"id":{rid},"judgment":{json.dumps(judgment)},"input":{rest_text}}}'
        try:
            out = self.lib.handle_with(policy, line).encode("utf-8")
        except LibraryError as exc:
            raise OracleError("process", str(exc)) from exc
        return self._checked(out, rid)

    def _fail(self, kind: str, message: str) -> OracleError:
        self._broken = message  # (nothing to kill: the library stays loaded)
        return OracleError(kind, message)

    def close(self) -> None:
        """Nothing to stop (the library stays loaded for the process's lifetime)."""

    def __enter__(self) -> InProcOracle:
        return self


def open_oracle(route: str = "auto", timeout: float | None = None,
                deadline: float | None = None) -> LeanOracle | InProcOracle:
    """The oracle the DRT asks: in this process where the library was built, else the executable (whose
    exchanges ``timeout`` and ``deadline`` bound, as for ``LeanOracle``).

    ``route`` (or ``$AGENTWARRANT_LEAN_ROUTE`` when ``auto``): ``inproc`` or ``subprocess`` forces one (another
    value is ``InvalidInput``). A library that is there but fails its checksum or load is an error
    (``OracleError``), not a fallback."""
    where = "route"
    if route == "auto":
        route, where = os.environ.get("AGENTWARRANT_LEAN_ROUTE", "auto"), "$AGENTWARRANT_LEAN_ROUTE"
    if route not in ("auto", "inproc", "subprocess"):
        raise InvalidInput(where, "one of auto, inproc, subprocess", route, InputKind.VALUE)
    if route == "inproc" or (route == "auto" and available()):
        return InProcOracle()
    return LeanOracle(timeout=timeout, deadline=deadline)


Oracle = LeanOracle | InProcOracle
"""Either route to the oracle's judgments (the DRT takes both)."""
