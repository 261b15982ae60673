"""Translation between the Python edit checker and the oracle's edit_check (a raw instance, then its finite form).

The oracle first checks the *raw* instance for well-formedness (lean/AgentWarrant/Spec/Edits/WellFormed.lean):
the contract term, the action map and the labels exactly as the Python checker receives them —
partial maps included — with calls, actions, labels, choice/family IDs and arm names numbered in
sorted order (``term``, ``calls``, ``labels``). An ill-formed instance is answered ``invalid`` with
its reason class. Otherwise the finite checker (lean/AgentWarrant/Spec/Edits/Check.lean) decides it on
numbers: every outcome (in the order of ``Instance.outcomes()``) carries the explicit list of its
linearizations (``model.edits.check.candidates.linearizations``); the policy is a finite
prefix-closed list of label words. Explicit outcome families (``model.edits.check.family``) need
nothing more: a call shared by several outcomes, ordered differently in each, is the same number in each list.

Which policy words are passed: every prefix of ``lab(Δ)`` and of ``lab(Δ)·lab(auth(z))`` for every
resolved linearization ``z`` of every outcome, kept when the Python automaton accepts it (the
latter only when every call has a labelled action, so that ``z`` is defined). These are all the
words the checker and the ``log-outside-policy`` condition can ask about, and the set is
prefix-closed because 𝒜 is, so the finite form decides exactly the same memberships. Entries of
the finite ``act``/``lab`` lists that the raw maps lack read as 0; the oracle reads them only after
the raw instance passed its well-formedness check.

Comparison modes (each a named check in :func:`compare_edit_check`):
- ``verdict``: the answer kind — ``accepted``, ``rejected`` or ``invalid:<reason class>`` — of the
  explicit and the symbolic engine equals Lean's; the modes below are compared only when all agree
  on a verdict that is not ``invalid``;
- ``candidates``: Lean's B̂₀ equals Python's ``enumerate_candidates`` as a set;
- ``safe-set``: Lean's B̂† equals the completions of each engine's accepted ``Can`` as a set (empty on reject);
- ``prefixes``: Lean's W† = ↓(π₂ B̂†) equals the words each engine's ``Can`` generates, as a set
  (empty on reject), and each engine's ``counts.prefixes`` equals its size;
- ``rounds``: Lean's ``|B̂₀|, |B̂₁|, …`` equals the explicit engine's rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.edits.check.answer import Accepted, Engine, Invalid, Verdict
from model.edits.check.candidates import enumerate_candidates, linearizations
from model.edits.check.checker import decide
from model.edits.check.contract import (
    Call,
    CallId,
    Choice,
    Family,
    Nil,
    Outcome,
    Par,
    Seq,
    Term,
    call_ids,
    show_outcome,
)
from model.edits.check.instance import Instance
from model.edits.check.resolve import Letter, Mode, Word, auth, resolve

WordKey = tuple[tuple[str, str, str], ...]
CandKey = tuple[str, WordKey]


@dataclass(frozen=True, slots=True)
class Names:
    """The numbering used for one instance, to read the oracle's answer back."""

    outcomes: tuple[Outcome, ...]
    calls: tuple[CallId, ...]
    actions: tuple[str, ...]


def word_key(w: Word) -> WordKey:
    return tuple((a.call, a.action, a.mode.value) for a in w)


def _lean_word(names: Names, w: Any) -> WordKey:
    return tuple((names.calls[x], names.actions[d], "new" if new else "reuse") for x, d, new in w)


def _names(t: Term, groups: set[str], arms: set[str]) -> None:
    """Collect the choice/family IDs and the arm/outcome names of ``t``."""
    if isinstance(t, Family):
        groups.add(t.group)
        arms.update(n for n, _ in t.members)
    elif isinstance(t, Choice):
        groups.add(t.group)
        for a, sub in t.arms:
            arms.add(a)
            _names(sub, groups, arms)
    elif isinstance(t, Par | Seq):
        for sub in t.parts:
            _names(sub, groups, arms)


def raw_term(t: Term, ci: dict[str, int], gi: dict[str, int], ni: dict[str, int]) -> Any:
    """The oracle's numbered spelling of a term (``Oracle/Edits.lean``'s ``termD``)."""
    if isinstance(t, Call):
        return ["call", ci[t.call]]
    if isinstance(t, Nil):
        return ["nil"]
    if isinstance(t, Family):
        return ["family", gi[t.group], [[ni[n], [ci[c] for c in sorted(p.calls)]] for n, p in t.members]]
    if isinstance(t, Choice):
        return ["choice", gi[t.group], [[ni[a], raw_term(sub, ci, gi, ni)] for a, sub in t.arms]]
    return ["par" if isinstance(t, Par) else "seq", [raw_term(sub, ci, gi, ni) for sub in t.parts]]


def edit_check_input(inst: Instance) -> tuple[dict[str, Any], Names]:
    outs = list(inst.outcomes().items())
    q_act = inst.action_map()
    lab = inst.label_map()
    calls = sorted(set(call_ids(inst.contract)) | set(q_act))
    actions = sorted(set(q_act.values()) | set(lab) | set(inst.log))
    labels = sorted(set(lab.values()))
    groups: set[str] = set()
    arm_names: set[str] = set()
    _names(inst.contract, groups, arm_names)
    ci = {c: i for i, c in enumerate(calls)}
    ai = {d: i for i, d in enumerate(actions)}
    li = {x: i for i, x in enumerate(labels)}
    gi = {g: i for i, g in enumerate(sorted(groups))}
    ni = {a: i for i, a in enumerate(sorted(arm_names))}
    # lab(Δ) and lab(auth z) exist only when the maps cover the log and every call (else the raw
    # instance is ill-formed and the oracle never reads these words)
    log_labelled = all(d in lab for d in inst.log)
    total = log_labelled and all(c in q_act and q_act[c] in lab for c in calls)
    log_labels = [lab[d] for d in inst.log] if log_labelled else []
    words: set[tuple[int, ...]] = set()
    if log_labelled:
        for n in range(len(log_labels) + 1):
            if inst.policy.accepts(log_labels[:n]):
                words.add(tuple(li[x] for x in log_labels[:n]))
    outcomes_json = []
    for k, (_, p) in enumerate(outs):
        lins = [list(lin) for lin in linearizations(p)]
        outcomes_json.append({"id": k, "lins": [[ci[c] for c in lin] for lin in lins]})
        if not total:
            continue
        for lin in lins:
            full = log_labels + [lab[d] for d in auth(resolve(lin, q_act, inst.log))]
            for n in range(len(full) + 1):
                if inst.policy.accepts(full[:n]):
                    words.add(tuple(li[x] for x in full[:n]))
    payload = {
        "term": raw_term(inst.contract, ci, gi, ni),
        "calls": [[ci[c], ai[d]] for c, d in sorted(q_act.items())],
        "labels": [[ai[d], li[x]] for d, x in sorted(lab.items())],
        "outcomes": outcomes_json,
        "act": [ai[q_act[c]] if c in q_act else 0 for c in calls],
        "lab": [li[lab[d]] if d in lab else 0 for d in actions],
        "log": [ai[d] for d in inst.log],
        "policy": [list(w) for w in sorted(words)],
    }
    return payload, Names(tuple(o for o, _ in outs), tuple(calls), tuple(actions))


@dataclass(frozen=True, slots=True)
class EditView:
    """Both sides of edit_check in one comparable shape; per-engine fields hold one entry per Python
    engine (explicit, symbolic) and one for Lean."""

    verdicts: tuple[str, ...]  # accepted | rejected | invalid:<reason>
    candidates: frozenset[CandKey]
    safe: tuple[frozenset[CandKey], ...]
    prefixes: tuple[frozenset[WordKey], ...]
    prefix_counts: tuple[int, ...]
    rounds: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"verdicts": list(self.verdicts), "candidates": sorted(map(list, self.candidates)),
                "safe": [sorted(map(list, s)) for s in self.safe],
                "prefixes": [sorted(map(list, p)) for p in self.prefixes],
                "prefix_counts": list(self.prefix_counts), "rounds": list(self.rounds)}


def _kind(v: Verdict) -> str:
    if isinstance(v, Invalid):
        return f"invalid:{v.reason.value}"
    return "accepted" if isinstance(v, Accepted) else "rejected"


def python_edit_check(inst: Instance) -> EditView:
    """The Python model's answer (both engines); for an Invalid instance only the verdicts."""
    exp = decide(inst, Engine.EXPLICIT)
    sym = decide(inst, Engine.SYMBOLIC)
    kinds = (_kind(exp), _kind(sym))
    if isinstance(exp, Invalid) or isinstance(sym, Invalid):
        return EditView(kinds, frozenset(), (), (), (), ())
    cands = enumerate_candidates(inst)
    safe: list[frozenset[CandKey]] = []
    prefixes: list[frozenset[WordKey]] = []
    for v in (exp, sym):
        if isinstance(v, Accepted):
            safe.append(frozenset((show_outcome(o), word_key(w)) for o, w in v.automaton.completions()))
            prefixes.append(frozenset(word_key(w) for w in v.automaton.generated()))
        else:
            safe.append(frozenset())
            prefixes.append(frozenset())
    rounds = exp.counts.rounds if exp.counts.rounds is not None else ()
    return EditView(kinds, frozenset((show_outcome(o), word_key(w)) for o, w in cands.b0), tuple(safe),
                    tuple(prefixes), (exp.counts.prefixes, sym.counts.prefixes), tuple(rounds))


def lean_edit_view(names: Names, out: Any) -> EditView:
    if out["verdict"] == "invalid":
        return EditView((f"invalid:{out['reason']}",), frozenset(), (), (), (), ())

    def cand(c: Any) -> CandKey:
        return show_outcome(names.outcomes[c[0]]), _lean_word(names, c[1])

    prefixes = frozenset(_lean_word(names, w) for w in out["prefixes"])
    return EditView((str(out["verdict"]),), frozenset(cand(c) for c in out["candidates"]),
                    (frozenset(cand(c) for c in out["safe"]),), (prefixes,), (len(out["prefixes"]),),
                    tuple(out["sizes"]))


def compare_edit_check(py: EditView, lean: EditView) -> list[str]:
    """The names of the comparison modes that disagree (empty: agreement)."""
    if any(k != lean.verdicts[0] for k in py.verdicts):
        return ["verdict"]
    if lean.verdicts[0].startswith("invalid:"):
        return []
    bad = []
    if py.candidates != lean.candidates:
        bad.append("candidates")
    if any(s != lean.safe[0] for s in py.safe):
        bad.append("safe-set")
    if any(p != lean.prefixes[0] for p in py.prefixes) or any(n != lean.prefix_counts[0] for n in py.prefix_counts):
        bad.append("prefixes")
    if py.rounds != lean.rounds:
        bad.append("rounds")
    return bad


def resolve_input(word: tuple[CallId, ...], q_act: dict[CallId, str],
                  authorized: tuple[str, ...]) -> tuple[dict[str, Any], Names]:
    calls = sorted(q_act)
    actions = sorted(set(q_act.values()) | set(authorized))
    ci = {c: i for i, c in enumerate(calls)}
    ai = {d: i for i, d in enumerate(actions)}
    payload = {"act": [ai[q_act[c]] for c in calls], "authorized": [ai[d] for d in authorized],
               "word": [ci[c] for c in word]}
    return payload, Names((), tuple(calls), tuple(actions))


def python_resolve(word: tuple[CallId, ...], q_act: dict[CallId, str], authorized: tuple[str, ...]) -> WordKey:
    return word_key(resolve(word, q_act, authorized))


def lean_resolve(names: Names, out: Any) -> WordKey:
    return _lean_word(names, out["word"])


def letters(key: WordKey) -> Word:
    return tuple(Letter(c, d, Mode(m)) for c, d, m in key)
