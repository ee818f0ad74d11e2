# toyhw course pack. Everything runs in a local virtual environment (.venv) that the targets create when needed.
#   make lab        set up, then open JupyterLab on notebooks/
#   make test       set up, then run every test (unit tests, nbval over the notebooks, browser tests)
#   make notebooks  re-execute every notebook in place (outputs stored, widget state stripped)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.toyhw-installed

.PHONY: setup lab test notebooks clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

lab: setup
	$(BIN)/jupyter lab notebooks/

test: setup
	$(BIN)/python -m pytest

notebooks: setup
	$(BIN)/python tools/notebooks.py execute notebooks/*.ipynb

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache
