"""Fake Lean oracles, one per way the process behind the oracle boundary can fail.

Each is a small Python script speaking (or failing to speak) the oracle's JSON-lines protocol
(model/oracle/lean.py); the fault table (experiments/lean_faults.py) and the tests point every entry
point that asks the oracle at each one and check that the answer is "unknown" (exit 3, or
``LeanBackendError``/``OracleError`` in the library), never a decision and never a hang.

Choices: a fake that has done its damage sleeps rather than exits where exiting would hide the fault
behind another one (garbage followed by silence tests the parse error, not the exit); the stderr
flood writes 1 MiB, sixteen times a Linux pipe's buffer, then exits without answering, so only a
client that drains stderr while it waits sees the exit (one that does not waits for ever or for its
timeout); the stdout flood writes a line that never ends; the wrong shape answers every request
with its own id and an output no judgment has (``[42]``), which only the reader of that judgment's
output can refuse.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: fault -> the script's body after ``import sys, time`` (``None``: no file at all)
FAKES: dict[str, str | None] = {
    "hang": "time.sleep(3600)\n",
    "exit": "sys.stdin.readline()\nsys.stderr.write('fake oracle: giving up\\n')\nsys.exit(1)\n",
    "garbage": "sys.stdin.readline()\nsys.stdout.write('\\x00 not JSON at all\\n')\nsys.stdout.flush()\n"
               "time.sleep(3600)\n",
    "echo": "for line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n",
    "wrong shape": "import json\nfor line in sys.stdin:\n    rid = json.loads(line)['id']\n"
                   "    sys.stdout.write(json.dumps({'id': rid, 'output': [42]}) + '\\n')\n    sys.stdout.flush()\n",
    "stderr flood": "sys.stderr.write(('x' * 1023 + '\\n') * 1024)\nsys.stderr.flush()\nsys.stdin.readline()\n",
    "stdout flood": "sys.stdin.readline()\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
    "not executable": "time.sleep(3600)\n",
    "missing": None,
}


def write_fake(fault: str, folder: Path) -> Path:
    """The fake oracle for ``fault`` under ``folder`` (for ``missing``, a path where nothing is)."""
    body = FAKES[fault]
    path = folder / f"oracle-{fault.replace(' ', '-')}"
    if body is None:
        return path
    path.write_text(f"#!{sys.executable}\nimport sys, time\n{body}", encoding="utf-8")
    path.chmod(0o644 if fault == "not executable" else 0o755)
    return path
