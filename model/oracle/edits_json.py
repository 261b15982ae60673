"""Translation between the Python edit checker and the oracle's finite form (edit_check, resolve).

The oracle's edit checker (lean/AgentWarrant/Spec/Edits/Check.lean) works on numbers: calls, actions and labels
are numbered in sorted order; every outcome (in the order of ``Instance.outcomes()``) carries the
explicit list of its linearizations (``model.edits.check.candidates.linearizations``); the policy is a
finite prefix-closed list of label words. Explicit outcome families (``model.edits.check.family``) need
nothing more: the finite form was always a list of outcomes with their linearizations, so a call
shared by several outcomes, ordered differently in each, is the same number in each list.

Which policy words are passed: every prefix of ``lab(Δ)·lab(auth(z))`` for every resolved
linearization ``z`` of every outcome, kept when the Python automaton accepts it. These are all the
words the checker can ask about, and the set is prefix-closed because 𝒜 is, so the finite form
decides exactly the same memberships.

Comparison modes (each a named check in :func:`compare_edit_check`):
- ``verdict``: Lean's ``accepts`` equals "Accepted" for the explicit and the symbolic engine;
- ``candidates``: Lean's B̂₀ equals Python's ``enumerate_candidates`` as a set;
- ``safe-set``: Lean's answer equals the completions of the accepted ``Can`` as a set (empty on reject);
- ``rounds``: Lean's ``|B̂₀|, |B̂₁|, …`` equals the explicit engine's rounds.
Instances the Python checker calls ``Invalid`` are skipped (reason ``invalid``): the finite form
presupposes a well-formed instance and has no well-formedness judgment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.edits.check.candidates import enumerate_candidates, linearizations
from model.edits.check.checker import decide
from model.edits.check.contract import CallId, Outcome, call_ids, show_outcome
from model.edits.check.instance import Instance
from model.edits.check.resolve import Letter, Mode, Word, auth, resolve
from model.edits.check.verdict import Accepted, Engine, Invalid

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


def edit_check_input(inst: Instance) -> tuple[dict[str, Any], Names]:
    outs = list(inst.outcomes().items())
    calls = sorted(set(call_ids(inst.contract)))
    q_act = inst.action_map()
    lab = inst.label_map()
    actions = sorted(set(q_act.values()) | set(lab) | set(inst.log))
    labels = sorted(set(lab.values()))
    ci = {c: i for i, c in enumerate(calls)}
    ai = {d: i for i, d in enumerate(actions)}
    li = {x: i for i, x in enumerate(labels)}
    log_labels = [lab[d] for d in inst.log]
    words: set[tuple[int, ...]] = set()
    outcomes_json = []
    for k, (_, p) in enumerate(outs):
        lins = [list(lin) for lin in linearizations(p)]
        outcomes_json.append({"id": k, "lins": [[ci[c] for c in lin] for lin in lins]})
        for lin in lins:
            full = log_labels + [lab[d] for d in auth(resolve(lin, q_act, inst.log))]
            for n in range(len(full) + 1):
                if inst.policy.accepts(full[:n]):
                    words.add(tuple(li[x] for x in full[:n]))
    payload = {
        "outcomes": outcomes_json,
        "act": [ai[q_act[c]] for c in calls],
        "lab": [li[lab[d]] if d in lab else 0 for d in actions],
        "log": [ai[d] for d in inst.log],
        "policy": [list(w) for w in sorted(words)],
    }
    return payload, Names(tuple(o for o, _ in outs), tuple(calls), tuple(actions))


@dataclass(frozen=True, slots=True)
class EditView:
    """Both sides of edit_check in one comparable shape."""

    accepts: tuple[bool, ...]  # Python: (explicit, symbolic); Lean: (accepts,)
    candidates: frozenset[CandKey]
    safe: frozenset[CandKey]
    rounds: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"accepts": list(self.accepts), "candidates": sorted(map(list, self.candidates)),
                "safe": sorted(map(list, self.safe)), "rounds": list(self.rounds)}


def python_edit_check(inst: Instance) -> EditView | None:
    """The Python model's answer, or ``None`` when the instance is Invalid (skipped)."""
    exp = decide(inst, Engine.EXPLICIT)
    sym = decide(inst, Engine.SYMBOLIC)
    if isinstance(exp, Invalid) or isinstance(sym, Invalid):
        return None
    cands = enumerate_candidates(inst)
    safe: frozenset[CandKey] = frozenset()
    if isinstance(exp, Accepted):
        safe = frozenset((show_outcome(o), word_key(w)) for o, w in exp.automaton.completions())
    rounds = exp.counts.rounds if exp.counts.rounds is not None else ()
    return EditView((isinstance(exp, Accepted), isinstance(sym, Accepted)),
                    frozenset((show_outcome(o), word_key(w)) for o, w in cands.b0), safe, tuple(rounds))


def lean_edit_view(names: Names, out: Any) -> EditView:
    def cand(c: Any) -> CandKey:
        return show_outcome(names.outcomes[c[0]]), _lean_word(names, c[1])

    return EditView((bool(out["accepts"]),), frozenset(cand(c) for c in out["candidates"]),
                    frozenset(cand(c) for c in out["safe"]), tuple(out["sizes"]))


def compare_edit_check(py: EditView, lean: EditView) -> list[str]:
    """The names of the comparison modes that disagree (empty: agreement)."""
    bad = []
    if any(a != lean.accepts[0] for a in py.accepts):
        bad.append("verdict")
    if py.candidates != lean.candidates:
        bad.append("candidates")
    if py.safe != lean.safe:
        bad.append("safe-set")
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
