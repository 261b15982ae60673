"""Bounded analysis (Agenra Sections 1–3 and 6; the paper's Section 8 is missing from our copy, so the
design is ours and documented per module): a finite model, forbidden-execution and useful-completion
queries, an explicit-state engine, a Z3 bounded model checker, replay on the reference tools."""

from model.search.native import install

install()  # the compiled hot path, when built (model/search/native)
