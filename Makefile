# Two commands: `make run` and `make test`. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench sim clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# The stock MFRC522 driver code, run in the tests against an emulated chip. It declares RPi.GPIO,
	# which only works on a Pi, so it is installed without dependencies.
	$(BIN)/python -m pip install --quiet --no-deps mfrc522==0.0.7
	touch $(STAMP)

# The simulated table: the game in ./.table-data, the table and the phone page on port $(PORT).
PORT ?= 8080
run: $(STAMP)
	$(BIN)/banker run --simulated --host 127.0.0.1 --port $(PORT) --data-dir .table-data

lint: $(STAMP)
	$(BIN)/ruff check banker hardware firmware webui tests

typecheck: $(STAMP)
	$(BIN)/mypy --strict banker hardware firmware webui

test: lint typecheck
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/banker bench

sim: $(STAMP)
	$(BIN)/banker sim --games 1000 --players 4 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
