# Every target creates .venv and installs what it needs, so each works on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install -q -c constraints.txt

.PHONY: demo test bench lint clean

$(VENV)/.created:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	touch $@

$(VENV)/.core: $(VENV)/.created pyproject.toml
	$(PIP) -e .
	touch $@

$(VENV)/.test: $(VENV)/.created pyproject.toml
	$(PIP) -e ".[test]"
	touch $@ $(VENV)/.core

demo: $(VENV)/.core
	$(PY) examples/demo.py

test: $(VENV)/.test
	$(VENV)/bin/ruff check .
	OMP_NUM_THREADS=1 $(PY) -m pytest -n 2 src baselines tests

$(VENV)/.bench: $(VENV)/.created pyproject.toml
	$(PIP) -e ".[bench]"
	touch $@ $(VENV)/.core

bench: $(VENV)/.bench
	$(PY) benchmarks/run.py

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
