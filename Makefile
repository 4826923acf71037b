# Two commands for a fresh machine:
#   make play   install into .venv and start Typhoon
#   make test   install into .venv (with test tools) and run every check and test
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.typhoon-installed

.PHONY: play test lint typecheck unit soak bench clean install

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,rl]'
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(PY) -m typhoon play

test: $(STAMP) lint typecheck unit

lint: $(STAMP)
	$(PY) -m ruff check src tests tools benchmarks
	$(PY) -m ruff format --check src tests tools benchmarks

typecheck: $(STAMP)
	$(PY) -m mypy

unit: $(STAMP)
	$(PY) -m pytest

soak: $(STAMP)
	$(PY) -m typhoon soak --games 2000

bench: $(STAMP)
	$(PY) -m typhoon bench

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
