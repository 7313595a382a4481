# The two commands README.md gives. Both work on a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

demo: $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	$(BIN)/jiancha demo

# Every extra, so that every test runs; Debian's Chromium for the browser tests where apt-get can install it
# (without it those tests skip and say why).
test: $(BIN)/python
	sh scripts/install_browser.sh
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e ".[dev,train,web,dense,corpus,browser,integrations]"
	$(BIN)/python -m pytest -q
