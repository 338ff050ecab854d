# reportgen: `make report` builds the quickstart report, `make test` runs every check.
# Both create a local virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: report test test-floor lint typecheck pytest schema benchmark wheel-smoke clean

$(BIN)/reportgen: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,dask]'
	touch $@

report: $(BIN)/reportgen
	scripts/system-deps.sh report
	$(BIN)/reportgen run example_studies/quickstart/study.yaml

test: $(BIN)/reportgen
	scripts/system-deps.sh test
	$(MAKE) --no-print-directory lint typecheck pytest

lint:
	$(BIN)/ruff check reportgen tests
	$(BIN)/ruff format --check reportgen tests

typecheck:
	$(BIN)/mypy reportgen

pytest:
	$(BIN)/pytest -q

# The suite on the oldest dependency versions pyproject.toml allows (run by hand; README).
# Deprecation warnings are the old releases' own (old matplotlib with a new pyparsing).
test-floor:
	$(PYTHON) -m venv .venv-floor
	.venv-floor/bin/python -m pip install --quiet --upgrade pip
	.venv-floor/bin/python -m pip install --quiet -e '.[dev,dask]' $$($(PYTHON) scripts/floor-pins.py)
	.venv-floor/bin/pytest -q -p no:cacheprovider -W ignore::DeprecationWarning

# The full fuzz profile (≥ 2000 generated specs and data files; the quick one runs in pytest).
fuzz: $(BIN)/reportgen
	REPORTGEN_FUZZ=full $(BIN)/pytest -q -p no:cacheprovider tests/fuzz --hypothesis-show-statistics

schema: $(BIN)/reportgen
	$(BIN)/reportgen schema > schemas/study.schema.json

# Build the wheel, install it in a fresh virtual environment outside the tree, run init + run.
wheel-smoke: $(BIN)/reportgen
	scripts/system-deps.sh report
	PYTHON=$(BIN)/python scripts/wheel-smoke.sh

benchmark: $(BIN)/reportgen
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .venv-floor build dist reportgen/_resources example_studies/*/out .pytest_cache .mypy_cache .ruff_cache
