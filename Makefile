# Two commands: `make run` and `make test`. Both create the virtualenv first (see INSTALL);
# `make run` installs only what running needs, `make test` the dev tools too.
# A version manager's shim can stand for a Python it does not select (pyenv's python3.13
# beside a global 3.11): running it fails with a message, which is not the user's concern.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 \
	&& $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
	&& echo $$p && break; done)
VENV := .venv
# Python compiles a module it imports and keeps the bytecode next to it; with
# PYTHONDONTWRITEBYTECODE set (some machines and images set it) it compiles again in every
# process, and the server, its clients and the tests start hundreds of them: importing the
# server took 6.0 s that way and 3.2 s with the bytecode kept.
unexport PYTHONDONTWRITEBYTECODE
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed-dev
# uv installs several times faster than pip (the README gives the figures): the uv on
# the PATH makes the virtualenv; without one, the venv module makes it and pip fetches uv
# from PyPI into it; if even that fails, pip installs.
UV_FOUND := $(shell command -v uv 2>/dev/null)
UV = $(or $(UV_FOUND),$(BIN)/uv)
ifneq ($(UV_FOUND),)
MAKE_VENV = "$(UV_FOUND)" venv --quiet --seed --python $(PYTHON) $(VENV)
else
MAKE_VENV = $(PYTHON) -m venv $(VENV) && { $(BIN)/python -m pip install --quiet \
	--disable-pip-version-check uv || echo "make: no uv, pip installs instead" >&2; }
endif
# $(call INSTALL,what): with uv when there is one, else with pip.
INSTALL = if test -x "$(UV)"; then "$(UV)" pip install --quiet --python $(BIN)/python $(1); \
	else $(BIN)/python -m pip install --quiet --disable-pip-version-check $(1); fi
# The engine: pure, typed, checked by mypy --strict.
ENGINE := src/mazziere/cards.py src/mazziere/rules.py src/mazziere/evaluate.py \
	src/mazziere/game src/mazziere/history

.PHONY: run test lint bench clean

# Tables, tournaments and bots (pure too: time and randomness injected)
ENGINE += src/mazziere/room src/mazziere/bots src/mazziere/simulation.py
# Odds: equity and draw odds (pure: numpy and the standard library); bots' duels
ENGINE += src/mazziere/odds src/mazziere/duel.py
# mypy refuses a file twice: drop files that a listed directory already holds.
MYPY_PATHS = $(filter-out $(foreach d,$(filter-out %.py,$(ENGINE)),$(d)/%),$(ENGINE))
# The terminal client: typed as strictly (not pure: it owns the screen and the clock).
MYPY_PATHS += src/mazziere/tui
# Hints for learners (both clients): pure, on the odds.
MYPY_PATHS += src/mazziere/hints.py
# Provably fair deals and the room's real-time part (protocol, bus, tables, sockets).
MYPY_PATHS += src/mazziere/fair.py src/mazziere/server src/mazziere/web
# The load generator (`mazziere loadtest`): typed as strictly.
MYPY_PATHS += src/mazziere/loadtest
# The benchmarks (not in the package): typed as strictly too.
MYPY_PATHS += benchmarks
# Other rooms' histories through pokerkit (an optional dependency): typed as strictly.
MYPY_PATHS += src/mazziere/importing.py

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "make: Python 3.11 or newer is needed" >&2; exit 2; }
	$(MAKE_VENV)

# `make run` installs what running needs; `make test` adds the dev tools.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(call INSTALL,-e .)
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(call INSTALL,-e '.[dev]')
	touch $@ $(RUN_STAMP)

# The room: open the address it prints and press "Play now" (`mazziere play` is the terminal game).
run: $(RUN_STAMP)
	$(BIN)/mazziere serve

lint: $(STAMP)
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict $(MYPY_PATHS)

# Three test processes (pytest-xdist), each test file kept in one of them (its module's
# server and browser started once): much of the suite waits on servers, browsers, sockets
# and the room's clock (one test, minutes), so a third process keeps the two cores of a
# small machine busy while another waits (docs/testing.md, "The suite's time").
# `make test TEST_WORKERS=0` runs in one. The 20 slowest tests are listed at the end.
# The room's modules are compiled first: where bytecode is not written (PYTHONDONTWRITEBYTECODE),
# each of the suite's two hundred processes (servers, their writer children, commands) would
# compile them again: a server's start took about 0.5 s of CPU more (docs/testing.md).
TEST_WORKERS ?= 3
test: lint
	$(BIN)/python -m compileall -q src
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile --durations=20

# A comma in $(call ...) would split the argument: the extras go through a variable.
BENCH_EXTRAS := .[dev,bench]
$(VENV)/.installed-bench: $(STAMP)
	$(call INSTALL,-e '$(BENCH_EXTRAS)')
	touch $@

# The benchmarks (benchmarks/, not shipped in the wheel) with the peers of the bench extra.
bench: $(VENV)/.installed-bench
	$(BIN)/python -m benchmarks eval
	$(BIN)/python -m benchmarks.phevaluator_calls
	$(BIN)/python -m benchmarks engine
	$(BIN)/python -m benchmarks engine --rules italian-classic --hands 3000 --peer-hands 3000 --repeats 9
	$(BIN)/python -m benchmarks engine --rules italian-32 --hands 3000 --peer-hands 3000 --repeats 9
	$(BIN)/python -m benchmarks startup
	for rules in holdem italian-classic italian-32; do $(BIN)/python -m benchmarks rebuild --rules $$rules; done
	$(BIN)/python -m benchmarks restart
	$(BIN)/python -m benchmarks.odds
	$(BIN)/python -m benchmarks randomness

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
