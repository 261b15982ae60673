"""Checker answers: Accepted | Rejected(proof) | Invalid(reason) (Sections V-C3, V-C5; Appendices A-B, A-C).

``Accepted`` carries the canonical automaton ``Can(W†, B̂†)`` (``model.edits.check.can``), the counts and
the digest of the checked instance (computed when first read, ``model.edits.check.digest``); completions
are enumerated lazily from the automaton.
``Rejected`` carries the ordered rejection proof ``C_fp = (B̂₀, E₀, …, E_k)``: every removal names
its candidate ``(o_rem, y)``, a partial execution ``z ⪯ y`` and an outcome ``o_miss ∈ Compat(z)``
that no remaining candidate completes from ``z``. ``Invalid`` says why the instance has no meaning
as a check (the paper's "Derive is undefined": the contract or the record is not well formed).

Choice where the paper is silent: the witness of each removal is canonical — the shortest such
prefix, then the least missing outcome — so that all engines return equal proofs for equal
instances. The verifier (``model.edits.check.verify``) accepts any *valid* witness, not only canonical ones.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from model.base.canonical import JSON
from model.edits.check.can import Can
from model.edits.check.contract import Outcome, show_outcome
from model.edits.check.digest import InstanceDigest
from model.edits.check.resolve import Word

Candidate = tuple[Outcome, Word]


class Engine(enum.Enum):
    DECLARATIVE = "declarative"
    EXPLICIT = "explicit"
    SYMBOLIC = "symbolic"


@dataclass(frozen=True, slots=True)
class Counts:
    """|B̂₀|, |B̂†|, |W†|, states of Can, and |B̂_i| per round (every engine reports them)."""

    candidates: int
    safe: int
    prefixes: int
    states: int
    rounds: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Removal:
    outcome: Outcome
    word: Word
    prefix: Word
    missing: Outcome


_new = object.__new__
_set_r_outcome, _set_r_word, _set_r_prefix, _set_r_missing = (getattr(Removal, f).__set__
                                                             for f in ("outcome", "word", "prefix", "missing"))


def _set4(x: object, setters: tuple[Callable[[object, object], None], ...], a: object, b: object, c: object,
          d: object) -> None:
    """Set the four slots of ``x`` through their descriptors ``setters``, in field order."""
    s_a, s_b, s_c, s_d = setters
    s_a(x, a)
    s_b(x, b)
    s_c(x, c)
    s_d(x, d)


def make_removal(outcome: Outcome, word: Word, prefix: Word, missing: Outcome) -> Removal:
    """``Removal(outcome, word, prefix, missing)`` with the slots set through their descriptors: the
    same value at about half the cost of the frozen dataclass's ``__init__`` (as ``make_letter``); a
    rejection proof makes one per candidate."""
    x = _new(Removal)
    _set_r_outcome(x, outcome)  # the four setters inline, not through ``_set4``: one per candidate
    _set_r_word(x, word)
    _set_r_prefix(x, prefix)
    _set_r_missing(x, missing)
    return x


@dataclass(frozen=True, slots=True)
class RejectionProof:
    candidates: tuple[Candidate, ...]  # B̂₀ in canonical order
    rounds: tuple[tuple[Removal, ...], ...]  # E₀ … E_k, each in canonical order

    def sizes(self) -> tuple[int, ...]:
        sizes = [len(self.candidates)]
        for e in self.rounds:
            sizes.append(sizes[-1] - len(e))
        return tuple(sizes)


_set_candidates, _set_rounds = (getattr(RejectionProof, f).__set__ for f in ("candidates", "rounds"))


def make_proof(candidates: tuple[Candidate, ...], rounds: tuple[tuple[Removal, ...], ...]) -> RejectionProof:
    """``RejectionProof(candidates, rounds)``, the same value built as ``make_removal`` builds a ``Removal``."""
    x = _new(RejectionProof)
    _set_candidates(x, candidates)
    _set_rounds(x, rounds)
    return x


class _Named:
    """``digest``: the SHA-256 of the checked instance's canonical JSON, read from ``named``."""

    __slots__ = ()
    named: InstanceDigest

    @property
    def digest(self) -> str:
        return self.named.value


@dataclass(frozen=True, slots=True)
class Accepted(_Named):
    engine: Engine
    automaton: Can
    counts: Counts
    named: InstanceDigest  # the checked instance's digest, computed when first read


@dataclass(frozen=True, slots=True)
class Rejected(_Named):
    engine: Engine
    proof: RejectionProof
    counts: Counts
    named: InstanceDigest  # the checked instance's digest, computed when first read


class InvalidReason(enum.Enum):
    """Declared in order of precedence: when several conditions hold, the answer is the first class
    (``model.edits.check.instance_wellformed``; the Lean oracle's well-formedness judgment follows the same order)."""

    DUPLICATE_CALL = "duplicate-call"
    DUPLICATE_GROUP = "duplicate-group"
    EMPTY_CHOICE = "empty-choice"
    UNMAPPED_CALL = "unmapped-call"
    UNLABELLED_ACTION = "unlabelled-action"
    LOG_REPEATS_ACTION = "log-repeats-action"
    LOG_OUTSIDE_POLICY = "log-outside-policy"
    COMPLETE_PREFIXES_ANOTHER = "complete-prefixes-another"


@dataclass(frozen=True, slots=True)
class Invalid(_Named):
    reason: InvalidReason
    detail: str
    named: InstanceDigest  # the checked instance's digest, computed when first read


Verdict = Accepted | Rejected | Invalid

# Every check ends with a ``Counts`` and an ``Accepted`` or ``Rejected``: built as ``make_removal`` does.
_set_counts = tuple(getattr(Counts, f).__set__ for f in ("candidates", "safe", "prefixes", "states", "rounds"))
_set_answer = tuple(getattr(Accepted, f).__set__ for f in ("engine", "automaton", "counts", "named"))
_set_rejected = tuple(getattr(Rejected, f).__set__ for f in ("engine", "proof", "counts", "named"))


def make_counts(candidates: int, safe: int, prefixes: int, states: int, rounds: tuple[int, ...] | None) -> Counts:
    """``Counts(…)``, the same value built as ``make_removal`` builds a ``Removal``."""
    x = _new(Counts)
    s_candidates, s_safe, s_prefixes, s_states, s_rounds = _set_counts
    s_candidates(x, candidates)
    s_safe(x, safe)
    s_prefixes(x, prefixes)
    s_states(x, states)
    s_rounds(x, rounds)
    return x


def make_accepted(engine: Engine, automaton: Can, counts: Counts, named: InstanceDigest) -> Accepted:
    """``Accepted(…)``, the same value built as ``make_removal`` builds a ``Removal``."""
    x = _new(Accepted)
    _set4(x, _set_answer, engine, automaton, counts, named)
    return x


def make_rejected(engine: Engine, proof: RejectionProof, counts: Counts, named: InstanceDigest) -> Rejected:
    """``Rejected(…)``, the same value built as ``make_removal`` builds a ``Removal``."""
    x = _new(Rejected)
    _set4(x, _set_rejected, engine, proof, counts, named)
    return x


def word_json(word: Word) -> JSON:
    return [[a.call, a.action, a.mode.value] for a in word]


def proof_json(proof: RejectionProof) -> JSON:
    return {
        "candidates": [{"outcome": show_outcome(o), "word": word_json(w)} for o, w in proof.candidates],
        "rounds": [[{"outcome": show_outcome(r.outcome), "word": word_json(r.word),
                     "prefix": word_json(r.prefix), "missing": show_outcome(r.missing)} for r in e]
                   for e in proof.rounds],
        "sizes": list(proof.sizes()),
    }


def verdict_json(v: Verdict) -> JSON:
    if isinstance(v, Invalid):
        return {"verdict": "invalid", "reason": v.reason.value, "detail": v.detail, "digest": v.digest}
    counts = {"candidates": v.counts.candidates, "safe": v.counts.safe, "prefixes": v.counts.prefixes,
              "states": v.counts.states, "rounds": list(v.counts.rounds) if v.counts.rounds is not None else None}
    if isinstance(v, Rejected):
        return {"verdict": "rejected", "engine": v.engine.value, "counts": counts, "digest": v.digest,
                "proof": proof_json(v.proof)}
    return {"verdict": "accepted", "engine": v.engine.value, "counts": counts, "digest": v.digest,
            "automaton": v.automaton.to_json()}
