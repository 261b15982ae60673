"""``support.reason`` says what ``symbolic.Encoder`` raises, without building terms: on
generated ``pay`` grants, hand-made ones with compound constants and untranslatable globs, and effect sets
naming compound resources, the message equals the encoder's ``Unsupported`` (or both say nothing)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.base.canonical import JSON
from model.monitor.language.policy import ConstPat, Entry, EntryKind, EqPred, GlobPat, OneOfPred, RangePred, SlotPat
from model.oracle.generators import REVISION_TOOL, revision_grants
from model.revision.smt.support import reason
from model.revision.smt.z3_matching import Encoder, Unsupported

TOOLS = (REVISION_TOOL,)
ODD: tuple[JSON, ...] = ([1], {"a": 1}, "x", 3, None)


@st.composite
def odd_grants(draw: st.DrawFn) -> Entry:
    pattern = draw(st.sampled_from((ConstPat([1]), ConstPat(None), ConstPat("A"), GlobPat("[a-]"), GlobPat("[\\a]"),
                                    GlobPat("a*"), SlotPat("s"))))
    where = tuple(draw(st.lists(st.sampled_from((
        EqPred(("amount",), [1]), OneOfPred(("amount",), ("x", {"a": 1})), EqPred(("meta", "x"), 2),
        RangePred(("amount",), 0, 5), OneOfPred(("target",), ("A",)))), max_size=3)))
    action = draw(st.sampled_from(("pay", "send")))
    return Entry(EntryKind.ALLOW, action, pattern, where=where)


def _raised(make: object) -> str | None:
    try:
        make()  # type: ignore[operator]
    except Unsupported as exc:
        return str(exc)
    return None


@settings(max_examples=200, deadline=None)
@given(revision_grants() | odd_grants(), st.none() | st.lists(st.sampled_from(ODD), max_size=3))
def test_the_reason_is_the_encoders(e: Entry, resources: list[JSON] | None) -> None:
    enc = Encoder("pay", [e], TOOLS)
    assert reason("pay", e, resources) == _raised(lambda: (enc.matches(e), enc.fails(e)))
    assert reason("pay", None, resources) == _raised(lambda: Encoder("pay", [], TOOLS).base(resources))
