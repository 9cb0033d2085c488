# Loopline: `make run` starts the whole product, `make test` runs every suite.
# Both install whatever is missing first. `make help` lists the rest.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYPROJECTS := backend/pyproject.toml worker/pyproject.toml
FRONTEND_SRC := $(shell find frontend/src -type f 2>/dev/null) frontend/index.html frontend/vite.config.ts
ENGINE_SRC := $(shell find sim-engine/src sim-engine/Cargo.toml sim-engine/Cargo.lock -type f 2>/dev/null)

.PHONY: help run test stop install system-packages python frontend e2e-deps engine api-types result-types \
        test-checks test-cargo test-pytest test-schema-fuzz test-vitest test-e2e test-faults netbox-check calibrate-decomposed bench fuzz clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

run: install ## install what is missing, start PostgreSQL, Redis, API, worker; print the URL
	@$(PY) scripts/stack.py run

test: install ## install what is missing, run every suite, print "N passed, N failed"
	@$(PY) scripts/test_all.py

stop: ## stop every process `make run` started
	@python3 scripts/stack.py stop

install: system-packages python frontend e2e-deps engine ## everything the stack needs

# Debian packages: PostgreSQL, Redis, Chromium (browser tests cannot download their own).
system-packages:
	@missing=""; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium fonts-liberation"; \
	command -v cargo >/dev/null || { echo "error: cargo (Rust) is required: https://rustup.rs"; exit 1; }; \
	command -v npm >/dev/null || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
	  echo "[loopline] installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

python: $(VENV)/.installed
$(VENV)/.installed: $(PYPROJECTS)
	@echo "[loopline] installing the Python environment"
	@[ -x $(PY) ] || python3 -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade pip
	@$(PY) -m pip install -q -e 'backend[dev]' -e worker
	@touch $@

frontend: frontend/dist/index.html
frontend/node_modules/.installed: frontend/package-lock.json
	@echo "[loopline] installing frontend packages"
	@cd frontend && npm ci --no-audit --no-fund --loglevel=error
	@touch $@
frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SRC)
	@echo "[loopline] building the frontend"
	@cd frontend && npm run --silent build

e2e-deps: e2e/node_modules/.installed
e2e/node_modules/.installed: e2e/package-lock.json
	@cd e2e && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

engine: sim-engine/target/release/loopline-sim
sim-engine/target/release/loopline-sim: $(ENGINE_SRC)
	@echo "[loopline] building the simulation engine"
	@cd sim-engine && cargo build --release --locked
	@touch $@

api-types: python frontend/node_modules/.installed ## regenerate frontend/src/api/schema.d.ts from OpenAPI
	@$(PY) scripts/gen_api_types.py

result-types: python frontend/node_modules/.installed ## regenerate frontend/src/api/engineResult.d.ts from the engine's result schema
	@$(PY) scripts/gen_result_types.py

test-checks: install ## static checks only (ruff, mypy, import-linter, clippy, tsc, ESLint)
	@$(PY) scripts/test_all.py --only checks
test-cargo: install ## engine tests only
	@$(PY) scripts/test_all.py --only cargo
test-pytest: install ## backend + worker tests only
	@$(PY) scripts/test_all.py --only pytest
test-vitest: install ## frontend unit tests only
	@$(PY) scripts/test_all.py --only vitest
test-schema-fuzz: install ## bounded API schema fuzz only (Schemathesis)
	@$(PY) scripts/test_all.py --only schema-fuzz
test-e2e: install ## browser tests only
	@$(PY) scripts/test_all.py --only e2e

test-faults: install ## the fault suite, each fault 5 times (make test runs it once): restarts and kills under load
	@$(PY) scripts/stack.py services >/dev/null
	LOOPLINE_FAULT_ROUNDS=$${LOOPLINE_FAULT_ROUNDS:-5} $(PY) -m pytest -q -p no:cacheprovider scripts/tests/test_faults.py

netbox-check: install ## import the NetBox files into a real, empty NetBox (NETBOX_URL, NETBOX_TOKEN, NETBOX_USERNAME, NETBOX_PASSWORD); not in make test
	@$(PY) scripts/netbox_check.py

calibrate-decomposed: install ## measure decomposed mode against full packet mode (issue 30; long): the engine's calibration table and its README
	@$(PY) scripts/calibrate_decomposed.py

bench: install ## run every benchmark (see README)
	@$(PY) scripts/bench_all.py

# One command per fuzzer; LOOPLINE_FUZZ_CASES sets the engine's cases per test.
fuzz: install ## long fuzz runs (engine scenario parser: 200,000 cases per test; API schema: every check, stateful included, 25 examples per operation)
	cd sim-engine && LOOPLINE_FUZZ_CASES=$${LOOPLINE_FUZZ_CASES:-200000} cargo test --release --locked --test it fuzz:: -- --test-threads=2
	$(PY) scripts/fuzz_api.py --examples $${LOOPLINE_FUZZ_EXAMPLES:-25}

clean: ## stop, remove local state (.run/, and the database cluster wherever it lives) and build outputs
	@python3 scripts/stack.py clean
	rm -rf .run frontend/dist sim-engine/target
