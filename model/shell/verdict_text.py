"""One plain sentence per verdict, for people: what the CLI prints first and what notebooks show beside
a DataFrame. The technical detail — reason codes, certificates, proofs, digests — stays
in ``--json``, ``--explain`` and the result values themselves.

Choices: a sentence names the verdict in words a researcher who has read the papers follows (client,
forbidden trace, safe completion, rejection proof) and never a Python class or enum repr; reason codes
appear only in parentheses after the words, so a reader can still grep the code in the JSON output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.edits.check.answer import Accepted, Invalid, Rejected
from model.edits.check.answer import Verdict as EditVerdict
from model.monitor.decide.base import Decision, DenyReason
from model.monitor.decide.base import Verdict as MonitorVerdict

if TYPE_CHECKING:  # each CLI command imports only the engine it prints for (revision brings Z3)
    from model.base.budget import Unknown as BudgetUnknown
    from model.monitor.adapter.trace import StepReport
    from model.revision.report import Preservation, RevisionReport, SafetyDelta
    from model.search.run import SearchReport

DENY_TEXT: dict[DenyReason, str] = {
    DenyReason.UNKNOWN_TOOL: "the tool is not declared in the policy",
    DenyReason.UNDECLARED_ARGUMENT: "it passes an argument the tool does not declare",
    DenyReason.MISSING_ARGUMENT: "a required argument is missing",
    DenyReason.UNKNOWN_HANDLE: "an argument refers to a value the agent does not hold",
    DenyReason.MALFORMED_RESOURCE: "its resource argument is malformed",
    DenyReason.UNKNOWN_AGENT: "the agent is not declared in the policy",
    DenyReason.OPERATION_NOT_PERMITTED: "the agent may not perform this operation",
    DenyReason.ENDPOINT: "the tool's endpoints do not connect where the data is to where it would go",
    DenyReason.CEILING: "the data is labelled above the agent's ceiling",
    DenyReason.EXPLICIT_DENY: "an explicit deny entry matches it",
    DenyReason.NO_MATCHING_ALLOW: "no permission entry allows its effect",
    DenyReason.SLOT_UNBOUND: "the only permission that could allow it names a resource slot no earlier call has bound",
    DenyReason.SLOT_INVALID: "the slot it targets is bound to a value that is not valid here",
    DenyReason.ORIGIN: "an argument was not produced the way an origin rule requires",
    DenyReason.FLOW: "a flow rule forbids data with this label reaching the sink",
    DenyReason.HISTORY: "a history rule forbids it after what already ran",
    DenyReason.QUOTA: "every grant that matches it has used its quota",
    DenyReason.PERMIT_MISSING: "it needs an exact-call permit and has none",
    DenyReason.PERMIT_MISMATCH: "the permit it carries was issued for a different call",
    DenyReason.PERMIT_CONSUMED: "its permit was already used",
}


def step_sentence(step: StepReport, checks: tuple[MonitorVerdict, ...] = ()) -> str:
    """The decision of a trace step, with the other failing checks when they are known."""
    if step.decision is None:
        return f"{step.kind} {step.tool}: {step.result}"
    reason = None if step.reason is None else DenyReason(step.reason)
    if step.decision is Decision.DENY and reason is not None:
        text = f"{step.tool} is denied: {DENY_TEXT[reason]} ({step.reason})"
    elif step.decision is Decision.PAUSE:
        text = f"{step.tool} is paused" + (f" ({step.detail})" if step.detail else "")
    else:
        text = f"{step.tool} is allowed"
    others = [c.reason.value for c in checks if c.reason is not None and c.reason is not reason]
    if others:
        text += "; it would also fail " + ", ".join(others)
    return text + "."


def edit_sentence(v: EditVerdict) -> str:
    if isinstance(v, Accepted):
        n = v.counts.safe
        return (f"Accepted: the edit is safe — whatever outcome occurs, the workflow can still complete within "
                f"the policy ({n} safe completion{'s' if n != 1 else ''}).")
    if isinstance(v, Rejected):
        k = len(v.proof.rounds)
        return (f"Rejected: no safe execution set exists — the rejection proof removes all {len(v.proof.candidates)} "
                f"candidate completions in {k} round{'s' if k != 1 else ''}, each because some outcome would be left "
                f"with no completion the policy allows.")
    assert isinstance(v, Invalid)
    return f"Invalid: the instance is not well formed ({v.reason.value}): {v.detail}."


def _ran_out(u: BudgetUnknown) -> str:
    spent = f"after {u.spent.seconds:.1f} s and {u.spent.states} states"
    return f"the budget ran out ({u.limit}, {spent})" + (f" during {u.reason}" if u.reason else "")


def preservation_sentence(p: Preservation, effects: str = "every effect") -> str:
    from model.revision.certify.certificate import Certificate
    from model.revision.certify.joint_certificate import JointSimulation
    from model.revision.certify.linear_certificate import LinearSimulation
    from model.revision.report import Certified, NotPreserved, OutOfBudget

    if isinstance(p, Certified):
        if isinstance(p.evidence, Certificate):
            how = f"a structural certificate, checked by the {p.checkers()}"
        elif isinstance(p.evidence, LinearSimulation):
            shape = "over both permission lists" if p.evidence.mode == "joint" else "per permission list"
            how = (f"a symbolic simulation {shape} (linear constraints over the usage counters), checked closed "
                   f"and covering by the {p.checkers()}")
        elif isinstance(p.evidence, JointSimulation):
            how = f"a joint simulation over both permission lists, checked closed and covering by the {p.checkers()}"
        else:
            how = f"a simulation relation per permission list, checked closed and covering by the {p.checkers()}"
        return (f"Every client is kept: each call sequence on {effects} that the old policy admits, the new one "
                f"admits too (proved by {how}).")
    if isinstance(p, NotPreserved):
        confirmed = "the monitor confirms both on replay" if p.lost.confirmed else \
            "but the monitor's replay does NOT confirm it"
        return (f"A client is lost: the old policy admits [{p.lost.show()}] and the new one refuses it "
                f"— {p.lost.refusal}; {confirmed}.")
    if isinstance(p, OutOfBudget):
        return f"Unknown: {_ran_out(p.unknown)}."
    return (f"Unknown: no certificate, and no lost client among {p.visited} call sequences of at most "
            f"{p.bound} calls.")


def start_sentence(report: RevisionReport) -> str:
    """Where the judgment starts: task start, or after a prefix with the usage counters carried."""
    st = report.start
    if st is None:
        return "at task start (every usage counter zero)"
    n = st.prefix.calls()
    before, after = st.run.state, st.new_state
    return (f"after {n} call{'s' if n != 1 else ''} of {st.prefix.source} [{st.prefix.show()}] under the old policy; "
            f"usage counters carried to the new one: user list {list(before.used_user)} → {list(after.used_user)}, "
            f"application list {list(before.used_app)} → {list(after.used_app)}")


def safety_sentence(s: SafetyDelta) -> str:
    from model.revision.report import NewlyForbidden, NoForbiddenDeclared, NoNewForbidden, OutOfBudget

    if isinstance(s, NewlyForbidden):
        confirmed = "confirmed on replay" if s.trace.confirmed else "NOT confirmed on replay"
        return (f"Safety changes: the new policy admits the forbidden sequence [{s.trace.show()}], which the old "
                f"one refused ({confirmed}).")
    if isinstance(s, NoNewForbidden):
        return (f"No new forbidden sequence of at most {s.bound} calls: the new policy admits nothing forbidden "
                f"that the old one refused ({s.visited} sequences admitted after).")
    if isinstance(s, OutOfBudget):
        return f"Safety is unknown: {_ran_out(s.unknown)}."
    assert isinstance(s, NoForbiddenDeclared)
    return "Safety was not checked: the workload declares no forbidden effects."


def search_sentence(rep: SearchReport) -> str:
    """What a bounded search found, in one sentence (the per-query table stays the detail)."""
    from model.search.model import QueryKind
    from model.search.search_verdict import Found

    forbidden = [f.split()[2] for f in rep.findings() if f.startswith("forbidden execution")]
    missed = [f.split()[1] for f in rep.findings() if f.startswith("goal")]
    goals = [q.name for q in rep.model.queries
             if q.kind is QueryKind.GOAL and any(isinstance(a, Found) for a in rep.answers(q.name))]
    undecided = list(rep.unknown)
    unanswered = [q for q, _ in rep.unanswered]
    if forbidden:
        parts = [f"{len(forbidden)} forbidden execution{'s' if len(forbidden) != 1 else ''} found within "
                 f"{rep.bound} steps ({', '.join(forbidden)})"]
    elif undecided:  # the budget ran out: absence of a finding is not a verdict
        parts = [f"no forbidden execution found before the budget ran out (bound {rep.bound})"]
    elif unanswered:  # an engine outside its fragment looked at nothing
        parts = [f"no forbidden execution found, but not every query was decided (bound {rep.bound})"]
    else:
        parts = [f"no forbidden execution within {rep.bound} steps"]
    if undecided:
        parts.append(f"undecided, budget exhausted: {', '.join(undecided)}")
    if unanswered:
        parts.append(f"undecided, outside the engine's fragment: {', '.join(unanswered)}")
    if goals:
        parts.append(f"reached {', '.join(goals)}")
    if missed:
        parts.append(f"did not reach {', '.join(missed)}")
    checks = []
    if rep.explicit is not None and rep.smt is not None:
        from model.search.compare import Agreement

        agreed = sum(isinstance(c, Agreement) for c in rep.comparison)
        checks.append("the engines disagree on " + ", ".join(d.query for d in rep.disagreements)
                      if rep.disagreements else "both engines agree" if agreed == len(rep.comparison)
                      else f"both engines agree where both answered ({agreed} of {len(rep.comparison)} queries)")
    if rep.replays:
        checks.append(f"{len(rep.spurious)} found trace(s) did NOT replay" if rep.spurious
                      else "every found trace replays on the reference tools")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + (f" ({'; '.join(checks)})." if checks else ".")
