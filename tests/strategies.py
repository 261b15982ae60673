"""Shared hypothesis strategies. Each system appends its own section; do not rewrite others' parts."""

from __future__ import annotations

# --- edits: small execution-edit check instances (model.edits) ------------------------------

from hypothesis import strategies as st

from model.edits.contract import Call, Choice, Nil, Par, Seq, Term
from model.edits.instance import Instance, make_instance
from model.edits.policy import from_maximal_words

EDIT_ACTIONS = ("d0", "d1", "d2", "d3")
EDIT_LABELS = ("a", "b", "c")


@st.composite
def edit_terms(draw: st.DrawFn, max_calls: int = 4) -> Term:
    """A contract term with at most ``max_calls`` distinct calls c0, c1, … and fresh choice IDs."""
    counter = {"call": 0, "group": 0}

    def build(depth: int) -> Term:
        room = max_calls - counter["call"]
        kinds = ["call", "nil"] if depth >= 3 or room <= 0 else ["call", "call", "nil", "choice", "par", "seq"]
        if room <= 0:
            kinds = ["nil"]
        kind = draw(st.sampled_from(kinds))
        if kind == "call":
            counter["call"] += 1
            return Call(f"c{counter['call'] - 1}")
        if kind == "nil":
            return Nil()
        n = draw(st.integers(2, 3 if kind == "choice" else 2))
        parts = tuple(build(depth + 1) for _ in range(n))
        if kind == "choice":
            counter["group"] += 1
            return Choice(f"g{counter['group'] - 1}", tuple((f"a{i}", t) for i, t in enumerate(parts)))
        return Par(parts) if kind == "par" else Seq(parts)

    return build(0)


@st.composite
def edit_instances(draw: st.DrawFn, max_calls: int = 4) -> Instance:
    """Small instances: calls may share actions, labels may coincide, the log may pre-authorize actions.

    The policy is the prefix closure of a few words, usually starting with ``lab(Δ)`` so that most
    instances are well formed; ill-formed ones (Invalid) are kept on purpose.
    """
    term = draw(edit_terms(max_calls))
    calls = sorted({c for c in _calls(term)})
    actions = {c: draw(st.sampled_from(EDIT_ACTIONS[:3])) for c in calls}
    labels = {d: draw(st.sampled_from(EDIT_LABELS)) for d in EDIT_ACTIONS}
    log = tuple(draw(st.lists(st.sampled_from(EDIT_ACTIONS), max_size=2, unique=True)))
    lab_log = [labels[d] for d in log]
    words = draw(st.lists(st.lists(st.sampled_from(EDIT_LABELS), max_size=4), min_size=0, max_size=4))
    prefixed = draw(st.booleans()) or draw(st.booleans())
    policy = from_maximal_words([lab_log + w for w in words] if prefixed else words)
    return make_instance(term, actions, labels, log, policy)


def _calls(t: Term) -> list[str]:
    from model.edits.contract import call_ids

    return list(call_ids(t))
