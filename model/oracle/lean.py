"""The Lean oracle as a long-lived subprocess speaking JSON lines (lean/AgentWarrant/Oracle/Main.lean).

One request per line ``{"id", "judgment", "input"}``, one response per line with the same id:
``{"output": ...}`` or ``{"error": {"kind", "message"}}``. An error response, a dead process, a
response that is not JSON, carries another id or no output are plumbing failures: they raise
:class:`OracleError` (tagged with its kind), never a verdict, so a broken harness can never be
read as agreement or disagreement.

The process is outside the model's control, so every exchange is bounded:
- time: each exchange (writing the request, reading the answer) waits at most ``timeout`` seconds
  (``READ_TIMEOUT`` unless given) and never past ``deadline`` (a ``time.monotonic()`` instant, the
  command's budget); past either the process is killed and ``OracleError`` of kind ``timeout`` or
  ``budget`` is raised. Choice: 300 s per exchange. A Lean-backend call takes about 12 ms
  (paper_figures/tables/lean_backend_overhead.md), but a DRT case on an explicit outcome family can
  take seconds, and on two cores under a load average of 15 one such answer took more than 30 s (the
  first default), which then failed every later case of the session: the bound is there to end a
  hang, not to judge speed, and a command that must answer sooner sets ``--oracle-timeout`` or
  ``--budget``.
- size: an answer line longer than ``max_answer`` bytes (``MAX_ANSWER``, 16 MiB, unless given: the
  answers recorded in corpus/vectors/ are under a kilobyte; a Lean-backend state grows with its
  trace) is a fault (kind ``output``); of stderr only the last ``STDERR_TAIL`` bytes are kept
  (quoted, on one line, in the error of a dead process). stderr is drained during every exchange,
  so an oracle that floods it never blocks on a full pipe while the client waits for its answer.
- start: a missing file, one that is not executable or not a program is a fault of kind ``process``,
  as is any ``OSError`` talking to the process.
The process runs in its own session; ``close`` (and every fault) kills its whole process group, so no
child of a broken oracle outlives the client. POSIX only (``poll`` on pipes).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from model.oracle.toolchain import oracle_path

JUDGMENTS = ("edit_check", "resolve", "ledger_allocate", "monitor_step", "monitor", "tree_contract")
# judgments the campaign runs only when named (``--judgment``): a case is a whole runtime session
# (an SQLite store per case), far costlier than a case of the default judgments
SESSION_JUDGMENTS = ("edit_runtime", "edit_ideal")
READ_TIMEOUT = 300.0
MAX_ANSWER = 16 * 2**20
STDERR_TAIL = 4096
_CHUNK = 65536
T = TypeVar("T")


class OracleError(Exception):
    """A plumbing failure talking to the oracle (kind: parse, protocol, request, unknown_judgment, input,
    process, timeout, budget, output, shape)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"oracle {kind} error: {message}")
        self.kind = kind
        self.message = message


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line of at most ``limit`` characters (oracle output quoted in an error)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def shaped(judgment: str, raw: Any, view: Callable[[Any], T], keys: tuple[str, ...] = ()) -> T:
    """``view(raw)``: an output read into the form its comparison takes. An output the view cannot read, or
    whose view lacks one of ``keys``, is an ``OracleError`` of kind ``shape`` (the oracle answered something
    other than an answer), never a crash of the harness nor a mismatch."""
    try:
        out = view(raw)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise OracleError("shape", f"{judgment}: an output of another shape ({type(exc).__name__}): "
                                   f"{one_line(repr(raw), 200)}") from exc
    missing = [k for k in keys if not isinstance(out, Mapping) or k not in out]
    if missing:
        raise OracleError("shape", f"{judgment}: an output without {', '.join(missing)}: {one_line(repr(raw), 200)}")
    return out


class LeanOracle:
    def __init__(self, exe: Path | None = None, timeout: float | None = None,
                 deadline: float | None = None, max_answer: int = MAX_ANSWER) -> None:
        self.exe = exe if exe is not None else oracle_path()
        self.max_answer = max_answer
        self.timeout = READ_TIMEOUT if timeout is None else timeout
        self.deadline = deadline
        self._pending = bytearray()  # bytes read past the last answer's newline
        self._stderr = bytearray()
        self._broken: str | None = None  # why the process was given up, once it was
        if not self.exe.is_file():
            raise OracleError("process", f"no oracle executable at {self.exe} (run `make lean`)")
        try:
            self._proc = subprocess.Popen([str(self.exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:  # not executable, not a program, vanished since the check
            raise OracleError("process", f"cannot start the oracle {self.exe}: {exc.strerror or exc}") from exc
        assert self._proc.stdin is not None and self._proc.stdout is not None and self._proc.stderr is not None
        self._in, self._out = self._proc.stdin.fileno(), self._proc.stdout.fileno()
        self._err = self._proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._next = 0

    def call(self, judgment: str, payload: Any) -> Any:
        """The oracle's output for one judgment; raises OracleError on any plumbing failure."""
        self._next += 1
        rid = self._next
        line = json.dumps({"id": rid, "judgment": judgment, "input": payload}, separators=(",", ":"))
        return self._exchange(line, rid)

    def call_text(self, judgment: str, payload_text: str) -> Any:
        """``call`` with the input already encoded as JSON text (the caller chose its encoding)."""
        self._next += 1
        rid = self._next
        line = f'{{"id":{rid},"judgment":{json.dumps(judgment)},"input":{payload_text}}}'
        return self._exchange(line, rid)

    def bind_policy(self, policy_text: str) -> Any:
        """The policy (its JSON text) that several :meth:`call_with_policy` requests share; here the text
        itself (the in-process route reads it once into a Lean value)."""
        return policy_text

    def call_with_policy(self, judgment: str, policy: Any, rest_text: str) -> Any:
        """``call_text`` with the input ``rest_text`` (a JSON object's text, without ``policy``) and the
        :meth:`bind_policy` value as its ``policy`` member, first: the request is the text
        ``{"policy":<policy>,<rest_text's members>}``."""
        return self.call_text(judgment, '{"policy":' + policy + ("," + rest_text[1:] if rest_text != "{}" else "}"))

    def raw(self, line: str) -> Any:
        """Send one raw line and return the parsed response object (used to test error tagging)."""
        return self._parse(self._roundtrip(line))

    def stderr_tail(self) -> str:
        """The last ``STDERR_TAIL`` bytes the oracle wrote to stderr, on one line."""
        return one_line(self._stderr.decode("utf-8", "replace"))

    def _fail(self, kind: str, message: str) -> OracleError:
        """Give the process up (killed: its state is unknown) and the error to raise."""
        self._kill()
        self._collect_stderr()
        err = self.stderr_tail()
        self._broken = f"{message}" + (f"; its stderr ends: {err}" if err else "")
        return OracleError(kind, self._broken)

    def _kill(self) -> None:
        # the whole group, even when the oracle itself has exited: a child it left may hold its pipes
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except OSError:  # (no such group any more)
            pass
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()

    def _drain_stderr(self) -> bool:
        """Keep the tail of what stderr holds now; False once it is closed."""
        try:
            chunk = os.read(self._err, _CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        self._stderr += chunk
        del self._stderr[:-STDERR_TAIL]
        return True

    def _roundtrip(self, line: str) -> bytes:
        if self._broken is not None:
            raise OracleError("process", f"the oracle was given up earlier: {self._broken}")
        if self._proc.poll() is not None:
            raise self._fail("process", f"the oracle exited with status {self._proc.returncode}")
        start = time.monotonic()
        limit, kind = start + self.timeout, "timeout"
        if self.deadline is not None and self.deadline < limit:
            limit, kind = self.deadline, "budget"
        request = memoryview((line + "\n").encode("utf-8"))
        sent = 0
        err_open = True
        scanned = 0  # (bytes of _pending known to hold no newline: each byte is searched once)
        while True:
            nl = self._pending.find(b"\n", scanned)
            if nl >= 0:
                out = bytes(self._pending[:nl + 1])
                del self._pending[:nl + 1]
                return out
            scanned = len(self._pending)
            if len(self._pending) > self.max_answer:
                raise self._fail("output", f"an answer longer than {self.max_answer} bytes")
            left = limit - time.monotonic()
            if left <= 0:
                what = (f"no answer within {self.timeout:g} s" if kind == "timeout"
                        else f"the command's budget ran out (this answer awaited {time.monotonic() - start:.1f} s)")
                raise self._fail(kind, what)
            # poll, not select: a descriptor past FD_SETSIZE (a process with many files open) is fine
            poller = select.poll()
            poller.register(self._out, select.POLLIN)
            if err_open:
                poller.register(self._err, select.POLLIN)
            if sent < len(request):
                poller.register(self._in, select.POLLOUT)
            try:
                ready = {fd for fd, _ in poller.poll(max(1, int(min(left, 1.0) * 1000)))}
            except OSError as exc:
                raise self._fail("process", f"cannot wait for the oracle: {exc}") from exc
            if self._err in ready:
                err_open = self._drain_stderr()
            if self._in in ready:
                try:
                    sent += os.write(self._in, request[sent:sent + _CHUNK])
                except BlockingIOError:
                    pass
                except OSError as exc:  # BrokenPipeError: it closed its input (or exited)
                    raise self._fail("process", f"the oracle closed its input ({exc.strerror or exc})") from exc
            if self._out in ready:
                try:
                    chunk = os.read(self._out, _CHUNK)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    raise self._fail("process", f"cannot read the oracle's answer: {exc}") from exc
                if not chunk:
                    self._settle()
                    code = self._proc.returncode
                    status = f"exited with status {code}" if code is not None else "closed its output"
                    raise self._fail("process", f"the oracle {status} without answering")
                self._pending += chunk

    def _settle(self) -> None:
        """After EOF on stdout: give the process a moment to exit (for its status)."""
        try:
            self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass

    def _collect_stderr(self) -> None:
        """What stderr holds already (never waiting: a child of the oracle may keep it open)."""
        poller = select.poll()
        poller.register(self._err, select.POLLIN)
        for _ in range(64):
            try:
                ready = poller.poll(0)
            except OSError:
                return
            if not ready or not self._drain_stderr():
                return

    @staticmethod
    def _parse(out: bytes) -> Any:
        try:
            return json.loads(out.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise OracleError("parse", f"response is not JSON: {one_line(repr(out[:200]))}") from exc

    def _exchange(self, line: str, rid: int) -> Any:
        return self._checked(self._roundtrip(line), rid)

    def _checked(self, out: bytes, rid: int) -> Any:
        """The output of answer line ``out`` to request ``rid``, after every check of the protocol."""
        try:
            resp = self._parse(out)
        except OracleError as exc:
            raise self._fail(exc.kind, exc.message) from exc
        if not isinstance(resp, dict) or resp.get("id") != rid:
            raise self._fail("protocol", f"response for another request: {one_line(repr(out[:200]))}")
        if "error" in resp:
            err = resp["error"]
            if not isinstance(err, dict):
                raise self._fail("protocol", f"an error that is not an object: {one_line(repr(out[:200]))}")
            raise OracleError(str(err.get("kind")), one_line(str(err.get("message")), 2000))
        if "output" not in resp:
            raise self._fail("protocol", f"a response with no output: {one_line(repr(out[:200]))}")
        return resp["output"]

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.close()  # (the request stream's end: a well-behaved oracle exits)
            except OSError:
                pass
            try:
                self._proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        self._kill()
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def __enter__(self) -> LeanOracle:
        return self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
