# Everything a newcomer or CI needs: `make test` and, with the archive, `make run`.
VENV ?= .venv
BIN := $(VENV)/bin
PYTHON ?= $(shell scripts/find-python)

.PHONY: venv test lint bench clean

$(BIN)/.installed: pyproject.toml
	@test -n "$(PYTHON)" || { scripts/find-python; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(BIN)/.installed

test: venv
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: venv
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
