# Two commands: `make run` and `make test`. Both create the virtualenv first (with uv when
# it is on the PATH, else with venv and pip); `make run` installs only what running needs.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	&& echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed-dev
# uv makes the virtualenv and installs in about a second what pip takes several for;
# without uv on the PATH, the venv module and pip do the same.
UV ?= $(shell command -v uv 2>/dev/null)
ifneq ($(UV),)
MAKE_VENV = $(UV) venv --quiet --seed --python $(PYTHON) $(VENV)
INSTALL = $(UV) pip install --quiet --python $(BIN)/python
else
MAKE_VENV = $(PYTHON) -m venv $(VENV)
INSTALL = $(BIN)/python -m pip install --quiet --disable-pip-version-check
endif
# The engine: pure, typed, checked by mypy --strict.
ENGINE := src/mazziere/cards.py src/mazziere/rules.py src/mazziere/evaluate.py \
	src/mazziere/game src/mazziere/history

.PHONY: run test lint bench clean

# Tables, tournaments and bots (pure too: time and randomness injected)
ENGINE += src/mazziere/room src/mazziere/bots src/mazziere/simulation.py
# Odds: equity and draw odds (pure: numpy and the standard library)
ENGINE += src/mazziere/odds
# mypy refuses a file twice: drop files that a listed directory already holds.
MYPY_PATHS = $(filter-out $(foreach d,$(filter-out %.py,$(ENGINE)),$(d)/%),$(ENGINE))
# The terminal client: typed as strictly (not pure: it owns the screen and the clock).
MYPY_PATHS += src/mazziere/tui
# Provably fair deals and the room's real-time part (protocol, bus, tables, sockets).
MYPY_PATHS += src/mazziere/fair.py src/mazziere/server
# The benchmarks (not in the package): typed as strictly too.
MYPY_PATHS += benchmarks
# Other rooms' histories through pokerkit (an optional dependency): typed as strictly.
MYPY_PATHS += src/mazziere/importing.py

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "make: Python 3.11 or newer is needed" >&2; exit 2; }
	$(MAKE_VENV)

# `make run` installs what running needs; `make test` adds the dev tools.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(INSTALL) -e .
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(INSTALL) -e '.[dev]'
	touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/mazziere play --rules italian-classic --players 4

lint: $(STAMP)
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict $(MYPY_PATHS)

test: lint
	$(BIN)/pytest -q

$(VENV)/.installed-bench: $(STAMP)
	$(INSTALL) -e '.[dev,bench]'
	touch $@

# The benchmarks (benchmarks/, not shipped in the wheel) with the peers of the bench extra.
bench: $(VENV)/.installed-bench
	$(BIN)/python -m benchmarks eval
	$(BIN)/python -m benchmarks.phevaluator_calls
	$(BIN)/python -m benchmarks engine
	$(BIN)/python -m benchmarks engine --rules italian-classic --hands 3000 --peer-hands 3000 --repeats 9
	$(BIN)/python -m benchmarks engine --rules italian-32 --hands 3000 --peer-hands 3000 --repeats 9
	$(BIN)/python -m benchmarks startup

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
