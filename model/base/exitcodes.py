"""Exit codes, one meaning each, for every ``agentwarrant`` command.

| code | meaning |
| --- | --- |
| 0 | the property holds (Allow where expected, Accepted, Certified, Exhausted, valid chain, ...) |
| 1 | it does not, and the output shows the witness (a denial, a rejection proof, a lost client, an attack trace) |
| 2 | bad input: the one-line ``error: PLACE: expected ...`` on stderr, nothing else |
| 3 | unknown: the budget ran out before an answer (``--budget``), or an engine cannot answer the question |

Every command's ``--help`` ends with ``EPILOG`` so the table is where a user looks for it.
"""

from __future__ import annotations

import enum


class Exit(enum.IntEnum):
    HOLDS = 0
    FAILS = 1
    BAD_INPUT = 2
    UNKNOWN = 3


EPILOG = ("Exit codes: 0 the property holds; 1 it does not (a witness is printed); "
          "2 bad input (one error line naming the place); 3 unknown (budget exhausted or out of the engine's reach).")
