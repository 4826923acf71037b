# Two commands for a fresh machine:
#   make play   install Typhoon into .venv and start the browser game (prints the URL;
#               make play PORT=8080 chooses the port)
#   make test   install Typhoon with the test tools into .venv and run every check and test
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CORE := $(VENV)/.installed-core
FULL := $(VENV)/.installed-full
PORT ?= 8000

.PHONY: play test lint typecheck unit soak bench compiled bench-compiled clean install tmc-map

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# setup.py builds the optional native core of Battle for Moscow (a C extension, in place):
# editing its source reinstalls, which rebuilds it.
NATIVE_SRC := setup.py src/typhoon/games/bfm/native/bfmcore.c

$(CORE): pyproject.toml $(NATIVE_SRC) | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $(CORE)

$(FULL): pyproject.toml $(NATIVE_SRC) | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev,rl,mcp,study,ray]'
	touch $(FULL) $(CORE)

install: $(FULL)

play: $(CORE)
	$(PY) -m typhoon serve --port $(PORT)

test: lint typecheck unit

lint: $(FULL)
	$(PY) -m ruff check src tests tools benchmarks examples
	$(PY) -m ruff format --check src tests tools benchmarks examples

typecheck: $(FULL)
	$(PY) -m mypy

unit: $(FULL)
	$(PY) -m pytest

soak: $(FULL)
	$(PY) -m typhoon soak --games 2000
	TYPHOON_SLOW=1 $(PY) -m pytest -m slow

bench: $(CORE)
	$(PY) -m typhoon bench

# Optional: the engines' hot modules compiled with mypyc into build/compiled (needs a C
# compiler; src/ is never touched), and the bench figures pure and compiled, one after the other.
compiled: $(FULL)
	$(PY) tools/build_compiled.py

bench-compiled: compiled
	@echo "== pure Python"; $(PY) -m typhoon bench
	@echo "== compiled (build/compiled/src)"; PYTHONPATH=build/compiled/src $(PY) -m typhoon bench

# Rebuild The Moscow Campaign's reconstructed map (data/map.json) and its inspection image
# from the project's copy of the geography data; the PNG needs Debian's chromium.
tmc-map: $(CORE)
	$(PY) -m typhoon.games.tmc.mapgen --svg docs/images/tmc_map.svg
	chromium --headless --no-sandbox --hide-scrollbars --window-size=1048,1075 \
	  --screenshot=docs/images/tmc_map.png docs/images/tmc_map.svg

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build/compiled
	rm -f src/typhoon/games/bfm/_bfmcore*.so
