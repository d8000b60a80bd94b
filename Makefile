# Two commands: `make run` and `make test`. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck shellcheck bench sim clean chromium espeak screenshots audit load soak perf compiled

# Quiet, with one line per step (the whole install takes a minute or two on a first run).
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	@echo "Installing (1/4): the virtual environment in $(VENV)"
	@$(PYTHON) -m venv $(VENV)
	@echo "Installing (2/4): pip"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	@echo "Installing (3/4): the table banker and its tools (Flask, Pillow, pytest, mypy, Playwright...)"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@# The stock MFRC522 driver code, run in the tests against an emulated chip. It declares RPi.GPIO,
	@# which only works on a Pi, so it is installed without dependencies.
	@echo "Installing (4/4): the stock MFRC522 driver (for the tests)"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps mfrc522==0.0.7
	@touch $(STAMP)
	@echo "Installed: $(BIN)/banker"

# The simulated table: the game in ./.table-data, the table and the phone page on port $(PORT).
PORT ?= 8080
run: $(STAMP)
	$(BIN)/banker run --simulated --host 0.0.0.0 --port $(PORT) --data-dir .table-data

lint: $(STAMP)
	$(BIN)/ruff check banker hardware firmware webui tests

typecheck: $(STAMP)
	$(BIN)/mypy --strict banker hardware firmware webui

# The engine's tests run twice: on the Python build, and on the compiled build (banker.native) of the
# same source, which must play the same games. pytest runs as a script there so that build comes first.
NATIVE_TESTS := tests/engine tests/test_sim.py tests/test_sim_fingerprints.py tests/test_native.py \
	tests/test_journal_snapshots.py tests/test_session_history.py tests/test_games.py tests/test_inputs.py tests/test_edition.py
test: lint typecheck chromium espeak shellcheck compiled
	$(BIN)/python -m pytest
	PYTHONPATH=build/compiled BANKER_NATIVE=1 $(BIN)/pytest -p no:cacheprovider --import-mode=append $(NATIVE_TESTS)

# The engine, the invariant checks and the bots compiled to C with mypyc, in build/compiled (banker.native):
# PYTHONPATH=build/compiled banker sim ... runs them. Kept while the sources are unchanged.
compiled: $(STAMP)
	$(BIN)/python -m banker.native

# The Pi's setup script. Installs shellcheck when missing and running as root; otherwise says so and skips.
shellcheck:
	@command -v shellcheck >/dev/null || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null || \
		apt-get install -y -qq shellcheck >/dev/null 2>&1 || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck) >/dev/null 2>&1 || true
	@if command -v shellcheck >/dev/null; then shellcheck firmware/install.sh firmware/hotspot-fallback.sh; \
	else echo "shellcheck is not installed: firmware/install.sh not checked (sudo apt-get install shellcheck)"; fi

# The phone page's browser tests drive Debian's Chromium. As root (CI) it is installed when missing;
# otherwise those tests skip with a message naming the missing browser.
chromium:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else echo "chromium is not installed (apt-get install chromium): the browser tests will be skipped"; fi

# The speaker's tests run the real espeak-ng (Debian's, offline) in each language. As root (CI) it is
# installed when missing; otherwise those tests skip with a message naming it.
espeak:
	@if command -v espeak-ng >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng; \
	else echo "espeak-ng is not installed (apt-get install espeak-ng): the real speech tests will be skipped"; fi

screenshots: $(STAMP) chromium
	$(BIN)/python -m tests.webui.screenshots docs/screenshots

# axe-core (shipped in tests/webui/axe/) on every page, language and role; prints each violation and the counts.
audit: $(STAMP) chromium
	$(BIN)/python -m tests.webui.audit

load: $(STAMP)
	$(BIN)/python -m webui.load

bench: $(STAMP)
	$(BIN)/banker bench

sim: compiled
	$(BIN)/banker sim --games 1000 --players 4 --seed 1 --compiled

# The long robustness runs (not in `make test`): 100,000 self-played games on every core, 200 SIGKILLs of
# the running program, an hour of the simulated table with phones attached. Results go to docs/performance.md.
soak: compiled
	$(BIN)/python -m tests.soak.run --games 100000 --compiled build/compiled --kills 200 --session-minutes 60 \
		--write docs/performance.md

# The table's and the running program's figures, written to docs/performance.md.
perf: $(STAMP)
	$(BIN)/banker bench --table --program --write docs/performance.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
