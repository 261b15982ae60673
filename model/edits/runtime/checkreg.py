"""``CheckReg(𝒲, ℛ)``: registering a typed Agent workflow against the call model (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section IV-C, Definition 6 and Appendix A-G, the registration
lemma and its reflection corollary).

``CheckReg`` accepts iff the stored map λ witnesses ``𝒲 ⊑_λ ℛ``:

1. the workflow has finitely many tool-call traces: no reachable strongly connected component that can
   still reach a result contains a tool-call transition inside it (τ-cycles are allowed and erased);
2. no reachable state is stuck: every reachable state can reach a result state;
3. λ is total on result labels (call sites are checked total when the workflow is loaded), names
   only registered workflow calls of the root contract and outcomes of it;
4. every tool request equals the one certified canonical request of the action its call refers to,
   and no two registered actions share a certified request (so a request determines its action and λ
   preserves which calls refer to the same action);
5. λ maps the τ-erased traces (result label, call sites with their requests in order) one-to-one onto
   ``BRuns(ℛ) = {(o, w) | o ∈ O_root, w ∈ Lin(p_o)}`` (runs labelled by result; the checked Use of each
   call, new or reuse, is ``Resolve`` of the run and is carried along by the action identity of 4).

The Lean check of the same relation (``lean/AgentWarrant/Spec/Edits/Register.lean``, oracle judgment
``check_reg``) is proved to accept exactly when ``𝒲 ⊑_λ ℛ`` holds, stated over paths of the LTS; the DRT
(``tests/drt/test_checkreg_lean.py``) compares its verdicts with this one.

The answer is ``RegAccepted`` with the registered runs, or ``RegRefused`` with a closed reason and
the first offending place. Choices where the paper is silent: a state that cannot reach a result
is refused (an Agent could stop there holding authorizations the workflow never completes);
enumeration stops with ``TOO_MANY_TRACES`` beyond ``limit`` traces; a source letter is a call site
with its request (a workflow names its tool-call steps; two transitions of one site are the same
letter), so λ on traces is λ on sites letter by letter.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from model.edits.check.candidates import linearizations
from model.edits.check.contract import CallId, call_ids, outcomes, show_outcome
from model.edits.runtime.registration import Registration
from model.edits.runtime.workflow import RegMap, Workflow

Run = tuple[str, tuple[CallId, ...]]  # (outcome name, raw word)
SourceTrace = tuple[str, tuple[tuple[str, str], ...]]  # (result label, (call site, request) in order)


class RegRefusal(enum.Enum):
    TOOL_CALL_CYCLE = "tool-call-cycle"
    STUCK_STATE = "stuck-state"
    MAP_NOT_TOTAL = "map-not-total"
    UNREGISTERED_CALL = "unregistered-call"
    UNREGISTERED_RESULT = "unregistered-result"
    SHARED_REQUEST = "actions-share-a-request"
    REQUEST_MISMATCH = "request-mismatch"
    MAP_NOT_INJECTIVE = "map-not-injective"
    TRACE_NOT_REGISTERED = "trace-not-registered"
    RUN_NOT_COVERED = "run-not-covered"
    TOO_MANY_TRACES = "too-many-traces"


@dataclass(frozen=True, slots=True)
class RegAccepted:
    runs: tuple[Run, ...]  # BRuns(ℛ), each the λ-image of exactly one source trace


@dataclass(frozen=True, slots=True)
class RegRefused:
    reason: RegRefusal
    detail: str


RegAnswer = RegAccepted | RegRefused


class _Refuse(Exception):
    def __init__(self, reason: RegRefusal, detail: str) -> None:
        super().__init__(detail)
        self.answer = RegRefused(reason, detail)


def _reach(start: set[str], succ: dict[str, list[str]]) -> set[str]:
    seen, todo = set(start), list(start)
    while todo:
        for b in succ.get(todo.pop(), []):
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def _sccs(nodes: list[str], succ: dict[str, list[str]]) -> dict[str, int]:
    """Tarjan's algorithm, iteratively: the component number of every node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    comp: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    counter = 0
    components = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(succ.get(root, [])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(succ.get(nxt, []))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                while True:
                    u = stack.pop()
                    on.discard(u)
                    comp[u] = components
                    if u == v:
                        break
                components += 1
    return comp


def registered_runs(reg: Registration) -> set[Run]:
    """``BRuns(ℛ)`` without the Use annotation (which ``Resolve`` determines from the actions)."""
    return {(show_outcome(o), lin) for o, p in outcomes(reg.root).items() for lin in linearizations(p)}


def source_traces(w: Workflow, limit: int) -> set[SourceTrace]:
    """The τ-erased traces: result label and the (call site, request) letters in order.

    A depth-first walk with its own stack (a workflow may be a chain of any length): a state already on
    the current τ-path adds nothing new (τ-cycles); a tool call starts a new τ-path. A state's traces are
    kept only when it heads its τ-path (its answer then depends on nothing above it)."""
    result_of = w.result_of()
    out_edges: dict[str, list[int]] = {}
    for i, t in enumerate(w.transitions):
        out_edges.setdefault(t.source, []).append(i)
    memo: dict[str, dict[SourceTrace, None]] = {}

    def frame(s: str, segment: set[str], heads: bool) -> _Frame:
        acc: dict[SourceTrace, None] = {}
        if s in result_of:
            acc[(result_of[s], ())] = None
        segment.add(s)
        return _Frame(s, segment, heads, out_edges.get(s, []), acc)

    stack = [frame(w.initial, set(), True)]
    answer: dict[SourceTrace, None] | None = None  # the traces of the frame just finished
    while True:
        f = stack[-1]
        if answer is not None:  # the answer for the edge f took last
            t = w.transitions[f.edges[f.next - 1]]
            if t.request is None:
                f.acc.update(answer)
            else:
                for r, seq in answer:
                    f.acc[(r, ((t.site or "", t.request), *seq))] = None
            answer = None
            if len(f.acc) > limit:
                raise _Refuse(RegRefusal.TOO_MANY_TRACES, f"more than {limit} traces from state {f.state}")
        if f.next < len(f.edges):
            t = w.transitions[f.edges[f.next]]
            f.next += 1
            if t.request is None and t.target in f.segment:
                continue
            if t.target in memo:
                answer = memo[t.target]
                continue
            stack.append(frame(t.target, f.segment, False) if t.request is None else frame(t.target, set(), True))
            continue
        stack.pop()
        f.segment.discard(f.state)
        if f.heads:
            memo[f.state] = f.acc
        if not stack:
            return set(f.acc)
        answer = f.acc


@dataclass(slots=True)
class _Frame:
    state: str
    segment: set[str]  # the states of the current τ-path, this one included
    heads: bool  # this state heads its τ-path
    edges: list[int]
    acc: dict[SourceTrace, None]
    next: int = 0


def _structure(w: Workflow) -> set[str]:
    """Checks 1 and 2; returns the reachable states."""
    succ: dict[str, list[str]] = {}
    pred: dict[str, list[str]] = {}
    for t in w.transitions:
        succ.setdefault(t.source, []).append(t.target)
        pred.setdefault(t.target, []).append(t.source)
    reach = _reach({w.initial}, succ)
    co = _reach({s for s, _ in w.results}, pred)
    stuck = sorted(reach - co)
    if stuck:
        raise _Refuse(RegRefusal.STUCK_STATE, f"state {stuck[0]} is reachable but cannot reach a result")
    comp = _sccs(sorted(reach), {s: [b for b in succ.get(s, []) if b in reach] for s in reach})
    for t in w.transitions:
        if t.request is not None and t.source in reach and comp[t.source] == comp[t.target]:
            raise _Refuse(RegRefusal.TOOL_CALL_CYCLE,
                          f"the tool call {t.source} -> {t.target} lies on a cycle that can still reach a result")
    return reach


def _map(w: Workflow, lam: RegMap, reg: Registration, reach: set[str]) -> tuple[dict[str, CallId], dict[str, str]]:
    """Checks 3 and 4."""
    calls, results = dict(lam.calls), dict(lam.results)
    root_calls = set(call_ids(reg.root))
    names = {show_outcome(o) for o in outcomes(reg.root)}
    templates, actions = dict(reg.templates), dict(reg.actions)
    seen: dict[str, str] = {}
    for d, spec in sorted(actions.items()):
        if spec.request in seen:
            raise _Refuse(RegRefusal.SHARED_REQUEST, f"actions {seen[spec.request]} and {d} certify the same request")
        seen[spec.request] = d
    for t in w.transitions:
        if t.site is None or t.source not in reach:
            continue
        if t.site not in calls:
            raise _Refuse(RegRefusal.MAP_NOT_TOTAL, f"λ names no workflow call for call site {t.site}")
        x = calls[t.site]
        if x not in root_calls or x not in templates:
            raise _Refuse(RegRefusal.UNREGISTERED_CALL, f"call site {t.site} maps to {x}, not a registered root call")
        certified = actions.get(templates[x])
        if certified is None or certified.request != t.request:
            raise _Refuse(RegRefusal.REQUEST_MISMATCH,
                          f"call site {t.site} ({t.source} -> {t.target}) requests {t.request}, but {x}'s action "
                          f"certifies {certified.request if certified else 'nothing'}")
    for s, r in w.results:
        if s not in reach:
            continue
        if r not in results:
            raise _Refuse(RegRefusal.MAP_NOT_TOTAL, f"λ names no outcome for result {r}")
        if results[r] not in names:
            raise _Refuse(RegRefusal.UNREGISTERED_RESULT, f"result {r} maps to {results[r]}, not a root outcome")
    return calls, results


def check_reg(w: Workflow, lam: RegMap, reg: Registration, limit: int = 10_000) -> RegAnswer:
    """``CheckReg(𝒲, ℛ)`` with λ stored in ℛ (here passed alongside)."""
    try:
        reach = _structure(w)
        calls, results = _map(w, lam, reg, reach)
        traces = source_traces(w, limit)
    except _Refuse as e:
        return e.answer
    image: dict[Run, SourceTrace] = {}
    for key in sorted(traces):
        run = (results[key[0]], tuple(calls[site] for site, _ in key[1]))
        if run in image:
            return RegRefused(RegRefusal.MAP_NOT_INJECTIVE, f"traces {image[run]} and {key} both map to {run}")
        image[run] = key
    registered = registered_runs(reg)
    extra = sorted(set(image) - registered)
    if extra:
        return RegRefused(RegRefusal.TRACE_NOT_REGISTERED, f"trace {image[extra[0]]} maps to {extra[0]}")
    missing = sorted(registered - set(image))
    if missing:
        return RegRefused(RegRefusal.RUN_NOT_COVERED, f"registered run {missing[0]} is no trace of the workflow")
    return RegAccepted(tuple(sorted(image)))


