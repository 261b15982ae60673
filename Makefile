# Every target bootstraps .venv itself: it is rebuilt when pyproject.toml is newer than the stamp.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: venv test test-all lint reproduce bench mutation lean drt drt-campaign drt-long drt_mutation lean_backend_overhead drt_rate lean_search_agreement lean_results notebooks notebooks-run clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,bench,agentdojo,dist,notebooks,postgres]'
	$(BIN)/python -m pip install --quiet -e '.[fuzz]' || echo "atheris did not install: its slow-tier harness test will skip"
	@# the compiled search hot path (model/search/native): the interpreted search is used where it does not build
	$(BIN)/python -m model.search.native.build > $(VENV)/native-build.log 2>&1 && tail -1 $(VENV)/native-build.log || tail -1 $(VENV)/native-build.log
	touch $(STAMP)

# Only the environment: afterwards `source .venv/bin/activate` puts `agentwarrant` on PATH.
venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check model tests experiments
	$(BIN)/mypy --strict model

# Lean: the build and audit first, then the suite (tests/drt included, required to run when a
# toolchain is there), then the campaign.
test: lint lean
	@$(LEAN_FIND); \
	$(BIN)/pytest -m "not slow" -q
	@$(MAKE) --no-print-directory drt-campaign

test-all: lint lean
	@$(LEAN_FIND); \
	$(BIN)/pytest -q

reproduce: $(STAMP)
	$(BIN)/agentwarrant reproduce all

# Benchmarks are experiments that time things; their ratios land in paper_figures/tables/.
BENCHMARKS := monitor-overhead edit-timing validation-scaling dask-scaling search-scale search-reductions search-engine

bench: $(STAMP)
	$(BIN)/agentwarrant reproduce $(BENCHMARKS)

# Mutation testing, to show the tests would notice a wrong verdict: mutmut 3 over the eight judgment
# modules ([tool.mutmut] in pyproject.toml lists them and the tests it selects from), then
# paper_figures/tables/mutation.{csv,md}.
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

# Lean. `make lean` builds lean/ (the library, the oracle lean/build/bin/AgentWarrant, and the in-process
# library lean/build/lib/libagentwarrant.so with its .sha256, model/oracle/library.py) and runs the proof
# audit; `make drt` runs tests/drt and a campaign of DRT_CASES generated cases per judgment
# (DRT_MONITOR_CASES runs for the two whole-run judgments; in-process when the library was built),
# `make drt-long` one of DRT_LONG_CASES. The toolchain is $LEAN_HOME/bin,
# else lean and leanpkg on PATH, else .lean/ of the
# checkout, unpacked from LEAN_ARCHIVE (checksum verified first) when that is the only source
# (model/oracle/toolchain.py). With none of these both targets say so, pointing at docs/lean.md, and
# skip (exit 0); a corrupt archive fails. When a toolchain is found, AGENTWARRANT_REQUIRE_LEAN=1 turns
# any skip of tests/drt into a failure.
DRT_CASES ?= 100000
DRT_MONITOR_CASES ?= $(DRT_CASES)
DRT_LONG_CASES ?= 1000000
LEAN_ARCHIVE ?= ../shared/lean/lean-toolchain-2021-07-09-linux-x86_64.tar.zst
DRT_SEED ?= 0
LEAN_FIND = if [ -n "$(LEAN_HOME)" ]; then PATH="$(LEAN_HOME)/bin:$$PATH"; export PATH; fi; \
	bin=$$(AGENTWARRANT_LEAN_ARCHIVE="$(LEAN_ARCHIVE)" $(BIN)/python -m model.oracle.toolchain ensure); rc=$$?; \
	if [ $$rc != 0 ] && [ $$rc != 3 ]; then exit $$rc; fi; \
	if [ $$rc = 0 ]; then PATH="$$bin:$$PATH"; export PATH; AGENTWARRANT_REQUIRE_LEAN=1; export AGENTWARRANT_REQUIRE_LEAN; fi
LEAN_ENV = $(LEAN_FIND); \
	if [ $$rc = 3 ]; then echo "$@: skipped: no Lean 4 toolchain and no archive at $(LEAN_ARCHIVE); see docs/lean.md"; exit 0; fi

lean: $(STAMP)
	@$(LEAN_ENV); \
	set -e; echo "lean: toolchain $$bin"; (cd lean && leanpkg build bin); \
	$(BIN)/python -m model.oracle.library build; \
	$(BIN)/python -m model.oracle.audit

drt: lean
	@$(LEAN_ENV); \
	set -e; $(BIN)/pytest -m "lean and not slow" tests/drt -q
	@$(MAKE) --no-print-directory drt-campaign

# Lean-dependent experiments (not in `make reproduce`, which runs without a toolchain): the DRT mutation
# check (tens of minutes, niced) and the mediated-call cost of both enforcement backends.
drt_mutation: lean
	@$(LEAN_ENV); \
	nice -n 10 $(BIN)/python experiments/drt_mutation.py

# The results tables (README block and paper_figures/tables/lean_results.*) from the two Lean results
# pages and the theorems declared in lean/; tests/whole_repo/test_lean_results.py fails when stale.
lean_results: $(STAMP)
	$(BIN)/python experiments/lean_results.py

lean_backend_overhead: lean
	@$(LEAN_ENV); \
	$(BIN)/python experiments/lean_backend_overhead.py

# DRT cases per CPU second per judgment on both oracle routes, and the search over the Lean semantics
# against the Python engine on every small monitor model of the manifest (both need the built oracle).
drt_rate: lean
	@$(LEAN_ENV); \
	$(BIN)/python experiments/drt_rate.py

lean_search_agreement: lean
	@$(LEAN_ENV); \
	$(BIN)/python experiments/lean_search_agreement.py

# The campaign alone, on the oracle `make lean` built (make test runs tests/drt with the rest of the suite):
# two processes, one per core, splitting the judgments about evenly by CPU per case
# (experiments/drt_rate.py); each prints its own summary (with the seed, and a replay command per
# mismatch), and either one's mismatch fails the target. DRT_CASES cases per judgment; the two whole-run
# judgments (monitor, monitor_step: a case is a run of up to six compared steps) get DRT_MONITOR_CASES
# runs, by default as many. At the measured rates (docs/lean.md) `monitor` costs about as much as
# `resolve`, `monitor_step`, `edit_check` and `ledger_allocate` together.
# tree_contract (a case is one generated branch tree, compared twice) gets DRT_TREE_CASES trees: 10,000
# took 7 to 24 s on two shared cores, so its share stays under a minute.
DRT_TREE_CASES ?= 10000
DRT_GROUP_A = monitor:$(DRT_MONITOR_CASES) resolve:$(DRT_CASES) tree_contract:$(DRT_TREE_CASES)
DRT_GROUP_B = monitor_step:$(DRT_MONITOR_CASES) edit_check:$(DRT_CASES) ledger_allocate:$(DRT_CASES)
# $(call drt_group,PREFIX,FLAGS,judgment:cases ...): one `PREFIX agentwarrant drt FLAGS` per judgment, in
# order; every one runs, and the group exits with the last failure's status
drt_group = rc=0; for jc in $(3); do \
	  $(1) $(BIN)/agentwarrant drt --cases $${jc\#\#*:} --seed $(DRT_SEED) --no-build $(2) --judgment $${jc%%:*} || rc=$$?; \
	done; exit $$rc
# then the machine DRT: DRT_RUNTIME_CASES generated sessions of the edit runtime (crash points included)
# and of the ideal machine
DRT_RUNTIME_CASES ?= 200
drt-campaign: $(STAMP)
	@$(LEAN_ENV); \
	log=$$(mktemp); \
	( $(call drt_group,,,$(DRT_GROUP_A)) ) > $$log 2>&1 & a=$$!; \
	( $(call drt_group,,,$(DRT_GROUP_B)) ); rb=$$?; \
	wait $$a; ra=$$?; cat $$log; rm -f $$log; \
	if [ $$ra != 0 ]; then exit $$ra; fi; if [ $$rb != 0 ]; then exit $$rb; fi; \
	$(BIN)/agentwarrant drt --cases $(DRT_RUNTIME_CASES) --seed $(DRT_SEED) --no-build --judgment edit_runtime --judgment edit_ideal

# The long campaign: DRT_LONG_CASES per judgment, niced, as the same two processes. At the rates of
# experiments/drt_rate.py that is a few hours of CPU (docs/lean.md); pass --workers through
# DRT_LONG_FLAGS to shard it over a Dask cluster (model/dist/shard.py).
DRT_LONG_FLAGS ?=
drt-long: lean
	@$(LEAN_ENV); \
	log=$$(mktemp); \
	( $(call drt_group,nice -n 10,$(DRT_LONG_FLAGS),$(foreach j,monitor resolve,$(j):$(DRT_LONG_CASES))) ) > $$log 2>&1 & a=$$!; \
	( $(call drt_group,nice -n 10,$(DRT_LONG_FLAGS),$(foreach j,monitor_step edit_check ledger_allocate,$(j):$(DRT_LONG_CASES))) ); rb=$$?; \
	wait $$a; ra=$$?; cat $$log; rm -f $$log; \
	if [ $$ra != 0 ]; then exit $$ra; fi; exit $$rb

# The research notebooks (experiments/notebooks/), opened in JupyterLab; the `jupyter` extra is installed
# on first use (--allow-root only when run as root, e.g. in a container). The test suite executes them
# without a browser (tests/whole_repo/test_notebooks.py).
notebooks: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[jupyter]'
	$(BIN)/jupyter lab experiments/notebooks $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# The same notebooks executed headless, top to bottom in fresh kernels, writing nothing back (the slow tier's
# notebook tests, all five): for a machine without a browser, and to check them after a change.
notebooks-run: $(STAMP)
	$(BIN)/pytest -q -m "slow or not slow" tests/whole_repo/test_notebooks.py

clean:
	rm -rf $(VENV) .lean .mypy_cache .pytest_cache .ruff_cache .hypothesis mutants mutation.log
