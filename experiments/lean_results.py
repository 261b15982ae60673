"""The results tables of the two papers with a formal side (Agenra; Edit checking): each result, its
Lean theorems and whether the Lean statement is the paper's, derived by model/oracle/paper_table.py
from docs/lean-results-*.md and the theorems declared in lean/. Writes
paper_figures/tables/lean_results.{md,csv} and the README's block. Run as ``make lean_results``."""

from __future__ import annotations

from model.oracle.paper_table import write

if __name__ == "__main__":
    print(write("lean_results"))
