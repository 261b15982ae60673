# Every target bootstraps .venv itself: it is rebuilt when pyproject.toml is newer than the stamp.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: venv test test-all lint reproduce bench mutation lean drt notebooks clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,bench,agentdojo,dist,notebooks,postgres]'
	$(BIN)/python -m pip install --quiet -e '.[fuzz]' || echo "atheris did not install: its slow-tier harness test will skip"
	touch $(STAMP)

# Only the environment: afterwards `source .venv/bin/activate` puts `agentwarrant` on PATH.
venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check model tests experiments
	$(BIN)/mypy --strict model

test: lint
	$(BIN)/pytest -m "not slow" -q

test-all: lint
	$(BIN)/pytest -q

reproduce: $(STAMP)
	$(BIN)/agentwarrant reproduce all

# Benchmarks are experiments that time things; their ratios land in paper_figures/tables/.
BENCHMARKS := monitor-overhead edit-timing validation-scaling dask-scaling

bench: $(STAMP)
	$(BIN)/agentwarrant reproduce $(BENCHMARKS)

# Mutation testing (issue 12 §5): mutmut 3 over the eight judgment modules ([tool.mutmut] in
# pyproject.toml lists them and the tests it selects from), then paper_figures/tables/mutation.{csv,md}.
# Tens of minutes of CPU, niced. A fresh run by default; MUTATION_RESUME=1 keeps mutants/ so mutmut
# resumes an interrupted run and retests only changed functions (survivors are not retested then).
# Each mutant's tests run under an 8 GB address-space limit: a mutant that allocates without bound (two
# in edits/check/symbolic.py grew past 14 GB) fails its tests with MemoryError, a kill, instead of exhausting
# the machine.
MUTATION_JOBS ?= 2
MUTATION_MEMORY_KB ?= 8000000
mutation: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[mutation]'
	@if [ -z "$(MUTATION_RESUME)" ]; then rm -rf mutants; fi
	ulimit -v $(MUTATION_MEMORY_KB); nice -n 10 $(BIN)/mutmut run --max-children $(MUTATION_JOBS) > mutation.log 2>&1 || (tail -c 4000 mutation.log; exit 1)
	$(BIN)/python experiments/mutation.py --min-score 0.95

# Lean (issue 8). The toolchain is $LEAN_HOME/bin when LEAN_HOME is set, else whatever `lean` and
# `leanpkg` PATH has; with neither, both targets say so and skip (exit 0). `make lean` builds the
# library and the oracle (lean/build/bin/AgentWarrant) and audits the proofs; `make drt` runs the
# tests/drt suite (its slow mutation test runs with make test-all) and a campaign of DRT_CASES
# generated cases per judgment.
DRT_CASES ?= 1000
LEAN_ENV   = if [ -n "$(LEAN_HOME)" ]; then PATH="$(LEAN_HOME)/bin:$$PATH"; export PATH; fi; \
	if ! command -v lean >/dev/null 2>&1 || ! command -v leanpkg >/dev/null 2>&1; then \
	echo "$@: skipped: no Lean 4 toolchain (set LEAN_HOME or put lean and leanpkg on PATH; see README)"; exit 0; fi

lean: $(STAMP)
	@$(LEAN_ENV); \
	set -e; (cd lean && leanpkg build bin); \
	$(BIN)/python -m model.oracle.audit

drt: lean
	@$(LEAN_ENV); \
	set -e; $(BIN)/pytest -m "lean and not slow" tests/drt -q; \
	$(BIN)/agentwarrant drt --cases $(DRT_CASES) --no-build

# The research notebooks (experiments/notebooks/), opened in JupyterLab; the `jupyter` extra is installed
# on first use (--allow-root only when run as root, e.g. in a container). The test suite executes them
# without a browser (tests/whole_repo/test_notebooks.py).
notebooks: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[jupyter]'
	$(BIN)/jupyter lab experiments/notebooks $$([ "$$(id -u)" = 0 ] && echo --allow-root)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis mutants mutation.log
