# toyhw course pack. Everything runs in a local virtual environment (.venv) that the targets create when needed.
#   make lab        set up, then open JupyterLab on notebooks/ (EDITION=zh: the Chinese edition, notebooks/zh/)
#   make test       set up, then run every test (unit tests, nbval over the notebooks, browser tests)
#   make notebooks  re-execute every notebook in place (outputs stored, widget state stripped)
#   make present NB=02  serve notebooks/02_*.ipynb as a code-free app (Voila) on http://127.0.0.1:8866 (EDITION=zh too)
#   make site       build the pack's website into _build/site/ (stored notebooks, guide, references, glossary;
#                   HUB_URL=.. REPO_URL=..: launch links into the class's JupyterHub)
#   make site-serve build it, then serve it on http://127.0.0.1:8000 for a look
#   make mutation   mutation testing of the core modules, by hand (not in CI): writes benchmarks/MUTATION.md
#   make lock       refresh requirements/class.txt and requirements/test.txt (the versions every install uses)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CLASS_LOCK := requirements/class.txt
TEST_LOCK := requirements/test.txt
CLASS_STAMP := $(VENV)/.toyhw-class
STAMP := $(VENV)/.toyhw-installed

.PHONY: check-edition setup class-setup lab test notebooks clean present chromium mutation site site-serve lock

# Every install comes from a lock file: exact versions with their hashes (pip checks each file it downloads), then the
# pack itself on top, without its dependencies (they are all in the lock). The class lock (make lab, make present) has
# the pack's dependencies and Voila; the test lock (make setup, make test) has those at the same versions and every
# test tool.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(CLASS_STAMP): $(CLASS_LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(CLASS_LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(STAMP): $(TEST_LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(TEST_LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@ $(CLASS_STAMP)

class-setup: $(if $(wildcard $(STAMP)),$(STAMP),$(CLASS_STAMP))
setup: $(STAMP)

# uv resolves the locks for every platform and Python >= 3.11 (--universal), in a throwaway venv of its own. The test
# lock first, with the newest versions the bounds in pyproject.toml allow (--upgrade); the class lock then takes the
# same versions (-c); `make lock LOCK_UPGRADE=` keeps every pin it can (a package added to pyproject.toml, nothing
# else moved). After a refresh, `make test` tests the new versions. Behind a firewall, the PIP_INDEX_URL that
# pip uses names uv's index too (README, "Behind a firewall").
LOCK_VENV := .venv-lock
LOCK_UPGRADE ?= --upgrade
UV_COMPILE = $(LOCK_VENV)/bin/uv pip compile pyproject.toml --universal --generate-hashes --quiet \
    --custom-compile-command "make lock" $(if $(PIP_INDEX_URL),--default-index "$(PIP_INDEX_URL)")
lock:
	test -x $(LOCK_VENV)/bin/uv || { $(PYTHON) -m venv $(LOCK_VENV) && $(LOCK_VENV)/bin/python -m pip install --quiet uv; }
	$(UV_COMPILE) --extra class --extra test $(LOCK_UPGRADE) -o $(TEST_LOCK)
	$(UV_COMPILE) --extra class -c $(TEST_LOCK) -o $(CLASS_LOCK)

# JupyterLab without news or update pop-ups: the pack's settings overrides, installed into the venv's JupyterLab.
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.d/toyhw.json
$(LAB_OVERRIDES): tools/jupyterlab-overrides.json | $(BIN)/python
	install -D -m 644 $< $@

# The app's Voila template (tools/voila-template: Voila's `lab` without its CDN stylesheets, in the notebook's own
# language), installed into the venv's Voila where voila.json's "template": "toyhw" finds it.
VOILA_TEMPLATE_FILES := $(wildcard tools/voila-template/*)
VOILA_TEMPLATE := $(VENV)/share/jupyter/voila/templates/toyhw
$(VOILA_TEMPLATE)/.installed: $(VOILA_TEMPLATE_FILES)
	rm -rf $(VOILA_TEMPLATE)
	install -D -m 644 -t $(VOILA_TEMPLATE) $(VOILA_TEMPLATE_FILES)
	touch $@

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

# EDITION picks the edition: en (notebooks/, the default) or zh (notebooks/zh/). Anything else stops with a message.
EDITION ?= en
EDITION_DIR = $(if $(filter zh,$(EDITION)),notebooks/zh,notebooks)
check-edition: export TOYHW_EDITION = $(EDITION)
check-edition:
	@case "$$TOYHW_EDITION" in en|zh) ;; *) echo "EDITION = '$$TOYHW_EDITION' is not allowed; editions: en, zh"; exit 2;; esac

# The zh edition's JupyterLab speaks Chinese too (the language pack is in the class lock): its own settings folder
# with the same overrides plus JupyterLab's locale, so `make lab` in English is left as it is.
LAB_ZH_SETTINGS := $(VENV)/share/toyhw/lab-zh
$(LAB_ZH_SETTINGS)/overrides.d/toyhw.json: tools/jupyterlab-overrides.json tools/jupyterlab-overrides-zh.json | $(BIN)/python
	install -D -m 644 tools/jupyterlab-overrides.json $@
	install -D -m 644 tools/jupyterlab-overrides-zh.json $(LAB_ZH_SETTINGS)/overrides.d/zz-zh.json
LAB_EDITION_FLAGS = $(if $(filter zh,$(EDITION)),--LabApp.app_settings_dir=$(LAB_ZH_SETTINGS))

lab: check-edition class-setup $(LAB_OVERRIDES) $(if $(filter zh,$(EDITION)),$(LAB_ZH_SETTINGS)/overrides.d/toyhw.json)
	$(BIN)/jupyter lab $(ALLOW_ROOT) $(LAB_EDITION_FLAGS) $(EDITION_DIR)/

# One worker per core the machine gives (pytest-xdist), a test file at a time (--dist loadfile): a notebook's nbval
# cells share one kernel, a browser test file its servers, tests/test_exercises.py one execution of each notebook
# with its solutions.
test: setup chromium $(VOILA_TEMPLATE)/.installed
	$(BIN)/python -m pytest -n auto --dist loadfile

notebooks: setup
	$(BIN)/python tools/notebooks.py execute notebooks/*.ipynb $(wildcard notebooks/zh/*.ipynb)

# Debian's Chromium for the browser tests: installed with apt-get when root, else a loud warning and the tests skip.
chromium:
	@bash tools/ensure_chromium.sh

NB ?= 02
PORT ?= 8866
# PREHEAT=1: Voila starts a kernel and runs the notebook before anyone asks (--preheat_kernel, a pool of one), so a
# page opened once it has run is ready in seconds; a page opened at once waits as long as without it (the guide has
# the figures, benchmarks/bench_app_ready.py measures them), hence off by default.
PREHEAT ?= 0
# NB, PORT and PREHEAT reach the recipe through the environment, never pasted into its shell line: NB='x; y' is a name.
present: export PRESENT_NB = $(NB)
present: export PRESENT_PORT = $(PORT)
present: export PRESENT_PREHEAT = $(PREHEAT)
present: check-edition class-setup $(VOILA_TEMPLATE)/.installed
	@nb_arg="$${PRESENT_NB##*/}"; nb_arg="$${nb_arg%.ipynb}"; \
	case "$$PRESENT_NB" in ''|*[!A-Za-z0-9_./-]*) echo "NB = '$$PRESENT_NB' is not allowed; give a notebook's number, NB=01 .. NB=08"; exit 2;; esac; \
	case "$$PRESENT_PORT" in ''|*[!0-9]*) echo "PORT = '$$PRESENT_PORT' is not allowed; give a port number, e.g. PORT=8866"; exit 2;; esac; \
	case "$$PRESENT_PREHEAT" in 0) preheat=;; 1) preheat="--preheat_kernel=True --pool_size=1";; *) echo "PREHEAT = '$$PRESENT_PREHEAT' is not allowed; give PREHEAT=1 (a preheated kernel) or PREHEAT=0"; exit 2;; esac; \
	nb="$$(ls $(EDITION_DIR)/"$$nb_arg"*.ipynb 2>/dev/null | head -n 1)"; \
	test -n "$$nb" || { echo "no notebook matches $(EDITION_DIR)/$$nb_arg*.ipynb; try NB=01 .. NB=08"; exit 2; }; \
	echo "Serving $$nb as an app on http://127.0.0.1:$$PRESENT_PORT/ (Ctrl-C stops it)"; \
	$(BIN)/voila "$$nb" --Voila.ip=127.0.0.1 --port="$$PRESENT_PORT" --show_tracebacks=True $$preheat $(VOILA_FLAGS)

# The website: static files, built offline from the committed notebooks (never executed); tools/build_site.py.
# HUB_URL=https://hub.example.edu REPO_URL=<the course's git URL> [REPO_BRANCH=main]: every notebook page links into
# the class's JupyterHub (nbgitpuller) and, for a GitHub repository, Binder. They reach the script through the
# environment, never pasted into its shell line.
site: export SITE_HUB_URL = $(HUB_URL)
site: export SITE_REPO_URL = $(REPO_URL)
site: export SITE_REPO_BRANCH = $(REPO_BRANCH)
site: setup
	$(BIN)/python tools/build_site.py --hub-url="$$SITE_HUB_URL" --repo-url="$$SITE_REPO_URL" --repo-branch="$$SITE_REPO_BRANCH"

SITE_PORT ?= 8000
site-serve: site
	@echo "Serving _build/site on http://127.0.0.1:$(SITE_PORT)/ (Ctrl-C stops it)"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/site $(SITE_PORT)

# mutmut comes with the test extra; its settings are in pyproject.toml, [tool.mutmut]. Niced: it keeps both cores busy
# for a long while (benchmarks/MUTATION.md says how long the last run took).
mutation: setup
	nice -n 15 $(BIN)/python benchmarks/mutation.py

clean:
	rm -rf $(VENV) $(LOCK_VENV) test-artifacts .pytest_cache mutants _build
