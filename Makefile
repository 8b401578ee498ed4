# Two commands: `make run` and `make test`. Both create the virtualenv first.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	&& echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
# The engine: pure, typed, checked by mypy --strict.
ENGINE := src/mazziere/cards.py src/mazziere/rules.py src/mazziere/evaluate.py \
	src/mazziere/game/core.py src/mazziere/game/holdem.py \
	src/mazziere/history/phh.py src/mazziere/history/replay.py src/mazziere/history/holdem.py

.PHONY: run test lint bench clean

# Poker all'italiana
ENGINE += src/mazziere/game/italian_rules.py src/mazziere/game/italian.py

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "make: Python 3.11 or newer is needed" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/mazziere demo

lint: $(STAMP)
	$(BIN)/ruff format --check src tests
	$(BIN)/ruff check src tests
	$(BIN)/mypy --strict $(ENGINE)

test: lint
	$(BIN)/pytest -q

$(VENV)/.installed-bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

bench: $(VENV)/.installed-bench
	$(BIN)/mazziere bench eval

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
