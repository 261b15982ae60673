"""Translation between the Python edit checker and the oracle's edit_check (a raw instance, then its finite form).

The oracle first checks the *raw* instance for well-formedness (lean/AgentWarrant/Spec/Edits/WellFormed.lean):
the contract term, the action map and the labels exactly as the Python checker receives them —
partial maps included — with calls, actions, labels, choice/family IDs and arm names numbered in
sorted order (``term``, ``calls``, ``labels``). An ill-formed instance is answered ``invalid`` with
its reason class. The checker's inputs are given as the paper gives them: every outcome (in the
order of ``Instance.outcomes()``) as its pomset, events and order pairs (``outcomes``), and the policy
as its automaton (``policy``: transitions ``[state, label, target]``, state 0 initial, every state
accepting — the trim form ``model.edits.check.edit_policy`` keeps). The oracle computes the finite form
itself (lean/AgentWarrant/Spec/Edits/Input.lean): each outcome's linearizations and the finite list of
policy words the check can ask about — every accepted prefix of ``lab(Δ)`` and of
``lab(Δ)·lab(auth(z))`` for every resolved linearization ``z`` — and reports both next to its answer,
so they are compared with the Python model's (:func:`python_finite_form`). Labels are numbered over
the labels of the action map and the policy's alphabet together. Explicit outcome families
(``model.edits.check.family``) need nothing more: a call shared by several outcomes is the same number
in each pomset. Entries of the finite ``act``/``lab`` lists that the raw maps lack read as 0; the
oracle reads them only after the raw instance passed its well-formedness check.

Comparison modes (each a named check in :func:`compare_edit_check`):
- ``verdict``: the answer kind — ``accepted``, ``rejected`` or ``invalid:<reason class>`` — of the
  explicit and the symbolic engine equals Lean's; the modes below are compared only when all agree
  on a verdict that is not ``invalid``;
- ``candidates``: Lean's B̂₀ equals Python's ``enumerate_candidates`` as a set;
- ``safe-set``: Lean's B̂† equals the completions of each engine's accepted ``Can`` as a set (empty on reject);
- ``prefixes``: Lean's W† = ↓(π₂ B̂†) equals the words each engine's ``Can`` generates, as a set
  (empty on reject), and each engine's ``counts.prefixes`` equals its size;
- ``rounds``: Lean's ``|B̂₀|, |B̂₁|, …`` equals the explicit engine's rounds;
- ``lins``: the linearizations Lean enumerated from each outcome's pomset equal
  ``model.edits.check.candidates.linearizations`` of that outcome, as sets;
- ``policy-words``: the finite policy Lean computed from the automaton equals the one the Python
  model computes (:func:`python_finite_form`), as sets. An answer recorded before the oracle
  reported its finite form is compared without these two modes;
- ``coverage``: the coverage witnesses Lean decided (``coverage``, lean/AgentWarrant/Spec/Edits/Cover.lean)
  equal Python's (:func:`python_coverage`), compared on every verdict, Invalid included, whenever both
  report it. An instance given with a derivation's ``Preservation`` carries its source results
  (``sources``: ``RequiredBefore`` numbered by position, whether each is satisfied or removed by an
  authorized removal, and the target outcomes covering it); without one there are none and the
  coverage holds vacuously. When it fails both sides answer the derivation's Invalid
  (``required-result-dropped``);
- ``lean-proof`` (checked by ``model.oracle.drt.run_edit_check``): on a rejection, the proof the
  oracle built from its own rounds (:func:`lean_proof`) is accepted by the Python verifier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.edits.check.answer import Accepted, Engine, Invalid, RejectionProof, Removal, Verdict
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
from model.edits.runtime.derive_failure import DeriveFailure
from model.edits.runtime.requirements import Preservation

WordKey = tuple[tuple[str, str, str], ...]
CandKey = tuple[str, WordKey]


@dataclass(frozen=True, slots=True)
class Names:
    """The numbering used for one instance, to read the oracle's answer back."""

    outcomes: tuple[Outcome, ...]
    calls: tuple[CallId, ...]
    actions: tuple[str, ...]
    labels: tuple[str, ...] = ()


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


def edit_check_input(inst: Instance, pres: Preservation | None = None) -> tuple[dict[str, Any], Names]:
    """The oracle's input: the raw instance, each outcome as its pomset and the policy automaton; with
    the derivation's ``pres``, its source results (``sources``)."""
    outs = list(inst.outcomes().items())
    q_act = inst.action_map()
    lab = inst.label_map()
    calls = sorted(set(call_ids(inst.contract)) | set(q_act))
    actions = sorted(set(q_act.values()) | set(lab) | set(inst.log))
    labels = sorted(set(lab.values()) | inst.policy.alphabet)
    groups: set[str] = set()
    arm_names: set[str] = set()
    _names(inst.contract, groups, arm_names)
    ci = {c: i for i, c in enumerate(calls)}
    ai = {d: i for i, d in enumerate(actions)}
    li = {x: i for i, x in enumerate(labels)}
    gi = {g: i for i, g in enumerate(sorted(groups))}
    ni = {a: i for i, a in enumerate(sorted(arm_names))}
    payload = {
        "term": raw_term(inst.contract, ci, gi, ni),
        "calls": [[ci[c], ai[d]] for c, d in sorted(q_act.items())],
        "labels": [[ai[d], li[x]] for d, x in sorted(lab.items())],
        "outcomes": [{"id": k, "events": [ci[c] for c in sorted(p.calls)],
                      "order": [[ci[a], ci[c]] for c, preds in p.preds for a in sorted(preds)]}
                     for k, (_, p) in enumerate(outs)],
        "act": [ai[q_act[c]] if c in q_act else 0 for c in calls],
        "lab": [li[lab[d]] if d in lab else 0 for d in actions],
        "log": [ai[d] for d in inst.log],
        "policy": {"delta": [[q, li[a], r] for (q, a), r in inst.policy.delta]},
    }
    if pres is not None:
        payload["sources"] = sources_json(pres, tuple(o for o, _ in outs))
    return payload, Names(tuple(o for o, _ in outs), tuple(calls), tuple(actions), tuple(labels))


def sources_json(pres: Preservation, outcomes: tuple[Outcome, ...]) -> list[dict[str, Any]]:
    """``RequiredBefore`` numbered by position, each with its status and the target outcomes (numbered as
    in ``outcomes``) that cover it; a covering outcome the instance lacks is left out, so it covers nothing."""
    oi = {o: k for k, o in enumerate(outcomes)}
    sat, rem = set(pres.satisfied), set(pres.removed)
    cov = dict(pres.covering)
    return [{"id": k, "satisfied": res in sat, "removed": res in rem,
             "covers": [oi[t] for t in cov.get(res, ()) if t in oi]} for k, res in enumerate(pres.required_before)]


def python_coverage(inst: Instance, pres: Preservation | None) -> bool:
    """Every still-required source result (required, neither satisfied nor removed) has a covering target
    outcome of ``inst`` with a linearization (vacuous without a derivation's ``pres``)."""
    if pres is None:
        return True
    outs = inst.outcomes()
    cov = dict(pres.covering)
    done = set(pres.satisfied) | set(pres.removed)
    return all(any(t in outs and next(iter(linearizations(outs[t])), None) is not None for t in cov.get(res, ()))
               for res in pres.required_before if res not in done)


@dataclass(frozen=True, slots=True)
class FiniteForm:
    """What the finite checker reads, computed by the Python model in the oracle's numbering: each
    outcome's linearizations and the policy words the check can ask about."""

    lins: tuple[frozenset[tuple[int, ...]], ...]
    policy: frozenset[tuple[int, ...]]


def python_finite_form(inst: Instance, names: Names) -> FiniteForm:
    """``Lin(p_o)`` by ``linearizations`` and the accepted prefixes of ``lab(Δ)`` and of
    ``lab(Δ)·lab(auth(z))`` for every resolved linearization ``z`` (the latter only when every call
    has a labelled action, so that ``z`` is defined)."""
    q_act = inst.action_map()
    lab = inst.label_map()
    ci = {c: i for i, c in enumerate(names.calls)}
    li = {x: i for i, x in enumerate(names.labels)}
    log_labelled = all(d in lab for d in inst.log)
    total = log_labelled and all(c in q_act and q_act[c] in lab for c in names.calls)
    log_labels = [lab[d] for d in inst.log] if log_labelled else []
    words: set[tuple[int, ...]] = set()
    asked = [log_labels] if log_labelled else []
    lins = []
    for o in names.outcomes:
        ls = list(linearizations(inst.outcomes()[o]))
        lins.append(frozenset(tuple(ci[c] for c in lin) for lin in ls))
        if total:
            asked += [log_labels + [lab[d] for d in auth(resolve(lin, q_act, inst.log))] for lin in ls]
    for full in asked:
        for n in range(len(full) + 1):
            if inst.policy.accepts(full[:n]):
                words.add(tuple(li[x] for x in full[:n]))
    return FiniteForm(tuple(lins), frozenset(words))


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
    # the finite form (None in an answer recorded before the oracle computed it, and for Invalid)
    finite: FiniteForm | None = None
    # the decided coverage witnesses (None in an answer recorded before the oracle reported it)
    coverage: bool | None = None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "verdicts": list(self.verdicts), "candidates": sorted(map(list, self.candidates)),
            "safe": [sorted(map(list, s)) for s in self.safe],
            "prefixes": [sorted(map(list, p)) for p in self.prefixes],
            "prefix_counts": list(self.prefix_counts), "rounds": list(self.rounds)}
        if self.finite is not None:
            doc["lins"] = [sorted(map(list, ls)) for ls in self.finite.lins]
            doc["policy"] = sorted(map(list, self.finite.policy))
        if self.coverage is not None:
            doc["coverage"] = self.coverage
        return doc


def _kind(v: Verdict) -> str:
    if isinstance(v, Invalid):
        return f"invalid:{v.reason.value}"
    return "accepted" if isinstance(v, Accepted) else "rejected"


def python_edit_check(inst: Instance, pres: Preservation | None = None) -> EditView:
    """The Python model's answer (both engines); for an Invalid instance only the verdicts. With a
    derivation's ``pres`` whose coverage fails, the answer is the derivation's ``Invalid``."""
    if not python_coverage(inst, pres):
        dropped = f"invalid:{DeriveFailure.REQUIRED_RESULT_DROPPED.value}"
        return EditView((dropped, dropped), frozenset(), (), (), (), (), coverage=False)
    exp = decide(inst, Engine.EXPLICIT)
    sym = decide(inst, Engine.SYMBOLIC)
    kinds = (_kind(exp), _kind(sym))
    if isinstance(exp, Invalid) or isinstance(sym, Invalid):
        return EditView(kinds, frozenset(), (), (), (), (), coverage=True)
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
                    tuple(prefixes), (exp.counts.prefixes, sym.counts.prefixes), tuple(rounds),
                    python_finite_form(inst, edit_check_input(inst)[1]), True)


def lean_edit_view(names: Names, out: Any) -> EditView:
    coverage = out.get("coverage")
    if out["verdict"] == "invalid":
        return EditView((f"invalid:{out['reason']}",), frozenset(), (), (), (), (), coverage=coverage)

    def cand(c: Any) -> CandKey:
        return show_outcome(names.outcomes[c[0]]), _lean_word(names, c[1])

    prefixes = frozenset(_lean_word(names, w) for w in out["prefixes"])
    finite = None
    if "lins" in out:
        finite = FiniteForm(tuple(frozenset(tuple(w) for w in ls) for ls in out["lins"]),
                            frozenset(tuple(w) for w in out["policy"]))
    return EditView((str(out["verdict"]),), frozenset(cand(c) for c in out["candidates"]),
                    (frozenset(cand(c) for c in out["safe"]),), (prefixes,), (len(out["prefixes"]),),
                    tuple(out["sizes"]), finite, coverage)


def compare_edit_check(py: EditView, lean: EditView) -> list[str]:
    """The names of the comparison modes that disagree (empty: agreement)."""
    cov = ["coverage"] if py.coverage is not None and lean.coverage is not None and py.coverage != lean.coverage else []
    if any(k != lean.verdicts[0] for k in py.verdicts):
        return ["verdict", *cov]
    if lean.verdicts[0].startswith("invalid:"):
        return cov
    bad = cov
    if py.candidates != lean.candidates:
        bad.append("candidates")
    if any(s != lean.safe[0] for s in py.safe):
        bad.append("safe-set")
    if any(p != lean.prefixes[0] for p in py.prefixes) or any(n != lean.prefix_counts[0] for n in py.prefix_counts):
        bad.append("prefixes")
    if py.rounds != lean.rounds:
        bad.append("rounds")
    if py.finite is not None and lean.finite is not None:
        if py.finite.lins != lean.finite.lins:
            bad.append("lins")
        if py.finite.policy != lean.finite.policy:
            bad.append("policy-words")
    return bad


def lean_proof(names: Names, out: Any) -> RejectionProof | None:
    """The rejection proof the oracle returned with a rejection (``proofOf``), in the model's terms."""
    doc = out.get("proof")
    if doc is None:
        return None

    def word(w: Any) -> Word:
        return letters(_lean_word(names, w))

    cands = tuple((names.outcomes[o], word(w)) for o, w in doc["family"])
    rounds = tuple(tuple(Removal(names.outcomes[r["cand"][0]], word(r["cand"][1]), word(r["pre"]),
                                 names.outcomes[r["miss"]]) for r in e) for e in doc["rounds"])
    return RejectionProof(cands, rounds)


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
