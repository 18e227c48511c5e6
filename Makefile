# Two commands for a new user: `make run` and `make test`. Each installs what it needs itself:
# `make run` only what serving needs, `make test` adds the test tools on top.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
# The Pythons Scorekeeper runs on (pyproject.toml's requires-python): 3.11 and newer.
PYTHON_MINIMUM := 3.11
VENV := .venv
BIN := $(VENV)/bin
# The version of $(PYTHON), and of the Python that made .venv (its pyvenv.cfg; empty without).
PYTHON_VERSION := $(if $(PYTHON),$(shell $(PYTHON) -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null))
VENV_VERSION := $(shell sed -n 's/^version *= *//p' $(VENV)/pyvenv.cfg 2>/dev/null)
HOST ?= 127.0.0.1
PORT ?= 5000
CHROMIUM := /usr/bin/chromium
# pip-compile runs from its own small environment, so locking never changes what .venv holds.
LOCK_VENV := .venv-lock
PIP_TOOLS := pip-tools==7.6.2

.PHONY: install install-run install-test assets run serve test test-quick test-js browser nginx \
	bench bench-load lint typecheck typecheck-js lock clean translations python-version FORCE

# Each language's catalog, compiled (the .mo files are built here, not committed).
CATALOGS := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)

# The Pyodide runtime the phone runs the engine on (docs/offline.md): the npm release pinned in
# tools/pyodide.json, checked against its recorded sha512 and trimmed into static/pyodide/
# (gitignored). Done again only when the pin, the list of files kept or the tool change.
PYODIDE_VERSION := $(shell sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' tools/pyodide.json 2>/dev/null)
PYODIDE := $(if $(PYODIDE_VERSION),static/pyodide/$(PYODIDE_VERSION)/.vendored)
PYODIDE_SOURCES := $(wildcard tools/vendor_pyodide.py tools/pyodide.json tools/pyodide-stdlib.txt)

# Everything a developer uses: the app and the test tools.
install: install-test
install-run: $(VENV)/.installed-run $(COMPILED) $(PYODIDE) assets
install-test: $(VENV)/.installed-test $(COMPILED) $(PYODIDE) assets

# The static files as served (build/static/, gitignored): content-hashed names, brotli and
# gzip copies (scorekeeper/http/assets.py), the Pyodide runtime's too. Only what changed is
# built again; the app does the same at start, so this only spares the first start the
# compressing.
assets: $(VENV)/.installed-run $(COMPILED) $(PYODIDE)
	$(BIN)/flask --app scorekeeper assets

# Before anything is made with $(PYTHON): is it one Scorekeeper runs on? (pip would only say
# that some locked version has no matching distribution.)
python-version:
	@printf '%s\n' $(PYTHON_MINIMUM) $(or $(PYTHON_VERSION),0) | sort --check=quiet --version-sort \
		|| { echo "Scorekeeper needs Python $(PYTHON_MINIMUM) or newer; $(or $(PYTHON),python3) is" \
			"$(or $(PYTHON_VERSION),not a Python that runs). Name another: make PYTHON=python3.12 …" >&2; \
			exit 1; }

# .venv is made again, everything installed anew, when another Python made it (`make run
# PYTHON=python3.12` after a .venv of 3.11): its packages were installed for that one.
ifneq ($(VENV_VERSION),$(PYTHON_VERSION))
$(VENV)/pyvenv.cfg: FORCE
endif
$(VENV)/pyvenv.cfg: | python-version
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

FORCE:

# The locked versions, then the project itself without resolving again; `pip check` catches a
# dependency added to pyproject.toml but not yet locked (`make lock`).
$(VENV)/.installed-run: requirements/run.txt pyproject.toml $(VENV)/pyvenv.cfg
	$(BIN)/python -m pip install --quiet -r requirements/run.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	touch $@

# The test lock holds the run lock's versions, so this only adds the test tools.
$(VENV)/.installed-test: requirements/test.txt $(VENV)/.installed-run
	$(BIN)/python -m pip install --quiet -r requirements/test.txt
	$(BIN)/python -m pip check
	touch $@

# Lock the dependencies of pyproject.toml for Python 3.11 on Linux: requirements/run.txt for
# serving, requirements/test.txt for the `test` extra on top (constrained to the same versions).
# Versions already locked are kept; `make lock UPGRADE=1` moves every one to its newest release.
lock: | $(LOCK_VENV)/bin/pip-compile
	CUSTOM_COMPILE_COMMAND="make lock" $(LOCK_VENV)/bin/pip-compile $(PIP_COMPILE_FLAGS) \
		-o requirements/run.txt pyproject.toml
	CUSTOM_COMPILE_COMMAND="make lock" $(LOCK_VENV)/bin/pip-compile $(PIP_COMPILE_FLAGS) \
		--extra test -c requirements/run.txt -o requirements/test.txt pyproject.toml

PIP_COMPILE_FLAGS = --quiet --strip-extras --no-emit-index-url --no-emit-find-links \
	--no-emit-trusted-host $(if $(UPGRADE),--upgrade)

$(LOCK_VENV)/bin/pip-compile: | python-version
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet '$(PIP_TOOLS)'

$(PYODIDE): $(PYODIDE_SOURCES) | $(VENV)/.installed-run
	$(BIN)/python tools/vendor_pyodide.py
	touch $@

# Recompile a language whenever its catalog changed.
$(COMPILED): %.mo: %.po | $(VENV)/.installed-run
	$(BIN)/pybabel compile --statistics -i $< -o $@

# Collect the messages of the code and pages into messages.pot and merge them into every
# catalog; then translate what is new (no fuzzy entry may stay: the tests check).
translations: install-run
	$(BIN)/pybabel extract -F babel.cfg -k _l -k msg -k plural:1,2 --add-comments=Translators: --add-location=file \
		--project=Scorekeeper -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations \
		--ignore-obsolete

# Serve on the embedded SQLite database; HOST=0.0.0.0 serves the phones on the local network.
run: install-run
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)

# The same app as the Procfile serves it, with gunicorn and the same gunicorn.conf.py.
serve: install-run
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) 'scorekeeper:create_app()'

# Debian's Chromium for the browser tests; Playwright never downloads a browser here.
browser: $(CHROMIUM)

$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core

# Debian's nginx for the test and the benchmark of deploy/nginx.conf (tests/test_nginx.py).
NGINX := /usr/sbin/nginx
nginx: $(NGINX)

$(NGINX):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx

# Everything: the browser tests in Chromium and the tests that start gunicorn and nginx.
test: install-test browser nginx test-js
	$(BIN)/python -m pytest

# The quick loop, aimed at two minutes on two cores (docs/performance.md: what it took): every test that needs no browser and no
# server (no gunicorn, nginx or PostgreSQL: tests/conftest.py marks them), on SQLite, in two
# processes (pytest-xdist), each property test trying a tenth of its examples
# (tests/quick.py). `make test` runs everything, in full.
test-quick: install-test test-js
	SCOREKEEPER_QUICK=1 $(BIN)/python -m pytest -q -n 2 -m "not browser and not server and not postgres"

# The browser's scripts' tools (package.json, locked in package-lock.json: TypeScript's
# checker, fake-indexeddb), installed from the npm registry as locked. Nothing of it is served.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The deciding logic of the browser's scripts (static/queue.js, store.js, releases.js …),
# unit-tested under Node's own test runner (tests/js/).
test-js: node_modules/.installed
	node --test tests/js/

# Speed and query-count targets: a late deal costs what an early one costs, the busiest
# addresses as ratios to a bare Flask page under the same gunicorn (wrk), a season of
# 10,000 games keeps every page's statements fixed, and TABLES tables (1,000 by default)
# followed live by 5 phones each on PostgreSQL (Locust); the deal form on a throttled phone
# (Playwright: bytes on the wire, time to usable) and Lighthouse's scores (through npx);
# bench.engine, the engine on a scorekeeper's phone (its size, time to ready and memory);
# bench.live times a deal on its way to another phone (stream, page, poll) and a page's
# first paint with the CDN stalled, in Chromium. BENCH_DATABASE=postgresql+psycopg://…
# runs bench.deals, bench.throughput, bench and bench.live on PostgreSQL instead of a
# temporary SQLite file. docs/performance.md has the figures.
TABLES ?= 1000
MINUTES ?= 2
bench: install-test browser nginx /usr/bin/wrk
	$(BIN)/python -m bench.deals $(if $(BENCH_DATABASE),--database $(BENCH_DATABASE))
	$(BIN)/python -m bench.throughput $(if $(BENCH_DATABASE),--database $(BENCH_DATABASE))
	$(BIN)/python -m bench $(if $(BENCH_DATABASE),--database $(BENCH_DATABASE))
	$(BIN)/python -m bench.live $(if $(BENCH_DATABASE),--database $(BENCH_DATABASE))
	$(BIN)/python -m bench.phone
	$(BIN)/python -m bench.engine
	$(MAKE) --no-print-directory bench-load

# The load test alone: TABLES tables on PostgreSQL with Locust, 5 phones following each game
# on its stream and a deal a minute per table, MINUTES minutes after every user started;
# then the same through nginx (deploy/nginx.conf).
# BENCH_SERVER names another PostgreSQL server.
bench-load: install-test nginx
	$(BIN)/python -m bench.load --tables $(TABLES) --minutes $(MINUTES) \
		$(if $(BENCH_SERVER),--server $(BENCH_SERVER))
	$(BIN)/python -m bench.load --tables $(TABLES) --minutes $(MINUTES) --nginx \
		$(if $(BENCH_SERVER),--server $(BENCH_SERVER))

/usr/bin/wrk:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk

lint: install-test typecheck-js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The browser's scripts (static/*.js) type-checked from their JSDoc, strictly (tsconfig.json).
typecheck-js: node_modules/.installed
	node_modules/.bin/tsc --project tsconfig.json --checkJs --noEmit --strict

# The type check alone; its settings (strict for the engine) are in pyproject.toml.
typecheck: install-test
	$(BIN)/mypy

clean:
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis node_modules
