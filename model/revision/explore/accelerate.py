"""Lost clients and newly admitted forbidden traces of any length, through the counters (Agenra Sections 1
and 7.1: a client is lost when the old policy admits a call sequence the new one refuses, whatever its
length). When the shortest lost client is as long as a quota (10^3 … 10^9 calls), no bounded search reaches
it; the symbolic relations already make certification independent of the quotas' size, and this module does
the same for refutation, over the same abstraction: a product state is the two policies' usage counters and
satisfied requirements.

Compressed sequences. A counterexample is a list of blocks ``t^k`` — template ``t`` called ``k`` times in a
row — written ``A^Q · B``. A block is charged exactly by ``run``: it asks the monitor's own decision
(``decide``) at the block's first call; if admitted, the call charges a vector ``d`` (first-fit's positions);
the largest ``j`` such that the call at counters ``u + j·d`` is still admitted with the same positions is
found by bisection, each probe one ``decide``, and the counters jump to ``u + (j+1)·d`` in one step; then the
same from there, until the block's ``k`` calls are spent or a call is refused. Why a jump is exact: first-fit
charges, per effect, the first matching ready allow with capacity, and capacity (``has_capacity``) only
shrinks as counters grow. If the first and the ``j``-th call of the run charge the same positions, every call
between does too: the positions first-fit skipped at the first call were full and stay full, the positions it
charged at the ``j``-th call had room and so had it before. Denies, matching and requirements do not read the
counters. So ``run`` is the monitor's sequence of ``k`` decisions, computed with at most a few ``decide`` per
account that fills (each bisection is logarithmic in ``k``).

When the counters are the whole story (``counter_only``): the decision of a call whose arguments are
literals reads the state's trace only through history rules and handles (origins, flow labels of parents),
its bindings only through slots bound by resolvers, and its permits only for grants that need one; with none
of these in either policy and no ``$from`` argument in the workload, a call's decision is a function of the
counters and the satisfied requirements, and the state is kept without its trace.

The search (``long_lost_client``, ``long_new_forbidden``) explores the product breadth first over blocks, each
block a template run as long as it keeps its positions in both policies (``maximal``: until an account on
either side fills), up to ``MAX_BLOCKS`` blocks (the loop is ``model/base/breadth_first.py``'s, over a
``KeyedFrontier`` of at most ``MAX_STATES`` product states; the first counterexample stops it); the last block
of a lost client is one call the old policy admits and the new one refuses. Choices where the source is
silent: runs are maximal, so the search is not complete (a client that needs a run stopped early is not found,
and the verdict then stays Unknown), and what it finds need not be the shortest; ``revise`` asks for it only
when some finite quota exceeds the bound of its bounded searches (``beyond``), the regime where they cannot
reach an account's end. Every result is verified again from scratch by ``verify_lost`` / ``verify_forbidden``
(the exact ``run`` of each block under each policy), and, when it is at most ``EXPAND_LIMIT`` calls long, also
by the Adapter replay of the expanded sequence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from model.base.breadth_first import KeyedFrontier, Stop, bfs
from model.base.canonical import JSON
from model.monitor.decide.base import Decision, decide
from model.monitor.decide.state import Call, State, initial_state, satisfy
from model.monitor.decide.verdict import Verdict
from model.monitor.language.policy import Policy
from model.revision.explore.workload import Template, Workload, with_args

MAX_BLOCKS = 6
EXPAND_LIMIT = 2000
MAX_STATES = 20000


@dataclass(frozen=True, slots=True)
class Block:
    template: int
    times: int


def show_blocks(blocks: Sequence[Block], workload: Workload) -> str:
    return " · ".join(workload.templates[b.template].name + ("" if b.times == 1 else f"^{b.times}")
                      for b in blocks)


def blocks_json(blocks: Sequence[Block], workload: Workload) -> list[JSON]:
    return [{"call": workload.templates[b.template].name, "times": b.times} for b in blocks]


def length(blocks: Sequence[Block]) -> int:
    return sum(b.times for b in blocks)


def expand(blocks: Sequence[Block]) -> tuple[int, ...]:
    return tuple(b.template for b in blocks for _ in range(b.times))


def beyond(old: Policy, new: Policy, bound: int) -> bool:
    """Some finite quota of either policy exceeds ``bound``: only then is a run longer than the bounded
    searches reach charged on one account, the case this search is for (``revise`` asks it only then)."""
    return any(e.quota is not None and e.quota > bound
               for p in (old, new) for e in (*p.user, *p.application))


def counter_only(old: Policy, new: Policy, workload: Workload) -> str | None:
    """Why a call's decision may depend on more than the counters and requirements, or ``None``."""
    for p in (old, new):
        if p.histories:
            return "a history rule reads the trace"
        if p.resolvers:
            return "a resolver binds slots from results"
        if any(e.permit for e in (*p.user, *p.application)):
            return "a grant needs an exact-call permit"
    if any(t.sources() for t in workload.templates):
        return "a template names an earlier result ($from)"
    return None


def _call(workload: Workload, t: Template) -> Call:
    assert t.tool is not None
    return Call(workload.agent, t.tool, t.literal_args())


def _norm(policy: Policy, s: State) -> State:
    """The state without its trace, and with the counters of unlimited accounts at 0 (first-fit never
    reads them: ``has_capacity`` of an unlimited account is true at any count)."""
    uu = tuple(0 if e.quota is None else u for e, u in zip(policy.user, s.used_user, strict=True))
    ua = tuple(0 if e.quota is None else u for e, u in zip(policy.application, s.used_app, strict=True))
    return State((), s.bindings, s.invalid, uu, ua, s.satisfied, s.permits)


def _shape(v: Verdict) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    if v.decision is not Decision.ALLOW or v.user is None or v.app is None:
        return None
    return v.user.positions, v.app.positions


def _jump(policy: Policy, s: State, d: tuple[tuple[int, ...], tuple[int, ...]], j: int) -> State:
    """``s`` with the counters moved by ``j`` calls charging ``d``'s positions."""
    uu, ua = list(s.used_user), list(s.used_app)
    for k in d[0]:
        uu[k] += j
    for k in d[1]:
        ua[k] += j
    return _norm(policy, replace(s, used_user=tuple(uu), used_app=tuple(ua)))


def _room(policy: Policy, s: State, d: tuple[tuple[int, ...], tuple[int, ...]]) -> int | None:
    """An upper bound on how many more calls charging ``d`` fit after the first (``None``: unbounded)."""
    best: int | None = None
    for entries, used, positions in ((policy.user, s.used_user, d[0]), (policy.application, s.used_app, d[1])):
        for k, per in Counter(positions).items():
            q = entries[k].quota
            if q is not None:
                fit = (q - used[k]) // per - 1
                best = fit if best is None else min(best, fit)
    return best


def _stretch(policy: Policy, s: State, call: Call, shape: tuple[tuple[int, ...], tuple[int, ...]], left: int) -> int:
    """The largest ``j ≤ left`` such that the call at the counters ``j`` calls on still charges ``shape``'s
    positions (the set of such ``j`` is downward closed: module docstring), by bisection over ``decide``."""
    room = _room(policy, s, shape)
    hi = left if room is None else min(left, max(room, 0))
    if hi == 0 or _shape(decide(policy, _jump(policy, s, shape, hi), call)) == shape:
        return hi
    lo, top = 0, hi - 1
    while lo < top:
        mid = (lo + top + 1) // 2
        if _shape(decide(policy, _jump(policy, s, shape, mid), call)) == shape:
            lo = mid
        else:
            top = mid - 1
    return lo


def run(policy: Policy, s: State, workload: Workload, t: Template, k: int) -> tuple[State, int, Verdict | None]:
    """``k`` calls of ``t`` from ``s``, charged exactly (module docstring): the state after the admitted ones,
    how many were admitted (the rest are not made: the first refusal ends the run), and that refusal."""
    if t.tool is None:
        assert t.satisfy is not None
        return satisfy(s, t.satisfy), k, None
    call = _call(workload, t)
    done = 0
    while done < k:
        v = decide(policy, s, call)
        shape = _shape(v)
        if shape is None:
            return s, done, v
        j = _stretch(policy, s, call, shape, k - done - 1)
        s = _jump(policy, s, shape, j + 1)
        done += j + 1
    return s, done, None


UNBOUNDED = 1 << 62  # a run no finite account stops


def _first_run(policy: Policy, s: State, workload: Workload, t: Template) -> int | None:
    """How many calls of ``t`` from ``s`` charge the positions the first one charges (``None``: refused;
    ``UNBOUNDED``: only unlimited accounts are charged)."""
    call = _call(workload, t)
    shape = _shape(decide(policy, s, call))
    if shape is None:
        return None
    room = _room(policy, s, shape)
    return UNBOUNDED if room is None else _stretch(policy, s, call, shape, room) + 1


def _effects(policy: Policy, s: State, workload: Workload, t: Template) -> Sequence[object]:
    v = decide(policy, s, _call(workload, t))
    return with_args(v.effects, t.args) if workload.tests_args() else v.effects


Key = tuple[object, ...]


def _key(a: State, b: State | None) -> Key:
    return (a.used_user, a.used_app, a.satisfied, None if b is None else (b.used_user, b.used_app, b.satisfied))


def _maximal(lead: Policy, s: State, other: Policy, o: State | None, workload: Workload, t: Template) -> int:
    """How many calls of ``t`` charge what the first charges under both policies (under the lead alone once
    the other has refused); 1 for an event, a refused call, or a run no finite account stops."""
    if t.tool is None:
        return 1
    runs = [_first_run(p, st, workload, t) for p, st in ((lead, s), (other, o)) if st is not None]
    if any(n is None for n in runs):
        return 1
    best = min(n for n in runs if n is not None)
    return 1 if best == UNBOUNDED else best


@dataclass(frozen=True, slots=True)
class Found:
    blocks: tuple[Block, ...]
    refusal: str


def _reason(v: Verdict | None) -> str:
    if v is None:
        return "refused"
    return v.decision.value + (f" ({v.reason.value})" if v.reason is not None else "")


def long_lost_client(old: Policy, new: Policy, workload: Workload) -> Found | None:
    """A compressed call sequence the old policy admits in full and the new refuses at its last call."""
    if counter_only(old, new, workload) is not None:
        return None
    start = (_norm(old, initial_state(len(old.user), len(old.application))),
             _norm(new, initial_state(len(new.user), len(new.application))))
    store: KeyedFrontier[tuple[State, State, tuple[Block, ...]]] = KeyedFrontier([(*start, ())], [_key(*start)])
    found: list[Found] = []

    def expand(_d: int, _last: bool, _n: int, item: tuple[State, State, tuple[Block, ...]], _x: None
               ) -> Iterator[int]:
        so, sn, path = item
        for i, t in enumerate(workload.templates):
            if t.tool is not None:
                call = _call(workload, t)
                vo, vn = decide(old, so, call), decide(new, sn, call)
                if vo.decision is not Decision.ALLOW:
                    continue
                if vn.decision is not Decision.ALLOW:
                    found.append(Found((*path, Block(i, 1)), _reason(vn)))
                    raise Stop
            k = _maximal(old, so, new, sn, workload, t)
            for times in sorted({1, k}):
                yield 1
                ao, no, _ = run(old, so, workload, t, times)
                an, nn, refused = run(new, sn, workload, t, times)
                if no < times:
                    continue
                if nn < times:  # the new policy refuses inside the run: the run up to there, then that call
                    found.append(Found((*path, Block(i, nn + 1)), _reason(refused)))
                    raise Stop
                if len(store) < MAX_STATES and store.add(_key(ao, an)):
                    store.push((ao, an, (*path, Block(i, times))))

    bfs(store, expand, MAX_BLOCKS)
    return found[0] if found else None


#: a node of ``long_new_forbidden``: the new policy's state, the old one's (None once it refused), the
#: effects counted per forbidden budget, the blocks so far
_Forbidden = tuple[State, State | None, tuple[tuple[tuple[str, int], ...], ...], tuple[Block, ...]]


def long_new_forbidden(old: Policy, new: Policy, workload: Workload) -> Found | None:
    """A compressed call sequence the new policy admits in full, whose effects break a forbidden budget, and
    that the old policy does not admit in full."""
    if not workload.forbidden or counter_only(old, new, workload) is not None:
        return None
    sn0 = _norm(new, initial_state(len(new.user), len(new.application)))
    so0: State | None = _norm(old, initial_state(len(old.user), len(old.application)))
    counts0: tuple[tuple[tuple[str, int], ...], ...] = tuple(() for _ in workload.forbidden)
    store: KeyedFrontier[_Forbidden] = KeyedFrontier([(sn0, so0, counts0, ())], [(_key(sn0, so0), counts0)])
    found: list[Found] = []

    def expand(_d: int, _last: bool, _n: int, item: _Forbidden, _x: None) -> Iterator[int]:
        sn, so, counts, path = item
        for i, t in enumerate(workload.templates):
            k = _maximal(new, sn, old, so, workload, t)
            for times in sorted({1, k}):
                yield 1
                an, nn, _ = run(new, sn, workload, t, times)
                if nn < times:
                    continue
                ao: State | None = None
                if so is not None:
                    after, no, _ = run(old, so, workload, t, times)
                    ao = after if no == times else None
                got = _add(workload, counts, _effects(new, sn, workload, t) if t.tool is not None else (), times)
                path2 = (*path, Block(i, times))
                if ao is None and _broken(workload, got):
                    found.append(Found(path2, "the old policy refuses it"))
                    raise Stop
                capped = tuple(tuple((r, min(n, b.max + 1)) for r, n in c)
                               for b, c in zip(workload.forbidden, got, strict=True))
                if len(store) < MAX_STATES and store.add((_key(an, ao), capped)):
                    store.push((an, ao, got, path2))

    bfs(store, expand, MAX_BLOCKS)
    return found[0] if found else None


def _add(workload: Workload, counts: tuple[tuple[tuple[str, int], ...], ...], effects: Sequence[object],
         times: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    out = []
    for b, c in zip(workload.forbidden, counts, strict=True):
        total = Counter(dict(c))
        for r, n in b.hits(effects).items():  # type: ignore[arg-type]
            total[r] += n * times
        out.append(tuple(sorted(total.items())))
    return tuple(out)


def _broken(workload: Workload, counts: tuple[tuple[tuple[str, int], ...], ...]) -> bool:
    return any(n > b.max for b, c in zip(workload.forbidden, counts, strict=True) for _, n in c)


def _runs(policy: Policy, workload: Workload, blocks: Sequence[Block]) -> Iterator[tuple[int, int, State]]:
    """Each block's admitted count and the state after it, under ``policy`` from task start; stops after the
    first block with a refusal."""
    s = _norm(policy, initial_state(len(policy.user), len(policy.application)))
    for b in blocks:
        s, n, _ = run(policy, s, workload, workload.templates[b.template], b.times)
        yield b.times, n, s
        if n < b.times:
            return


def verify_lost(old: Policy, new: Policy, workload: Workload, blocks: Sequence[Block]) -> bool:
    """From scratch: the old policy admits every call; the new one every call but the last, which it refuses."""
    if counter_only(old, new, workload) is not None or not blocks:
        return False
    total = length(blocks)
    admitted_old = sum(n for _, n, _ in _runs(old, workload, blocks))
    admitted_new = sum(n for _, n, _ in _runs(new, workload, blocks))
    return admitted_old == total and admitted_new == total - 1


def verify_forbidden(old: Policy, new: Policy, workload: Workload, blocks: Sequence[Block]) -> bool:
    """From scratch: the new policy admits every call, the old one not every call, and the effects the new
    policy admits break a budget (each block's effects counted ``times`` times: a run charges alike)."""
    if counter_only(old, new, workload) is not None or not blocks:
        return False
    total = length(blocks)
    if sum(n for _, n, _ in _runs(old, workload, blocks)) == total:
        return False
    counts: tuple[tuple[tuple[str, int], ...], ...] = tuple(() for _ in workload.forbidden)
    s = _norm(new, initial_state(len(new.user), len(new.application)))
    for b in blocks:
        t = workload.templates[b.template]
        effects = _effects(new, s, workload, t) if t.tool is not None else ()
        s2, n, _ = run(new, s, workload, t, b.times)
        if n < b.times:
            return False
        counts = _add(workload, counts, effects, b.times)
        s = s2
    return _broken(workload, counts)
