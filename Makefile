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

test: $(BIN)/python
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e ".[dev,train,web,dense]"
	$(BIN)/python -m pytest -q
