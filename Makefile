# The two commands (README): `make bench` and `make test`. Both set everything up first.
PY      := .venv/bin/python
CB      := .venv/bin/cryptobench
OUT     := out

.PHONY: setup setup-variants bench quick test lint check-runners pytest clean

setup:
	python3 scripts/setup.py

# The tests also build and check the on-request variants (rust@native), and build the tools
# they feed exports to (benchstat); `make bench` needs neither.
setup-variants:
	python3 scripts/setup.py --variants --test-tools

bench: setup
	@mkdir -p $(OUT)
	$(CB) run --preset default; status=$$?; \
	  $(CB) show last --format markdown --output $(OUT)/default.md; \
	  report=$$($(CB) report last --html $(OUT)/report.html) && echo "HTML report: $$report"; \
	  exit $$status

quick: setup
	$(CB) run --preset quick

test: setup-variants lint check-runners pytest

# bench/'s scripts have no extension: ruff lints only *.py unless a file is named
BENCH_PY := $(shell grep -ls '^\#!.*python' bench/*)

lint:
	.venv/bin/ruff check src tests runners/python scripts bench $(BENCH_PY)
	.venv/bin/ruff format --check src tests runners/python scripts bench $(BENCH_PY)

check-runners:
	$(PY) scripts/check_runners.py

pytest:
	.venv/bin/pytest -q -n auto --dist loadfile

clean:
	rm -rf .venv $(OUT)
