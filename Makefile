# Every target bootstraps .venv itself: it is rebuilt when pyproject.toml is newer than the stamp.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: test test-all lint reproduce bench lean drt clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

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
BENCHMARKS := monitor-overhead edit-timing

bench: $(STAMP)
	$(BIN)/agentwarrant reproduce $(BENCHMARKS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
