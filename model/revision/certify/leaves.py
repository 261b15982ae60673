"""The realizable match vectors of one action, enumerated with few Z3 questions (the
enumeration itself is Agenra Section 7.1's, as ``simulation.vectors`` documents it).

Same depth-first search over match / fail literals as ``simulation._leaves`` (entries in the same order,
match before fail), so the leaves come out in the same order. A question goes through these steps, in
this order, and reaches Z3 only if none settles it:
- every answer is kept in the memo (``memo.py``) under the *set* of literals asked, so a question asked
  before — by the per-list simulation, the joint one, or a revision of the same base — is not asked again;
- a question some kept sample satisfies (``samples.py``: concrete points read off earlier Z3 models,
  checked with the monitor's matcher) is satisfiable, and the sample's leaf below it too;
- a question that contains every literal of an unsatisfiable question of the same context (a kept
  answer) is unsatisfiable: it is that conjunction and more;
- a question whose match literals contradict each other or the base on their face (two resource constants,
  a constant outside ``E``, one path's equalities, one-ofs and ranges with no common value), or imply
  every conjunct of an entry the question has failing (``refute.py``, each rule justified there), is
  unsatisfiable;
- ``synth.synthesize`` builds a concrete point from the question's own constants, well formed as the base
  demands; kept as a sample, it answers the question through the pool's check as any sample does (a
  failed search proves nothing; the experiment's table counts both kinds of answer);
- a question with a fail literal whose entry's match conjuncts (as Z3 terms) are all conjuncts of the
  question's match literals is unsatisfiable: the matches imply that entry's match, and ``fails`` is its
  negation (``Encoder.fails``) — the term-level form of ``refute.py``'s implied match, which now rarely
  leaves it anything;
- when Z3 answers ``sat``, its model becomes a sample and gives a whole leaf below the node, every prefix
  of it known satisfiable without a question (a model satisfying a conjunction is a proof; when the model
  holds an inexact number and is not kept, ``model.eval`` — Z3's own evaluation — reads the leaf off it;
  a literal it does not evaluate to a Boolean constant ends the walk).
So Z3 is asked about each unsatisfiable branch no rule settles once, and once per leaf no sample reached
or was made for. The questions go to one solver per base term (``Memo.solver``: the base asserted once, each
question pushed and popped), a ``SimpleSolver``: no preprocessing tactics, which cost more than these
small questions (measured on the corpus: same answers, less time). A finished enumeration is kept too,
by its context and its entries' keys in order.

The encoder is built only on the first question the steps before the term-level rule cannot answer, from
terms kept per context (``Memo.base``, ``Memo.literals``). Whether the entries can be encoded at all is
decided up front from per-entry memo keys, without building terms (``support.py``), with the message
``simulation.vectors`` gives (the base's resources first, then the entries in order), so the results are
the baseline's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import z3

from model.base.budget import Meter
from model.monitor.language.policy import Entry, Tool
from model.revision.effects import EffectSet
from model.revision.explore.memo import Memo
from model.revision.smt import refute, support
from model.revision.smt.samples import Pool
from model.revision.smt.synth import synthesize
from model.revision.smt.z3_matching import Encoder, Witness


def timeout_ms(meter: Meter | None) -> int:
    """Z3's per-query limit: 10 s, or what is left of the budget (at least 1 ms)."""
    left = None if meter is None else meter.remaining_seconds()
    return 10000 if left is None else max(1, min(10000, int(left * 1000)))


def _support(memo: Memo, action: str, e: Entry | None, effects: EffectSet, tools: Sequence[Tool]) -> str | None:
    """Why the encoding of ``e``'s literals (``None``: of the base) raises ``Unsupported``, else ``None``
    (``support.reason``: read off the entry, no term built)."""
    key = (memo.context(action, effects, tools), None if e is None else memo.match_key(e))
    if key not in memo.unsupported:
        memo.unsupported[key] = support.reason(action, e, effects.resources(action))
        memo.grow()
    return memo.unsupported[key]


def unsupported(memo: Memo, action: str, distinct: Sequence[Entry], effects: EffectSet,
                tools: Sequence[Tool]) -> str | None:
    """The message the baseline's encoding of these entries raises (base first, then entries in order)."""
    for e in (None, *distinct):
        problem = _support(memo, action, e, effects, tools)
        if problem is not None:
            return problem
    return None


def _implied_failure(conj: Sequence[frozenset[int]], bits: tuple[bool, ...]) -> bool:
    """Some fail literal is contradicted outright: every conjunct of its entry's match (``conj``, per
    entry) is a conjunct of a match literal of the question (then the matches imply it, and ``fails`` is
    its negation)."""
    held: set[int] = set()
    for c, b in zip(conj, bits, strict=False):
        if b:
            held |= c
    return any(not b and c <= held for c, b in zip(conj, bits, strict=False))


def leaves(memo: Memo, action: str, distinct: Sequence[Entry], effects: EffectSet, tools: Sequence[Tool],
           cap: int, meter: Meter | None) -> list[tuple[bool, ...]] | str:
    """Every satisfiable assignment of the entries' literals, in ``simulation._leaves`` order; a finished
    enumeration is kept by its context and entries' keys in order (another list or revision with the same
    entries of this action gets the same leaves without walking its questions again)."""
    context = memo.context(action, effects, tools)
    names = [memo.match_key(e) for e in distinct]
    done = ("leaves", context, tuple(names), cap)
    if done in memo.terms:
        kept = cast(list[tuple[bool, ...]] | str, memo.terms[done])
        return kept if isinstance(kept, str) else list(kept)
    known = memo.sat.setdefault(context, {})
    pool = memo.pools.setdefault(context, Pool())
    refuted = memo.unsat.setdefault(context, [])
    resources = effects.resources(action)  # the unsatisfiable questions of this context so far
    n = len(distinct)
    solvers: list[z3.Solver] = []
    # built on the first miss: the encoder, the base, each entry's literals and its match's conjuncts
    enc: list[tuple[Encoder, z3.BoolRef, list[tuple[z3.BoolRef, z3.BoolRef]], list[frozenset[int]]]] = []

    def encoded() -> tuple[Encoder, z3.BoolRef, list[tuple[z3.BoolRef, z3.BoolRef]], list[frozenset[int]]]:
        if not enc:
            e = Encoder(action, distinct, tools)
            lits = [memo.literals(context, e, x) for x in distinct]
            enc.append((e, memo.base(context, e, effects), lits, [memo.conjuncts(m) for m, _ in lits]))
        return enc[0]

    def mark(i: int, asked: frozenset[tuple[str, bool]], bit: Callable[[int], bool | None]) -> None:
        """``asked`` is satisfiable, and so is every prefix of the leaf below it that ``bit`` reads off
        the point that satisfied it (``None``: not read, the walk ends)."""
        known[asked] = True
        memo.grow()
        below = asked
        for j in range(i + 1, n):
            b = bit(j)
            if b is None:
                break
            below = below | {(names[j], b)}
            known[below] = True
            memo.grow()

    def sampled(i: int, bits: tuple[bool, ...], asked: frozenset[tuple[str, bool]]) -> bool:
        c = pool.witness([(names[j], distinct[j], b) for j, b in enumerate(bits)])
        if c is None:
            return False
        memo.sampled += 1
        mark(i, asked, lambda j: bool(pool.bits(names[j], distinct[j]) >> c & 1))
        return True

    def unsat(asked: frozenset[tuple[str, bool]]) -> bool:
        known[asked] = False
        refuted.append(asked)
        memo.grow()
        return False

    def ask(i: int, bits: tuple[bool, ...], asked: frozenset[tuple[str, bool]]) -> bool | str:
        if sampled(i, bits, asked):
            return True
        if any(u <= asked for u in refuted):  # it asks all an unsatisfiable question asked, and more
            memo.subsumed += 1
            return unsat(asked)
        literals = [(distinct[j], b) for j, b in enumerate(bits)]
        if refute.refuted(action, resources, literals):
            memo.ruled += 1
            return unsat(asked)
        made = synthesize(action, resources, tools, literals)  # before the encoder: most need none
        if made is not None and pool.add(made) and sampled(i, bits, asked):
            memo.synthesized += 1
            memo.sampled -= 1
            return True
        encoder, base, lits, conj = encoded()
        if _implied_failure(conj, bits):
            memo.implied += 1
            return unsat(asked)
        if not solvers:  # one solver per base (memo.py), the base asserted once, each question pushed and popped
            solvers.append(memo.solver(base))
        solver = solvers[0]
        solver.set("timeout", timeout_ms(meter))
        solver.push()
        solver.add(*[lits[j][0] if b else lits[j][1] for j, b in enumerate(bits)])
        answer = solver.check()
        if answer == z3.sat:
            model = solver.model()
        solver.pop()
        memo.queries += 1
        if meter is not None:
            meter.tick()
            meter.check_time()
        if answer == z3.unknown:
            return f"z3 answered unknown: {solver.reason_unknown()}"
        if answer == z3.unsat:
            return unsat(asked)

        def read(j: int) -> bool | None:
            m, f = (model.eval(x, model_completion=True) for x in lits[j])
            return True if z3.is_true(m) and z3.is_false(f) else False if z3.is_false(m) and z3.is_true(f) else None

        # the sample is the model: read the leaf off it, by the matcher
        if pool.add(encoder.witness(model, read_once=True)):
            c = len(pool.samples) - 1
            mark(i, asked, lambda j: bool(pool.bits(names[j], distinct[j]) >> c & 1))
        else:
            mark(i, asked, read)
        return True

    found: list[tuple[bool, ...]] = []

    def go(i: int, bits: tuple[bool, ...], chosen: frozenset[tuple[str, bool]]) -> str | None:
        if i == n:
            found.append(bits)
            return None if len(found) <= cap else f"more than {cap} signatures"
        for b in (True, False):
            asked = chosen | {(names[i], b)}
            sat = known.get(asked)
            if sat is None:
                answer = ask(i, (*bits, b), asked)
                if isinstance(answer, str):
                    return answer
                sat = answer
            if sat:
                problem = go(i + 1, (*bits, b), asked)
                if problem is not None:
                    return problem
        return None

    problem = go(0, (), frozenset())
    if problem is None or problem.startswith("more than"):  # a Z3 time-out is not kept (memo.py)
        memo.terms[done] = found if problem is None else problem
        memo.grow()
    return list(found) if problem is None else problem


def pair_witness(memo: Memo, overlap: bool, a: Entry, b: Entry, effects: EffectSet,
                 tools: Sequence[Tool]) -> Witness | None:
    """A kept sample on which ``a`` and ``b`` both match (``overlap``) or exactly one matches, at the
    first action ``find_witness`` would ask about — so Z3 would answer ``sat`` there too and the verdict
    is the one ``agreement.agree`` / ``independence.independent`` give — or ``None`` (ask them). With no
    such sample kept, one made for the question (``synth.synthesize``) is kept and tried the same way."""
    actions = effects.actions(frozenset((a.action, b.action)))
    if not actions:
        return None
    action = actions[0]
    pool = memo.pools.setdefault(memo.context(action, effects, tools), Pool())
    ka, kb = memo.match_key(a), memo.match_key(b)
    hit = _hit(pool, overlap, ka, a, kb, b)
    # none kept: a point made for the question (synth.py), kept as a sample if the pool's check agrees
    for bits in [] if hit else [(True, True)] if overlap else [(True, False), (False, True)]:
        made = synthesize(action, effects.resources(action), tools, [(a, bits[0]), (b, bits[1])])
        if made is not None and pool.add(made):
            memo.grow()  # a kept sample counts against the memo's bound (memo.py)
            hit = _hit(pool, overlap, ka, a, kb, b)
            if hit:
                memo.synthesized += 1
                break
    # the encoding's support is asked only of a hit (building the terms costs more than the bits)
    if not hit or any(_support(memo, action, e, effects, tools) is not None for e in (None, a, b)):
        return None
    return pool.witnesses[(hit & -hit).bit_length() - 1]


def _hit(pool: Pool, overlap: bool, ka: str, a: Entry, kb: str, b: Entry) -> int:
    """The samples on which ``a`` and ``b`` both match (``overlap``) or exactly one does, as a bit set."""
    if not pool.samples:
        return 0
    x, y = pool.bits(ka, a), pool.bits(kb, b)
    return x & y if overlap else x ^ y


def keep_sample(memo: Memo, w: Witness, effects: EffectSet, tools: Sequence[Tool]) -> None:
    """Keep the witness of a Z3 model (``questions.find_witness``) as a sample of its action's context."""
    memo.pools.setdefault(memo.context(w.action, effects, tools), Pool()).add(w)
