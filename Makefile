# Two commands run everything on a fresh Debian/Ubuntu machine with Python 3.11+:
#   make demo   - create .venv, install, run the demo kiosk on a simulated shoe
#   make test   - create .venv, install with the test extra (and mosquitto when
#                 missing, as root), run pytest (tests and doctests), ruff and mypy
# Both are idempotent: the venv is reused and reinstalled only when pyproject.toml changes.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEMO_ARGS ?=
PYTEST_ARGS ?=
BENCH_ARGS ?=

.PHONY: demo test lint bench mutation screenshots system-deps clean

# Debian's python3 needs python3-venv for `-m venv`; installed here when run as root.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "scoreboard needs Python 3.11 or newer ($(PYTHON) is older)"; exit 1; }
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
		rm -rf $(VENV); \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv \
			&& $(PYTHON) -m venv $(VENV); \
		else \
			echo "cannot create $(VENV): install python3-venv (sudo apt-get install python3-venv)"; \
			exit 1; \
		fi; }
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/scoreboard demo $(DEMO_ARGS)

# Debian packages the tests need: a real mosquitto broker, openssl for TLS tests,
# mount and chattr for real full, read-only and immutable disks, systemd-analyze to verify
# the kiosk's units (the package only; nothing is started), rabbitmq-server for the cluster
# tests (they start their own nodes; the package's service is not used), cage, xwayland,
# shellcheck and Debian's python3-venv for the installer's tests (a scratch install run as nobody).
system-deps:
	@missing=""; \
	test -x /usr/sbin/mosquitto || command -v mosquitto >/dev/null 2>&1 || missing="$$missing mosquitto"; \
	command -v mosquitto_passwd >/dev/null 2>&1 || missing="$$missing mosquitto-clients"; \
	command -v openssl >/dev/null 2>&1 || missing="$$missing openssl"; \
	command -v chattr >/dev/null 2>&1 || missing="$$missing e2fsprogs"; \
	command -v mount >/dev/null 2>&1 || missing="$$missing mount"; \
	command -v systemd-analyze >/dev/null 2>&1 || missing="$$missing systemd"; \
	command -v rabbitmq-server >/dev/null 2>&1 || test -x /usr/sbin/rabbitmq-server || missing="$$missing rabbitmq-server"; \
	command -v cage >/dev/null 2>&1 || missing="$$missing cage"; \
	test -x /usr/bin/Xwayland || missing="$$missing xwayland"; \
	command -v shellcheck >/dev/null 2>&1 || missing="$$missing shellcheck"; \
	{ test -x /usr/bin/python3 && /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; } || missing="$$missing python3 python3-venv"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else \
			echo "missing Debian packages:$$missing (run: sudo apt-get install$$missing)"; exit 1; \
		fi; \
	fi

# Four workers on two cores (most tests wait on brokers, processes and timers: two workers
# kept the cores 40 % busy), one test file per worker so a module's shared fixture is built
# once (the installer's files are one unit, long files go first: tests/scheduling.py); then
# the few tests that time the board against the wall clock, alone.
# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE, set
# on some CI images): the tests start hundreds of scoreboard processes, and each one
# compiled the package from source (a fifth of the suite's CPU); compiled once here, before
# the workers start, so they do not all compile the same files at once. One collection
# first writes pytest's rewritten test modules the same way (11 s, where four workers each
# rewriting all 400 files at once cost a clean clone's run a minute); a collection error
# is reported by the run after it.
TEST_WORKERS ?= 4
TEST_ENV := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYTHONDONTWRITEBYTECODE=
# The serial run collects only the files that mark a test serial (not all 400 files again).
# The tests with tight wall-clock bounds (frame gaps of a second, offline within 1.7 s) run
# alone; then the RabbitMQ cluster's tests (mostly waiting on its nodes' boots and
# failovers) beside the ones marked beside_cluster, whose bound is several times what they
# take (every stop within 5 s; they take about 1). Side by side, the tight ones were seen
# to miss a mark once in 14 runs; one after the other the cores stood more than half idle.
SERIAL_FILES = $(shell grep -l 'mark.serial' tests/test_*.py)
# ruff and mypy run beside the single-core warm-up (the other core is idle then) and are
# reported before the tests start: a lint error stops the run in seconds, not minutes.
LINT := $(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy
test: $(VENV)/.installed-test system-deps
	@echo "ruff and mypy, beside the warm-up (byte-compiling, one collection)"; \
	lint_log=$$(mktemp); ( $(LINT) ) >"$$lint_log" 2>&1 & lint=$$!; \
	$(TEST_ENV) $(BIN)/python -m compileall -q -j 2 scoreboard tests; \
	$(TEST_ENV) $(BIN)/python -m pytest --collect-only -q >/dev/null; \
	wait $$lint; status=$$?; cat "$$lint_log"; rm -f "$$lint_log"; \
	if [ $$status -ne 0 ]; then echo "make test: ruff or mypy failed (above)"; exit $$status; fi
	$(TEST_ENV) $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not serial" $(PYTEST_ARGS)
	$(TEST_ENV) $(BIN)/python -m pytest -m "serial and not cluster and not beside_cluster" \
		$(SERIAL_FILES) $(PYTEST_ARGS)
	@cluster_log=$$(mktemp); \
	$(TEST_ENV) $(BIN)/python -m pytest -m "serial and cluster" $(SERIAL_FILES) $(PYTEST_ARGS) \
		>"$$cluster_log" 2>&1 & cluster=$$!; \
	$(TEST_ENV) $(BIN)/python -m pytest -m "serial and beside_cluster" $(SERIAL_FILES) $(PYTEST_ARGS); \
	beside=$$?; wait $$cluster; status=$$?; \
	echo "the RabbitMQ cluster's tests, run beside the ones above:"; cat "$$cluster_log"; \
	rm -f "$$cluster_log"; test $$beside -eq 0 -a $$status -eq 0

lint: $(VENV)/.installed-test
	$(LINT)

# Mutation testing of the pure core, the protocol and the journal (slow: see docs/mutation.md).
mutation: $(VENV)/.installed-test
	$(BIN)/python tools/mutation.py scoreboard/game/*.py scoreboard/roads/*.py scoreboard/table/*.py scoreboard/protocol/*.py scoreboard/journal/*.py --list-survivors

# `scoreboard bench` first (this box's figures and its PASS/FAIL verdict, the same code),
# then every benchmarks/bench_*.py; BENCH_ARGS: --quick, --only box,frame, --compare TREE.
bench: $(VENV)/.installed-test system-deps
	$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

screenshots: $(VENV)/.installed
	SDL_VIDEODRIVER=dummy $(BIN)/python tools/screenshots.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis .ruff_cache
