"""The Lean oracle as a long-lived subprocess speaking JSON lines (lean/AgentWarrant/Oracle/Main.lean).

One request per line ``{"id", "judgment", "input"}``, one response per line with the same id:
``{"output": ...}`` or ``{"error": {"kind", "message"}}``. An error response, a dead process, a
response that is not JSON or carries another id are plumbing failures: they raise
:class:`OracleError` (tagged with its kind), never a verdict, so a broken harness can never be
read as agreement or disagreement.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import TracebackType
from typing import Any

from model.oracle.toolchain import oracle_path

JUDGMENTS = ("edit_check", "resolve", "ledger_allocate", "monitor_step", "monitor")


class OracleError(Exception):
    """A plumbing failure talking to the oracle (kind: parse, request, unknown_judgment, input, process)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"oracle {kind} error: {message}")
        self.kind = kind
        self.message = message


class LeanOracle:
    def __init__(self, exe: Path | None = None) -> None:
        self.exe = exe if exe is not None else oracle_path()
        if not self.exe.is_file():
            raise OracleError("process", f"no oracle executable at {self.exe} (run `make lean`)")
        self._proc = subprocess.Popen([str(self.exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1)
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

    def raw(self, line: str) -> Any:
        """Send one raw line and return the parsed response object (used to test error tagging)."""
        return json.loads(self._roundtrip(line))

    def _roundtrip(self, line: str) -> str:
        proc = self._proc
        if proc.poll() is not None or proc.stdin is None or proc.stdout is None:
            raise OracleError("process", f"the oracle exited with status {proc.returncode}")
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except BrokenPipeError as exc:
            raise OracleError("process", "the oracle closed its input") from exc
        out = proc.stdout.readline()
        if not out:
            err = proc.stderr.read() if proc.stderr is not None else ""
            raise OracleError("process", f"the oracle exited without answering: {err.strip()[:500]}")
        return out

    def _exchange(self, line: str, rid: int) -> Any:
        out = self._roundtrip(line)
        try:
            resp = json.loads(out)
        except json.JSONDecodeError as exc:
            raise OracleError("parse", f"response is not JSON: {out[:200]!r}") from exc
        if not isinstance(resp, dict) or resp.get("id") != rid:
            raise OracleError("protocol", f"response for another request: {out[:200]!r}")
        if "error" in resp:
            err = resp["error"]
            raise OracleError(str(err.get("kind")), str(err.get("message")))
        return resp["output"]

    def close(self) -> None:
        if self._proc.poll() is None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> LeanOracle:
        return self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
