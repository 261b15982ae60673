"""The Lean core as the explicit search's successor function (``agentwarrant search --backend lean``):
``Context.semantics`` of model/search/held.py, read by model/search/expand.py in place of the Python
monitor's ``decide`` and ``commit``/``observe``.

Each answer is computed from the state given: the state is installed in the core (model/oracle/backend.py,
in-process where ``make lean`` built the library; the same ``State`` object installed twice is sent
once), the call decided, and for a step committed and its outcome processed. A step on a state where
the core refuses the call it admitted there is a fault (``LeanBackendError``), not a transition.
"""

from __future__ import annotations

from model.monitor.decide.base import Decision
from model.monitor.decide.commit import Outcome
from model.monitor.decide.state import Call, State
from model.monitor.decide.verdict import Verdict
from model.monitor.language.policy import Policy
from model.oracle.backend import LeanBackendError, open_core


class LeanSemantics:
    """The Lean core as a search's successor function (``Context.semantics``, model/search/expand.py):
    ``D(S, c)`` and the state after an admitted call and its outcome, each from the state given."""

    def __init__(self, policy: Policy, route: str = "auto") -> None:
        self.core = open_core(policy, route)

    def decide(self, state: State, call: Call) -> Verdict:
        self.core.load(state)
        return self.core.decide_call(call)[0]

    def step(self, state: State, call: Call, outcome: Outcome) -> State:
        """The commit of an admitted ``call`` and its ``outcome`` processed."""
        self.core.load(state)
        verdict, d = self.core.decide_call(call)
        if verdict.decision is not Decision.ALLOW:
            raise LeanBackendError(f"the Lean core refused {call.tool} on the state it admitted it on")
        self.core.record_outcome(d, outcome)
        return self.core.snapshot()

    def close(self) -> None:
        self.core.close()
