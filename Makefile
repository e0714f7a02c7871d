# Every target creates .venv and installs what it needs, so each works on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install -q -c constraints.txt

.PHONY: demo test check speed bench lint clean test-wheel docs sandbox-tool xinxin compiler

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

# The benchmark's sandbox (hearts_env.evaluation.seat.sandbox) is bubblewrap, from the system's packages; its tests need it.
SANDBOX_TOOL := $(shell command -v bwrap)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

sandbox-tool:
	@test -n "$(SANDBOX_TOOL)" || command -v bwrap >/dev/null || ($(SUDO) apt-get update -qq && \
		$(SUDO) apt-get install -y -qq bubblewrap > /dev/null) || echo "no bubblewrap: the sandbox tests are skipped"

# xinxin (Nathan Sturtevant's Hearts program, GPL-3.0, unmodified in third_party/xinxin) and our GPL-3.0 driver
# (third_party/xinxin-driver) built into one executable that hearts_env.evaluation.reference.xinxin runs over
# pipes: never linked into or shipped in the Apache-2.0 wheel. Upstream's own flags (-O3, asserts on); g++ from the system.
CXX ?= g++
XINXIN_SOURCES := $(filter-out third_party/xinxin/main.cpp,$(wildcard third_party/xinxin/*.cpp))
XINXIN_OBJECTS := $(patsubst third_party/xinxin/%.cpp,third_party/xinxin-driver/build/obj/%.o,$(XINXIN_SOURCES))
XINXIN := third_party/xinxin-driver/build/xinxin_driver

third_party/xinxin-driver/build/obj/%.o: third_party/xinxin/%.cpp $(wildcard third_party/xinxin/*.h) | compiler
	@mkdir -p $(@D)
	$(CXX) -std=c++11 -O3 -w -c $< -o $@

$(XINXIN): third_party/xinxin-driver/xinxin_driver.cpp $(XINXIN_OBJECTS)
	$(CXX) -std=c++11 -O3 -Wall -isystem third_party/xinxin -o $@ $^ -lpthread

xinxin: $(XINXIN)

# g++ from the system's packages, installed with apt-get where missing (CI machines have it).
compiler:
	@command -v $(CXX) >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq g++ > /dev/null)

test: $(VENV)/.test sandbox-tool xinxin
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	OMP_NUM_THREADS=1 $(PY) -m pytest -n 2 src baselines tests --ignore=tests/browser --ignore=tests/ray_tests

# A fast subset for the edit-test loop (README: its time measured): lint, types, and the tests of the rules, the
# engine, the envs and encoders, the agents and the commands' boundary. `make test` runs everything (CI does).
CHECK_TESTS := tests/test_cards.py tests/test_rules.py tests/test_engine_scenarios.py tests/test_tricks.py \
	tests/test_pass_directions.py tests/test_match.py tests/test_state.py tests/test_moved.py tests/test_render.py \
	tests/test_text.py tests/test_hearts_v0.py tests/test_single_agent.py tests/test_agent_spec.py \
	tests/test_agents.py tests/test_encoders.py tests/test_boundaries.py tests/test_cli.py
check: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	OMP_NUM_THREADS=1 $(PY) -m pytest -n 2 -q $(CHECK_TESTS) src/hearts_env

$(VENV)/.speed: $(VENV)/.created pyproject.toml
	$(PIP) -e ".[speed]"
	touch $@ $(VENV)/.core

# The speed benchmarks (speed/run.py), each figure beside a reference measured in the same run.
speed: $(VENV)/.speed
	$(PY) speed/run.py

bench: speed  # the old name of `make speed`

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .venv-* build dist *.egg-info src/*.egg-info third_party/xinxin-driver/build

# The page of `hearts-env serve` in a real browser (tests/browser, CI): Debian's Chromium, installed with
# apt-get when missing (Playwright downloads no browser), driven by Playwright for Python.
.PHONY: test-browser

$(VENV)/.browser: $(VENV)/.test
	$(PIP) -e ".[test,web]" playwright
	touch $@

test-browser: $(VENV)/.browser
	@test -x /usr/bin/chromium || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium > /dev/null)
	OMP_NUM_THREADS=1 $(PY) -m pytest -q tests/browser

# RLlib and the arena's Ray backend, tested for real (tests/ray_tests, CI): ray[rllib] pins gymnasium exactly and
# installs ~1.9 GB with torch, so its own venv; a local Ray instance of 2 CPUs is started by the tests.
.PHONY: test-ray
.venv-ray/.installed: pyproject.toml constraints.txt
	rm -rf .venv-ray
	$(PYTHON) -m venv .venv-ray
	.venv-ray/bin/python -m pip install -q --upgrade pip
	.venv-ray/bin/python -m pip install -q -c constraints.txt -e ".[ray,train,search]" pytest
	touch $@

test-ray: .venv-ray/.installed
	OMP_NUM_THREADS=1 .venv-ray/bin/python -m pytest -q -p no:cacheprovider tests/ray_tests

# hearts_env.jax (the rules as pure JAX functions) on JAX's CPU backend (CI): jax is an optional extra, so its own
# venv; the equivalence tests hold it to the scalar engine under every rule field, to the NumPy encoders and to
# hearts_v0's rewards; pgx (from PyPI, light: svgwrite) for the test that its auto_reset drives HeartsJaxEnv.
.PHONY: test-jax
.venv-jax/.installed: pyproject.toml constraints.txt
	rm -rf .venv-jax
	$(PYTHON) -m venv .venv-jax
	.venv-jax/bin/python -m pip install -q --upgrade pip
	.venv-jax/bin/python -m pip install -q -c constraints.txt -e ".[jax,search]" pytest hypothesis "pgx>=2.6"
	touch $@

test-jax: .venv-jax/.installed
	JAX_PLATFORMS=cpu OMP_NUM_THREADS=1 .venv-jax/bin/python -m pytest -q -p no:cacheprovider src/hearts_env/jax tests/test_jax*.py

# RLlib's sampling throughput with 0, 1 and 2 env runners, each as a ratio to hearts_v0's own loop measured in the
# same run, and a quick-tier held-out row on a local Ray cluster of two nodes against --jobs 2 (wall-time ratio,
# identical records) (kept out of `make speed`: it needs the 1.9 GB Ray venv; the 2 cores here cap what runners add).
.PHONY: speed-ray
speed-ray: .venv-ray/.installed
	OMP_NUM_THREADS=1 .venv-ray/bin/python examples/rllib_ppo.py --throughput
	OMP_NUM_THREADS=1 .venv-ray/bin/python speed/ray_cluster.py

# The documentation site (CI): mkdocs-material with the API reference from the docstrings (mkdocstrings reads
# the sources, it imports nothing); --strict turns every warning (a broken link or anchor, a page missing
# from the nav, an unresolved reference) into a failure. The site lands in build/site.
.venv-docs/.installed:
	rm -rf .venv-docs
	$(PYTHON) -m venv .venv-docs
	.venv-docs/bin/python -m pip install -q "mkdocs>=1.6" "mkdocs-material>=9.5" "mkdocstrings-python>=1.10"
	touch $@

docs: .venv-docs/.installed
	NO_MKDOCS_2_WARNING=1 .venv-docs/bin/mkdocs build --strict

# The package as users get it (CI): build the sdist and wheel, check their metadata, install the wheel (not
# the source tree) with the search, train and benchmark extras into a fresh venv, and smoke-test it from
# outside the checkout, so a missing module, weights file or entry point fails here.
test-wheel: $(VENV)/.created
	rm -rf dist .venv-wheel
	$(PY) -m pip install -q -c constraints.txt build twine
	cd /tmp && $(CURDIR)/$(PY) -m build --outdir $(CURDIR)/dist $(CURDIR) > /dev/null  # not from here: ./build would shadow the module
	$(PY) -m twine check --strict dist/*
	$(PY) tests/wheel/no_gpl.py dist
	$(PYTHON) -m venv .venv-wheel
	.venv-wheel/bin/python -m pip install -q --upgrade pip
	.venv-wheel/bin/python -m pip install -q -c constraints.txt "$$(ls dist/*.whl)[search,train,benchmark]"
	cd /tmp && OMP_NUM_THREADS=1 $(CURDIR)/.venv-wheel/bin/python $(CURDIR)/tests/wheel/smoke.py

# Dependency floors (CI): the core and the search extra, with pytest and hypothesis, installed in a
# small venv (no torch) per pin set, then a smoke subset of the tests:
# - floors: constraints-floors.txt, every declared floor (numpy, gymnasium, pettingzoo, numba, pytest, hypothesis);
# - gym122: constraints-gym122.txt, RLlib's gymnasium pin with the newest releases of the rest.
PIN_SETS := floors gym122
.PHONY: test-floors $(PIN_SETS:%=test-pins-%)
SMOKE := src/hearts_env tests/test_rules.py tests/test_engine_scenarios.py tests/test_hearts_v0.py \
	tests/test_vector_engine.py tests/test_vector_env.py tests/test_vector_encoders.py \
	tests/test_single_agent.py tests/test_encoders.py tests/test_pass_directions.py tests/test_boundaries.py \
	tests/test_invariants.py tests/test_playout.py tests/test_architecture.py tests/test_tricks.py \
	tests/test_benchmark.py::test_the_suite_deals_are_a_pure_function_of_version_preset_and_index
# Left out: what needs extras these venvs lack (stable-baselines3, torch, open-spiel) ...
SMOKE_SKIP := --ignore=src/hearts_env/vector/sb3.py --ignore=src/hearts_env/openspiel_bridge.py \
	--ignore=src/hearts_env/web/app.py \
	--deselect tests/test_single_agent.py::test_sb3_check_env \
	--deselect tests/test_vector_env.py::test_sb3_vec_env_trains_maskable_ppo \
	--deselect tests/test_encoders.py::test_openspiel_encoding_equals_pyspiel_tensor \
	--deselect tests/test_encoders.py::test_openspiel_encoding_terminal_moon_thermometer \
	--deselect tests/test_encoders.py::test_openspiel_encoding_terminal_avoid_all_tricks_and_jd

.venv-%/.installed: constraints-%.txt pyproject.toml
	rm -rf .venv-$*
	$(PYTHON) -m venv .venv-$*
	.venv-$*/bin/python -m pip install -q --upgrade pip
	.venv-$*/bin/python -m pip install -q -c constraints-$*.txt -e ".[search]" pytest hypothesis
	touch $@

test-floors: $(PIN_SETS:%=test-pins-%)

# NUMBA_CACHE_DIR: each venv's Numba keeps its own compiled kernels, apart from .venv's
$(PIN_SETS:%=test-pins-%): test-pins-%: .venv-%/.installed
	.venv-$*/bin/python -c "import sys, numpy, gymnasium, pettingzoo, numba; print('$*: python', \
		sys.version.split()[0], 'numpy', numpy.__version__, 'gymnasium', gymnasium.__version__, \
		'pettingzoo', pettingzoo.__version__, 'numba', numba.__version__)"
	NUMBA_CACHE_DIR=$(CURDIR)/.venv-$*/numba-cache OMP_NUM_THREADS=1 \
		.venv-$*/bin/python -m pytest -q $(SMOKE) $(SMOKE_SKIP)
