# ConfusionLab — set-up and tests. User-facing targets: install, lab, test, docs.
# Needs Python 3.11 (or python3), Node 20 with npm, and (for browser tests) Chromium.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
NODE_STAMP := node_modules/.confusionlab-npm-ci
PIP_STAMP := $(VENV)/.confusionlab-pip-install
BUNDLE := src/confusionlab/static/roc_slice.js
JS_SOURCES := $(shell find js -type f -not -path '*/tests/*' 2>/dev/null) package.json

.PHONY: install lab test html docs screenshots pytest jstest lint

## install: .venv with the package editable + [dev], JS dependencies and bundle.
install: $(PIP_STAMP) $(BUNDLE)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

$(BUNDLE): $(NODE_STAMP) $(JS_SOURCES)
	npm run build
	@touch $@

# The editable install runs the hatch-jupyter-builder hook, which finds the bundle
# up to date; it reruns only when pyproject.toml changes. The editable package reads
# the bundle from src/, so a rebuilt bundle needs no reinstall. dcurves (the decision tests' reference)
# needs lifelines, which pins pandas<3 yet runs on pandas 3: their peers first, then both without resolution.
$(PIP_STAMP): $(BIN)/python pyproject.toml | $(BUNDLE)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	$(BIN)/python -m pip install --quiet autograd autograd-gamma formulaic
	$(BIN)/python -m pip install --quiet --no-deps lifelines==0.30.3 dcurves==1.1.7
	@touch $@

## lab: .venv with the package editable + [notebooks] and JupyterLab only (no test tools, no Spark,
## no browser), then JupyterLab on the tour notebook, without Jupyter's news and update checks.
# (--allow-root only when run as root, e.g. in a container.)
LAB_STAMP := $(VENV)/.confusionlab-lab-install
LAB_FLAGS := --LabApp.default_url=/lab/tree/notebooks/01_tour.ipynb --LabApp.news_url=None \
	--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate
lab: $(LAB_STAMP) $(BUNDLE)
	@echo "make lab: starting JupyterLab on notebooks/01_tour.ipynb (Ctrl-C twice stops it)"
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_FLAGS)

# After `make install` the venv holds the lab already ([dev] includes [notebooks] and JupyterLab).
$(LAB_STAMP): $(BIN)/python pyproject.toml | $(BUNDLE)
	@if [ -f $(PIP_STAMP) ] && [ $(PIP_STAMP) -nt pyproject.toml ]; then \
	  echo "make lab: .venv has [dev] from make install, which includes the lab"; \
	else \
	  echo "make lab: step 1/2, upgrading pip" && $(BIN)/python -m pip install --upgrade pip && \
	  echo "make lab: step 2/2, installing confusionlab (editable) with [notebooks] and JupyterLab" && \
	  $(BIN)/python -m pip install -e ".[notebooks]" "jupyterlab>=4.1"; \
	fi
	@touch $@

## test: install, then every test (ruff, pytest incl. notebooks and browser, vitest).
test: install
	@status=0; \
	$(MAKE) --no-print-directory lint || status=1; \
	$(MAKE) --no-print-directory pytest || status=1; \
	$(MAKE) --no-print-directory jstest || status=1; \
	if [ $$status -ne 0 ]; then echo "make test: FAILED" >&2; else echo "make test: all passed"; fi; \
	exit $$status

## html: executed notebooks as static HTML in build/html, widgets drawn offline.
html: install
	$(BIN)/python -m confusionlab.export notebooks/*.ipynb --output-dir build/html

## docs: the documentation site in build/docs, built offline (warnings are errors, internal links
## checked; tests/docs/test_site.py runs the same build in make test). Open build/docs/index.html.
## The lessons' pages are their static exports in build/html (written by the notebook tests and by
## make html); docs executes only the lessons whose page is missing or older than the notebook.
LESSON_PAGES := $(patsubst notebooks/%.ipynb,build/html/%.html,$(wildcard notebooks/*.ipynb))

build/html/%.html: notebooks/%.ipynb | install
	$(BIN)/python -m confusionlab.export $< --output-dir build/html

docs: install $(LESSON_PAGES)
	$(BIN)/python -m sphinx -E -b html -W --keep-going -q docs build/docs
	$(BIN)/python docs/check_links.py build/docs

## screenshots: the pictures of the views in docs/_static/views (Playwright + Chromium on the static
## export; not part of make test: run it after changing a view, then commit the PNGs).
screenshots: install
	$(BIN)/python docs/screenshots.py

# Internal helpers (not part of the documented interface).
# The files over 600 lines are listed (a guide to splitting by idea, not a gate).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@find src -name '*.py' -exec wc -l {} + | awk '$$2 != "total" && $$1 > 600 {print "lint: over 600 lines (one idea per file?): " $$2 " (" $$1 ")"}'

# Without PYTEST_ARGS: the tests that need no browser on PYTEST_WORKERS cores (pytest-xdist;
# tests/conftest.py keeps the Spark/Dask tests on one worker), then the browser tests in one
# process (Playwright holds an event loop in its process's main thread for the whole session).
# PYTEST_ARGS runs one pytest with those arguments instead: make pytest PYTEST_ARGS='-m "not browser"'.
PYTEST_ARGS ?=
PYTEST_WORKERS ?= 2
pytest: install
ifeq ($(strip $(PYTEST_ARGS)),)
	@status=0; \
	$(BIN)/python -m pytest -m "not browser" -n $(PYTEST_WORKERS) --dist loadgroup || status=1; \
	$(BIN)/python -m pytest -m browser || status=1; \
	exit $$status
else
	$(BIN)/python -m pytest $(PYTEST_ARGS)
endif

jstest: install
	npm test
